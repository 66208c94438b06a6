package testbin

import (
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

// Module is this module's path: Build takes commands below it.
const Module = "github.com/foldagent/foldagent"

var (
	mu     sync.Mutex
	dir    string
	builds = map[string]*build{}
)

type build struct {
	once sync.Once
	bin  string
	out  []byte
	err  error
}

// Build returns the path of the command at pkg (a path inside the module,
// such as "examples/todo"), building it on the first call in this test
// binary. A build failure fails t, showing the compiler's output.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	mu.Lock()
	b := builds[pkg]
	if b == nil {
		b = &build{}
		builds[pkg] = b
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "foldagent-testbin-")
		if err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
		dir = d
	}
	into := dir
	mu.Unlock()
	b.once.Do(func() {
		b.bin = filepath.Join(into, path.Base(pkg))
		b.out, b.err = exec.Command("go", "build", "-o", b.bin, path.Join(Module, pkg)).CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, b.err, b.out)
	}
	return b.bin
}

// Main runs the tests and removes what Build built; call it from TestMain:
//
//	func TestMain(m *testing.M) { testbin.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	mu.Lock()
	if dir != "" {
		os.RemoveAll(dir)
	}
	mu.Unlock()
	os.Exit(code)
}

// Proc is a process a test started, with the pipes it asked for.
type Proc struct {
	Cmd *exec.Cmd
	// Stdin is the process's standard input (StartPiped only; nil with
	// Start, where the process reads an empty input).
	Stdin io.WriteCloser
	// Stdout is the process's standard output.
	Stdout io.ReadCloser
}

// Start starts cmd with its standard output piped to Proc.Stdout, and
// stops it when t ends (killed, then waited for; a test that waits for
// it itself still may). Its standard error is what cmd says. A failure to
// start fails t.
func Start(t testing.TB, cmd *exec.Cmd) *Proc {
	t.Helper()
	return start(t, cmd, false)
}

// StartPiped is Start with the process's standard input piped from
// Proc.Stdin too.
func StartPiped(t testing.TB, cmd *exec.Cmd) *Proc {
	t.Helper()
	return start(t, cmd, true)
}

func start(t testing.TB, cmd *exec.Cmd, stdin bool) *Proc {
	t.Helper()
	p := &Proc{Cmd: cmd}
	var err error
	if stdin {
		if p.Stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if p.Stdout, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return p
}
