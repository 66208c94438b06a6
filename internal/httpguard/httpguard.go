package httpguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Origins is an Origin allowlist. Its zero value allows no browser origin
// but a page served by the endpoint itself on a loopback host.
type Origins map[string]bool

// NewOrigins returns the allowlist for the given scheme://host[:port]
// values, compared case-insensitively.
func NewOrigins(allowed []string) Origins {
	o := make(Origins, len(allowed))
	for _, a := range allowed {
		o[strings.ToLower(strings.TrimRight(a, "/"))] = true
	}
	return o
}

// Allowed reports whether req may proceed as far as its Origin goes: a
// request without Origin (any non-browser client) may; a browser request
// may when its Origin is on the list, or when it is this very endpoint's
// own origin on a loopback host (a DNS-rebinding page cannot claim one).
func (o Origins) Allowed(req *http.Request) bool {
	origin := strings.ToLower(req.Header.Get("Origin"))
	if origin == "" || o[origin] {
		return true
	}
	host := strings.ToLower(req.Host)
	if origin != "http://"+host && origin != "https://"+host {
		return false
	}
	return IsLoopbackName(hostName(host))
}

// Rebinding reports whether req is a DNS-rebinding attempt: it arrived on a
// loopback address but names a host that is not a loopback name, as a page
// from another site does once its name resolves to 127.0.0.1.
func Rebinding(req *http.Request) bool {
	local, ok := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	tcp, ok := local.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return false
	}
	return !IsLoopbackName(hostName(strings.ToLower(req.Host)))
}

// IsLoopbackName reports whether name (no port) is localhost or a
// loopback address.
func IsLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(name, "[]"))
	return ip != nil && ip.IsLoopback()
}

func hostName(host string) string {
	if n, _, err := net.SplitHostPort(host); err == nil {
		return n
	}
	return host
}

// ErrNoToken is returned by Bearer for a request without a bearer token.
var ErrNoToken = errors.New("no bearer token")

// Bearer verifies the request's bearer token with verify. It returns the
// token's TokenInfo, or an error that wraps auth.ErrInvalidToken (or is
// ErrNoToken) when the caller is not authenticated: answer 401. A
// TokenInfo without a UserID, or expired, is not authenticated either.
// Any other error is the verifier's own failure: answer 500.
func Bearer(ctx context.Context, verify auth.TokenVerifier, req *http.Request) (*auth.TokenInfo, error) {
	h := req.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, ErrNoToken
	}
	info, err := verify(ctx, strings.TrimSpace(token), req)
	if err != nil {
		return nil, err
	}
	if info == nil || info.UserID == "" {
		return nil, fmt.Errorf("%w: the verifier named no user", auth.ErrInvalidToken)
	}
	if !info.Expiration.IsZero() && info.Expiration.Before(time.Now()) {
		return nil, fmt.Errorf("%w: expired", auth.ErrInvalidToken)
	}
	return info, nil
}

// Unauthenticated reports whether err from Bearer means the caller is not
// authenticated (401), as opposed to a verifier that failed (500).
func Unauthenticated(err error) bool {
	return errors.Is(err, ErrNoToken) || errors.Is(err, auth.ErrInvalidToken)
}
