package mcpagent

import (
	"errors"
	"log/slog"
	"reflect"
	"slices"
	"sync"

	"github.com/foldagent/foldagent/agent"
)

// A Feed follows the Model for every Server of one runtime family, so
// that idle sessions cost nothing when the Model changes.
//
// A family is every runtime bound to the same host and the same contract,
// whatever its principal: what a contract offers depends on the Model
// alone (an Available hook sees only the Model, never the caller), so
// every session of a family offers the same tools at any moment. A Server
// built without a Feed listens to its own runtime and, after each Model
// change, asks it what is available; with a thousand idle sessions that is
// a thousand listeners, a thousand wake-ups and a thousand availability
// checks per Message the application applies. A Feed listens once, asks
// once per change while a Server follows it (and not at all while none
// does), through the runtime's OfferTracker, which re-checks only the
// capabilities whose declared reads moved (agent.Variant.AvailableReads)
// and those that declare none; only when the offered set really changed
// does it hand the new set, an immutable list shared by all, to each of
// its Servers, which then add or remove the tools that differ from what
// it advertised. A change that leaves the set as it was touches no Server.
//
// A Server given a Feed (Options.Feed) registers no listener of its own
// while it is idle; it listens to its runtime only once a client
// subscribes to one of its resources, whose values it then re-reads after
// each change. Every tool call still goes through the Server's own runtime,
// which checks availability again against the Model it reads: the Feed
// decides what is listed, never what is allowed.
//
// The application promises that every runtime served with a Feed is bound
// to the same host and contract as the Feed's own runtime (for example,
// the runtimes NewRuntime binds for each principal, and the Feed made over
// any one of them, or over an unprivileged runtime bound alongside).
// NewServer checks that the contract's capabilities match and refuses a
// runtime that does not; it cannot see the host, so do not share a Feed
// between application instances (a process serving one application
// instance per tenant gives each its own Feed, or none).
//
// A Feed is safe for concurrent use. Close it, after the Servers that use
// it, to release its listener.
type Feed struct {
	rt    Runtime
	log   *slog.Logger
	names []string           // every capability, declaration order: the family's mark
	all   []agent.Descriptor // Describe's, declaration order

	// track follows the offer (agent.Served.TrackOffer): a change costs
	// the checks of what can have changed, and a list is built only when
	// the offer changed. Used under mu.
	track agent.OfferTracker

	mu      sync.Mutex // serializes refreshes; guards cur and servers
	cur     *offer
	servers map[*Server]struct{}

	kick        chan struct{}
	done        chan struct{}
	worker      sync.WaitGroup
	unsubscribe func()
	closeOnce   sync.Once
}

// offer is what a family offers: the available descriptors in declaration
// order. An offer is never changed once published; seq orders them, so a
// Server never goes back to an older one.
type offer struct {
	seq   uint64
	avail []agent.Descriptor
}

// FeedOptions configure a Feed. The zero value (or nil) is ready to use.
type FeedOptions struct {
	// Logger receives defects of the application's Available hooks. Nil
	// uses slog.Default.
	Logger *slog.Logger
}

// NewFeed builds a Feed over rt, which may be any runtime of the family.
// It reads what the current Model offers at once, and then follows the
// Model through rt's Subscribe seam (on a host without one, it refreshes
// after each tool call and each tools/list instead).
func NewFeed(rt Runtime, opts *FeedOptions) (*Feed, error) {
	if rt == nil {
		return nil, errors.New("mcpagent: NewFeed needs a runtime")
	}
	f := &Feed{
		rt:      rt,
		log:     slog.Default(),
		cur:     &offer{},
		servers: make(map[*Server]struct{}),
		kick:    make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	if opts != nil && opts.Logger != nil {
		f.log = opts.Logger
	}
	f.all = rt.Describe().Capabilities
	for _, d := range f.all {
		f.names = append(f.names, d.Name)
	}
	if f.track = rt.TrackOffer(); f.track == nil {
		return nil, errors.New("mcpagent: NewFeed needs a runtime whose TrackOffer returns a tracker (agent.TrackSet, for a runtime that knows its offer only as a set)")
	}
	f.refresh()
	if rt.CanSubscribe() {
		f.unsubscribe = rt.Subscribe(f.changed)
	}
	f.worker.Add(1)
	go f.follow()
	return f, nil
}

// Close releases the Feed's listener on its runtime. Servers still using
// it keep the tools they advertise and stop following the Model. It is
// idempotent and returns nil.
func (f *Feed) Close() error {
	f.closeOnce.Do(func() {
		if f.unsubscribe != nil {
			f.unsubscribe()
		}
		close(f.done)
		f.worker.Wait()
	})
	return nil
}

// member reports whether d is of the Feed's family, as far as a Server can
// tell: the same capabilities, in the same order.
func (f *Feed) member(d agent.Description) bool {
	return slices.EqualFunc(d.Capabilities, f.names, func(c agent.Descriptor, name string) bool { return c.Name == name })
}

// changed is the runtime listener: it only signals the worker.
func (f *Feed) changed() {
	select {
	case f.kick <- struct{}{}:
	default: // a refresh is already pending; it will see this change
	}
}

func (f *Feed) follow() {
	defer f.worker.Done()
	for {
		select {
		case <-f.done:
			return
		case <-f.kick:
			if f.listened() {
				f.refresh()
			}
		}
	}
}

// listened reports whether a Server follows the Feed. With none, a Model
// change costs nothing: the next Server refreshes when it is added
// (Server.syncTools), and a tracked offer is compared with the last one
// the Feed read, however many changes it missed.
func (f *Feed) listened() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.servers) > 0
}

