package mcpagent

import (
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// principalExtra is the TokenInfo.Extra key TokenFor stores the principal
// under. It is namespaced so that it never meets an application's own key.
const principalExtra = "foldagent/principal"

// TokenFor returns the TokenInfo a Verifier answers for a caller it has
// verified: userID names the caller (sessions are bound to it), and p is
// the application's own principal value, which NewRuntime reads back
// typed with PrincipalOf. The HTTP adapters of this module (mcpagent,
// a2aagent, nativeagent) all take a TokenInfo, so one Verifier written
// with TokenFor serves them all.
func TokenFor[P any](userID string, p P) *auth.TokenInfo {
	return &auth.TokenInfo{UserID: userID, Extra: map[string]any{principalExtra: p}}
}

// PrincipalOf returns the principal TokenFor stored in info, and false
// when info is nil, holds none, or holds one of another type. A NewRuntime
// that gets false was handed a TokenInfo its Verifier did not make with
// TokenFor (or with another P): refuse the session rather than guess.
func PrincipalOf[P any](info *auth.TokenInfo) (P, bool) {
	var zero P
	if info == nil {
		return zero, false
	}
	p, ok := info.Extra[principalExtra].(P)
	return p, ok
}
