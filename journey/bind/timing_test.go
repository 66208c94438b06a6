package bind_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/journey"
	"github.com/foldagent/foldagent/journey/bind"
)

// Noise is a Message of the application's own that moves nothing a
// journey reads: an activity-panel line, a spinner tick.
type Noise struct{}

// steppedHost is a versioned host that tracks delivery and applies its
// queued Messages only when the test says, one at a time, reporting each
// delivered just before update takes it and calling its listeners after,
// as host/teahost does on its event loop. The test decides the order in
// which the application's own Messages and an agent's land.
type steppedHost struct {
	mu     sync.Mutex
	models []counter // by version - 1
	queue  []queuedMsg
	subs   map[int]func()
	nsub   int
	obs    map[int]func(any)
	// lastMsg is the Message last applied, for observe.
	lastMsg any
	queued  chan struct{} // one send per Message queued
}

type queuedMsg struct {
	msg       any
	delivered func(error)
}

func newSteppedHost(m counter) *steppedHost {
	return &steppedHost{models: []counter{m}, subs: map[int]func(){}, obs: map[int]func(any){}, queued: make(chan struct{}, 16)}
}

func (h *steppedHost) Model() counter { m, _ := h.VersionedModel(); return m }

func (h *steppedHost) VersionedModel() (counter, uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.models[len(h.models)-1], uint64(len(h.models))
}

func (h *steppedHost) ModelAt(v uint64) (counter, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v == 0 || v > uint64(len(h.models)) {
		return counter{}, false
	}
	return h.models[v-1], true
}

func (h *steppedHost) Dispatch(ctx context.Context, msg any) error {
	return h.DispatchTracked(ctx, msg, nil)
}

func (h *steppedHost) DispatchTracked(_ context.Context, msg any, delivered func(error)) error {
	h.mu.Lock()
	h.queue = append(h.queue, queuedMsg{msg, delivered})
	h.mu.Unlock()
	h.queued <- struct{}{}
	return nil
}

func (h *steppedHost) DispatchNeverBlocks() bool { return true }

func (h *steppedHost) Subscribe(l func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nsub++
	n := h.nsub
	h.subs[n] = l
	return func() { h.mu.Lock(); delete(h.subs, n); h.mu.Unlock() }
}

// Observe registers a Message observer; observers run only when the test
// calls observe, after the Model listeners, as host/teahost runs them.
func (h *steppedHost) Observe(l func(any)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nsub++
	n := h.nsub
	h.obs[n] = l
	return func() { h.mu.Lock(); delete(h.obs, n); h.mu.Unlock() }
}

// observe shows the Message last applied to the observers.
func (h *steppedHost) observe() {
	h.mu.Lock()
	msg := h.lastMsg
	obs := make([]func(any), 0, len(h.obs))
	for i := 1; i <= h.nsub; i++ {
		if l, ok := h.obs[i]; ok {
			obs = append(obs, l)
		}
	}
	h.mu.Unlock()
	for _, l := range obs {
		l(msg)
	}
}

// waitQueued waits until n Messages have been queued since the last call.
func (h *steppedHost) waitQueued(n int) {
	for range n {
		<-h.queued
	}
}

// apply takes the oldest queued Message: reports it delivered, updates,
// publishes the next version, then calls the listeners.
func (h *steppedHost) apply() {
	h.mu.Lock()
	q := h.queue[0]
	h.queue = h.queue[1:]
	h.mu.Unlock()
	if q.delivered != nil {
		q.delivered(nil)
	}
	h.mu.Lock()
	m := h.models[len(h.models)-1]
	switch q.msg.(type) {
	case Increment:
		m.Count++
	case Open:
		m.Page = "detail"
	case Home:
		m.Page = "home"
	case Charged:
		m.Count++
	}
	h.lastMsg = q.msg
	h.models = append(h.models, m)
	subs := make([]func(), 0, len(h.subs))
	for i := 1; i <= h.nsub; i++ {
		if l, ok := h.subs[i]; ok {
			subs = append(subs, l)
		}
	}
	h.mu.Unlock()
	for _, l := range subs {
		l()
	}
}

