package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// NoAppError is Newest finding no live application of the project. Its
// counts tell what it found instead.
type NoAppError struct {
	// Project is the project directory, resolved; Dir the registry
	// directory read.
	Project, Dir string
	// Elsewhere counts live applications whose working directory is
	// outside Project; Ended counts entries of processes that have exited
	// (removed); Unreadable counts files that do not hold an entry.
	Elsewhere, Ended, Unreadable int
}

func (e *NoAppError) Error() string {
	return fmt.Sprintf("no app of this project is running: no live entry in %s has its working directory inside %s (%d live elsewhere, %d ended and removed, %d unreadable)",
		e.Dir, e.Project, e.Elsewhere, e.Ended, e.Unreadable)
}

// Newest returns the entry, in the registry directory dir ("" for
// DefaultDir), of the most recently started live application whose
// working directory is project or inside it (project "" for the working
// directory). Both paths are compared with symbolic links resolved, and
// by whole components: /a/bc is not inside /a/b. Entries of processes
// that have exited are removed. It returns *NoAppError when no entry
// fits (a registry directory that does not exist holds none), and
// *InsecureError, reading nothing, when the directory or an entry file
// may be used by others.
func Newest(dir, project string) (Entry, error) {
	dir, err := resolveDir(dir)
	if err != nil {
		return Entry{}, err
	}
	if project == "" {
		if project, err = os.Getwd(); err != nil {
			return Entry{}, err
		}
	}
	proj, err := canonical(project)
	if err != nil {
		return Entry{}, err
	}
	none := &NoAppError{Project: proj, Dir: dir}
	if err := checkDir(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{}, none
		}
		return Entry{}, err
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return Entry{}, err
	}
	var best Entry
	found := false
	for _, f := range files {
		if !isEntryFile(f.Name()) {
			continue
		}
		e, ok, err := none.consider(filepath.Join(dir, f.Name()), proj)
		if err != nil {
			return Entry{}, err
		}
		if ok && (!found || newer(e, best)) {
			best, found = e, true
		}
	}
	if !found {
		return Entry{}, none
	}
	return best, nil
}

// consider reads the entry file at path and reports whether it is a live
// application inside proj, counting it in n when not. Only an insecure
// file is an error.
func (n *NoAppError) consider(path, proj string) (Entry, bool, error) {
	e, err := readEntry(path)
	switch {
	case IsInsecure(err):
		return e, false, err
	case errors.Is(err, fs.ErrNotExist): // removed since the directory was read
		return e, false, nil
	case err != nil:
		n.Unreadable++
		return e, false, nil
	case !alive(e.PID):
		os.Remove(path)
		n.Ended++
		return e, false, nil
	case !inside(proj, e.Dir):
		n.Elsewhere++
		return e, false, nil
	}
	return e, true, nil
}

// maxEntrySize bounds what is read of one entry file; an entry is a few
// hundred bytes.
const maxEntrySize = 64 << 10

func readEntry(path string) (Entry, error) {
	var e Entry
	f, err := openNoFollow(path)
	if err != nil {
		if isSymlinkRefusal(err) {
			return e, &InsecureError{Path: path, Mode: fs.ModeSymlink, Reason: reasonNotPlain}
		}
		return e, err
	}
	defer f.Close()
	// The checks are of the file opened, so it cannot be swapped between
	// them and the read.
	fi, err := f.Stat()
	if err != nil {
		return e, err
	}
	if err := checkOpened(path, fi); err != nil {
		return e, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxEntrySize+1))
	if err != nil {
		return e, err
	}
	if len(b) > maxEntrySize {
		return e, errors.New("larger than an entry")
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return e, err
	}
	if e.PID <= 0 || e.URL == "" || e.Dir == "" {
		return e, errors.New("not an entry")
	}
	return e, nil
}

// newer orders entries by start time, then (for a stable choice between
// two started in the same instant) by process id and URL.
func newer(a, b Entry) bool {
	if !a.Started.Equal(b.Started) {
		return a.Started.After(b.Started)
	}
	if a.PID != b.PID {
		return a.PID > b.PID
	}
	return a.URL > b.URL
}

// canonical returns path absolute, cleaned, with symbolic links resolved
// when it exists.
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// inside reports whether dir is proj or below it, proj being canonical.
func inside(proj, dir string) bool {
	d, err := canonical(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(proj, d)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
