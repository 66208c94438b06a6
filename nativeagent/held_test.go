package nativeagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/nativeagent"
)

// heldAnswer is the data of a held answer.
type heldAnswer struct {
	Tag         string `json:"_tag"`
	Capability  string `json:"capability"`
	Request     string `json:"request"`
	WaitingFor  string `json:"waitingFor"`
	NothingDone bool   `json:"nothingDone"`
	StatusURL   string `json:"statusUrl"`
}

type httpAnswer struct {
	status int
	header http.Header
	res    nativeagent.Result
	err    error
}

// send makes one request as token in the background with ctx.
func (f *registerFixture) send(ctx context.Context, method, path, token, body string) <-chan httpAnswer {
	out, _ := f.sendTraced(ctx, method, path, token, body)
	return out
}

// sendTraced is send, also closing wrote once the whole request is on
// the wire.
func (f *registerFixture) sendTraced(ctx context.Context, method, path, token, body string) (<-chan httpAnswer, <-chan struct{}) {
	out := make(chan httpAnswer, 1)
	wrote := make(chan struct{})
	var once sync.Once
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { once.Do(func() { close(wrote) }) },
	})
	go func() {
		req, _ := http.NewRequestWithContext(ctx, method, f.url+path, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- httpAnswer{err: err}
			return
		}
		defer resp.Body.Close()
		a := httpAnswer{status: resp.StatusCode, header: resp.Header}
		b, _ := io.ReadAll(resp.Body)
		a.err = json.Unmarshal(b, &a.res)
		out <- a
	}()
	return out, wrote
}

func (f *registerFixture) wantHeld(a httpAnswer, waitingFor string) heldAnswer {
	f.t.Helper()
	var d heldAnswer
	if a.err == nil {
		a.err = json.Unmarshal(a.res.Data, &d)
	}
	if a.err != nil || a.status != http.StatusAccepted || a.res.OK || a.res.Refusal != agent.TagHeld || d.Tag != agent.TagHeld ||
		d.WaitingFor != waitingFor || d.NothingDone != (waitingFor == "person") || d.Capability != "refund" ||
		d.StatusURL == "" || a.header.Get("Location") != d.StatusURL {
		f.t.Fatalf("want a held answer waiting for the %s: %d %+v %+v (%v)", waitingFor, a.status, a.res, d, a.err)
	}
	return d
}

// A call held for the person past the client's patience is answered 202
// with a held answer the client can act on, never a gateway timeout; a
// client that leaves while it asks again leaves the call held; the
// person's later answer runs it once; the same request again, or the
// status URL, tells the caller the outcome, and no other identity can
// read it.
func TestAHeldCallIsAnsweredPollableAndRunsOnceOnTheLaterAnswer(t *testing.T) {
	tick := make(chan time.Time)
	f := startRegisterWith(t, time.Minute, func(o *nativeagent.Options) { nativeagent.WithPatienceTick(o, tick) })
	first := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-90"}`)
	req := f.asked()
	tick <- time.Now() // the client's patience runs out
	held := f.wantHeld(<-first, "person")
	if !strings.HasPrefix(held.StatusURL, nativeagent.DefaultPrefix+"/calls/") {
		t.Fatalf("status URL %q", held.StatusURL)
	}
	status := strings.TrimPrefix(held.StatusURL, nativeagent.DefaultPrefix)

	// Asking again, formatted otherwise, joins the call; a client that
	// leaves once its request is on the wire withdraws nothing.
	ctx, leave := context.WithCancel(context.Background())
	again, wrote := f.sendTraced(ctx, http.MethodPost, "/actions/refund", "clerk-tok", "{ \"order\" : \"o-90\" }")
	<-wrote
	leave()
	if a := <-again; a.err == nil {
		t.Fatalf("a request whose client left answered %d", a.status)
	}
	if n := len(f.prog.Model().Asked); n != 1 {
		t.Fatalf("%d requests on the person's screen after the client left, want the held one", n)
	}
	f.wantHeld(<-f.send(context.Background(), http.MethodGet, status, "clerk-tok", ""), "person")
	if a := <-f.send(context.Background(), http.MethodGet, status, "clerk2-tok", ""); a.status != http.StatusNotFound {
		t.Fatalf("another identity read the held call: %d %+v", a.status, a.res)
	}

	f.answer(req.Approve("pat")) // the person answers, well after the client's patience
	a := <-f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-90"}`)
	if a.err != nil || a.status != http.StatusOK || !a.res.OK || a.res.Tag != "Refund" {
		t.Fatalf("the same request after the person approved: %d %+v (%v)", a.status, a.res, a.err)
	}
	if got := f.prog.Model().Refunded; len(got) != 1 || got[0] != "o-90" {
		t.Fatalf("refunded %v, want o-90 once", got)
	}
	if a := <-f.send(context.Background(), http.MethodGet, status, "clerk-tok", ""); a.status != http.StatusNotFound {
		t.Fatalf("an outcome read twice: %d %+v", a.status, a.res)
	}
}

// The status URL gives the outcome once the call ended, and a call the
// person declines while held reports it there, nothing refunded.
func TestAHeldCallsOutcomeIsReadAtItsStatusURL(t *testing.T) {
	tick := make(chan time.Time)
	f := startRegisterWith(t, time.Minute, func(o *nativeagent.Options) { nativeagent.WithPatienceTick(o, tick) })
	first := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-91"}`)
	req := f.asked()
	tick <- time.Now()
	held := f.wantHeld(<-first, "person")
	f.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "refunded by phone"})
	f.noneAsked()
	a := <-f.send(context.Background(), http.MethodGet, strings.TrimPrefix(held.StatusURL, nativeagent.DefaultPrefix), "clerk-tok", "")
	if a.err != nil || a.status != http.StatusForbidden || a.res.Refusal != agent.TagDeclined {
		t.Fatalf("the declined call's status: %d %+v (%v)", a.status, a.res, a.err)
	}
	f.nothingRefunded()
}
