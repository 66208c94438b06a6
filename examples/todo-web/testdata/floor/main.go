// Command floor is the page's yardstick: a js/wasm program that uses only
// the standard packages the page needs (syscall/js, encoding/json,
// context, time, fmt, reflect, slices, strings, sync, math/rand/v2), each
// for what the page uses it for, and nothing of foldagent. The size test
// builds it with the page's flags and bounds the page's download as a
// multiple of this one's.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall/js"
	"time"
)

type item struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done,omitempty"`
}

func main() {
	var mu sync.Mutex
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	items := []item{{ID: fmt.Sprint(rand.IntN(10)), Title: "a"}}
	js.Global().Set("call", js.FuncOf(func(this js.Value, args []js.Value) any {
		mu.Lock()
		defer mu.Unlock()
		var in map[string]any
		if err := json.Unmarshal([]byte(args[0].String()), &in); err != nil {
			return fmt.Errorf("bad input: %w", err).Error()
		}
		keys := make([]string, 0, len(in))
		for k := range in {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		items = append(items, item{ID: strings.Join(keys, ","), Title: reflect.TypeOf(in).String()})
		b, _ := json.Marshal(items)
		return string(b) + time.Now().Format(time.RFC3339)
	}))
	<-ctx.Done()
}
