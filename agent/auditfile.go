package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
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
// ReadJSONLines and JSONLinesScanner read the file back.
//
// Durability. The file is opened with O_APPEND and each entry is encoded
// to a single line and handed to the file in one Write, under a lock, so
// lines never interleave and a line is never split by another writer in
// this process. (os.File.Write may take more than one system call for a
// long line; another process appending at the same moment could then land
// between them, and the reader recovers the entry that follows such a
// fragment.) By default the sink does not fsync: once Record has
// returned, the entry is in the operating system's cache and survives a
// crash of this process, but not necessarily a crash of the machine. With
// SyncEveryEntry every Record fsyncs before it returns. Sync flushes on
// demand, and Close flushes before it closes.
//
// Torn lines. A process killed in the middle of a write can leave the
// start of a line with no '\n' (the kernel copies a long write a page at a
// time, and a kill lands between pages). OpenJSONLinesSink ends such a
// tail with a '\n' before appending, so the fragment stands on a line of
// its own and the next entry on the next; the same happens after a write
// of this sink fails part way. The fragment is kept, not truncated: it is
// evidence that a write was interrupted, and truncating a file other
// processes may be appending to could cut off their entries. The reader
// reports such fragments as torn lines. Whatever a torn line held was
// never acknowledged: the Record that wrote it did not return nil.
//
// Several writers. Sinks in several processes may append to one file: on
// a local file system whole appends land one after another and never
// interleave (network file systems such as NFS do not promise that).
// Each sink repairs a torn tail only when it opens the file and after its
// own failed writes, so when one writer dies mid-line while another keeps
// appending, the other's next entry follows the fragment on the same
// line; the reader recognizes that line, reports the fragment and still
// returns the entry. A sink opening the file while another process is
// writing a long line may take that line for a torn one; its '\n' then
// lands after the line, leaving a blank line, which the reader skips.
type JSONLinesSink struct {
	mu     sync.Mutex
	f      *os.File
	sync   bool
	closed bool
	torn   bool // a write failed part way: the file may end mid-line
}

// ErrSinkClosed is returned by a sink's Record after Close.
var ErrSinkClosed = errors.New("agent: audit sink is closed")

// OpenJSONLinesSink opens (creating it with mode 0600 if needed) the file
// at path for appending audit entries. If the file does not end in '\n',
// its last line is torn, and OpenJSONLinesSink ends it with one (see
// JSONLinesSink) before it returns. It reads the file's last byte to
// know, so the file must be readable as well as writable.
func OpenJSONLinesSink(path string, opts JSONLinesOptions) (*JSONLinesSink, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := endTornTail(f, opts.SyncEveryEntry); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("agent: OpenJSONLinesSink: ending a torn last line: %w", err)
	}
	return &JSONLinesSink{f: f, sync: opts.SyncEveryEntry}, nil
}

// endTornTail writes a '\n' at the end of f unless f is empty, ends in
// '\n' already, or is not a regular file (a pipe, a terminal).
func endTornTail(f *os.File, sync bool) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], fi.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	if _, err := f.Write([]byte{'\n'}); err != nil {
		return err
	}
	if sync {
		return f.Sync()
	}
	return nil
}

// Record appends e as one line. An error means the entry may be missing
// or torn; Record never reports success for a line it did not write
// whole.
func (s *JSONLinesSink) Record(e AuditEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSinkClosed
	}
	buf := make([]byte, 0, len(line)+2)
	if s.torn {
		buf = append(buf, '\n') // end the fragment a failed write left
	}
	buf = append(append(buf, line...), '\n')
	n, err := s.f.Write(buf)
	if err != nil {
		// Nothing written leaves the file as it was; part of the line
		// leaves it torn (or, if only the leading '\n' went out, whole).
		if n > 0 {
			s.torn = !(s.torn && n == 1)
		}
		return err
	}
	s.torn = false
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

// TornLine is a line of a JSON Lines audit file that its writer did not
// finish: the process was killed in the middle of the write, or the write
// failed part way. Whatever it held was never acknowledged (the Record
// that wrote it did not return nil), so it is evidence of an interrupted
// write, not a lost entry.
type TornLine struct {
	// Line is the line's number, counting from 1.
	Line int
	// Offset is the byte offset of the line's first byte.
	Offset int64
	// Length is the length of the torn bytes, not counting the '\n' that
	// ends the line, if any.
	Length int
}

// AuditLineError reports a line of a JSON Lines audit file that is
// neither an entry nor a torn line: a line a sink never writes, which
// means the file was damaged or edited. Reading stops at it.
type AuditLineError struct {
	// Line is the line's number, counting from 1.
	Line int
	// Offset is the byte offset of the line's first byte.
	Offset int64
	// Err is why the line could not be decoded.
	Err error
}

func (e *AuditLineError) Error() string {
	return fmt.Sprintf("agent: audit file line %d (offset %d) is not an audit entry: %v", e.Line, e.Offset, e.Err)
}

func (e *AuditLineError) Unwrap() error { return e.Err }

