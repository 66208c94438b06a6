package stdio

import (
	"strings"
	"testing"
)

// idScan finds the same answer however the line is cut into fragments.
func TestIDScanInAnyFragments(t *testing.T) {
	long := strings.Repeat("y", 100)
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "1"},
		{`{"method":"ping","jsonrpc":"2.0","id":"a\"b"}`, `"a\"b"`},
		{` { "method" : "x" , "id" : 12.5e3 , "params" : {} } `, "12.5e3"},
		{`{"params":{"id":3,"method":"m"},"method":"x","id":"outer"}`, `"outer"`},
		{`{"params":["id",{"id":3}],"id":4,"method":"x"}`, "4"},
		{`{"id":5}`, "null"},                 // no method: not a request
		{`{"error":{},"id":5}`, "null"},      // a response
		{`{"id":null,"method":"x"}`, "null"}, // unusable ids
		{`{"id":true,"method":"x"}`, "null"},
		{`{"id":[1],"method":"x"}`, "null"},
		{`{"i\u0064":6,"method":"x"}`, "null"},                                    // an escaped key is not read
		{`{"id":"` + strings.Repeat("z", maxIDBytes) + `","method":"x"}`, "null"}, // too long to keep
		{`{"id":"` + long + `","method":"x"}`, `"` + long + `"`},
		{`"id"`, "null"},
		{`{"method":"x","id":"cut`, "null"}, // the line ends inside the id
		{`{"method":"x","id":12`, "null"},
	} {
		for _, size := range []int{1, 2, 3, 7, len(c.line)} {
			var s idScan
			for i := 0; i < len(c.line); i += size {
				s.feed([]byte(c.line[i:min(i+size, len(c.line))]))
			}
			if got := string(s.answerID()); got != c.want {
				t.Errorf("%s in fragments of %d: id %s, want %s", c.line, size, got, c.want)
			}
		}
	}
}
