package agent

import "context"

type deliveredKey struct{}

// WhenDelivered returns a context whose calls report, through notify, the
// version the call's Message will give the Model: notify runs on the
// host's update goroutine just before update takes the Message, so it is
// told before any Model listener sees that version. A journey binding
// uses it to tell its fire's own Model change from the Messages around it
// (the application's own, the person's) however the goroutines were
// scheduled.
//
// notify is called at most once per dispatched Message, and only on a
// host that numbers its Models and tracks delivery (VersionedModel and
// DispatchTracked, as host/teahost and host/loop do); on any other host,
// or for a call refused before dispatch, it is never called. It must not
// block and must not call the host.
func WhenDelivered(ctx context.Context, notify func(version uint64)) context.Context {
	if notify == nil {
		return ctx
	}
	return context.WithValue(ctx, deliveredKey{}, notify)
}

// deliveredHook is ctx's WhenDelivered hook; nil when none.
func deliveredHook(ctx context.Context) func(uint64) {
	f, _ := ctx.Value(deliveredKey{}).(func(uint64))
	return f
}

// TracksDelivery reports whether the runtime's host numbers its Models and
// tracks delivery, so that a call's WhenDelivered hook is called, and a
// Result's Version is the version its own Message made, not one read
// later.
func (r *Runtime[Model, Msg, P]) TracksDelivery() bool {
	return r.seam.stamp != nil && r.seam.tracker != nil
}
