package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/foldagent/foldagent/examples/todo/todo"
)

// Store persists a List as a JSON file. Saves run off the update loop (as
// Cmds) and may finish out of order, so each carries the version of the
// List it saves and an older version never overwrites a newer one.
//
// A save is atomic and durable: the list is written to a temporary file
// beside the real one, synced, renamed over it, and the directory synced,
// so a process killed at any moment leaves either the old file or the new
// one, never a mix. A kill can leave the temporary file behind;
// RemoveLeftovers, called by the list's owner at start, removes it.
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

// Exists reports whether the file is there (a first run has none).
func (s *Store) Exists() bool {
	_, err := os.Stat(s.path)
	return err == nil
}

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

// tempPattern is the name os.CreateTemp gives a save's temporary file:
// ".todos.json.tmp-" and random digits, for todos.json.
func (s *Store) tempPattern() string { return "." + filepath.Base(s.path) + ".tmp-*" }

// legacyTemp matches the temporary files earlier versions left beside
// todos.json (".todos-" random digits ".json").
var legacyTemp = regexp.MustCompile(`^\.todos-[0-9]+\.json$`)

// Leftovers returns the temporary files a killed save left beside the
// list.
func (s *Store) Leftovers() []string {
	dir := filepath.Dir(s.path)
	found, _ := filepath.Glob(filepath.Join(dir, s.tempPattern()))
	if filepath.Base(s.path) == "todos.json" {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if legacyTemp.MatchString(e.Name()) {
				found = append(found, filepath.Join(dir, e.Name()))
			}
		}
	}
	return found
}

// RemoveLeftovers removes the temporary files a save killed part way
// left beside the list. Only the list's owner may call it (see
// AcquireLock): another process's save in progress would lose its file.
func (s *Store) RemoveLeftovers() error {
	var errs []error
	for _, f := range s.Leftovers() {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Save writes l as version, atomically and durably (see Store), unless a
// newer version has already been written. It reports whether it wrote:
// false with a nil error means a newer version is already on disk.
func (s *Store) Save(version int64, l todo.List) (bool, error) {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, ErrClosed
	}
	if version <= s.written {
		return false, nil
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(dir, s.tempPattern())
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return false, err
	}
	// The rename is in the directory: sync it too, so that the new name
	// survives a crash of the machine, not only of the process.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	s.written = version
	return true, nil
}
