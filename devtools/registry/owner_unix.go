//go:build unix

package registry

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// shared reports whether fi grants its group or others any access.
func shared(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o077 != 0 }

// ownedByMe reports whether fi belongs to the calling process's user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// alive reports whether a process with id pid exists. A process of
// another user, which may not be signalled, exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// openNoFollow opens path for reading, failing (ELOOP) if it is a
// symbolic link, and without blocking on a FIFO.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// isSymlinkRefusal reports whether err is openNoFollow meeting a link.
func isSymlinkRefusal(err error) bool { return errors.Is(err, syscall.ELOOP) }
