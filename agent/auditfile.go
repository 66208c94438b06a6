package agent

import (
	"encoding/json"
	"errors"
	"os"
	"sync"
)

// JSONLinesOptions configure a JSONLinesSink.
type JSONLinesOptions struct {
	// SyncEveryEntry calls fsync after every entry, so an entry whose
	// Record returned survives an operating-system crash or power loss.
	// It costs one disk flush per invocation; leave it off unless the log
	// is evidence that must never be lost.
	SyncEveryEntry bool
}

// JSONLinesSink appends each audit entry to a file as one line of JSON
// (https://jsonlines.org), the file's existing content left untouched.
//
// Durability. The file is opened with O_APPEND and each entry is encoded
// to a single line and written with one write call, under a lock, so
// lines never interleave and a line is never split by another writer in
// this process; on a local file system whole appends from other processes
// do not interleave either. By default the sink does not fsync: once
// Record has returned, the entry is in the operating system's cache and
// survives a crash of this process, but not necessarily a crash of the
// machine. With SyncEveryEntry every Record fsyncs before it returns. Sync
// flushes on demand, and Close flushes before it closes.
type JSONLinesSink struct {
	mu     sync.Mutex
	f      *os.File
	sync   bool
	closed bool
}

// ErrSinkClosed is returned by a sink's Record after Close.
var ErrSinkClosed = errors.New("agent: audit sink is closed")

// OpenJSONLinesSink opens (creating it with mode 0600 if needed) the file
// at path for appending audit entries.
func OpenJSONLinesSink(path string, opts JSONLinesOptions) (*JSONLinesSink, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &JSONLinesSink{f: f, sync: opts.SyncEveryEntry}, nil
}

// Record appends e as one line.
func (s *JSONLinesSink) Record(e AuditEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSinkClosed
	}
	if _, err := s.f.Write(line); err != nil {
		return err
	}
	if s.sync {
		return s.f.Sync()
	}
	return nil
}

// Sync flushes the entries written so far to stable storage.
func (s *JSONLinesSink) Sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSinkClosed
	}
	return s.f.Sync()
}

// Close flushes the file to stable storage and closes it. Later calls to
// Record return ErrSinkClosed; closing twice is harmless.
func (s *JSONLinesSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return errors.Join(s.f.Sync(), s.f.Close())
}
