package teaserve_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teaserve"
	"github.com/foldagent/foldagent/mcpagent"
)

// A program that binds its own runtimes is served by NewBound: the
// socket's sessions get the runtime their Hello asks for (an unknown one
// is closed unserved), HTTP clients are who the application's verifier
// says, another handler answers on the same port, and Ready hears where
// the endpoint is before the program's first Update.
func TestNewBoundServesTheApplicationsRuntimes(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	h := teahost.New[pad, tea.Msg](pad{}, nil)
	rt, err := agent.Bind(padContract, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []string
	var ready teaserve.Endpoint
	readied := make(chan struct{})
	updatesAtReady := -1
	updates := 0
	h.Subscribe(func() { updates++ })
	s, err := teaserve.NewBound("boundtest", h, rt, &teaserve.Options[agent.NoPrincipal]{
		Local: func(hello teaserve.Hello) (mcpagent.Runtime, error) {
			mu.Lock()
			asked = append(asked, hello.As)
			mu.Unlock()
			if hello.As != "typist" {
				return nil, errors.New("no such role")
			}
			return rt, nil
		},
		HTTP: &mcpagent.HTTPOptions{
			Verifier: func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
				if tok != "mine" {
					return nil, auth.ErrInvalidToken
				}
				return &auth.TokenInfo{UserID: "me"}, nil
			},
			NewRuntime: func(context.Context, *auth.TokenInfo) (mcpagent.Runtime, error) { return rt, nil },
		},
		Handle: map[string]http.Handler{"/hello": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hi") })},
		Ready:  func(ep teaserve.Endpoint) { ready, updatesAtReady = ep, updates; close(readied) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Runtime() != nil {
		t.Fatal("NewBound's Server reports a runtime New bound")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer()) }()
	defer func() { cancel(); <-ran }()
	<-readied

	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	web, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ep(t, "boundtest").URL, HTTPClient: &http.Client{Transport: bearer{"mine"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	typeText(t, web, "ab")
	if ready.URL == "" || ready.Token != "" || updatesAtReady != 0 {
		t.Fatalf("Ready heard %+v after %d updates; want the URL, no token, before any", ready, updatesAtReady)
	}
	res, err := http.Get(strings.TrimSuffix(ready.URL, "/mcp") + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "hi" {
		t.Fatalf("the mounted handler answered %q", body)
	}

	conn, err := teaserve.Dial("boundtest", teaserve.Hello{As: "intruder"})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := conn.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("a refused hello was served: %d bytes, %v", n, err)
	}
	conn.Close()

	cin, toServer := io.Pipe()
	fromServer, cout := io.Pipe()
	conn, err = teaserve.Dial("boundtest", teaserve.Hello{As: "typist"})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = teaserve.Relay(conn, cin, cout); cout.Close() }()
	local, err := client.Connect(ctx, &mcp.IOTransport{Reader: fromServer, Writer: toServer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	typeText(t, local, "cd")
	if got := readText(t, web); got != "abcd" {
		t.Fatalf("context = %q, want abcd", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "intruder,typist" {
		t.Fatalf("Local was asked for %v", asked)
	}
}

func ep(t *testing.T, name string) teaserve.Endpoint {
	t.Helper()
	e, err := teaserve.ReadEndpoint(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
