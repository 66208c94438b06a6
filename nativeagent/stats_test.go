package nativeagent_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/nativeagent"
)

// goneWriter is the ResponseWriter of a client whose connection broke:
// every write fails.
type goneWriter struct{ *httptest.ResponseRecorder }

func (goneWriter) Write([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

// The answer to a call that ran, when it cannot be written, is counted in
// Stats and logged at Warn: the call's effect stands, and the loss is not
// silent. A refused call's lost answer is not counted: nothing was done.
func TestALostAnswerIsCountedAndLogged(t *testing.T) {
	h := &host{}
	var log bytes.Buffer
	handler, err := nativeagent.NewHandler(nativeagent.Options{
		Verifier: func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: token, Scopes: []string{"owner"}}, nil
		},
		NewRuntime: func(context.Context, *auth.TokenInfo) (nativeagent.Runtime, error) {
			return agent.Bind(contract, h, nil)
		},
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	post := func(action, body string) {
		req := httptest.NewRequest(http.MethodPost, actions+action, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer a")
		handler.ServeHTTP(goneWriter{httptest.NewRecorder()}, req)
	}
	post("no_such_action", `{}`)
	if s := handler.Stats(); s.AnswersLost != 0 {
		t.Fatalf("a refusal's lost answer was counted: %+v", s)
	}
	post("add_note", `{"text":"x"}`)
	s := handler.Stats()
	if h.count() != 1 || s.AnswersLost != 1 || s.LastError == nil || !strings.Contains(s.LastError.Error(), "add_note") || s.Runtimes != 1 {
		t.Fatalf("after one lost answer (%d dispatched): %+v", h.count(), s)
	}
	if out := log.String(); !strings.Contains(out, "level=WARN") || !strings.Contains(out, "add_note") {
		t.Fatalf("the lost answer was not logged at Warn: %q", out)
	}
}
