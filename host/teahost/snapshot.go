package teahost

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// What agents read is a copy. Bubble Tea components (bubbles' list and
// table, huh's forms) keep slices and pointers that their Update changes
// in place, so a model the application's Update has returned is not a
// value anyone else may read while the program runs: the next Update
// writes into the memory the previous one shared. The Host therefore
// publishes, for every Update, a deep copy of the model it returned, made
// on Bubble Tea's event loop right after that Update and before the next
// one can start. The program keeps running on its own model; agents,
// listeners and ModelAt read copies that nothing writes to again.
//
// What is copied: everything reachable from the model through pointers,
// slices, maps and interfaces, unexported fields included, with shared
// pointers copied once (so two fields that pointed at one value still do).
// What is shared, not copied: strings (immutable), functions and channels
// (by identity), pointers to types of the standard library (timers,
// mutexes, regexps, files), which hold runtime state a copy would break,
// and pointers to values that hold a lock or an atomic (a store a Cmd
// writes under its own mutex): they are shared state, not the model's.
// A model with none of the copied kinds is copied by a plain assignment.

// copyModel returns a deep copy of v (see above). The result has v's type.
func copyModel[M any](v M) M {
	t := reflect.TypeFor[M]()
	if !refsOf(t) {
		return v
	}
	out := reflect.New(t).Elem()
	out.Set(reflect.ValueOf(&v).Elem())
	c := copier{}
	c.deepen(out)
	return out.Interface().(M)
}

// copier deepens one model; seen maps each pointer and map already copied
// to its copy, so aliasing and cycles survive.
type copier struct {
	seen map[visit]reflect.Value
}

// settable returns v (addressable) as a value that may be set even when it
// was reached through an unexported field.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// deepen replaces, in the addressable value v, everything v refers to with
// copies of it.
func (c *copier) deepen(v reflect.Value) {
	t := v.Type()
	if !refsOf(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		c.pointer(settable(v))
	case reflect.Slice:
		c.slice(settable(v))
	case reflect.Map:
		c.mapping(settable(v))
	case reflect.Interface:
		v = settable(v)
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if !refsOf(e.Type()) {
			return
		}
		n := reflect.New(e.Type()).Elem()
		n.Set(e)
		c.deepen(n)
		v.Set(n)
	case reflect.Struct:
		for _, i := range refFields(t) {
			c.deepen(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			c.deepen(v.Index(i))
		}
	}
}

func (c *copier) remember(k visit, v reflect.Value) {
	if c.seen == nil {
		c.seen = map[visit]reflect.Value{}
	}
	c.seen[k] = v
}

func (c *copier) pointer(v reflect.Value) {
	if v.IsNil() {
		return
	}
	k := visit{v.Pointer(), v.Type()}
	if n, ok := c.seen[k]; ok {
		v.Set(n)
		return
	}
	n := reflect.New(v.Type().Elem())
	n.Elem().Set(settable(v.Elem()))
	c.remember(k, n)
	c.deepen(n.Elem())
	v.Set(n)
}

func (c *copier) slice(v reflect.Value) {
	if v.IsNil() {
		return
	}
	n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(n, v)
	if refsOf(v.Type().Elem()) {
		for i := range n.Len() {
			c.deepen(n.Index(i))
		}
	}
	v.Set(n)
}

func (c *copier) mapping(v reflect.Value) {
	if v.IsNil() {
		return
	}
	k := visit{v.Pointer(), v.Type()}
	if n, ok := c.seen[k]; ok {
		v.Set(n)
		return
	}
	t := v.Type()
	n := reflect.MakeMapWithSize(t, v.Len())
	c.remember(k, n)
	deepKey, deepVal := refsOf(t.Key()), refsOf(t.Elem())
	it := v.MapRange()
	for it.Next() {
		key, val := it.Key(), it.Value()
		if deepKey {
			kc := reflect.New(t.Key()).Elem()
			kc.Set(key)
			c.deepen(kc)
			key = kc
		}
		if deepVal {
			vc := reflect.New(t.Elem()).Elem()
			vc.Set(val)
			c.deepen(vc)
			val = vc
		}
		n.SetMapIndex(key, val)
	}
	v.Set(n)
}

// typePlan is what the copier knows of a type: whether a value of it
// refers to memory a copy must not share, and which struct fields do.
type typePlan struct {
	refs   bool
	fields []int
}

var plans sync.Map // reflect.Type -> *typePlan

func planOf(t reflect.Type) *typePlan {
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	p := &typePlan{}
	switch t.Kind() {
	case reflect.Pointer:
		p.refs = !sharedPointee(t.Elem()) && !synchronized(t.Elem())
	case reflect.Slice, reflect.Map, reflect.Interface:
		p.refs = true
	case reflect.Array:
		p.refs = t.Len() > 0 && refsOf(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if refsOf(t.Field(i).Type) {
				p.fields = append(p.fields, i)
			}
		}
		p.refs = len(p.fields) > 0
	}
	actual, _ := plans.LoadOrStore(t, p)
	return actual.(*typePlan)
}

func refsOf(t reflect.Type) bool     { return planOf(t).refs }
func refFields(t reflect.Type) []int { return planOf(t).fields }

// synchronized reports whether t holds, by value, a lock or an atomic (a
// type of package sync or sync/atomic): a pointer to it is shared state
// other goroutines (a Cmd) may lock and write, not the model's data, so it
// is shared rather than copied, as the standard library's are.
func synchronized(t reflect.Type) bool {
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		return true
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if synchronized(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return synchronized(t.Elem())
	}
	return false
}

// sharedPointee reports whether a pointer to t is shared rather than
// copied: t is a type of the standard library, whose values hold state
// (a runtime timer, a lock, a file descriptor) that a copy would break.
func sharedPointee(t reflect.Type) bool {
	path := t.PkgPath()
	if path == "" || path == "main" {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// snapshot is what the Host publishes for the model m: a deep copy, or m
// itself with Options.ShareModel. It runs on Bubble Tea's event loop (or
// in New), before anything else can change m.
func (h *Host[M, Msg]) snapshot(m M) M {
	if h.opts.ShareModel {
		return m
	}
	return copyModel(m)
}
