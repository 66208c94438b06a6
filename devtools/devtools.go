package devtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/loop"
)

// Options configure a Devtools. The zero value keeps DefaultHistory
// Messages and DefaultKeyframes keyframes, refuses dispatch and redacts
// only secret-named members.
type Options struct {
	// App names the application in listings (the registry's App).
	App string
	// History is how many applied Messages are kept; the oldest leaves
	// first (counted, never silently: see the history tool's "dropped").
	// Zero means DefaultHistory; negative is refused.
	History int
	// KeyframeEvery is how many versions apart keyframes are taken, and
	// Keyframes how many are kept. Zero means the defaults.
	KeyframeEvery, Keyframes int
	// Messages are the application's Message types, for the schema tool
	// and for dispatch (see Message). The runtime's approval Messages
	// (agent.ApprovalAnswer, ApprovalAsked, ApprovalWithdrawn) are
	// refused (ErrOptions): no tool may answer for the person.
	Messages []MessageType
	// Contract is the agent contract's description (Runtime.Describe or
	// Contract.Describe). When set, every Model member whose name the
	// context projection's schema does not declare is redacted, unless
	// Reveal names it.
	Contract *agent.Description
	// Redact names places to redact (JSON Pointers; a segment "*" matches
	// any member or index). Reveal names places served even so.
	Redact, Reveal []string
	// Dispatch lets the developer's tool dispatch Messages. False, the
	// default, refuses every dispatch (EnableDispatch changes it).
	Dispatch bool
	// Audit returns the agent audit to join to the timeline (an
	// agent.AuditLog's Entries). Nil: no audit.
	Audit func() []agent.AuditEntry
	// MaxValueBytes is the size above which a value is served as a
	// Summary. Zero means 16 KiB.
	MaxValueBytes int
	// Publish, if set, is called by Listen with where the devtools listen,
	// so that a registry can publish it; its error fails Listen. The
	// unpublish it returns (nil: nothing to undo) is called once by Close.
	// Registry returns one for the per-user registry.
	Publish func(Listing) (unpublish func() error, err error)
	// NameAgent names an agent the runtime handed the host with no
	// principal's name (the runtime has no audit projection, or its
	// principal names no one): it is given the agent's caller key and
	// returns the name the application shows the person, such as
	// host/approvals' Agents.Name ("agent 1"). It is called on the
	// goroutine applying Messages, once per such Message; it must be
	// short. Nil leaves such an agent known by its caller.
	NameAgent func(caller string) string
	// Clock stamps records. Nil means the system clock to the
	// millisecond: under a stream of Messages it is read at most once a
	// millisecond, because on some virtual machines one reading costs as
	// much as applying a small Message.
	Clock func() time.Time
}

// Listing is what Listen hands to Options.Publish.
type Listing struct {
	URL     string    `json:"url"`
	Token   string    `json:"token"`
	PID     int       `json:"pid"`
	Dir     string    `json:"dir"`
	App     string    `json:"app"`
	Started time.Time `json:"started"`
}

// ErrOptions reports options that cannot be used.
var ErrOptions = errors.New("devtools: invalid options")

// Devtools records what a running application applies and serves it to a
// developer's agent. Make one with AttachLoop. It is safe for concurrent
// use.
type Devtools[Model, Msg any] struct {
	opts    Options
	hist    *history[Model, Msg]
	host    Host[Model, Msg]
	replay  func(Model, Msg) (Model, error)
	red     *redactor
	types   *registry
	clock   func() time.Time
	started time.Time
	detach  func()
	coarse  *coarseClock // the default clock, stopped by Close
	last    lastOrigin   // the recorder's: the origin of the last dispatch context

	dispatchOn atomic.Bool
	token      string
	serveMu    sync.Mutex
	server     *http.Server
	unpublish  func() error
}

// Host is what the devtools need of a running application: host/loop's
// Program and host/teahost's Host are ones.
type Host[Model, Msg any] interface {
	VersionedModel() (Model, uint64)
	Dispatch(ctx context.Context, msg Msg) error
}

// AttachLoop attaches devtools to p: from now on every Message p applies
// is recorded (see loop.Program.Record), and replay folds Messages through
// p's update in a sandbox (loop.Program.Sandbox). It fails on options it
// cannot use and when p already has a recorder. Close detaches.
func AttachLoop[Model, Msg any](p *loop.Program[Model, Msg], opts Options) (*Devtools[Model, Msg], error) {
	d, err := newDevtools[Model, Msg](p, opts)
	if err != nil {
		return nil, err
	}
	d.replay = p.Sandbox()
	// The Program tells the recorder of a version before it publishes
	// it: the version it publishes says the record is there.
	d.hist.published = func() uint64 {
		_, v := p.VersionedModel()
		return v
	}
	stop, err := p.Record(d.recordLoop)
	if err != nil {
		return nil, err
	}
	d.detach = func() {
		stop()
		_, v := p.VersionedModel()
		d.hist.freeze(v)
	}
	return d, nil
}

// New returns devtools over h for a host adapter that records by itself
// (as AttachLoop does for host/loop): it feeds each applied Message to
// Add, replay folds Messages with update (nil: replay is refused), and
// detach, if not nil, is called by Close.
func New[Model, Msg any](h Host[Model, Msg], update func(Model, Msg) (Model, error), detach func(), opts Options) (*Devtools[Model, Msg], error) {
	d, err := newDevtools(h, opts)
	if err != nil {
		return nil, err
	}
	d.replay, d.detach = update, detach
	return d, nil
}

