package mcpagent_test

import (
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/mcpagent"
)

type member struct {
	Name string
	Role string
}

func TestPrincipalOfIsTyped(t *testing.T) {
	info := mcpagent.TokenFor("ana", member{Name: "ana", Role: "owner"})
	if info.UserID != "ana" {
		t.Fatalf("UserID = %q", info.UserID)
	}
	if p, ok := mcpagent.PrincipalOf[member](info); !ok || p.Role != "owner" {
		t.Fatalf("PrincipalOf = %+v, %v", p, ok)
	}
	if _, ok := mcpagent.PrincipalOf[string](info); ok {
		t.Fatal("a principal of another type was returned")
	}
	if _, ok := mcpagent.PrincipalOf[member](&auth.TokenInfo{UserID: "x", Extra: map[string]any{"user": member{}}}); ok {
		t.Fatal("a TokenInfo not made with TokenFor gave a principal")
	}
	if _, ok := mcpagent.PrincipalOf[member](nil); ok {
		t.Fatal("nil gave a principal")
	}
}

// A Verifier answers with TokenFor; NewRuntime reads the principal back
// typed, with no type assertion of its own.
func ExamplePrincipalOf() {
	verify := func(token string) (*auth.TokenInfo, error) {
		if token != "s3cret" {
			return nil, auth.ErrInvalidToken
		}
		return mcpagent.TokenFor("ana", member{Name: "ana", Role: "owner"}), nil
	}
	info, _ := verify("s3cret")
	p, ok := mcpagent.PrincipalOf[member](info)
	fmt.Println(p.Name, p.Role, ok)
	// Output: ana owner true
}
