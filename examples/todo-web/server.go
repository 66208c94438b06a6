package main

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed index.html
var indexHTML []byte

// appPackage is the application's import path; building it by path works
// from any directory inside the module.
const appPackage = "github.com/foldagent/foldagent/examples/todo-web/app"

// Build compiles the application to dir/app.wasm and copies the Go
// distribution's wasm_exec.js (the glue that runs it) to dir.
func Build(ctx context.Context, dir string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("building the wasm needs the go command: %w", err)
	}
	var stderr bytes.Buffer
	build := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-o", filepath.Join(dir, "app.wasm"), appPackage)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = &stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", appPackage, err, stderr.String())
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

// Handler serves index.html, and app.wasm and wasm_exec.js from dir.
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
	serve("app.wasm", "application/wasm")
	serve("wasm_exec.js", "text/javascript; charset=utf-8")
	return mux
}
