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
	"github.com/foldagent/foldagent/internal/loopwait"
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
	if a := <-f.send(context.Background(), http.MethodGet, status, "clerk2-tok", ""); a.status != http.StatusNotFound {
		t.Fatalf("another identity read the held call: %d %+v", a.status, a.res)
	}

	f.answer(req.Approve("pat")) // the person answers, well after the client's patience
	a := <-f.send(context.Background(), http.MethodGet, status, "clerk-tok", "")
	if a.err != nil || a.status != http.StatusOK || !a.res.OK || a.res.Tag != "Refund" {
		t.Fatalf("the status URL after the person approved: %d %+v (%v)", a.status, a.res, a.err)
	}
	if got := f.prog.Model().Refunded; len(got) != 1 || got[0] != "o-90" {
		t.Fatalf("refunded %v, want o-90 once", got)
	}
	if a := <-f.send(context.Background(), http.MethodGet, status, "clerk-tok", ""); a.status != http.StatusOK || a.res.Tag != "Refund" {
		t.Fatalf("the outcome read again: %d %+v", a.status, a.res)
	}
	if a := <-f.send(context.Background(), http.MethodGet, status, "clerk2-tok", ""); a.status != http.StatusNotFound {
		t.Fatalf("another identity read the outcome: %d %+v", a.status, a.res)
	}
}

// The same request again gives a held call's outcome once it ended: a
// call the person declines while held reports it, nothing refunded; the
// status URL still gives it, and the same request after that is a new
// call.
func TestAHeldCallsOutcomeIsTheSameRequestsAnswer(t *testing.T) {
	tick := make(chan time.Time)
	f := startRegisterWith(t, time.Minute, func(o *nativeagent.Options) { nativeagent.WithPatienceTick(o, tick) })
	first := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-91"}`)
	req := f.asked()
	tick <- time.Now()
	held := f.wantHeld(<-first, "person")
	f.answer(agent.ApprovalAnswer{ID: req.ID, Reason: "refunded by phone"})
	f.noneAsked()
	a := <-f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-91"}`)
	if a.err != nil || a.status != http.StatusForbidden || a.res.Refusal != agent.TagDeclined {
		t.Fatalf("the same request after the person declined: %d %+v (%v)", a.status, a.res, a.err)
	}
	f.nothingRefunded()
	if a := <-f.send(context.Background(), http.MethodGet, strings.TrimPrefix(held.StatusURL, nativeagent.DefaultPrefix), "clerk-tok", ""); a.status != http.StatusForbidden || a.res.Refusal != agent.TagDeclined {
		t.Fatalf("the status URL after the outcome was answered: %d %+v", a.status, a.res)
	}
	// The same request after its outcome was answered is a new call.
	again := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-91"}`)
	f.asked()
	tick <- time.Now()
	f.wantHeld(<-again, "person")
}

// Held calls are bounded per identity: at MaxHeldPerIdentity a call that
// reaches its patience is not held but keeps its request waiting, and is
// answered when it ends; another identity's call is held all the same.
func TestHeldCallsAreBoundedPerIdentity(t *testing.T) {
	tick := make(chan time.Time)
	f := startRegisterWith(t, time.Minute, func(o *nativeagent.Options) {
		nativeagent.WithPatienceTick(o, tick)
		o.MaxHeldPerIdentity = 1
	})
	first := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-1"}`)
	f.asked()
	tick <- time.Now()
	f.wantHeld(<-first, "person")
	second := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk-tok", `{"order":"o-2"}`)
	req := loopwaitAsked(f, 2)
	tick <- time.Now() // no room to hold it: it keeps waiting
	other := f.send(context.Background(), http.MethodPost, "/actions/refund", "clerk2-tok", `{"order":"o-3"}`)
	loopwaitAsked(f, 3)
	tick <- time.Now()
	if a := <-other; a.status != http.StatusAccepted {
		t.Fatalf("another identity's call at its patience: %d %+v", a.status, a.res)
	}
	f.answer(req.Approve("pat"))
	if a := <-second; a.err != nil || a.status != http.StatusOK || !a.res.OK {
		t.Fatalf("the call with no room to be held, once approved: %d %+v (%v)", a.status, a.res, a.err)
	}
}

// loopwaitAsked waits until n requests are on the person's screen and
// returns the newest.
func loopwaitAsked(f *registerFixture, n int) agent.ApprovalRequest {
	f.t.Helper()
	return loopwait.Until(f.t, f.prog, "the requests on the person's screen", func(m register) bool { return len(m.Asked) == n }).Asked[n-1]
}