// refresh asks the runtime's tracker once what the current Model offers,
// and when that differs from the current offer publishes a new one to
// every Server. It returns the current offer. A change that leaves the
// offer as it was costs the checks the tracker makes and nothing else:
// the list is built only when the offer changed.
func (f *Feed) refresh() *offer {
	f.mu.Lock()
	set, changed, err := f.track.Next()
	if err != nil {
		f.logDefect(err)
	}
	if set == nil || !changed || len(set) != len(f.all) {
		// The Model could not be read, or offers what it offered.
		cur := f.cur
		f.mu.Unlock()
		return cur
	}
	avail := make([]agent.Descriptor, 0, len(set))
	for i, on := range set {
		if on {
			avail = append(avail, f.all[i])
		}
	}
	return f.publishLocked(avail)
}

// publishLocked makes avail the current offer and hands it to every
// Server. f.mu is held; it is released before the Servers are told.
func (f *Feed) publishLocked(avail []agent.Descriptor) *offer {
	next := &offer{seq: f.cur.seq + 1, avail: avail}
	f.cur = next
	servers := make([]*Server, 0, len(f.servers))
	for s := range f.servers {
		servers = append(servers, s)
	}
	f.mu.Unlock()
	for _, s := range servers {
		s.applyOffer(next)
	}
	return next
}

func (f *Feed) add(s *Server) {
	f.mu.Lock()
	f.servers[s] = struct{}{}
	f.mu.Unlock()
}

func (f *Feed) remove(s *Server) {
	f.mu.Lock()
	delete(f.servers, s)
	f.mu.Unlock()
}

func (f *Feed) logDefect(err error) {
	var defect *agent.DefectError
	if errors.As(err, &defect) {
		f.log.Error("mcpagent: application code failed", "while", "listing available capabilities", "stage", defect.Stage, "cause", defect.Cause)
		return
	}
	f.log.Error("mcpagent: application code failed", "while", "listing available capabilities", "error", err)
}

// runtimeFeeds are the Feeds NewServer makes for Servers given none, one
// per runtime pointer, each shared by that runtime's Servers and closed
// with the last of them. Only a pointer is a runtime's identity: two
// Servers of one pointer serve one runtime, so what one is offered is what
// the other is, and sharing is always safe.
var runtimeFeeds struct {
	mu sync.Mutex
	m  map[Runtime]*sharedFeed
}

type sharedFeed struct {
	feed  *Feed
	users int
}

// runtimeFeed returns the Feed shared by rt's Servers, and the function a
// Server calls once to let go of it; nil, nil for a runtime that is not a
// pointer.
func runtimeFeed(rt Runtime, log *slog.Logger) (*Feed, func()) {
	if rt == nil || reflect.ValueOf(rt).Kind() != reflect.Pointer {
		return nil, nil
	}
	runtimeFeeds.mu.Lock()
	defer runtimeFeeds.mu.Unlock()
	sf := runtimeFeeds.m[rt]
	if sf == nil {
		f, err := NewFeed(rt, &FeedOptions{Logger: log})
		if err != nil {
			return nil, nil
		}
		sf = &sharedFeed{feed: f}
		if runtimeFeeds.m == nil {
			runtimeFeeds.m = make(map[Runtime]*sharedFeed)
		}
		runtimeFeeds.m[rt] = sf
	}
	sf.users++
	var once sync.Once
	return sf.feed, func() {
		once.Do(func() {
			runtimeFeeds.mu.Lock()
			sf.users--
			last := sf.users == 0
			if last {
				delete(runtimeFeeds.m, rt)
			}
			runtimeFeeds.mu.Unlock()
			if last {
				_ = sf.feed.Close()
			}
		})
	}
}
