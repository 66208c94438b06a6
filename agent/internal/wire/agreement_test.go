package wire

import (
	"reflect"
	"strings"
	"testing"
)

type agBlob []byte

// An input refuses a slice that converts to []byte (its element is byte
// itself, under any slice type's name) and accepts one whose element is
// a named byte type, which does not convert.
func TestInputByteSlicesAreThoseThatConvertToBytes(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		refused bool
	}{
		{reflect.TypeOf(struct{ B []byte }{}), true},
		{reflect.TypeOf(struct{ B agBlob }{}), true},
		{reflect.TypeOf(struct{ B []pjByte }{}), false},
		{reflect.TypeOf(struct{ B []int8 }{}), false},
	} {
		if field := tc.typ.Field(0).Type; field.ConvertibleTo(reflect.TypeOf([]byte(nil))) != tc.refused {
			t.Fatalf("%s: the case does not say what reflect's conversion says", field)
		}
		_, err := NewCodec(tc.typ)
		refused := err != nil && strings.Contains(err.Error(), "byte slice")
		if refused != tc.refused {
			t.Errorf("%s: refused as a byte slice = %v (%v), want %v", tc.typ, refused, err, tc.refused)
		}
	}
}
