package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// InsecureError is a registry directory or entry file the package refuses
// to use, because someone other than its user could read a token from it
// or plant an entry in it. The package never changes its mode itself.
type InsecureError struct {
	// Path is the directory or file refused.
	Path string
	// Mode is its mode, type bits included.
	Mode fs.FileMode
	// Reason says what about it is refused.
	Reason string
}

func (e *InsecureError) Error() string {
	return fmt.Sprintf("devtools registry: refusing %s (mode %04o): %s", e.Path, e.Mode.Perm(), e.Reason)
}

// Reasons an *InsecureError gives.
const (
	reasonShared   = "its group or others have access to it, and it must grant access to its owner only (chmod go-rwx)"
	reasonOwner    = "it is owned by another user"
	reasonNotDir   = "it is not a directory"
	reasonNotPlain = "it is not a regular file"
)

// ensureDir creates dir with mode 0700 when it does not exist, then checks
// it as checkDir does.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("devtools registry: %w", err)
	}
	return checkDir(dir)
}

// checkDir refuses dir unless it is a directory (not a symbolic link to
// one) of the calling user that nobody else may read or write.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &InsecureError{Path: dir, Mode: fi.Mode(), Reason: reasonNotDir}
	}
	return checkPrivate(dir, fi)
}

// checkOpened is checkDir for an opened entry file, which must be a
// regular file.
func checkOpened(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return &InsecureError{Path: path, Mode: fi.Mode(), Reason: reasonNotPlain}
	}
	return checkPrivate(path, fi)
}

func checkPrivate(path string, fi fs.FileInfo) error {
	if shared(fi) {
		return &InsecureError{Path: path, Mode: fi.Mode(), Reason: reasonShared}
	}
	if !ownedByMe(fi) {
		return &InsecureError{Path: path, Mode: fi.Mode(), Reason: reasonOwner}
	}
	return nil
}

// IsInsecure reports whether err is or wraps an *InsecureError.
func IsInsecure(err error) bool {
	var ie *InsecureError
	return errors.As(err, &ie)
}
