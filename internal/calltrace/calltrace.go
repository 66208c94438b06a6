// Package calltrace measures which source files one call passes through
// (issue 37): the functions of this module the call enters, in the order
// it enters them, each named with its file. A stay is a maximal run of
// entries in one file; a return is a stay in a file the call had already
// left. A call that reads top to bottom has as many stays as files and no
// return.
//
// Nothing in the module calls Enter: scripts/trace-do-action copies the
// module, writes a call to Enter at the top of every function (and
// function literal) of the packages it measures (Instrument), and runs a
// test built with the calltrace tag that brackets the call with Start and
// Stop. Only the goroutine that called Start is recorded: work a call
// starts on other goroutines (a fire's handler) is not the call's path.
package calltrace

import (
	"bytes"
	"runtime"
	"slices"
	"strconv"
	"sync"
)

// Entry is one function the traced call entered.
type Entry struct {
	File string `json:"file"` // module-relative, slash-separated
	Func string `json:"func"`
}

var rec struct {
	mu      sync.Mutex
	on      bool
	g       uint64
	entries []Entry
}

// Start records, from now until Stop, every Enter made on the calling
// goroutine, and forgets what an earlier Start recorded.
func Start() {
	g := goid()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.on, rec.g, rec.entries = true, g, nil
}

// Stop ends the recording and returns the entries, in order.
func Stop() []Entry {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.on = false
	return slices.Clone(rec.entries)
}

// Enter is written at the top of each measured function by Instrument.
// It records the entry while a recording runs on this goroutine.
func Enter(file, fn string) {
	rec.mu.Lock()
	on, g := rec.on, rec.g
	rec.mu.Unlock()
	if !on || goid() != g {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.on {
		rec.entries = append(rec.entries, Entry{File: file, Func: fn})
	}
}

// goid is the calling goroutine's number, read from its stack header
// ("goroutine 7 [running]:").
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	n, _ := strconv.ParseUint(string(b), 10, 64)
	return n
}

// Stay is a maximal run of entries in one file.
type Stay struct {
	File  string   `json:"file"`
	Funcs []string `json:"funcs"`
	// Return: the call had been in this file before and left it.
	Return bool `json:"return,omitempty"`
}

// Figures are a trace's counts.
type Figures struct {
	Stays   int `json:"stays"`
	Files   int `json:"files"`
	Returns int `json:"returns"`
}

// Stays groups entries into stays, marking each return.
func Stays(entries []Entry) []Stay {
	var out []Stay
	seen := map[string]bool{}
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].File == e.File {
			out[n-1].Funcs = append(out[n-1].Funcs, e.Func)
			continue
		}
		out = append(out, Stay{File: e.File, Funcs: []string{e.Func}, Return: seen[e.File]})
		seen[e.File] = true
	}
	return out
}

// FiguresOf counts stays, distinct files and returns.
func FiguresOf(stays []Stay) Figures {
	files := map[string]bool{}
	f := Figures{Stays: len(stays)}
	for _, s := range stays {
		files[s.File] = true
		if s.Return {
			f.Returns++
		}
	}
	f.Files = len(files)
	return f
}
