package bind

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/foldagent/foldagent/journey"
)

// This file binds one journey graph over one runtime once per
// conversation. Each conversation (an MCP session, say) gets its own
// journey session: its own cursor, ledgers, ask book and facts. They all
// follow the same Model, so one conversation's fire moves what the others
// see, and each must be told whose change it was: its own agent's, the
// person's, or another conversation's agent's. That is decided once per
// Model change, for every session together (peers), so the answer is the
// same whichever session's listener runs first.

// ReasonPendingElsewhere refuses a fire of a single-flight or once-only
// action while a fire of the same action (of the same instance, when
// scoped per instance) made in another conversation over the same Model
// has not come to rest. It is not PRIOR_FIRE_PENDING: that code says the
// session's own earlier fire is still going, and this session made none.
const ReasonPendingElsewhere journey.Reason = "PENDING_ELSEWHERE"

// pendingElsewhere is what an agent is told with ReasonPendingElsewhere.
const pendingElsewhere = "Another conversation with this app is doing this right now and it has not finished, so nothing was done here. Do not repeat it: look with whats_here once it has finished."

// peers is what the journeys bound over one runtime share: the fires of
// every session waiting for the Model change their Message causes, the
// decision of whose change the current Model change is, and which
// single-flight actions are in progress in which session. A journey bound
// alone has peers of its own.
type peers struct {
	mu sync.Mutex
	// waiting are every session's fires waiting for their Model change,
	// oldest first.
	waiting []*waiter
	// seq counts Model changes (notifications); decisions are the
	// newest changes decided, oldest first, each with the waiter it took
	// (nil: no fire's). A journey applies its changes in order, each
	// after its listener numbered it, so a change is decided after the
	// one before it, whichever journey gets there first.
	seq       uint64
	decisions []decision
	// busy are the single-flight actions in progress, by scope key, and
	// the journey whose fire holds each.
	busy map[string]*Journey
}

// decision is whose Model change seq is: the waiter taken, or nil.
type decision struct {
	seq   uint64
	taken *waiter
}

// maxDecisions bounds the decisions kept: a journey applies a change
// moments after its listener numbered it.
const maxDecisions = 64

func newPeers() *peers { return &peers{busy: map[string]*Journey{}} }

// next marks a new Model change. It is the first listener of every
// notification, so each journey's listener that follows reads the
// decision made for this change.
func (p *peers) next() {
	p.mu.Lock()
	p.seq++
	p.mu.Unlock()
}

// current is the number of the Model change being notified (0 before
// any).
func (p *peers) current() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seq
}

// add registers a fire waiting for its Model change.
func (p *peers) add(w *waiter) {
	p.mu.Lock()
	p.waiting = append(p.waiting, w)
	p.mu.Unlock()
}

// forget withdraws a waiter no change has taken; it reports whether it was
// still waiting.
func (p *peers) forget(w *waiter) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.waiting, w)
	if i < 0 {
		return false
	}
	p.waiting = slices.Delete(p.waiting, i, i+1)
	return true
}

// fit is how well a Model change fits a waiting fire.
type fit int

const (
	fitNone   fit = iota
	fitAny        // it moved nothing, or the fire declares no writes
	fitWrites     // it moved a key the fire declares writing
	fitExact      // it is the Model version the fire's Message made
)

// take returns the waiter Model change seq (current, when the journey's
// listener read it) is the effect of, for every session alike: the oldest
// of those it fits best (fits is the rule, the same in every journey over
// one Def and one runtime: the fire whose Message made this very version
// first, where the host says so, then one that declares writing what
// moved, then any other fit). The first journey to ask decides, and the
// rest are given the same answer. A change numbered 0 (none notified yet)
// is decided each time it is asked about; one older than every decision
// kept is no fire's.
func (p *peers) take(seq uint64, fits func(*waiter) fit) *waiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	if seq != 0 {
		for i := len(p.decisions) - 1; i >= 0; i-- {
			if d := p.decisions[i]; d.seq == seq {
				return d.taken
			}
		}
		if n := len(p.decisions); n > 0 && p.decisions[n-1].seq > seq {
			return nil
		}
	}
	var taken *waiter
	best, at := fitNone, -1
	for i, w := range p.waiting {
		if f := fits(w); f > best {
			best, at = f, i
		}
	}
	if at >= 0 {
		taken = p.waiting[at]
		if !taken.sticky {
			p.waiting = slices.Delete(p.waiting, at, at+1)
		}
	}
	if seq != 0 {
		if len(p.decisions) == maxDecisions {
			p.decisions = append(p.decisions[:0], p.decisions[1:]...)
		}
		p.decisions = append(p.decisions, decision{seq: seq, taken: taken})
	}
	return taken
}

// claim marks a single-flight action's fire in progress for j under key.
// It fails when another journey's fire holds it; release frees it.
func (p *peers) claim(j *Journey, key string) (release func(), ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if holder, held := p.busy[key]; held && holder != j {
		return nil, false
	}
	p.busy[key] = j
	return func() {
		p.mu.Lock()
		if p.busy[key] == j {
			delete(p.busy, key)
		}
		p.mu.Unlock()
	}, true
}

