package agent

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Versioned is the optional seam for a host that numbers its Models: a
// version that grows by one for every Message update applies. host/loop
// and host/teahost implement it.
//
// VersionedModel returns the current Model and its version, published
// together, so the pair is consistent. ModelAt returns the Model of an
// earlier version while the host still keeps it (host/loop and
// host/teahost keep the last 128), and false once it does not. A host
// reports delivery (DeliveryTracker) on its update goroutine just before
// update takes the Message, so the version it is at then is the one
// before the Message's own.
//
// With it, every read an agent gets (Runtime.ContextRead, ResourceRead,
// Offered) and every Result carries the version it was taken at, and a
// contract may declare watches (see Watch). Without it, versions are 0
// and Bind refuses a contract that declares a watch.
type Versioned[Model any] interface {
	VersionedModel() (Model, uint64)
	ModelAt(version uint64) (Model, bool)
}

// Watch is a named, typed projection of the Model that a capability's
// call depends on: the open product, the order under review, the selected
// todo. Declare it once with Watching and list it in each capability that
// depends on it (Variant.Watches). The zero Watch is not valid.
//
// A call made by a caller the runtime knows (see WithCaller) is judged
// against what that caller last saw: when a watched value differs between
// the caller's last look and the snapshot the call runs on, the call
// follows the capability's Freshness policy. The value's JSON is compared,
// so two values are the same exactly when they encode the same.
type Watch[Model any] struct {
	w *watch[Model]
}

type watch[Model any] struct {
	_    incomparable // never compared: no equality function compiled
	name string
	proj Projection[Model]
	// comparable is true when V's values compare with ==; others are
	// compared by their JSON.
	comparable bool
}

// Watching declares a watch named name. It panics, naming the watch, when
// name is not 1-128 characters of [a-zA-Z0-9_-], read is nil, or V cannot
// be projected (see Project). The name is what a refusal names when the
// value moved: an authored word, such as "openProduct".
func Watching[Model, V any](name string, read func(model Model) V) Watch[Model] {
	if !ValidName(name) {
		panic(fmt.Sprintf("agent: watch %q: the name must be 1-128 characters of [a-zA-Z0-9_-]", name))
	}
	if read == nil {
		panic(fmt.Sprintf("agent: watch %q needs a read function", name))
	}
	p, err := newProjection(read)
	if err != nil {
		panic(fmt.Sprintf("agent: watch %q: %v", name, err))
	}
	return Watch[Model]{w: &watch[Model]{name: name, proj: p, comparable: strictlyComparable(reflect.TypeOf((*V)(nil)).Elem())}}
}

// Name returns the watch's name.
func (w Watch[Model]) Name() string {
	if w.w == nil {
		return ""
	}
	return w.w.name
}

// value reads the watched value from model in a form that compares with
// ==: the value itself when its type is comparable (and holds nothing
// that is not, such as an interface holding a slice), its JSON as a
// string otherwise. A panicking or unencodable projection is a defect of
// the capability named subject.
func (w *watch[Model]) value(model Model, subject string) (out any, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, &DefectError{Capability: subject, Stage: "watch", Cause: panicError(v)}
		}
	}()
	v := w.proj.p.read(model)
	if w.comparable {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &DefectError{Capability: subject, Stage: "watch", Cause: fmt.Errorf("watch %q cannot be encoded: %w", w.name, err)}
	}
	return string(b), nil
}

// strictlyComparable reports whether == on values of t never panics: t is
// comparable and holds no interface, whose dynamic value might not be.
func strictlyComparable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Array:
		return strictlyComparable(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !strictlyComparable(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return t.Comparable()
}

// Freshness says what a call does when something it watches moved since
// its caller last looked. The words are the journey notes' freshness
// policies. The zero value is StaleRefuse.
type Freshness string

// Freshness policies.
const (
	// StaleRefuse refuses the call with a *StaleViewError: nothing is
	// dispatched, and the caller reads again (the context, a resource,
	// the offered list, or any result) before it calls again. A call that
	// cites a version (Invocation.SeenVersion) is judged against that
	// version, even when the caller has read since. The default.
	StaleRefuse Freshness = "refuse"
	// StaleRequireAck refuses the call as StaleRefuse does until the caller has
	// read again: a read that shows it the current values acknowledges
	// the move, and the call then proceeds even when it still cites the
	// version it planned against; its Result names what moved.
	StaleRequireAck Freshness = "require-ack"
	// StaleDisclose lets the call proceed, and its Result names what moved
	// (Result.Moved), so the caller learns it acted on a newer state.
	StaleDisclose Freshness = "disclose"
)

func (f Freshness) valid() bool {
	switch f {
	case "", StaleRefuse, StaleRequireAck, StaleDisclose:
		return true
	}
	return false
}

// Requirement is a condition under which a capability is offered, with
// the sentence that says why it is not offered when the condition fails.
// List them in Variant.Requires. Says is authored: a sentence written in
// the contract for the agent (such as "The person gives the delivery
// address first."), served verbatim as UnavailableError.Reason. It must
// not be built from Model data.
type Requirement[Model any] struct {
	// Holds reports whether the condition holds in model. Required.
	Holds func(model Model) bool
	// Says is the sentence an agent is told when Holds is false.
	// Required.
	Says string
}
