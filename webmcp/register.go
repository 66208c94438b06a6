package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/foldagent/foldagent/agent"
)

// Registration is a runtime published as tools. It keeps the browser's
// tool set equal to the capabilities the current Model offers until it is
// unregistered. Its methods are safe for concurrent use.
type Registration struct {
	agent Runtime
	// caller is the page's caller key (see looks.go).
	caller string
	mc     ModelContext
	// ctx ends when the registration does; it bounds the wait for the
	// browser's answer to a registration.
	ctx     context.Context
	cancel  context.CancelFunc
	newID   func() string
	onError func(error)
	// exposedTo is Options.ExposedTo, checked.
	exposedTo []string
	forms     map[string]*Form // by capability name
	// skip holds the capabilities not to register imperatively: the
	// forms' own, when the browser derives tools from forms.
	skip map[string]bool
	// The worker's own state, touched by no one else: want is its scratch
	// set of wanted names; lastNames the available names its last pass
	// saw, and settled whether that pass left exactly them live.
	want      map[string]bool
	lastNames []string
	settled   bool

	mu     sync.Mutex // guards everything below
	closed bool
	live   map[string]func() // registered tools: their unregister (abort)
	// order is the names of live, in registration order (for Registered).
	order []string
	// Reconciliation is serialized through one worker: requested counts
	// passes asked for, completed the ones finished, and waiters the
	// Refresh calls waiting for a pass that started after they asked.
	requested, completed uint64
	running              bool
	waiters              []waiter
	stops                []func()
}

type waiter struct {
	gen  uint64
	done chan error
}

// Register publishes opts.Runtime's available capabilities as tools of the
// model context and returns at once: the first reconciliation runs in the
// background (call Refresh to wait for the browser to accept the tool
// set). Unless WithoutFollowingModel, every Model change starts another.
//
// The registration ends when ctx is done or Unregister is called; a ctx
// already done registers nothing.
//
// Register fails, registering nothing, without a Runtime, without a model
// context (ErrNoModelContext: it never pretends), and with Forms on a
// model context that cannot answer form submissions.
func Register(ctx context.Context, opts Options) (*Registration, error) {
	if opts.Runtime == nil {
		return nil, errors.New("webmcp: Register needs Options.Runtime, the bound runtime to publish")
	}
	mc := opts.ModelContext
	if mc == nil {
		mc = PageModelContext()
		if mc == nil {
			return nil, ErrNoModelContext
		}
	}
	r := &Registration{
		agent:   opts.Runtime,
		caller:  newPageKey(),
		mc:      mc,
		newID:   opts.InvocationID,
		onError: opts.OnError,
		live:    map[string]func(){},
		forms:   map[string]*Form{},
		skip:    map[string]bool{},
	}
	if r.newID == nil {
		r.newID = agent.NewInvocationID
	}
	for i, origin := range opts.ExposedTo {
		if err := checkOrigin(origin); err != nil {
			return nil, fmt.Errorf("webmcp: Register: ExposedTo[%d]: %w", i, err)
		}
	}
	r.exposedTo = slices.Clone(opts.ExposedTo)
	var forms FormContext
	if len(opts.Forms) > 0 {
		fc, ok := mc.(FormContext)
		if !ok {
			return nil, fmt.Errorf("webmcp: Register was given Forms, but the model context (%T) cannot answer form submissions: it does not implement FormContext", mc)
		}
		for i, f := range opts.Forms {
			if f == nil {
				return nil, fmt.Errorf("webmcp: Register: Forms[%d] is nil", i)
			}
			if _, dup := r.forms[f.name]; dup {
				return nil, fmt.Errorf("webmcp: Register: capability %q is drawn by two forms", f.name)
			}
			r.forms[f.name] = f
		}
		forms = fc
	}

	// The options are valid: from here on the registration exists.
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if ctx.Err() != nil {
		r.Unregister()
		return r, nil
	}
	if forms != nil {
		if forms.DeclarativeTools() {
			for name := range r.forms {
				r.skip[name] = true
			}
		}
		r.stops = append(r.stops, forms.AnswerForms(slices.Clone(opts.Forms), r.answerForm))
	}
	if !opts.WithoutFollowingModel {
		r.stops = append(r.stops, r.agent.Subscribe(func() { r.schedule() }))
	}
	if done := ctx.Done(); done != nil {
		stop := context.AfterFunc(ctx, r.Unregister)
		r.stops = append(r.stops, func() { stop() })
	}
	r.schedule()
	return r, nil
}

