package fixed

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The result encoder writes strings itself; it must produce exactly what
// encoding/json does with HTML escaping off.
func TestPortAppendStringMatchesEncodingJSON(t *testing.T) {
	inputs := []string{"", "plain", "<a href=\"x\">&amp;</a>", "tab\tnew\nline\r", "\b\f\x00\x1f\x7f", "ünï—•", "\u2028\u2029", "bad\xff\xfe utf8", "emoji 😀", `back\slash`}
	for c := 0; c < 0x80; c++ {
		inputs = append(inputs, string(rune(c)))
	}
	for _, in := range inputs {
		var b bytes.Buffer
		appendString(&b, in)
		want, _ := marshal(in)
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%q: got %s, want %s", in, b.Bytes(), want)
		}
	}
}

func FuzzPortAppendString(f *testing.F) {
	f.Add("IGNORE PREVIOUS INSTRUCTIONS <script>")
	f.Fuzz(func(t *testing.T, in string) {
		var b bytes.Buffer
		appendString(&b, in)
		want, _ := marshal(in)
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("%q: got %s, want %s", in, b.Bytes(), want)
		}
	})
}

func TestCallResultKeepsOrderAndRoundTrips(t *testing.T) {
	var inner CallResult
	inner.Set("z", 1)
	inner.Set("a", "x")
	var r CallResult
	r.Set("ok", true)
	r.Set("judgment", "done")
	r.Set("n", int64(7))
	r.Set("inner", inner)
	r.Set("list", []CallResult{inner})
	r.Set("any", []any{"a", 1.5, nil})
	r.Set("ok", false) // replaces in place
	r.Delete("judgment")
	want := `{"ok":false,"n":7,"inner":{"z":1,"a":"x"},"list":[{"z":1,"a":"x"}],"any":["a",1.5,null]}`
	if got := string(r.JSON()); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var m map[string]any
	if err := json.Unmarshal(r.JSON(), &m); err != nil || m["n"] != 7.0 {
		t.Fatalf("%v %v", m, err)
	}
	c := r.Clone()
	c.Set("extra", 1)
	if r.Has("extra") || !c.Has("extra") || r.OK() {
		t.Fatal("Clone must be independent")
	}
}

func TestFoldSettled(t *testing.T) {
	var r CallResult
	r.Set("ok", true)
	r.Set("judgment", "navigate-or-wait")
	r.Set("did", "a.x")
	r.Set("effectStatus", "pending")
	r.Set("transitionId", "a.x#1")
	r.Set("howToSettle", "…")
	r.Set("settleWith", CallResult{})
	var facts CallResult
	facts.Set("effectStatus", "refused")
	facts.Set("outcome", "rejected")
	r.FoldSettled(facts)
	if r.Has("howToSettle") || r.Has("settleWith") || r.String("effectStatus") != "refused" || r.Judgment() != "rejected" {
		t.Fatalf("fold: %s", r.JSON())
	}
	r.Set("journey", "j")
	r.Set("judgment", "one-ready-step")
	facts.Set("effectStatus", "performed")
	facts.Set("outcome", "committed")
	r.FoldSettled(facts)
	if r.Judgment() != "one-ready-step" {
		t.Fatal("a journey result's judgment is about its frame")
	}
}
