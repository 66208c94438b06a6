package teahost

import (
	"bytes"
	"hash/maphash"
	"math"
	"reflect"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// The Host hands each Model to listeners and agents as a snapshot, and a
// snapshot is only a snapshot if nothing changes it afterwards. Two checks
// look for the ways an Update can break that.
//
// The shallow check (on by default, about the cost of copying the model
// struct once per Message) applies to pointer models, where the usual mistake
// lives: `func (m *model) Update(...) { m.n++; return m, nil }` changes the
// very value the previous snapshot points at. Before Update it copies the
// struct the model points to; after Update it compares that struct's memory
// with the copy. Any difference means the previous snapshot was changed in
// place, whether Update returned the same pointer or a new one.
//
// The deep check (Options.DeepCheck) also catches value models that share
// memory with their predecessor — a slice element or map entry assigned in
// place — by fingerprinting everything reachable from the previous model
// before and after Update. It costs time proportional to the whole model,
// twice per Message, so it is meant for tests and debugging.

// shallowCheck remembers the struct a pointer model points to.
type shallowCheck struct {
	typ    reflect.Type  // type of the pointer
	shadow reflect.Value // addressable copy of the pointee
	ptr    unsafe.Pointer
	armed  bool
}

// before copies the pointee of prev, if prev is a non-nil pointer to
// something of non-zero size.
func (c *shallowCheck) before(prev any) {
	c.armed = false
	v := reflect.ValueOf(prev)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Type().Elem().Size() == 0 {
		return
	}
	if c.typ != v.Type() {
		c.typ = v.Type()
		c.shadow = reflect.New(v.Type().Elem()).Elem()
	}
	c.shadow.Set(v.Elem())
	c.ptr = v.UnsafePointer()
	c.armed = true
}

// changed reports whether the pointee copied by before differs now, and
// the first field that does ("(*model).N").
func (c *shallowCheck) changed() (path string, changed bool) {
	if !c.armed {
		return "", false
	}
	size := c.typ.Elem().Size()
	now := unsafe.Slice((*byte)(c.ptr), size)
	then := unsafe.Slice((*byte)(c.shadow.Addr().UnsafePointer()), size)
	if bytes.Equal(now, then) {
		return "", false
	}
	elem := c.typ.Elem()
	path = "(*" + elem.Name() + ")"
	if elem.Kind() == reflect.Struct {
		for i := range elem.NumField() {
			f := elem.Field(i)
			end := f.Offset + f.Type.Size()
			if !bytes.Equal(now[f.Offset:end], then[f.Offset:end]) {
				return path + "." + f.Name, true
			}
		}
	}
	return path, true
}

// release drops the references the copy holds.
func (c *shallowCheck) release() {
	if c.armed {
		c.shadow.SetZero()
		c.ptr = nil
		c.armed = false
	}
}

var fingerprintSeed = maphash.MakeSeed()

// fingerprint hashes everything reachable from v: scalar values, string and
// slice contents, map entries (independently of iteration order), and what
// pointers and interfaces refer to, following each pointer once. Functions
// and channels count by identity. Equal fingerprints before and after an
// Update mean, with overwhelming probability, that nothing reachable from
// the model changed.
func fingerprint(v any) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	f := fingerprinter{h: &h}
	f.value(reflect.ValueOf(v))
	return h.Sum64()
}

type visit struct {
	ptr uintptr
	typ reflect.Type
}

type fingerprinter struct {
	h    *maphash.Hash
	seen map[visit]bool
}

func (f *fingerprinter) u64(x uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(x >> (8 * i))
	}
	f.h.Write(b[:])
}

func (f *fingerprinter) value(v reflect.Value) {
	if !v.IsValid() {
		f.h.WriteByte(0)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			f.h.WriteByte(1)
		} else {
			f.h.WriteByte(2)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		f.u64(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		f.u64(math.Float64bits(real(c)))
		f.u64(math.Float64bits(imag(c)))
	case reflect.String:
		f.u64(uint64(v.Len()))
		f.h.WriteString(v.String())
	case reflect.Slice:
		if v.IsNil() {
			f.h.WriteByte(0)
			return
		}
		f.u64(uint64(v.Len()))
		if v.Type().Elem().Kind() == reflect.Uint8 {
			f.h.Write(v.Bytes())
			return
		}
		for i := range v.Len() {
			f.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			f.value(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f.value(v.Field(i))
		}
	case reflect.Map:
		if v.IsNil() {
			f.h.WriteByte(0)
			return
		}
		f.u64(uint64(v.Len()))
		// Sum per-entry hashes so that iteration order does not matter.
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			var eh maphash.Hash
			eh.SetSeed(fingerprintSeed)
			sub := fingerprinter{h: &eh, seen: f.seen}
			sub.value(it.Key())
			sub.value(it.Value())
			f.seen = sub.seen
			sum += eh.Sum64()
		}
		f.u64(sum)
	case reflect.Pointer:
		if v.IsNil() {
			f.h.WriteByte(0)
			return
		}
		key := visit{v.Pointer(), v.Type()}
		if f.seen[key] {
			f.u64(uint64(key.ptr))
			return
		}
		if f.seen == nil {
			f.seen = map[visit]bool{}
		}
		f.seen[key] = true
		f.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			f.h.WriteByte(0)
			return
		}
		f.h.WriteString(v.Elem().Type().String())
		f.value(v.Elem())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		f.u64(uint64(v.Pointer()))
	}
}

// checkBefore starts the model-obligation check for an Update of prev, if
// one applies (only with Options.ShareModel: a copied snapshot cannot be
// changed by the application). It returns what checkAfter needs.
func (h *Host[M, Msg]) checkBefore(prev tea.Model) (copied tea.Model) {
	switch {
	case !h.opts.ShareModel:
	case h.opts.DeepCheck:
		return copyModel(prev)
	case !h.opts.NoCheck:
		h.shallow.before(prev)
	}
	return nil
}

// checkAfter reports whether the Update just made changed prev in place,
// and where.
func (h *Host[M, Msg]) checkAfter(prev, copied tea.Model) (path string, mutated bool) {
	switch {
	case !h.opts.ShareModel:
		return "", false
	case h.opts.DeepCheck:
		path = diffPath(reflect.ValueOf(&prev).Elem(), reflect.ValueOf(&copied).Elem())
		return path, path != ""
	case !h.opts.NoCheck:
		defer h.shallow.release()
		return h.shallow.changed()
	}
	return "", false
}
