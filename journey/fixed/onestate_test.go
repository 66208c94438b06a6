package fixed

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// factsVersion is the session version a facts block names ("Attempts so
// far (version N)" or "… (now N)").
var factsVersion = regexp.MustCompile(`\((?:version|now) (\d+)\)`)

// answerVersions decodes a whats_here answer's version stamp and the
// version its facts block was built at.
func answerVersions(t *testing.T, r CallResult) (stamp, facts int64) {
	t.Helper()
	var a struct {
		Version int64  `json:"version"`
		Facts   string `json:"facts"`
	}
	if err := json.Unmarshal(r.JSON(), &a); err != nil {
		t.Fatal(err)
	}
	m := factsVersion.FindStringSubmatch(a.Facts)
	if m == nil {
		t.Fatalf("facts name no version: %q", a.Facts)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return a.Version, n
}

// oneStateApp is a one-page app with one action, fired once. With
// moveOnRead, the action's holds reader reports a state change each time
// it is read: the session moves on between the moment the rows are read
// and the moment the answer is done, as it does when the app reports
// state while a model looks.
func oneStateApp(t *testing.T, moveOnRead bool) (*journey.Session, *Port, *atomic.Int64) {
	t.Helper()
	g, err := journey.NewGraph("one", journey.GraphDef{Pages: []journey.Page{{ID: "p", Actions: []journey.Action{
		{Name: "type", Does: "Type a draft.", Writes: []string{"n"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := g.MustNewSession(journey.Options{State: map[string]any{"n": 0}})
	var n atomic.Int64
	reg := journey.Registration{Handlers: map[string]journey.Handler{"type": func(context.Context, any) (any, error) { return nil, nil }}}
	if moveOnRead {
		reg.Holds = map[string]func() any{"type": func() any {
			s.UpdateState(map[string]any{"n": n.Add(1)}, "")
			return nil
		}}
	}
	if _, err := s.RegisterActions("p", reg); err != nil {
		t.Fatal(err)
	}
	s.Sync("p")
	if r := s.Fire(context.Background(), "p.type", journey.FireOptions{Source: journey.ActorUser}); !r.OK {
		t.Fatalf("fire: %+v", r)
	}
	return s, Serve(s, Options{}), &n
}

// TestWhatsHereOneState: a whats_here answer is built from one state of
// the session. The app reports state (from the holds reader, that is
// after the rows were read) while the answer is being made; the answer's
// version stamp and the version its facts block names are the same, full
// answer or delta, and the state did move (so the check could fail).
func TestWhatsHereOneState(t *testing.T) {
	s, p, n := oneStateApp(t, true)
	ctx := context.Background()
	first := p.Call(ctx, "one.whats_here", nil)
	stamp, facts := answerVersions(t, first)
	if stamp != facts {
		t.Fatalf("full answer: version %d, facts built at version %d", stamp, facts)
	}
	for range 3 {
		// An attempt since the last look, so the delta's facts list it
		// and name the version they were built at.
		if r := s.Fire(ctx, "p.type", journey.FireOptions{Source: journey.ActorUser}); !r.OK {
			t.Fatalf("fire: %+v", r)
		}
		r := p.Call(ctx, "one.whats_here", map[string]any{"sinceVersion": float64(stamp)})
		stamp, facts = answerVersions(t, r)
		if stamp != facts {
			t.Fatalf("answer since a version: version %d, facts built at version %d: %s", stamp, facts, r.JSON())
		}
	}
	if n.Load() == 0 || s.View().Version() <= stamp {
		t.Fatalf("the state never moved during an answer (reports %d, version %d, last stamp %d)", n.Load(), s.View().Version(), stamp)
	}
}

// TestWhatsHereOneStateConcurrent: the same while another goroutine
// reports state as fast as it can (no holds reader moves it); it stops
// once the looks are done.
func TestWhatsHereOneStateConcurrent(t *testing.T) {
	s, p, _ := oneStateApp(t, false)
	ctx := context.Background()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				s.UpdateState(map[string]any{"other": i}, "")
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for i := range 200 {
		stamp, facts := answerVersions(t, p.Call(ctx, "one.whats_here", nil))
		if stamp != facts {
			t.Fatalf("look %d: version %d, facts built at version %d", i, stamp, facts)
		}
	}
}
