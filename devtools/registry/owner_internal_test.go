//go:build unix

package registry

import (
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"
)

type fakeInfo struct {
	mode fs.FileMode
	uid  uint32
}

func (f fakeInfo) Name() string       { return "x" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return &syscall.Stat_t{Uid: f.uid} }

func TestAnotherUsersDirectoryIsRefused(t *testing.T) {
	me := uint32(os.Geteuid())
	if err := checkPrivate("/r", fakeInfo{fs.ModeDir | 0o700, me}); err != nil {
		t.Fatalf("my own 0700 directory: %v", err)
	}
	err := checkPrivate("/r", fakeInfo{fs.ModeDir | 0o700, me + 1})
	ie, ok := err.(*InsecureError)
	if !ok || ie.Reason != reasonOwner || ie.Path != "/r" {
		t.Fatalf("another user's 0700 directory: %v, want *InsecureError for its owner", err)
	}
}

func TestAnotherUsersRealDirectoryIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root; TestAnotherUsersDirectoryIsRefused covers the rule")
	}
	dir := t.TempDir() + "/reg"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(dir, Entry{URL: "http://127.0.0.1:1/", Token: "t"}); !IsInsecure(err) {
		t.Fatalf("Publish into another user's directory: %v, want *InsecureError", err)
	}
	if _, err := Newest(dir, t.TempDir()); !IsInsecure(err) {
		t.Fatalf("Newest of another user's directory: %v, want *InsecureError", err)
	}
}

func TestAliveTellsALiveProcess(t *testing.T) {
	if !alive(os.Getpid()) || alive(0) || alive(-1) {
		t.Fatal("alive is wrong about this process or about non-ids")
	}
}

func TestAFIFOEntryIsRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir() + "/reg"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(dir+"/pipe.json", 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Newest(dir, t.TempDir()); !IsInsecure(err) {
		t.Fatalf("Newest with a FIFO entry: %v, want *InsecureError", err)
	}
}
