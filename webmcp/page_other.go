//go:build !(js && wasm)

package webmcp

// PageModelContext returns the page's model context. Outside a browser
// (this build is not GOOS=js GOARCH=wasm) there is no page, and it
// returns nil.
func PageModelContext() ModelContext { return nil }

// DeclarativeTools reports whether the browser derives tools from
// annotated forms. Outside a browser it is false.
func DeclarativeTools() bool { return false }
