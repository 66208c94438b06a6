package wire

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// This file reads the bounds a capability's input declares on its fields,
// with a struct tag named "bounds" holding JSON Schema keywords:
//
//	Title string   `json:"title" bounds:"minLength=1,maxLength=200"`
//	Qty   int      `json:"qty" bounds:"minimum=1,maximum=99"`
//	Tags  []string `json:"tags" bounds:"maxItems=10"`
//
// The keywords are the schema's own (minLength and maxLength for a
// string, counted in Unicode code points as JSON Schema counts them;
// minimum and maximum for a number; minItems and maxItems for a slice),
// so what the tag says is what the derived schema advertises, and the
// validator enforces exactly that on every surface. A mistake in a tag (an
// unknown keyword, one that does not fit the field's type, a bound outside
// what the type can hold, a minimum above the maximum) fails the
// capability's declaration, naming the field.

// boundsKeywords are the keywords a bounds tag may use.
var boundsKeywords = []string{"minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"}

// applyBounds sets the bounds the tag declares on fs, the schema derived
// for a field of type t.
func applyBounds(fs *derived, t reflect.Type, tag string) error {
	if fs.supplied != nil || fs.verbatim != nil {
		return fmt.Errorf("%s supplies its own schema (WireSchema): declare its bounds there", t)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// The type's own range (derive sets it for the sized integers) is the
	// widest a numeric bound may be.
	typeMin, typeMax := fs.min, fs.max
	seen := map[string]bool{}
	for rest, more := tag, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ",")
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || value == "" {
			return fmt.Errorf("%q is not KEYWORD=VALUE (keywords: %s)", part, strings.Join(boundsKeywords, ", "))
		}
		if seen[key] {
			return fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "minLength", "maxLength":
			err = lengthBound(fs, t, key, value)
		case "minItems", "maxItems":
			err = itemsBound(fs, t, key, value)
		case "minimum", "maximum":
			err = numberBound(fs, t, key, value, typeMin, typeMax)
		default:
			return fmt.Errorf("%s is not a bounds keyword (keywords: %s)", key, strings.Join(boundsKeywords, ", "))
		}
		if err != nil {
			return err
		}
	}
	switch {
	case fs.minLength != nil && fs.maxLength != nil && *fs.minLength > *fs.maxLength:
		return fmt.Errorf("minLength %d is above maxLength %d", *fs.minLength, *fs.maxLength)
	case fs.minItems != nil && fs.maxItems != nil && *fs.minItems > *fs.maxItems:
		return fmt.Errorf("minItems %d is above maxItems %d", *fs.minItems, *fs.maxItems)
	case fs.min != nil && fs.max != nil && *fs.min > *fs.max:
		return fmt.Errorf("minimum %v is above maximum %v", *fs.min, *fs.max)
	}
	return nil
}

func count(key, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%s: want a count, a whole number of 0 or more", key, value)
	}
	return n, nil
}

func lengthBound(fs *derived, t reflect.Type, key, value string) error {
	if t.Kind() != reflect.String {
		return fmt.Errorf("%s bounds a string, and the field is %s", key, t)
	}
	n, err := count(key, value)
	if err != nil {
		return err
	}
	if key == "minLength" {
		fs.minLength = &n
	} else {
		fs.maxLength = &n
	}
	return nil
}

func itemsBound(fs *derived, t reflect.Type, key, value string) error {
	if t.Kind() != reflect.Slice {
		return fmt.Errorf("%s bounds a slice, and the field is %s", key, t)
	}
	n, err := count(key, value)
	if err != nil {
		return err
	}
	if key == "minItems" {
		fs.minItems = &n
	} else {
		fs.maxItems = &n
	}
	return nil
}

func numberBound(fs *derived, t reflect.Type, key, value string, typeMin, typeMax *float64) error {
	integer := false
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		integer = true
	case reflect.Float32, reflect.Float64:
	default:
		return fmt.Errorf("%s bounds a number, and the field is %s", key, t)
	}
	v, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return fmt.Errorf("%s=%s: want a number", key, value)
	}
	if integer && v != math.Trunc(v) {
		return fmt.Errorf("%s=%s: the field is %s, which holds whole numbers", key, value, t)
	}
	if typeMin != nil && v < *typeMin || typeMax != nil && v > *typeMax {
		return fmt.Errorf("%s=%s is outside what %s holds", key, value, t)
	}
	if key == "minimum" {
		fs.min = &v
	} else {
		fs.max = &v
	}
	return nil
}
