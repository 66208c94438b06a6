package devtools_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/registry"
)

// Listen publishes into the registry a project's command reads, and Close
// takes the entry out again.
func TestListenPublishesIntoTheRegistryAndCloseRemoves(t *testing.T) {
	reg := filepath.Join(t.TempDir(), "reg")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	a := start(t, devtools.Options{App: "todo", Publish: devtools.Registry(reg)})
	l, err := a.dev.Listen()
	if err != nil {
		t.Fatal(err)
	}
	e, err := registry.Newest(reg, wd)
	if err != nil {
		t.Fatal(err)
	}
	if e.URL != l.URL || e.Token != a.dev.Token() || e.App != "todo" || e.PID != os.Getpid() {
		t.Fatalf("the registry holds %v, want %s of app todo", e, l.URL)
	}
	if err := a.dev.Close(); err != nil {
		t.Fatal(err)
	}
	var none *registry.NoAppError
	if _, err := registry.Newest(reg, wd); !errors.As(err, &none) {
		t.Fatalf("after Close the registry still answers: %v", err)
	}
}

// A registry directory others can read is refused: Listen fails and
// serves nothing.
func TestListenRefusesARegistryOthersCanRead(t *testing.T) {
	reg := t.TempDir()
	if err := os.Chmod(reg, 0o755); err != nil {
		t.Fatal(err)
	}
	a := start(t, devtools.Options{Publish: devtools.Registry(reg)})
	if _, err := a.dev.Listen(); !registry.IsInsecure(err) {
		t.Fatalf("Listen into a 0755 registry: %v", err)
	}
	if left, _ := os.ReadDir(reg); len(left) != 0 {
		t.Fatalf("the refused registry holds %d files", len(left))
	}
}
