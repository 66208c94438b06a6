package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// One process owns a list: the one holding the lock beside it
// (todos.json.lock for todos.json). Two processes saving one file would
// each overwrite the other's changes, so a second one either attaches to
// the owner (an MCP client over stdio, see Attach) or refuses to start,
// saying who owns the list and how to reach it.
//
// The lock is an advisory lock the kernel drops when its process ends,
// however it ends: a kill -9 leaves no stale lock behind. The lock file
// itself stays (removing it would race with a process about to lock it);
// its content is the owner's Holder record, for the refusal message.

// Holder describes the process that owns a list, as written in the lock
// file.
type Holder struct {
	// PID is the owner's process id.
	PID int `json:"pid"`
	// Mode is how it runs: "terminal", "mcp stdio" or "mcp http".
	Mode string `json:"mode"`
	// Socket is the unix socket the owner serves MCP on for local clients
	// (what -mcp stdio attaches to); empty when it publishes none.
	Socket string `json:"socket,omitempty"`
	// MCP is the owner's streamable HTTP endpoint, if it serves one.
	MCP string `json:"mcp,omitempty"`
}

// Lock is a held list lock. The zero Lock is not meaningful.
type Lock struct {
	f    *os.File
	path string // the list's file
}

// HeldError reports that another process owns the list.
type HeldError struct {
	// Path is the list's file.
	Path string
	// Holder is what the owner published; PID is 0 when it had not yet
	// written it.
	Holder Holder
}

func (e *HeldError) Error() string {
	var b strings.Builder
	if e.Holder.PID == 0 {
		fmt.Fprintf(&b, "another process owns %s (it is just starting)", e.Path)
	} else {
		fmt.Fprintf(&b, "%s is in use by process %d (todo, %s)", e.Path, e.Holder.PID, e.Holder.Mode)
	}
	b.WriteString("; one process owns a list, so that no two overwrite each other's changes.")
	b.WriteString("\nTo reach it:")
	if e.Holder.Socket != "" {
		b.WriteString("\n  an MCP client: todo -mcp stdio -data " + e.Path + " (attaches to the running app)")
	}
	if e.Holder.MCP != "" {
		b.WriteString("\n  over HTTP: " + e.Holder.MCP + " (with the token that app printed)")
	}
	if e.Holder.PID != 0 {
		fmt.Fprintf(&b, "\n  or quit it (process %d) and start again.", e.Holder.PID)
	}
	return b.String()
}

// lockPath is the lock's file, beside the list.
func lockPath(data string) string { return data + ".lock" }

// AcquireLock takes the lock of the list at data. When another process
// holds it, the error is a *HeldError.
func AcquireLock(data string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(data), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(lockPath(data), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", lockPath(data), err)
	}
	if held {
		h, _ := readHolder(f)
		f.Close()
		return nil, &HeldError{Path: data, Holder: h}
	}
	return &Lock{f: f, path: data}, nil
}

// Path returns the file of the list the lock is for.
func (l *Lock) Path() string { return l.path }

// Publish writes h into the lock file, for a process that finds the list
// taken.
func (l *Lock) Publish(h Holder) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err = l.f.WriteAt(append(b, '\n'), 0)
	return err
}

// Release empties the lock file and lets the lock go.
func (l *Lock) Release() {
	_ = l.f.Truncate(0)
	_ = unlock(l.f)
	_ = l.f.Close()
}

func readHolder(f *os.File) (Holder, error) {
	var h Holder
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err != nil {
		return h, err
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return h, errors.New("empty")
	}
	return h, json.Unmarshal(b, &h)
}
