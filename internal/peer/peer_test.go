package peer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would have ended:
// Skipf and Fatalf stop the calling goroutine, as the real ones do.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestSomething" }
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

// run calls f with a recorder on its own goroutine and reports how it
// ended, and whether f returned normally.
func run(f func(testing.TB)) (r *recorder, returned bool) {
	r = &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
		returned = true
	}()
	<-done
	return r, returned
}

func TestRequireFoundDoesNothing(t *testing.T) {
	t.Setenv(RequireEnv, "1")
	r, returned := run(func(tb testing.TB) { Require(tb, "tmux", true) })
	if !returned || r.skipped != "" || r.failed != "" {
		t.Fatalf("returned %v, skipped %q, failed %q; want a plain return", returned, r.skipped, r.failed)
	}
}

func TestRequireMissingSkipsNamingTheInstallStep(t *testing.T) {
	for _, v := range []string{"", "0", "true"} {
		t.Setenv(RequireEnv, v)
		r, returned := run(func(tb testing.TB) { Require(tb, "tmux", false) })
		if returned || r.failed != "" {
			t.Fatalf("%s=%q: returned %v, failed %q; want a skip", RequireEnv, v, returned, r.failed)
		}
		for _, want := range []string{"peer missing:", "TestSomething", "tmux", InstallStep} {
			if !strings.Contains(r.skipped, want) {
				t.Errorf("%s=%q: skip message %q lacks %q", RequireEnv, v, r.skipped, want)
			}
		}
	}
}

func TestRequireMissingFailsWhenRequired(t *testing.T) {
	t.Setenv(RequireEnv, "1")
	r, returned := run(func(tb testing.TB) { Require(tb, "tmux", false) })
	if returned || r.skipped != "" {
		t.Fatalf("returned %v, skipped %q; want a failure", returned, r.skipped)
	}
	for _, want := range []string{"peer missing:", "tmux", RequireEnv + "=1", InstallStep} {
		if !strings.Contains(r.failed, want) {
			t.Errorf("failure message %q lacks %q", r.failed, want)
		}
	}
}

func TestProgramFindsTheFirstAlternativeOnPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "second")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv(RequireEnv, "1")
	var got string
	r, returned := run(func(tb testing.TB) { got = Program(tb, "first", "second") })
	if !returned || got != exe {
		t.Fatalf("Program = %q (returned %v, failed %q); want %q", got, returned, r.failed, exe)
	}
}

func TestProgramMissingNamesEveryAlternative(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv(RequireEnv, "")
	r, returned := run(func(tb testing.TB) { Program(tb, "chromium", "chromium-browser") })
	if returned || !strings.Contains(r.skipped, "chromium or chromium-browser") {
		t.Fatalf("returned %v, skipped %q; want a skip naming both", returned, r.skipped)
	}
}

func TestProgramWithNoNameFails(t *testing.T) {
	t.Setenv(RequireEnv, "")
	r, returned := run(func(tb testing.TB) { Program(tb) })
	if returned || !strings.Contains(r.failed, "no program named") {
		t.Fatalf("returned %v, failed %q; want a failure, even with peers optional", returned, r.failed)
	}
}

func TestNodeModules(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", "@scope", "here"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", "@scope", "here", "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(RequireEnv, "")

	var got string
	r, returned := run(func(tb testing.TB) { got = NodeModules(tb, dir, "@scope/here") })
	if !returned || got != dir {
		t.Fatalf("NodeModules = %q (returned %v, skipped %q); want %q", got, returned, r.skipped, dir)
	}

	r, returned = run(func(tb testing.TB) { NodeModules(tb, dir, "@scope/here", "@scope/absent") })
	if returned || !strings.Contains(r.skipped, "@scope/absent") || strings.Contains(r.skipped, "@scope/here ") {
		t.Fatalf("returned %v, skipped %q; want a skip naming @scope/absent only", returned, r.skipped)
	}
}

func TestFromModuleIsRelativeToTheModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fromModule(filepath.Join(wd, "testdata", "node_modules")), "internal/peer/testdata/node_modules"; got != want {
		t.Errorf("fromModule = %q, want %q", got, want)
	}
	outside := filepath.Join(t.TempDir(), "node_modules")
	if got := fromModule(outside); got != outside {
		t.Errorf("fromModule(%q) = %q, want the path unchanged", outside, got)
	}
}
