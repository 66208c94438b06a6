package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/foldagent/foldagent/examples/todo/todo"
)

// Store persists a List as a JSON file. Saves run off the update loop (as
// Cmds) and may finish out of order, so each carries the version of the
// List it saves and an older version never overwrites a newer one.
type Store struct {
	path string

	mu      sync.Mutex // held for the whole of a write
	written int64
	closed  bool
}

// ErrClosed is returned by Save after Close.
var ErrClosed = errors.New("todo: store closed")

// Close waits for a save in progress and refuses every later one, so that
// nothing writes the file once the application has shut down (a save Cmd
// can still be running when the program returns).
func (s *Store) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// NewStore returns a store for the file at path.
func NewStore(path string) *Store { return &Store{path: path} }

// DefaultPath is where the todo list lives unless -data says otherwise:
// under the user's configuration directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "foldagent-todo", "todos.json"), nil
}

// Path returns the file's path.
func (s *Store) Path() string { return s.path }

// Load reads the list. A missing file is an empty list.
func (s *Store) Load() (todo.List, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return todo.List{}, nil
	}
	if err != nil {
		return todo.List{}, err
	}
	var l todo.List
	if err := json.Unmarshal(b, &l); err != nil {
		return todo.List{}, fmt.Errorf("%s is not a todo list: %w", s.path, err)
	}
	l.Selected = ""
	return l, nil
}

// Save writes l as version, atomically (a temporary file renamed over the
// old one), unless a newer version has already been written.
func (s *Store) Save(version int64, l todo.List) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if version <= s.written {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".todos-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return err
	}
	s.written = version
	return nil
}
