package fixed

import "testing"

// lookBook keeps one look per version, the last maxLooks of them, and
// answers sinceVersion with the latest look at or before it; the model's
// last look only moves forward.
func TestLookBook(t *testing.T) {
	b := newLookBook()
	if b.last() != -1 || b.before(100) != nil {
		t.Fatalf("a new book: last %d, before %v", b.last(), b.before(100))
	}
	for v := int64(1); v <= maxLooks+4; v++ {
		b.keep(servedLook{version: v * 10, elsewhere: int(v)})
		b.keep(servedLook{version: v * 10, elsewhere: -1}) // the same version again: the first stays
	}
	for _, c := range []struct {
		since int64
		want  int64 // the look's version, 0 for none
	}{
		{since: 5, want: 0},         // before every look kept
		{since: 40, want: 0},        // dropped: only the last maxLooks are kept
		{since: 50, want: 50},       // the oldest kept
		{since: 57, want: 50},       // at or before
		{since: 200, want: 200},     // the latest
		{since: 1 << 40, want: 200}, // anything later
	} {
		got := b.before(c.since)
		switch {
		case c.want == 0 && got != nil:
			t.Errorf("before(%d) = look %d, want none", c.since, got.version)
		case c.want != 0 && (got == nil || got.version != c.want || got.elsewhere != int(c.want/10)):
			t.Errorf("before(%d) = %+v, want the first look kept at %d", c.since, got, c.want)
		}
	}
	for _, c := range []struct {
		r    CallResult
		want int64
	}{
		{resultOf(struct {
			Version int64 `json:"version"`
		}{7}), 7},
		{resultOf(struct {
			Version int64 `json:"version"`
		}{3}), 7}, // an older version does not move it back
		{CallResult{}, 7}, // no version: not a look
	} {
		b.saw(&c.r)
		if b.last() != c.want {
			t.Errorf("after %s: last %d, want %d", c.r.JSON(), b.last(), c.want)
		}
	}
}