// Registered returns the names of the tools the browser has accepted and
// that are still registered, in the order they were registered.
func (r *Registration) Registered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.order)
}

// Refresh reconciles the tools against the current Model and returns once
// the browser has accepted the resulting tool set, or with the first
// registration the browser refused (the others are still attempted, and
// the refused one is retried on the next reconciliation). It returns
// ctx's error if ctx ends first (the reconciliation goes on), and
// ErrUnregistered after Unregister.
func (r *Registration) Refresh(ctx context.Context) error {
	w := waiter{done: make(chan error, 1)}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrUnregistered
	}
	w.gen = r.requestLocked()
	r.waiters = append(r.waiters, w)
	r.mu.Unlock()
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Unregister stops following the Model and aborts every tool's
// registration. Nothing is registered afterwards: a registration still in
// flight is aborted as soon as the browser accepts it. It is safe to call
// more than once.
func (r *Registration) Unregister() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	aborts := make([]func(), 0, len(r.live))
	for _, name := range r.order {
		aborts = append(aborts, r.live[name])
	}
	clear(r.live)
	r.order = nil
	stops := r.stops
	r.stops = nil
	waiters := r.waiters
	r.waiters = nil
	r.mu.Unlock()
	r.cancel()
	for _, abort := range aborts {
		abort()
	}
	for _, stop := range stops {
		stop()
	}
	for _, w := range waiters {
		w.done <- ErrUnregistered
	}
}

// schedule asks for a reconciliation without waiting for it.
func (r *Registration) schedule() {
	r.mu.Lock()
	if !r.closed {
		r.requestLocked()
	}
	r.mu.Unlock()
}

// requestLocked asks for one more pass and starts the worker if it is
// idle. It returns the pass's generation: the first pass that starts after
// this call covers it.
func (r *Registration) requestLocked() uint64 {
	r.requested++
	if !r.running {
		r.running = true
		go r.work()
	}
	return r.requested
}

// work runs passes until none is pending. Requests that arrive during a
// pass are coalesced into the next one, so a burst of Model changes costs
// at most two passes, and passes never overlap: a capability cannot be
// registered twice.
func (r *Registration) work() {
	for {
		r.mu.Lock()
		if r.closed || r.completed == r.requested {
			r.running = false
			r.mu.Unlock()
			return
		}
		target := r.requested
		r.mu.Unlock()

		err := r.reconcile()

		r.mu.Lock()
		r.completed = target
		var ready []waiter
		kept := r.waiters[:0]
		for _, w := range r.waiters {
			if w.gen <= target {
				ready = append(ready, w)
			} else {
				kept = append(kept, w)
			}
		}
		r.waiters = kept
		r.mu.Unlock()
		for _, w := range ready {
			w.done <- err
		}
		if err != nil && len(ready) == 0 && !errors.Is(err, ErrUnregistered) {
			r.report(err)
		}
	}
}

// reconcile makes the registered tools equal to the available
// capabilities: it aborts the registrations of capabilities that left,
// then registers the new ones one at a time, recording each only once the
// browser has accepted it. It returns the first failure after trying
// every capability.
func (r *Registration) reconcile() error {
	descs, availErr := r.available()
	if descs == nil && availErr != nil {
		// The Model could not be read: keep the tools as they are rather
		// than unregistering everything over one failed read.
		return fmt.Errorf("webmcp: reading the available capabilities: %w", availErr)
	}
	// Fast path: the same capabilities as the last pass, which left every
	// one of them live. Most Model changes leave availability alone.
	if availErr == nil && r.settled && sameNames(descs, r.lastNames) {
		return nil
	}
	r.settled = false
	r.lastNames = r.lastNames[:0]
	for _, d := range descs {
		r.lastNames = append(r.lastNames, d.Name)
	}

	// want is reused from pass to pass (passes never overlap), so a pass
	// that changes nothing allocates nothing for it.
	if r.want == nil {
		r.want = make(map[string]bool, len(descs))
	}
	want := r.want
	clear(want)
	for _, d := range descs {
		if !r.skip[d.Name] {
			want[d.Name] = true
		}
	}

	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrUnregistered
	}
	var aborts []func()
	if len(r.order) > len(want) || !r.allLiveWantedLocked(want) {
		kept := r.order[:0]
		for _, name := range r.order {
			if want[name] {
				kept = append(kept, name)
				continue
			}
			aborts = append(aborts, r.live[name])
			delete(r.live, name)
		}
		clear(r.order[len(kept):])
		r.order = kept
	}
	var missing []agent.Descriptor
	for _, d := range descs {
		if want[d.Name] && r.live[d.Name] == nil {
			missing = append(missing, d)
		}
	}
	r.mu.Unlock()
	for _, abort := range aborts {
		abort()
	}

	first := availErr
	if first != nil {
		first = fmt.Errorf("webmcp: reading the available capabilities: %w", first)
	}
	for _, d := range missing {
		r.mu.Lock()
		closed := r.closed
		r.mu.Unlock()
		if closed {
			return ErrUnregistered
		}
		unregister, err := r.registerTool(r.ctx, d)
		r.mu.Lock()
		switch {
		case err != nil:
			r.mu.Unlock()
			if first == nil {
				first = fmt.Errorf("webmcp: the browser refused tool %q: %w", d.Name, err)
			}
		case r.closed:
			// Unregister landed while the browser was registering: the
			// tool it just accepted is withdrawn at once.
			r.mu.Unlock()
			unregister()
			return ErrUnregistered
		default:
			r.live[d.Name] = unregister
			r.order = append(r.order, d.Name)
			r.mu.Unlock()
		}
	}
	r.settled = first == nil
	return first
}

