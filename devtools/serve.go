package devtools

import (
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Token returns the random bearer token Handler asks of every request.
func (d *Devtools[Model, Msg]) Token() string { return d.token }

// Handler serves the devtools MCP server over streamable HTTP. A request
// without "Authorization: Bearer <Token>" is answered 401 and reaches
// nothing.
func (d *Devtools[Model, Msg]) Handler() http.Handler {
	srv := d.Server()
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	want := []byte("Bearer " + d.token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="foldagent-devtools"`)
			http.Error(w, "devtools: a valid bearer token is required", http.StatusUnauthorized)
			return
		}
		mcpH.ServeHTTP(w, r)
	})
}

// ErrListening is returned by Listen when the devtools already listen.
var ErrListening = errors.New("devtools: already listening")

// Listen serves Handler on a random port of 127.0.0.1 and returns where:
// the URL of the MCP endpoint and the token. With Options.Publish set it
// then publishes the Listing, and a publish error closes the listener and
// is returned. Close unpublishes and stops serving.
func (d *Devtools[Model, Msg]) Listen() (Listing, error) {
	d.serveMu.Lock()
	defer d.serveMu.Unlock()
	if d.server != nil {
		return Listing{}, ErrListening
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Listing{}, err
	}
	dir, _ := os.Getwd()
	l := Listing{URL: "http://" + ln.Addr().String() + "/mcp", Token: d.token, PID: os.Getpid(), Dir: dir, App: d.opts.App, Started: d.started}
	mux := http.NewServeMux()
	mux.Handle("/mcp", d.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	if d.opts.Publish != nil {
		unpublish, err := d.opts.Publish(l)
		if err != nil {
			_ = srv.Close()
			return Listing{}, err
		}
		d.unpublish = unpublish
	}
	d.server = srv
	return l, nil
}
