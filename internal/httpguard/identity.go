package httpguard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Identity is the key a runtime, a session or a task is owned by, derived
// from everything the verifier returned but the token's expiry: UserID,
// Scopes as a set, and Extra by value, never a display name alone, so two
// tokens for one user name with different roles are two identities. The encoding names every type and follows pointers, so two values
// a runtime could tell apart get different keys; it is hashed, so the key
// keeps no claim of the token in memory.
func Identity(info *auth.TokenInfo) (string, error) {
	scopes := slices.Clone(info.Scopes)
	slices.Sort(scopes)
	e := &keyEncoder{}
	e.str(info.UserID)
	e.str(strconv.Itoa(len(scopes)))
	for _, s := range scopes {
		e.str(s)
	}
	if err := e.value(reflect.ValueOf(info.Extra), 0); err != nil {
		return "", err
	}
	sum := sha256.Sum256(e.buf.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

// keyEncoder writes a value as an unambiguous byte string: each item is
// tagged with its kind and type, and strings carry their length.
type keyEncoder struct{ buf bytes.Buffer }

// maxKeyDepth bounds how deep defaultSessionKey follows Extra, which also
// stops a cycle of pointers.
const maxKeyDepth = 64

var timeType = reflect.TypeFor[time.Time]()

func (e *keyEncoder) str(s string) {
	e.buf.WriteString(strconv.Itoa(len(s)))
	e.buf.WriteByte(':')
	e.buf.WriteString(s)
}

func (e *keyEncoder) typ(t reflect.Type) {
	e.str(t.PkgPath() + "." + t.String())
}

func (e *keyEncoder) value(v reflect.Value, depth int) error {
	if depth > maxKeyDepth {
		return errors.New("TokenInfo.Extra nests too deep (or holds a cycle) for the default session key")
	}
	if !v.IsValid() {
		e.buf.WriteByte('n')
		return nil
	}
	e.typ(v.Type())
	if v.Type() == timeType && v.CanInterface() {
		e.str(v.Interface().(time.Time).UTC().Format(time.RFC3339Nano))
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		e.str(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.str(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.str(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		e.str(strconv.FormatUint(math.Float64bits(v.Float()), 16))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		e.str(strconv.FormatUint(math.Float64bits(real(c)), 16) + "," + strconv.FormatUint(math.Float64bits(imag(c)), 16))
	case reflect.String:
		e.str(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			e.buf.WriteByte('n')
			return nil
		}
		e.str(strconv.Itoa(v.Len()))
		for i := range v.Len() {
			if err := e.value(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.IsNil() {
			e.buf.WriteByte('n')
			return nil
		}
		entries := make([][]byte, 0, v.Len())
		for iter := v.MapRange(); iter.Next(); {
			sub := &keyEncoder{}
			if err := sub.value(iter.Key(), depth+1); err != nil {
				return err
			}
			if err := sub.value(iter.Value(), depth+1); err != nil {
				return err
			}
			entries = append(entries, sub.buf.Bytes())
		}
		slices.SortFunc(entries, bytes.Compare)
		e.str(strconv.Itoa(len(entries)))
		for _, b := range entries {
			e.str(string(b))
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			e.str(t.Field(i).Name)
			if err := e.value(v.Field(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.buf.WriteByte('n')
			return nil
		}
		return e.value(v.Elem(), depth+1)
	default:
		return fmt.Errorf("TokenInfo.Extra holds a %s, which an identity cannot be compared by; supply a key of your own", v.Type())
	}
	return nil
}
