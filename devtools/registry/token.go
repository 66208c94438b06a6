package registry

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
)

// NewToken returns a new bearer token for a devtools endpoint: 32 bytes
// from crypto/rand, in hexadecimal.
func NewToken() string { return randomHex(32) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand.Read)
	return hex.EncodeToString(b)
}

// Authorized reports whether r carries "Authorization: Bearer token",
// comparing in constant time. An empty token authorizes nothing.
func Authorized(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