func sameNames(descs []agent.Descriptor, names []string) bool {
	if len(descs) != len(names) {
		return false
	}
	for i, d := range descs {
		if d.Name != names[i] {
			return false
		}
	}
	return true
}

func (r *Registration) allLiveWantedLocked(want map[string]bool) bool {
	for _, name := range r.order {
		if !want[name] {
			return false
		}
	}
	return true
}

// registerTool hands one tool to the model context, containing a panic
// in a stand-in or adapter as a failed registration.
func (r *Registration) registerTool(ctx context.Context, d agent.Descriptor) (unregister func(), err error) {
	defer func() {
		if v := recover(); v != nil {
			unregister, err = nil, fmt.Errorf("webmcp: the model context panicked registering %q: %v", d.Name, v)
		}
	}()
	name := d.Name
	unregister, err = r.mc.RegisterTool(ctx, Tool{
		Name:        name,
		Description: d.Description,
		InputSchema: d.InputSchema,
		Annotations: annotationsOf(d),
		ExposedTo:   r.exposedTo,
		Execute: func(ctx context.Context, input json.RawMessage) ToolResult {
			return r.execute(ctx, name, input)
		},
	})
	if err == nil && unregister == nil {
		unregister = func() {}
	}
	return unregister, err
}

// checkOrigin refuses what registerTool would reject with a SecurityError
// (so the registration would fail on every pass): a value that is not a
// URL with a host, or whose origin is not potentially trustworthy.
//
// It reads the URL itself instead of calling url.Parse and net.ParseIP:
// those two link net/url, net, net/netip and unique into the page's
// download (about 65 KB of its gzip) for one check at registration. A
// test holds it to the verdict of url.Parse and net.ParseIP.
func checkOrigin(origin string) error {
	scheme, host, ok := originParts(origin)
	if !ok {
		return fmt.Errorf("%q is not an origin (scheme://host[:port])", origin)
	}
	switch scheme {
	case "https", "wss":
		return nil
	case "http", "ws":
		if host == "localhost" || strings.HasSuffix(host, ".localhost") || isLoopbackIP(host) {
			return nil
		}
	}
	return fmt.Errorf("%q is not a potentially trustworthy origin; use https, or http on a loopback host", origin)
}

// originParts splits scheme://[userinfo@]host[:port][/path...] into its
// scheme, lowercased as url.Parse does, and its host (unbracketed). ok is
// false when there is no scheme or no host, when the port is not
// digits, when brackets hold anything but an IPv6 address, and when the
// host holds a character a browser refuses in one (see forbiddenInHost).
func originParts(origin string) (scheme, host string, ok bool) {
	scheme, rest, found := strings.Cut(origin, "://")
	if !found || scheme == "" || !isScheme(scheme) {
		return "", "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	port := ""
	bracketed := strings.HasPrefix(rest, "[")
	if bracketed {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", "", false
		}
		host, port = rest[1:end], rest[end+1:]
		if port != "" && port[0] != ':' {
			return "", "", false
		}
	} else if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		host, port = rest[:i], rest[i:]
	} else {
		host = rest
	}
	for i := 1; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "", "", false
		}
	}
	if bracketed {
		if _, ok := parseIPv6(host); !ok {
			return "", "", false // only an IPv6 address goes in brackets
		}
	} else if strings.ContainsFunc(host, forbiddenInHost) {
		return "", "", false
	}
	return lowerASCII(scheme), host, rest != ""
}

