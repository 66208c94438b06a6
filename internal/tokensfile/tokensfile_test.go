package tokensfile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/internal/tokensfile"
)

type principal struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

func name(p principal) string { return p.Name }

func TestRepeatedTokenIsRefusedNamingTheEntriesNotTheToken(t *testing.T) {
	const file = `{"tok-a": {"name": "ada", "role": "viewer"}, "tok-b": {"name": "bo", "role": "viewer"}, "tok-a": {"name": "cy", "role": "owner"}}`
	_, err := tokensfile.Decode([]byte(file), name)
	var rep *tokensfile.RepeatedError
	if !errors.As(err, &rep) || rep.First != 1 || rep.Again != 3 || rep.FirstName != "ada" || rep.AgainName != "cy" {
		t.Fatalf("err = %#v", err)
	}
	if strings.Contains(err.Error(), "tok-a") {
		t.Fatalf("the error prints the token: %v", err)
	}
	// A token that differs only in an escape is the same token.
	_, err = tokensfile.Decode([]byte(`{"x": {"name": "ada"}, "\u0078": {"name": "bo"}}`), name)
	if !errors.As(err, &rep) || rep.AgainName != "bo" {
		t.Fatalf("an escaped repeat: %v", err)
	}
}

func TestDecodeReadsEveryEntry(t *testing.T) {
	got, err := tokensfile.Decode([]byte(` {"a": {"name": "ada", "role": "owner"}, "b": {"name": "bo", "role": "viewer"}} `+"\n"), name)
	if err != nil || len(got) != 2 || got["a"].Name != "ada" || got["b"].Role != "viewer" {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{`[]`, `{"a": 1}`, `{"a": {"name": "ada"}`, `{} {}`, `{"a": {}} x`, ``} {
		if _, err := tokensfile.Decode([]byte(bad), name); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
