//go:build unix

package teaserve

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// ownerOnly checks that path (a directory when dir, else a socket) belongs
// to this user and that no one else may use it.
func ownerOnly(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("teaserve: %w", err)
	}
	want := os.ModeSocket
	if dir {
		want = os.ModeDir
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode().Type() != want:
		return fmt.Errorf("teaserve: %s is not a %s; refusing it", path, map[bool]string{true: "directory", false: "socket"}[dir])
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("teaserve: %s belongs to another user; refusing it", path)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("teaserve: %s is open to other users (mode %v); refusing it", path, fi.Mode().Perm())
	}
	return nil
}

// samePeer reports whether the other end of conn runs as this user, where
// the system says (peerUID); elsewhere the directory's permissions are
// the guard.
func samePeer(conn net.Conn) bool {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return false
	}
	uid, known := peerUID(uc)
	return !known || uid == os.Getuid()
}