// forbiddenInHost reports whether c may not appear in a host: the URL
// standard's forbidden host code points and the controls, which a
// browser refuses, and "%" (see originParts).
func forbiddenInHost(c rune) bool {
	return c <= ' ' || c == 0x7f || strings.ContainsRune("#%/:<>?@[\\]^|", c)
}

// lowerASCII is strings.ToLower for a scheme, which isScheme has held to
// ASCII, without the Unicode code strings.ToLower would link into the page.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, "+", "-" or ".".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// isLoopbackIP reports whether host is an IP address in 127.0.0.0/8 or
// ::1, IPv4-mapped IPv6 included, in the forms net.ParseIP accepts.
func isLoopbackIP(host string) bool {
	if v4, ok := parseIPv4(host); ok {
		return v4[0] == 127
	}
	ip, ok := parseIPv6(host)
	if !ok {
		return false
	}
	if [10]byte(ip[:10]) == [10]byte{} && ip[10] == 0xff && ip[11] == 0xff {
		return ip[12] == 127
	}
	return ip == [16]byte{15: 1}
}

// parseIPv4 parses dotted decimal a.b.c.d, without leading zeros.
func parseIPv4(s string) (ip [4]byte, ok bool) {
	for i := range 4 {
		if i > 0 {
			if s == "" || s[0] != '.' {
				return ip, false
			}
			s = s[1:]
		}
		n, digits := 0, 0
		for digits < len(s) && '0' <= s[digits] && s[digits] <= '9' {
			n = n*10 + int(s[digits]-'0')
			digits++
			if n > 255 {
				return ip, false
			}
		}
		if digits == 0 || digits > 1 && s[0] == '0' {
			return ip, false
		}
		ip[i], s = byte(n), s[digits:]
	}
	return ip, s == ""
}

// parseIPv6 parses RFC 4291 text: eight groups of up to four hex digits,
// one "::" standing for a run of zero groups, the last 32 bits optionally
// in dotted decimal.
func parseIPv6(s string) (ip [16]byte, ok bool) {
	var groups []uint16
	ellipsis := -1 // index in groups where "::" stood
	if strings.HasPrefix(s, "::") {
		ellipsis, s = 0, s[2:]
	}
	for s != "" {
		if len(groups) <= 6 && strings.Contains(s, ".") && !strings.Contains(s, ":") {
			v4, ok := parseIPv4(s)
			if !ok {
				return ip, false
			}
			groups = append(groups, uint16(v4[0])<<8|uint16(v4[1]), uint16(v4[2])<<8|uint16(v4[3]))
			s = ""
			break
		}
		n, digits := 0, 0
		for digits < len(s) && digits < 5 && isHexDigit(s[digits]) {
			n = n<<4 | hexValue(s[digits])
			digits++
		}
		if digits == 0 || digits > 4 {
			return ip, false
		}
		groups, s = append(groups, uint16(n)), s[digits:]
		switch {
		case s == "":
		case strings.HasPrefix(s, "::") && ellipsis < 0:
			ellipsis, s = len(groups), s[2:]
		case s[0] == ':' && len(s) > 1:
			s = s[1:]
		default:
			return ip, false
		}
		if len(groups) > 8 {
			return ip, false
		}
	}
	switch {
	case ellipsis < 0 && len(groups) != 8, ellipsis >= 0 && len(groups) > 7:
		return ip, false
	case ellipsis >= 0:
		zeros := make([]uint16, 8-len(groups))
		groups = append(groups[:ellipsis], append(zeros, groups[ellipsis:]...)...)
	}
	for i, g := range groups {
		ip[2*i], ip[2*i+1] = byte(g>>8), byte(g)
	}
	return ip, true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexValue(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c <= 'F':
		return int(c-'A') + 10
	default:
		return int(c-'a') + 10
	}
}

func (r *Registration) report(err error) {
	if r.onError == nil || err == nil {
		return
	}
	defer func() { _ = recover() }() // an OnError that panics must not take the page down
	r.onError(err)
}
