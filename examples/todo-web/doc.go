// Command todo-web serves the todo application running in the page, its
// agent contract published as WebMCP tools.
//
//	go run ./examples/todo-web            # builds the wasm, prints the URL
//	go run ./examples/todo-web -addr 127.0.0.1:8080
//
// It builds ./app with GOOS=js GOARCH=wasm into a temporary directory,
// copies wasm_exec.js from the Go distribution beside it, and serves
// those two files and index.html on the loopback interface. Open the URL
// in a browser with WebMCP (Chromium: --enable-features=WebMCP) and an
// agent in the page sees create_todo (a declarative form), select_todo,
// toggle_todo, rename_todo, delete_selected_todo while a todo is selected
// and clear_completed while one is done: the contract of the shared todo
// domain, examples/todo/todo, which the terminal app serves too. The page
// keeps the list in memory, so a change is kept once it is made: each
// changing tool completes as soon as the page's update has applied it.
//
// # The download
//
// The wasm is the page's download, so it is built small and served
// compressed: with the build tag foldagent_noschemafallback (the contract's
// schemas are all within agent's own validator, so jsonschema-go's is
// left out), the build tag foldagent_schematable (the schemas are read
// from the table ./schemas installs, generated from what a native build
// derives, so no derivation code is downloaded; after changing a todo
// type, run go test ./examples/todo-web/schemas -update),
// -ldflags="-s -w" and inlining off outside the runtime (see
// buildFlags in server.go), then gzipped once at build time and
// sent with Content-Encoding: gzip to every browser that accepts it.
// TestDownloadSize fails when the gzip size passes a committed multiple
// of the floor, Go's own size for the standard packages the page needs
// (testdata/floor, built the same way in the same run). To
// see what grew, build it the same way and list the functions by size,
// or ask the linker why a package is in:
//
//	GOOS=js GOARCH=wasm go build -tags foldagent_noschemafallback,foldagent_schematable -ldflags=-dumpdep ./examples/todo-web/app 2>&1 | grep ' -> regexp'
package main
