package httpguard

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

type keyUser struct {
	Name string
	role string // unexported: still part of the identity
	Boss *keyUser
}

func mustKey(t *testing.T, info *auth.TokenInfo) string {
	t.Helper()
	k, err := Identity(info)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestDefaultSessionKey(t *testing.T) {
	base := func() *auth.TokenInfo {
		return &auth.TokenInfo{
			UserID: "olivia", Scopes: []string{"read", "write"},
			Expiration: time.Now().Add(time.Hour),
			Extra:      map[string]any{"user": &keyUser{Name: "olivia", role: "owner", Boss: &keyUser{Name: "b"}}, "n": 1},
		}
	}
	k := mustKey(t, base())
	same := base()
	same.Scopes = []string{"write", "read"}
	same.Expiration = time.Now().Add(2 * time.Hour)
	if mustKey(t, same) != k {
		t.Fatal("the same identity (fresh pointers, scopes reordered, another expiry) got another key")
	}
	for name, change := range map[string]func(*auth.TokenInfo){
		"role":        func(i *auth.TokenInfo) { i.Extra["user"].(*keyUser).role = "viewer" },
		"nested":      func(i *auth.TokenInfo) { i.Extra["user"].(*keyUser).Boss.Name = "c" },
		"user id":     func(i *auth.TokenInfo) { i.UserID = "olivia2" },
		"scope":       func(i *auth.TokenInfo) { i.Scopes = []string{"read"} },
		"value type":  func(i *auth.TokenInfo) { i.Extra["n"] = int64(1) },
		"string":      func(i *auth.TokenInfo) { i.Extra["n"] = "1" },
		"extra key":   func(i *auth.TokenInfo) { i.Extra["m"] = nil },
		"no extra":    func(i *auth.TokenInfo) { i.Extra = nil },
		"scope split": func(i *auth.TokenInfo) { i.Scopes = []string{"readwrite"} },
	} {
		info := base()
		change(info)
		if mustKey(t, info) == k {
			t.Errorf("%s: a different identity got the same key", name)
		}
	}
	cyc := &keyUser{Name: "loop"}
	cyc.Boss = cyc
	for name, extra := range map[string]any{"func": func() {}, "chan": make(chan int), "cycle": cyc} {
		if _, err := Identity(&auth.TokenInfo{UserID: "x", Extra: map[string]any{"v": extra}}); err == nil {
			t.Errorf("%s in Extra: no error", name)
		}
	}
}
