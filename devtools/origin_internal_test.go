package devtools

import (
	"context"
	"testing"

	"github.com/foldagent/foldagent/host/loop"
)

// unhashable is a context whose type cannot be compared: comparing two of
// them as interfaces would panic.
type unhashable struct {
	context.Context
	tags []string
}

// The recorder reads a context's marks once for a run of Messages
// dispatched with the same context, reads them again for another, and
// never compares contexts that cannot be compared.
func TestLastOriginReadsEachContextOnce(t *testing.T) {
	var l lastOrigin
	reads := 0
	named := func(o origin) origin { reads++; return o }
	app := context.Background()
	input := loop.WithInput(app)
	for i, c := range []struct {
		ctx   context.Context
		kind  uint8
		reads int
	}{
		{app, kindApp, 1}, {app, kindApp, 1}, {input, kindPerson, 2}, {input, kindPerson, 2},
		{unhashable{app, nil}, kindApp, 3}, {unhashable{input, nil}, kindPerson, 4}, {app, kindApp, 5},
	} {
		if o := l.of(c.ctx, named); o.kind != c.kind || reads != c.reads {
			t.Fatalf("step %d: kind %s after %d reads; want %s after %d", i, kinds[o.kind], reads, kinds[c.kind], c.reads)
		}
	}
}
