// Command trace-do-action measures the path of one journey/fixed
// do_action call through this module's source files (issue 37): the
// files its functions sit in, in the order the call enters them, as stays
// (maximal runs in one file) and returns (a stay in a file the call had
// already left). Standard library and dependency code is not counted.
//
// It copies the module to a temporary directory, writes a call to
// calltrace.Enter at the top of every function of the module's packages
// journey/fixed is built from (internal/calltrace.Instrument), and runs
// journey/fixed's TestTraceDoAction there (built with the calltrace tag).
// The working tree is not touched.
//
// Usage, from anywhere in the module:
//
//	go run ./scripts/trace-do-action          # the stays, one a line, then the figures
//	go run ./scripts/trace-do-action -json    # the same as JSON
//	go run ./scripts/trace-do-action -only journey/fixed/
//	                                          # only the entries in files under a prefix
//	                                          # (a call out and back is then no return)
//	go run ./scripts/trace-do-action -lib journey/fixed/result.go
//	                                          # count a file's functions as a library's: not at all
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/foldagent/foldagent/internal/calltrace"
)

func main() {
	asJSON := flag.Bool("json", false, "print the stays and figures as JSON")
	keep := flag.Bool("keep", false, "keep the instrumented copy and print where it is")
	only := flag.String("only", "", "count only the entries in files whose module-relative path starts with this prefix")
	lib := flag.String("lib", "", "comma-separated files whose functions are not counted, as a library's are not")
	flag.Parse()
	if err := run(*asJSON, *keep, *only, *lib); err != nil {
		fmt.Fprintln(os.Stderr, "trace-do-action:", err)
		os.Exit(1)
	}
}

func run(asJSON, keep bool, only, lib string) error {
	gomod, err := goCmd("", nil, "env", "GOMOD")
	if err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(gomod))
	tmp, err := os.MkdirTemp("", "trace-do-action-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "instrumented copy:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if err := copyModule(root, tmp); err != nil {
		return err
	}
	n, err := instrument(tmp)
	if err != nil {
		return err
	}
	out := filepath.Join(tmp, "trace.json")
	if _, err := goCmd(tmp, []string{"CALLTRACE_OUT=" + out}, "test", "-tags", "calltrace", "-count=1",
		"-run", "^TestTraceDoAction$", "./journey/fixed"); err != nil {
		return err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	var trace struct {
		Answer  json.RawMessage   `json:"answer"`
		Entries []calltrace.Entry `json:"entries"`
	}
	if err := json.Unmarshal(b, &trace); err != nil {
		return err
	}
	entries := trace.Entries[:0]
	for _, e := range trace.Entries {
		if strings.HasPrefix(e.File, only) && !slices.Contains(strings.Split(lib, ","), e.File) {
			entries = append(entries, e)
		}
	}
	stays := calltrace.Stays(entries)
	fig := calltrace.FiguresOf(stays)
	if asJSON {
		b, err := json.MarshalIndent(map[string]any{"figures": fig, "stays": stays, "answer": trace.Answer}, "", "  ")
		if err != nil {
			return err
		}
		fmt.Println(string(b))
		return nil
	}
	fmt.Printf("do_action (%d files instrumented), from Port.CallJSON to the answer's bytes", n)
	if only != "" {
		fmt.Printf(", files under %s", only)
	}
	if lib != "" {
		fmt.Printf(", not counting %s", lib)
	}
	fmt.Println(":")
	for i, s := range stays {
		mark := "  "
		if s.Return {
			mark = "↩ "
		}
		fmt.Printf("%3d %s%-32s %s\n", i+1, mark, s.File, strings.Join(s.Funcs, " "))
	}
	fmt.Printf("stays %d, files %d, returns %d\n", fig.Stays, fig.Files, fig.Returns)
	return nil
}

// copyModule copies the module's files, without version control and
// installed node packages.
func copyModule(root, to string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

// instrument rewrites the non-test files of the module's packages that
// journey/fixed is built from, except calltrace's own.
func instrument(dir string) (int, error) {
	list, err := goCmd(dir, nil, "list", "-deps", "-f",
		`{{if .Module}}{{if .Module.Main}}{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}}{{end}}{{end}}`, "./journey/fixed")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 3 || parts[0] == calltrace.ImportPath || parts[2] == "" {
			continue
		}
		for _, name := range strings.Split(parts[2], ",") {
			p := filepath.Join(parts[1], name)
			rel, _ := filepath.Rel(dir, p)
			src, err := os.ReadFile(p)
			if err != nil {
				return n, err
			}
			out, err := calltrace.Instrument(filepath.ToSlash(rel), src)
			if err != nil {
				return n, err
			}
			if err := os.WriteFile(p, out, 0o644); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

func goCmd(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}