// Add records one applied Message: the version it gave the Model, the
// Message, the Model and where it came from. A host adapter calls it on
// the goroutine applying Messages, in version order. Versions are the
// host's (1 for its initial Model), one more per applied Message: a
// record is kept at the place its version names, and the last
// Options.History versions are served.
func (d *Devtools[Model, Msg]) Add(version uint64, msg Msg, model Model, p Provenance) {
	r := d.hist.slot(version)
	*r = record[Model, Msg]{version: version, at: d.stamp(), msg: msg, model: model, prov: intern(d.named(originOf(p))), cause: p.Cause}
	d.hist.commit(version)
}

// AddDispatched records one applied Message that was dispatched with
// ctx, its provenance read from ctx as FromDispatch reads it (once for a
// run of Messages dispatched with the same context). A host adapter calls
// it, as Add, on the goroutine applying Messages, in version order.
func (d *Devtools[Model, Msg]) AddDispatched(version uint64, msg Msg, model Model, ctx context.Context) {
	r := d.hist.slot(version)
	*r = record[Model, Msg]{version: version, at: d.stamp(), msg: msg, model: model, prov: d.last.of(ctx, d.named)}
	d.hist.commit(version)
}

// named gives an agent known only by its caller the application's name
// for it (Options.NameAgent).
func (d *Devtools[Model, Msg]) named(o origin) origin {
	if d.opts.NameAgent != nil && o.agent != nil && o.agent.Identity == "" && o.agent.Caller != "" {
		a := *o.agent
		a.Identity = d.opts.NameAgent(a.Caller)
		o.agent = &a
		if o.full != nil {
			p := *o.full
			p.Agent = &a
			o.full = &p
		}
	}
	return o
}

func newDevtools[Model, Msg any](h Host[Model, Msg], opts Options) (*Devtools[Model, Msg], error) {
	if opts.History < 0 || opts.KeyframeEvery < 0 || opts.Keyframes < 0 || opts.MaxValueBytes < 0 {
		return nil, fmt.Errorf("%w: a bound is negative", ErrOptions)
	}
	opts.History = orDefault(opts.History, DefaultHistory)
	opts.KeyframeEvery = orDefault(opts.KeyframeEvery, DefaultKeyframeEvery)
	opts.Keyframes = orDefault(opts.Keyframes, DefaultKeyframes)
	opts.MaxValueBytes = orDefault(opts.MaxValueBytes, 16<<10)
	var schema json.RawMessage
	if opts.Contract != nil {
		schema = opts.Contract.Context
	}
	red, err := newRedactor(opts.Redact, opts.Reveal, schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	types, err := newRegistry(reflect.TypeFor[Msg](), opts.Messages)
	if err != nil {
		return nil, err
	}
	d := &Devtools[Model, Msg]{opts: opts, host: h, red: red, types: types, clock: opts.Clock}
	if d.clock == nil {
		d.coarse = newCoarseClock()
		d.clock = d.coarse.Now
	}
	d.started = d.clock()
	m, v := h.VersionedModel()
	d.hist = newHistory[Model, Msg](opts.History, opts.KeyframeEvery, opts.Keyframes, m, v)
	d.dispatchOn.Store(opts.Dispatch)
	d.token = newToken()
	return d, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// recordLoop is the recorder attached to a loop.Program.
func (d *Devtools[Model, Msg]) recordLoop(a *loop.Applied[Model, Msg]) {
	r := d.hist.slot(a.Version)
	switch a.Source {
	case loop.FromDispatch:
		if a.Ctx != nil && a.Ctx == d.last.ctx { // as of does, without the call
			r.prov = d.last.o
		} else {
			r.prov = d.last.of(a.Ctx, d.named)
		}
	case loop.FromCmd:
		r.prov = &plain[kindApp][doorCmd]
	case loop.FromPanic:
		r.prov = &plain[kindApp][doorPanic]
	default:
		r.prov = &plain[kindUnknown][doorNone]
	}
	r.at, r.msg, r.model, r.cause = d.stamp(), a.Msg, a.Model, a.Cause
	r.version = a.Version // last: the record is complete
	d.hist.commit(a.Version)
}

// stamp is the time a record is kept at, in Unix nanoseconds.
func (d *Devtools[Model, Msg]) stamp() int64 {
	if c := d.coarse; c != nil && !c.stale.Load() {
		return c.now.Load() // inlined: the usual case under a stream
	}
	return d.read()
}

// read reads the clock, for stamp.
func (d *Devtools[Model, Msg]) read() int64 {
	if d.coarse != nil {
		return d.coarse.nanos()
	}
	return d.clock().UnixNano()
}

// EnableDispatch turns the dispatch tool on or off.
func (d *Devtools[Model, Msg]) EnableDispatch(on bool) { d.dispatchOn.Store(on) }

// Close detaches the recorder, takes the listing back out of the
// registry it was published in (Options.Publish) and stops serving. The
// history stays readable.
func (d *Devtools[Model, Msg]) Close() error {
	if d.detach != nil {
		d.detach()
	}
	if d.coarse != nil {
		d.coarse.stop()
	}
	d.serveMu.Lock()
	defer d.serveMu.Unlock()
	var err error
	if d.unpublish != nil {
		err = d.unpublish()
		d.unpublish = nil
	}
	if d.server != nil {
		err = errors.Join(err, d.server.Close())
	}
	return err
}
