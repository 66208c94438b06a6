//go:build js

package wire

import "reflect"

// A browser build decodes validated payloads with encoding/json alone:
// the decoder of decode.go is only ever an optimisation whose result is
// encoding/json's, and in a page, where a call is decoded now and then,
// its code costs the download more than its speed gives back (about
// 3 KB of the todo-web page's gzip).
type structPlan struct{}

func compilePlan(reflect.Type) *structPlan { return nil }

func (*structPlan) decode([]byte, reflect.Value) bool { return false }
