package apps_test

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teahosttest"
)

// rig runs a program on a Host with the person's keyboard as a pipe, and
// binds an agent runtime to it.
type rig[M tea.Model] struct {
	h    *teahost.Host[M, tea.Msg]
	rt   *agent.Runtime[M, tea.Msg, agent.NoPrincipal]
	keys *io.PipeWriter
	// changed receives after each Update, dropping what the test does not
	// take.
	changed chan struct{}
}

func start[M tea.Model](t *testing.T, m M, c *agent.Contract[M, agent.NoPrincipal]) *rig[M] {
	t.Helper()
	h := teahost.New[M, tea.Msg](m, nil)
	rt, err := agent.Bind(c, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 1)
	h.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	in, keys := io.Pipe()
	screen := teahosttest.NewScreen(80, 24)
	ctx, cancel := context.WithCancel(context.Background())
	go h.Run(ctx, append(screen.ProgramOptions(), tea.WithInput(in))...)
	t.Cleanup(func() {
		cancel()
		keys.Close()
		<-h.Done()
	})
	return &rig[M]{h: h, rt: rt, keys: keys, changed: changed}
}

// call runs a capability and returns the KeysDone its completion carries.
func (r *rig[M]) call(t *testing.T, name, input string) (teahost.KeysDone, error) {
	t.Helper()
	res, err := r.rt.DispatchUnknown(context.Background(), name, json.RawMessage(input), agent.Invocation{})
	if err != nil {
		return teahost.KeysDone{}, err
	}
	if res.Completion == nil {
		t.Fatalf("%s: no completion in %+v", name, res)
	}
	switch d := res.Completion.Message.(type) {
	case teahost.KeysDone:
		return d, nil
	case teahost.KeysRefused:
		return teahost.KeysDone(d), nil
	}
	t.Fatalf("%s: completion %+v", name, res.Completion)
	return teahost.KeysDone{}, nil
}

// until calls name until its keys are applied: a call whose keys the
// person's own made stale is refused and tried again, as an agent would.
func (r *rig[M]) until(t *testing.T, name, input string) teahost.KeysDone {
	t.Helper()
	for range 50 {
		d, err := r.call(t, name, input)
		if err != nil {
			t.Fatalf("%s(%s): %v", name, input, err)
		}
		if d.Applied {
			return d
		}
		if d.Refused != "moved" && d.Refused != "not_offered" {
			t.Fatalf("%s(%s): %+v", name, input, d)
		}
	}
	t.Fatalf("%s(%s) never applied", name, input)
	return teahost.KeysDone{}
}

// person types keys until stop is closed, and reads the context as an
// agent would, all while the agent works.
func (r *rig[M]) person(t *testing.T, keys string) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; keys != ""; i++ {
			select {
			case <-done:
				return
			default:
			}
			if _, err := r.keys.Write([]byte{keys[i%len(keys)]}); err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := r.rt.Context(context.Background()); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
