// Package mcpleave ends the calls of an MCP session its client deletes,
// for a server served through the SDK's own StreamableHTTPHandler.
//
// The SDK answers a DELETE by closing the session, and closing waits for
// the session's calls in flight: a call held for the person's approval
// would hold the DELETE's answer until the person answered, and then run
// for a client that had left. Wrap the server's handler with Handler and
// its calls end first: their contexts are cancelled, so a held call is
// withdrawn at once, and the DELETE is answered.
package mcpleave

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sessions tracks the calls in flight of one server's sessions. Track
// it on the server (mcp.Server.AddReceivingMiddleware) before serving.
type Sessions struct {
	srv *mcp.Server
	mu  sync.Mutex
	// left holds a context per session with a call in flight, cancelled
	// when the session is deleted.
	left map[*mcp.ServerSession]*life
}

type life struct {
	ctx    context.Context
	cancel context.CancelFunc
	calls  int
}

// Track installs the tracking on srv and returns it.
func Track(srv *mcp.Server) *Sessions {
	s := &Sessions{srv: srv, left: map[*mcp.ServerSession]*life{}}
	srv.AddReceivingMiddleware(s.middleware)
	return s
}

func (s *Sessions) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		l := s.begin(ss)
		defer s.end(ss, l)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(l.ctx, cancel)()
		return next(ctx, method, req)
	}
}

func (s *Sessions) begin(ss *mcp.ServerSession) *life {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.left[ss]
	if l == nil {
		l = &life{}
		l.ctx, l.cancel = context.WithCancel(context.Background())
		s.left[ss] = l
	}
	l.calls++
	return l
}

func (s *Sessions) end(ss *mcp.ServerSession, l *life) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l.calls--
	if l.calls == 0 && s.left[ss] == l {
		delete(s.left, ss)
		l.cancel()
	}
}

// Leave cancels the calls in flight of the session named id. A handler
// that checks who owns a session (journeymcp.HTTPHandler) calls it for
// an owned session's DELETE, before the SDK closes the session. A call
// the SDK has taken but this tracking has not yet seen starts cancelled:
// the session is marked left until its last call ends.
func (s *Sessions) Leave(id string) {
	if id == "" {
		return
	}
	live := map[*mcp.ServerSession]bool{}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss := range s.srv.Sessions() {
		live[ss] = true
		if ss.ID() != id {
			continue
		}
		l := s.left[ss]
		if l == nil {
			l = &life{}
			l.ctx, l.cancel = context.WithCancel(context.Background())
			s.left[ss] = l
		}
		l.cancel()
	}
	// A session marked left that the server no longer has, with no call
	// in flight, is forgotten: the marks stay bounded by the sessions.
	for ss, l := range s.left {
		if !live[ss] && l.calls == 0 {
			delete(s.left, ss)
		}
	}
}

// Handler wraps the server's streamable HTTP handler: a DELETE ends the
// named session's calls before next closes the session.
func (s *Sessions) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			s.Leave(r.Header.Get("Mcp-Session-Id"))
		}
		next.ServeHTTP(w, r)
	})
}
