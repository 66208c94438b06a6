package teahost

import (
	"fmt"
	"math"
	"reflect"
)

// diffPath returns the path of the first place where a and b, two values
// of one type, differ ("" when they do not): ".Items[2].Title", "[\"k\"]",
// "*.N". It follows pointers, slices, maps and interfaces as copyModel
// does, so comparing a model with the copy taken before its Update names
// what that Update changed in place.
func diffPath(a, b reflect.Value) string {
	d := differ{seen: map[[2]uintptr]bool{}}
	p, _ := d.walk(a, b, "")
	return p
}

type differ struct {
	seen map[[2]uintptr]bool
}

func (d *differ) walk(a, b reflect.Value, at string) (string, bool) {
	if a.IsValid() != b.IsValid() {
		return at, true
	}
	if !a.IsValid() {
		return "", false
	}
	switch a.Kind() {
	case reflect.Bool:
		return at, a.Bool() != b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return at, a.Int() != b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return at, a.Uint() != b.Uint()
	case reflect.Float32, reflect.Float64:
		return at, math.Float64bits(a.Float()) != math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		return at, a.Complex() != b.Complex()
	case reflect.String:
		return at, a.String() != b.String()
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return at, a.Pointer() != b.Pointer()
	case reflect.Struct:
		for i := range a.NumField() {
			if p, ok := d.walk(a.Field(i), b.Field(i), at+"."+a.Type().Field(i).Name); ok {
				return p, true
			}
		}
		return "", false
	case reflect.Array:
		return d.elems(a, b, at)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return at, true
		}
		return d.elems(a, b, at)
	case reflect.Pointer, reflect.Interface:
		return d.indirect(a, b, at)
	case reflect.Map:
		return d.entries(a, b, at)
	}
	return "", false
}

func (d *differ) elems(a, b reflect.Value, at string) (string, bool) {
	for i := range a.Len() {
		if p, ok := d.walk(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", at, i)); ok {
			return p, true
		}
	}
	return "", false
}

func (d *differ) indirect(a, b reflect.Value, at string) (string, bool) {
	if a.IsNil() || b.IsNil() {
		return at, a.IsNil() != b.IsNil()
	}
	if a.Kind() == reflect.Interface {
		if a.Elem().Type() != b.Elem().Type() {
			return at, true
		}
		return d.walk(a.Elem(), b.Elem(), at)
	}
	if a.Pointer() == b.Pointer() {
		return "", false // shared, as copyModel shares pointers to library types
	}
	k := [2]uintptr{a.Pointer(), b.Pointer()}
	if d.seen[k] {
		return "", false
	}
	d.seen[k] = true
	if at == "" {
		at = a.Type().Elem().Name()
	}
	return d.walk(a.Elem(), b.Elem(), "(*"+at+")")
}

func (d *differ) entries(a, b reflect.Value, at string) (string, bool) {
	if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
		return at, true
	}
	it := a.MapRange()
	for it.Next() {
		key := fmt.Sprintf("%s[%v]", at, keyLabel(it.Key()))
		bv := b.MapIndex(it.Key())
		if !bv.IsValid() {
			return key, true
		}
		if p, ok := d.walk(it.Value(), bv, key); ok {
			return p, true
		}
	}
	return "", false
}

// keyLabel names a map key in a path by its type alone when it is not a
// plain scalar, so no Model value longer than a number or a short key
// enters a report.
func keyLabel(k reflect.Value) string {
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(k.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(k.Uint())
	}
	return k.Type().String()
}