// steppedJourney binds the counter journey to a stepped host.
func steppedJourney(t *testing.T, start counter) (*steppedHost, *bind.Journey) {
	t.Helper()
	c := declare("increment")
	h := newSteppedHost(start)
	rt, err := agent.Bind(c.contract(), agent.Host[counter, any](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := bind.New("counter", rt, h.Model, graph(c), bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	return h, j
}

// The application's own Message, queued before an agent's fire and
// applied after the fire's waiter is registered, is not the fire's Model
// change: the fire comes to rest on the change its own Message made, its
// write observed and credited to it by name (issue 26, item 3: add-to-cart
// answered effectVerified:false, writesObserved:false when the shop's
// activity-panel line of the step before landed first). Before the fix
// the Noise's empty change was taken as the fire's, every time in this
// order.
func TestFireIsNotSettledByAMessageBeforeItsOwn(t *testing.T) {
	h, j := steppedJourney(t, counter{Page: "home"})
	s := j.Session()
	_ = h.Dispatch(context.Background(), Noise{}) // the app's own, queued first
	h.waitQueued(1)
	r := s.Fire(context.Background(), "home.increment", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("refused: %+v", r)
	}
	h.waitQueued(1) // the fire's Increment, behind the Noise
	h.apply()       // Noise: nothing a journey reads moved
	if _, known, _ := s.View().SettlementIfKnown(r.TransitionID); known {
		t.Fatal("the fire came to rest on a Message that was not its own")
	}
	h.apply() // the fire's own Increment
	st := settle(t, s, r.TransitionID)
	if st.EffectStatus != journey.EffectPerformed || st.EffectVerified != journey.ObservedYes {
		t.Fatalf("the increment's write must be observed: %+v", st)
	}
	tr, _ := s.View().Transition(r.TransitionID)
	if tr.Attribution == nil || tr.Attribution.Basis != journey.BasisNamed {
		t.Fatalf("the change must be credited to the fire by name, not inferred: %+v", tr.Attribution)
	}
	for _, x := range s.View().Transitions() {
		if x.Kind == journey.KindStimulus && x.Stimulus == "state" {
			t.Fatalf("the fire's own change was recorded as nobody's: %+v", x)
		}
	}
}

// A navigating fire's arrival is the Model its own Message made: an
// application Message landing first neither closes its claim nor settles
// it, so its arrival reads observed, and the answer is the same however
// the Messages were scheduled (issue 26, item 12: "The app later reported
// being on toNode" in one run, "nothing has confirmed you arrived" in
// another). Before the fix the Noise closed the claim on the old page,
// and the arrival stayed claimed.
func TestArrivalIsObservedWhenAnotherMessageLandsFirst(t *testing.T) {
	h, j := steppedJourney(t, counter{Page: "home", Count: 1})
	s := j.Session()
	_ = h.Dispatch(context.Background(), Noise{})
	h.waitQueued(1)
	r := s.Fire(context.Background(), "home.open", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("refused: %+v", r)
	}
	h.waitQueued(1)
	h.apply() // Noise
	h.apply() // Open
	st := settle(t, s, r.TransitionID)
	if st.Arrival != journey.ArrivalObserved || st.ToNode != "detail" {
		t.Fatalf("the arrival on detail must be observed: %+v", st)
	}
	if got := s.View().Position().YouAreOn; got != "detail" {
		t.Fatalf("on %q", got)
	}
}

type (
	// Charge asks the app to charge; Charged is the app's own report
	// that it did, which completes the charge and moves the count.
	Charge  struct{}
	Charged struct{}
)

// A fire whose capability declares a completion comes to rest on the
// Model change its completing Message makes, which the binding folds
// before the runtime sees the completion: the answer written as it comes
// to rest says the app is no longer working on it, every time (issue 26:
// stillWorking on a settled payment differed by timing). Before the fix
// the work stayed open until the runtime's completion reached the
// handler, after the fire was at rest, every time in this order.
func TestCompletingFireRestsWithItsWorkDone(t *testing.T) {
	charge := agent.Expose(agent.Variant[Charge, counter, np]{Name: "charge", Description: "Charge.",
		Completion: agent.CompleteOn(agent.On(func(_ Charge, _ Charged, _ agent.Invocation) bool { return true })).Within(time.Minute)})
	c := agent.Make(agent.Definition[counter, np]{Capabilities: []agent.Capability[counter, np]{charge}})
	h := newSteppedHost(counter{Page: "home"})
	rt, err := agent.Bind(c, agent.Host[counter, any](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := bind.New("charging", rt, h.Model, bind.Def[counter, np]{
		Page:  func(m counter) string { return m.Page },
		State: func(m counter) map[string]any { return map[string]any{"count": m.Count} },
		Pages: []bind.Page[counter, np]{{ID: "home", Actions: []bind.Action[counter, np]{
			{Name: "charge", Does: "Charge.", Capability: charge, Writes: []string{"count"}},
		}}},
	}, bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	s := j.Session()
	r := s.Fire(context.Background(), "home.charge", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("refused: %+v", r)
	}
	h.waitQueued(1)
	h.apply() // Charge: the app starts; nothing moves yet
	if !s.View().StillWorking(r.TransitionID) {
		t.Fatal("the charge must be working while its completion is not seen")
	}
	_ = h.Dispatch(context.Background(), Charged{}) // the app's own report
	h.waitQueued(1)
	h.apply() // the Model listeners: the count moves, the fire comes to rest
	st, known, err := s.View().SettlementIfKnown(r.TransitionID)
	if err != nil || !known {
		t.Fatalf("the charge must be at rest once its change is folded: %v", err)
	}
	if st.StillWorking || s.View().StillWorking(r.TransitionID) {
		t.Fatalf("the charge came to rest still working: %+v", st)
	}
	if st.EffectVerified != journey.ObservedYes {
		t.Fatalf("its write must be observed: %+v", st)
	}
	h.observe() // the runtime sees the completion; the handler returns
}

// Under Sessions the rule is the same, decided once for every
// conversation: the application's own Message, queued before B's fire,
// is not B's change (it moved nothing, which a fire's Message may do), so
// B waits for the change at the version its own Message made; that change
// is credited to B by name, and A is told it is another agent's. The
// shared choice once took the Noise's empty change as B's.
func TestSessionsFireIsNotSettledByAMessageBeforeItsOwn(t *testing.T) {
	c := declare("increment")
	h := newSteppedHost(counter{Page: "home"})
	rt, err := agent.Bind(c.contract(), agent.Host[counter, any](h), nil)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := bind.NewSessions("counter", rt, h.Model, graph(c), bind.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ss.Close)
	ja, err := ss.Open("a")
	if err != nil {
		t.Fatal(err)
	}
	jb, err := ss.Open("b")
	if err != nil {
		t.Fatal(err)
	}
	a, b := ja.Session(), jb.Session()
	_ = h.Dispatch(context.Background(), Noise{}) // the app's own, queued first
	h.waitQueued(1)
	r := b.Fire(context.Background(), "home.increment", journey.FireOptions{})
	if !r.OK {
		t.Fatalf("refused: %+v", r)
	}
	h.waitQueued(1) // B's Increment, behind the Noise
	h.apply()       // Noise
	if _, known, _ := b.View().SettlementIfKnown(r.TransitionID); known {
		t.Fatal("B's fire came to rest on a Message that was not its own")
	}
	h.apply() // B's own Increment
	st := settle(t, b, r.TransitionID)
	if st.EffectVerified != journey.ObservedYes {
		t.Fatalf("B's increment's write must be observed: %+v", st)
	}
	if tr, _ := b.View().Transition(r.TransitionID); tr.Attribution == nil || tr.Attribution.Basis != journey.BasisNamed {
		t.Fatalf("B's change must be credited to its fire by name: %+v", tr.Attribution)
	}
	if tr := a.View().GroundTruth(0, 0); len(tr.Changes) != 1 || tr.Changes[0].Actor != journey.ActorAgent {
		t.Fatalf("A must be told B's change is another agent's: %s", tr.Text)
	}
}