// JSONLinesScanner reads the entries of a JSON Lines audit file, such as
// one written by a JSONLinesSink, one at a time. Use it like a
// bufio.Scanner:
//
//	sc := agent.NewJSONLinesScanner(f)
//	for sc.Scan() {
//		e := sc.Entry()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
//	for _, t := range sc.Torn() { ... } // interrupted writes, reported
//
// Each line is classified, and only the first two kinds are expected:
//
//   - A line that decodes is an entry. The last line may lack its '\n'.
//   - A torn line is reported by Torn and skipped. A torn line is a
//     truncated JSON text (what a writer killed mid-write leaves behind,
//     wherever it was cut, even inside a multi-byte character), found
//     anywhere in the file because OpenJSONLinesSink ends such a tail with
//     '\n' before appending; or any undecodable last line without its
//     '\n', which may also be a write still in progress.
//   - A line that begins with a torn fragment and continues with a whole
//     entry (starting `{"at":`, as MarshalJSON writes it) yields both: the
//     fragment is reported as torn and the entry is returned. Such a line
//     is what one writer leaves when it dies mid-line while another
//     process keeps appending to the same file, and what sinks before
//     OpenJSONLinesSink repaired torn tails left behind.
//   - Any other undecodable line in the middle of the file is
//     corruption: Scan stops and Err returns an *AuditLineError.
//
// Blank lines are skipped. A line is held in memory whole while it is
// decoded.
type JSONLinesScanner struct {
	r      *bufio.Reader
	line   int   // number of the last line read
	offset int64 // offset of the next line

	entry   AuditEntry
	pending *AuditEntry // an entry recovered after a torn fragment, still to return
	torn    []TornLine
	err     error
	done    bool
}

// NewJSONLinesScanner returns a scanner reading from r.
func NewJSONLinesScanner(r io.Reader) *JSONLinesScanner {
	return &JSONLinesScanner{r: bufio.NewReader(r)}
}

// Scan advances to the next entry, which Entry then returns. It returns
// false at the end of the input or at the first error, which Err then
// returns. Torn lines met on the way are recorded for Torn.
func (s *JSONLinesScanner) Scan() bool {
	if s.pending != nil {
		s.entry, s.pending = *s.pending, nil
		return true
	}
	for !s.done {
		raw, err := s.r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			s.err, s.done = err, true
			return false
		}
		if err == io.EOF {
			s.done = true
			if len(raw) == 0 {
				return false
			}
		}
		s.line++
		offset := s.offset
		s.offset += int64(len(raw))
		terminated := len(raw) > 0 && raw[len(raw)-1] == '\n'
		text := raw
		if terminated {
			text = raw[:len(raw)-1]
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		var e AuditEntry
		decodeErr := json.Unmarshal(text, &e)
		if decodeErr == nil {
			s.entry = e
			return true
		}
		if k, e, ok := splitGlued(text); ok {
			s.torn = append(s.torn, TornLine{Line: s.line, Offset: offset, Length: k})
			s.entry = e
			return true
		}
		if truncatedJSON(text) || !terminated {
			s.torn = append(s.torn, TornLine{Line: s.line, Offset: offset, Length: len(text)})
			continue
		}
		s.err, s.done = &AuditLineError{Line: s.line, Offset: offset, Err: decodeErr}, true
		return false
	}
	return false
}

// Entry returns the entry the last successful Scan read.
func (s *JSONLinesScanner) Entry() AuditEntry { return s.entry }

// Torn returns the torn lines read so far, in file order. After Scan has
// returned false it holds every torn line up to where reading stopped.
func (s *JSONLinesScanner) Torn() []TornLine { return slices.Clone(s.torn) }

// Err returns the error that stopped Scan: an *AuditLineError for a
// corrupt line, or the reader's error. It is nil at the end of the input,
// torn lines or not.
func (s *JSONLinesScanner) Err() error { return s.err }

// ReadJSONLines reads a whole JSON Lines audit file, such as one written
// by a JSONLinesSink, with a JSONLinesScanner: it returns every entry, the
// torn lines (interrupted writes, which are not an error), and an error
// only for a corrupt line or a failing reader, in which case the entries
// and torn lines before it are returned with it.
func ReadJSONLines(r io.Reader) (entries []AuditEntry, torn []TornLine, err error) {
	sc := NewJSONLinesScanner(r)
	for sc.Scan() {
		entries = append(entries, sc.Entry())
	}
	return entries, sc.torn, sc.Err()
}

// truncatedJSON reports whether b is a proper prefix of a JSON text: what
// is left of a line whose write was cut short.
func truncatedJSON(b []byte) bool {
	var v json.RawMessage
	return json.NewDecoder(bytes.NewReader(b)).Decode(&v) == io.ErrUnexpectedEOF
}

// entryStart is how every line MarshalJSON writes begins.
var entryStart = []byte(`{"at":`)

// splitGlued finds, in an undecodable line, a torn fragment followed by a
// whole entry: it returns the fragment's length and the entry. The first
// split that works wins.
func splitGlued(line []byte) (int, AuditEntry, bool) {
	for k := 1; k < len(line); {
		i := bytes.Index(line[k:], entryStart)
		if i < 0 {
			break
		}
		k += i
		var e AuditEntry
		if json.Unmarshal(line[k:], &e) == nil && truncatedJSON(line[:k]) {
			return k, e, true
		}
		k++
	}
	return 0, AuditEntry{}, false
}