// elsewhere is the refusal of a fire another session's fire of the same
// action is in progress for: a code, our sentence, and the scope as data.
func elsewhere(scope string) *journey.SettleError {
	data, _ := json.Marshal(map[string]string{"scope": scope})
	return &journey.SettleError{Reason: ReasonPendingElsewhere, Message: pendingElsewhere, Data: data}
}

// Sessions binds one Def over one runtime for any number of
// conversations: Open gives each its own Journey (its own session), and
// they share what makes their answers agree: whose each Model change is,
// and which once-only or single-flight action is in progress where.
//
// A Sessions is safe for concurrent use. Its zero value is not usable:
// build one with NewSessions.
type Sessions[Model, P any] struct {
	id    string
	rt    Runtime[Model, P]
	model func() Model
	def   Def[Model, P]
	opts  Options
	p     *peers
	probe *Journey
	unsub func()

	live liveSet
}

// liveSet is the journeys Open returned that are not closed. It owns its
// lock: a journey joins or leaves, or the set closes, as one step, and a
// waiter is told each time it changes.
type liveSet struct {
	mu      sync.Mutex
	live    map[*Journey]bool
	changed chan struct{} // closed and replaced when live changes
	closed  bool
}

func newLiveSet() liveSet {
	return liveSet{live: map[*Journey]bool{}, changed: make(chan struct{})}
}

// join adds j; it reports false, adding nothing, once the set is closed.
func (l *liveSet) join(j *Journey) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.live[j] = true
	l.tell()
	return true
}

// leave removes j, if it is in the set.
func (l *liveSet) leave(j *Journey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live[j] {
		delete(l.live, j)
		l.tell()
	}
}

// tell wakes the waiters of the set as it was; l.mu is held.
func (l *liveSet) tell() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// isClosed reports whether close was called.
func (l *liveSet) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// count is the number of journeys in the set, and a channel closed when
// that changes.
func (l *liveSet) count() (int, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.live), l.changed
}

// close closes the set and returns the journeys in it; it reports false
// (and none) when it was closed already.
func (l *liveSet) close() ([]*Journey, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, false
	}
	l.closed = true
	js := make([]*Journey, 0, len(l.live))
	for j := range l.live {
		js = append(js, j)
	}
	return js, true
}

// NewSessions checks def over rt as New does (a definition New refuses is
// refused here, before any conversation) and returns the Sessions that
// open journeys of it. opts apply to every journey; opts.Caller is set per
// journey by Open.
func NewSessions[Model, P any](id string, rt Runtime[Model, P], model func() Model, def Def[Model, P], opts Options) (*Sessions[Model, P], error) {
	if rt == nil || model == nil {
		return nil, errors.New("bind: NewSessions needs a runtime and a Model reader")
	}
	probe, err := New(id, rt, model, def, opts)
	if err != nil {
		return nil, err
	}
	probe.Close()
	s := &Sessions[Model, P]{id: id, rt: rt, model: model, def: def, opts: opts, p: newPeers(), probe: probe,
		live: newLiveSet()}
	// First of the journeys' listeners: every Model change is numbered
	// before any journey reads whose it is.
	s.unsub = rt.Subscribe(s.p.next)
	return s, nil
}

// Template is a session of the graph that drives nothing: serve it with
// journey/fixed to read the tool set every journey Open returns serves
// (the tools depend on the graph and the options only).
func (s *Sessions[Model, P]) Template() *journey.Session { return s.probe.Session() }

// Open binds a new journey for one conversation, whose fires are the
// caller's (Options.Caller). Close it when the conversation ends; Live
// counts those not closed.
func (s *Sessions[Model, P]) Open(caller string) (*Journey, error) {
	if s.live.isClosed() {
		return nil, errors.New("bind: the sessions are closed")
	}
	o := s.opts
	o.Caller = caller
	o.peers = s.p
	j, err := New(s.id, s.rt, s.model, s.def, o)
	if err != nil {
		return nil, err
	}
	j.onClose = func() { s.live.leave(j) }
	if !s.live.join(j) {
		j.Close()
		return nil, errors.New("bind: the sessions are closed")
	}
	return j, nil
}

// Live counts the journeys Open returned that are not closed.
func (s *Sessions[Model, P]) Live() int {
	n, _ := s.live.count()
	return n
}

// WaitLive waits until Live is n or ctx is done, and returns Live then.
func (s *Sessions[Model, P]) WaitLive(ctx context.Context, n int) int {
	for {
		live, ch := s.live.count()
		if live == n {
			return live
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.Live()
		}
	}
}

// Close closes every open journey and stops numbering Model changes;
// Open fails afterwards. It is idempotent.
func (s *Sessions[Model, P]) Close() {
	js, ok := s.live.close()
	if !ok {
		return
	}
	for _, j := range js {
		j.Close()
	}
	s.unsub()
}
