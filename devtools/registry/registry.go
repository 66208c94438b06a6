package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// EnvDir is the environment variable that, when set, names the registry
// directory in place of the default.
const EnvDir = "FOLDAGENT_DEVTOOLS_DIR"

// Entry is what a running application publishes about its devtools. Its
// JSON field names are what the registry files hold.
type Entry struct {
	// PID is the application's process id; Publish fills 0 with the
	// calling process's.
	PID int `json:"pid"`
	// Dir is the application's working directory, absolute; Publish fills
	// "" with the calling process's.
	Dir string `json:"dir"`
	// URL is the devtools endpoint, http or https.
	URL string `json:"url"`
	// Token is the bearer token the endpoint asks for; never empty. It is
	// a secret: nothing in this package prints it.
	Token string `json:"token"`
	// App names the application, for a person reading which app an agent
	// is attached to; it may be empty.
	App string `json:"app"`
	// Started is when the application started; Publish fills the zero
	// time with now. Newest prefers the latest.
	Started time.Time `json:"started"`
}

// String describes e without its token.
func (e Entry) String() string {
	return fmt.Sprintf("%s (pid %d, dir %s, %s, started %s)", e.appName(), e.PID, e.Dir, e.URL, e.Started.Format(time.RFC3339))
}

func (e Entry) appName() string {
	if e.App == "" {
		return "an app"
	}
	return fmt.Sprintf("%q", e.App)
}

// InvalidEntryError is an Entry that Publish refuses; nothing is written.
type InvalidEntryError struct {
	// Field is the JSON name of the field at fault.
	Field string
	// Reason says what is wrong with it.
	Reason string
}

func (e *InvalidEntryError) Error() string {
	return fmt.Sprintf("devtools registry: entry field %s %s", e.Field, e.Reason)
}

// DefaultDir returns the registry directory used when a caller passes "":
// $FOLDAGENT_DEVTOOLS_DIR (made absolute) when set, else
// $XDG_RUNTIME_DIR/foldagent-devtools when XDG_RUNTIME_DIR is set to an
// absolute path, else
// foldagent/devtools under os.UserCacheDir. It creates nothing.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) { // a relative one is to be ignored (XDG Base Directory)
		return filepath.Join(d, "foldagent-devtools"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("devtools registry: no directory for it: %w", err)
	}
	return filepath.Join(cache, "foldagent", "devtools"), nil
}

func resolveDir(dir string) (string, error) {
	if dir == "" {
		return DefaultDir()
	}
	return filepath.Abs(dir)
}

// Publish writes e into the registry directory dir ("" for DefaultDir),
// creating the directory with mode 0700 when it does not exist, as one
// file of mode 0600 written atomically. It fills a zero PID, Dir and
// Started (see Entry) and refuses an entry without a token or with a URL
// that is not absolute http(s) (*InvalidEntryError), and a directory
// others may use (*InsecureError); either way it writes nothing. remove
// deletes the file; calling it again, or after the file is gone, returns
// nil.
func Publish(dir string, e Entry) (remove func() error, err error) {
	e, err = complete(e)
	if err != nil {
		return nil, err
	}
	dir, err = resolveDir(dir)
	if err != nil {
		return nil, err
	}
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	name := filepath.Join(dir, fmt.Sprintf("%d-%s.json", e.PID, randomHex(8)))
	if err := writeAtomic(dir, name, b); err != nil {
		return nil, err
	}
	return func() error {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}, nil
}

// complete fills e's defaults and checks it.
func complete(e Entry) (Entry, error) {
	if e.PID < 0 {
		return e, &InvalidEntryError{Field: "pid", Reason: "is negative"}
	}
	if e.PID == 0 {
		e.PID = os.Getpid()
	}
	if e.Token == "" {
		return e, &InvalidEntryError{Field: "token", Reason: "is empty: a devtools endpoint is never served without one (see NewToken)"}
	}
	u, err := url.Parse(e.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return e, &InvalidEntryError{Field: "url", Reason: "is not an absolute http or https URL"}
	}
	if e.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return e, fmt.Errorf("devtools registry: the working directory: %w", err)
		}
		e.Dir = wd
	}
	if e.Dir, err = filepath.Abs(e.Dir); err != nil {
		return e, &InvalidEntryError{Field: "dir", Reason: "cannot be made absolute"}
	}
	if e.Started.IsZero() {
		e.Started = time.Now()
	}
	return e, nil
}

// writeAtomic writes b into a temporary file of dir and renames it to
// name, so that a reader sees the whole file or none.
func writeAtomic(dir, name string, b []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*") // mode 0600
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// isEntryFile reports whether a directory entry's name is one Publish
// writes (not a temporary file).
func isEntryFile(name string) bool {
	return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
}
