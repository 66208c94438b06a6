//go:build !unix

package registry

import (
	"io/fs"
	"os"
)

// shared reports false: outside unix, modes do not tell who may read a
// file, and the registry relies on the directory's place (a per-user
// cache directory).
func shared(fs.FileInfo) bool { return false }

// ownedByMe reports true, as shared reports false.
func ownedByMe(fs.FileInfo) bool { return true }

// alive reports whether a process with id pid can be found.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// openNoFollow opens path for reading; the file's mode, checked once
// opened, refuses a link outside unix.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

// isSymlinkRefusal reports false: outside unix openNoFollow does not
// refuse links.
func isSymlinkRefusal(error) bool { return false }
