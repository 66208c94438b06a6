package main

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

//go:embed index.html
var indexHTML []byte

// appPackage is the application's import path; building it by path works
// from any directory inside the module.
const appPackage = "github.com/foldagent/foldagent/examples/todo-web/app"

// buildFlags are the go build flags of the application, chosen for the
// size of the page's download:
//   - foldagent_noschemafallback leaves jsonschema-go's validator (with
//     the regexp and math/big code it brings) out: every schema the todo
//     contract advertises is judged by agent's own validator, and a
//     schema that needed jsonschema-go would fail at startup, loudly;
//   - foldagent_schematable reads the contract's schemas from the table
//     ./schemas installs instead of deriving them from the Go types, so
//     the derivation and its checks are left out (about 27 KB of gzip);
//     the table is what a native build derives for the same
//     declarations, and its test fails when it falls behind them;
//   - -s -w drop the symbol table and debug information, which the
//     browser does not use (Go's own panic traces keep their function
//     names);
//   - -gcflags=all=-l turns inlining off, which leaves one copy of each
//     small function instead of one per call site: about 50 KB less to
//     download. The runtime (runtime/..., internal/runtime/...) keeps its
//     inlining, on which the allocator, maps and the garbage collector
//     rely: without it a webmcp reconciliation ran up to five times
//     slower, with it about as fast as with full inlining.
var buildFlags = []string{"-trimpath", "-tags=foldagent_noschemafallback,foldagent_schematable", "-ldflags=-s -w",
	"-gcflags=all=-l", "-gcflags=runtime/...=", "-gcflags=internal/runtime/...="}

// Build compiles the application to dir/app.wasm, writes its gzip
// compression beside it (app.wasm.gz, served to browsers that accept
// gzip), and copies the Go distribution's wasm_exec.js (the glue that
// runs it) to dir.
func Build(ctx context.Context, dir string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("building the wasm needs the go command: %w", err)
	}
	var stderr bytes.Buffer
	wasm := filepath.Join(dir, "app.wasm")
	args := append(append([]string{"build"}, buildFlags...), "-o", wasm, appPackage)
	build := exec.CommandContext(ctx, goBin, args...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = &stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", appPackage, err, stderr.String())
	}
	if err := compress(wasm); err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, goBin, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("wasm_exec.js: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), glue, 0o644)
}

// compress writes name.gz, the gzip compression of name at the best
// compression level: it is done once per build, and every page load
// downloads it.
func compress(name string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(name+".gz", buf.Bytes(), 0o644)
}

// acceptsGzip reports whether the request's Accept-Encoding admits gzip:
// it lists gzip (or *) without a zero quality.
func acceptsGzip(r *http.Request) bool {
	for _, h := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(h, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.TrimSpace(coding)
			if !strings.EqualFold(coding, "gzip") && coding != "*" {
				continue
			}
			if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
				if v, err := strconv.ParseFloat(q, 64); err != nil || v == 0 {
					continue
				}
			}
			return true
		}
	}
	return false
}

// Handler serves index.html, and app.wasm and wasm_exec.js from dir.
// app.wasm goes out precompressed (Content-Encoding: gzip, from
// app.wasm.gz) to a client that accepts gzip, and as is otherwise;
// either way its Content-Type is application/wasm, which
// WebAssembly.instantiateStreaming requires.
func Handler(dir string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(indexHTML)
	})
	serve := func(name, contentType string) {
		mux.HandleFunc("GET /"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.Header().Set("Cache-Control", "no-store")
			http.ServeFile(w, r, filepath.Join(dir, name))
		})
	}
	mux.HandleFunc("GET /app.wasm", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/wasm")
		h.Set("Cache-Control", "no-store")
		h.Add("Vary", "Accept-Encoding")
		name := filepath.Join(dir, "app.wasm")
		if acceptsGzip(r) {
			if _, err := os.Stat(name + ".gz"); err == nil {
				h.Set("Content-Encoding", "gzip")
				name += ".gz"
			}
		}
		http.ServeFile(w, r, name)
	})
	serve("wasm_exec.js", "text/javascript; charset=utf-8")
	return mux
}
