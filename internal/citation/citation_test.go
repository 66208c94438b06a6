package citation

import (
	"encoding/json"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, c := range []struct {
		in   any
		want uint64
		ok   bool
	}{
		{float64(3), 3, true},
		{json.Number("12"), 12, true},
		{int(5), 5, true},
		{int64(6), 6, true},
		{uint64(7), 7, true},
		{float64(1 << 53), 1 << 53, true},
		{float64(0), 0, false},
		{float64(-1), 0, false},
		{1.5, 0, false},
		{float64(1<<53) * 2, 0, false},
		{json.Number("x"), 0, false},
		{uint64(0), 0, false},
		{"3", 0, false},
		{true, 0, false},
		{nil, 0, false},
	} {
		if got, ok := Version(c.in); got != c.want || ok != c.ok {
			t.Errorf("Version(%#v) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
