// Command floor is the page's yardstick: a js/wasm program that uses only
// the standard packages the page needs (syscall/js, encoding/json,
// context, time, fmt, reflect, slices, strings, sync, math/rand/v2, and
// the small ones the agent core links: bufio for reading audit lines,
// hash/fnv and encoding/hex for approval and invocation ids,
// runtime/debug for a panic's stack, maps for sorted keys), each for what
// the page uses it for, and nothing of foldagent. The size test
// builds it with the page's flags and bounds the page's download as a
// multiple of this one's.
package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
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
		defer func() {
			if v := recover(); v != nil {
				_ = fmt.Sprint(v, string(debug.Stack()))
			}
		}()
		keys := slices.Sorted(maps.Keys(in))
		h := fnv.New128a()
		h.Write([]byte(args[0].String()))
		line, _ := bufio.NewReader(strings.NewReader(args[0].String())).ReadString('\n')
		items = append(items, item{ID: strings.Join(keys, ",") + hex.EncodeToString(h.Sum(nil)), Title: reflect.TypeOf(in).String() + line})
		b, _ := json.Marshal(items)
		return string(b) + time.Now().Format(time.RFC3339)
	}))
	<-ctx.Done()
}
