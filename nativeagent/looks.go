package nativeagent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/foldagent/foldagent/agent"
)

// This file ties what an Agent Native caller was shown to what it calls
// (see agent.Watch and agent.WithCaller). Every read the handler serves
// (the catalogue, the context, a resource) and every action result is the
// caller's look, and the version of the Model it was taken at rides in the
// response header VersionHeader (and, where the body is ours, in its
// "version" member). An action may cite the version it planned against in
// the request header SeenVersionHeader; a cited version wins over the
// caller's last look.
//
// The caller is the Agent Native identity: the principal the bearer token
// (or the application's session check) names, the same key the handler
// keeps that principal's runtime under.

// HTTP headers this handler reads and writes.
const (
	// VersionHeader carries, on a response taken from a versioned
	// runtime, the version of the Model the read or result was taken at
	// (a decimal number).
	VersionHeader = "Foldagent-Version"
	// SeenVersionHeader is the request header in which an action may cite
	// the version it planned against (a decimal number a response's
	// VersionHeader gave).
	SeenVersionHeader = "Foldagent-Seen-Version"
)

// Read is the body of a context or resource read: the projection's JSON
// and the version of the Model it was read at (0, and omitted, on an
// unversioned host).
type Read struct {
	Version uint64          `json:"version,omitempty"`
	Value   json.RawMessage `json:"value"`
}

// withCaller names the caller of a request in ctx: the principal's
// identity key.
func withCaller(ctx context.Context, e *entry) context.Context {
	return agent.WithCaller(ctx, "agent-native:identity:"+e.key)
}

// errBadCitation is a SeenVersionHeader that is not a version.
var errBadCitation = errors.New("bad citation")

// seenVersion reads the version a request cites, or 0 when it cites none.
func seenVersion(r *http.Request) (uint64, error) {
	raw := strings.TrimSpace(r.Header.Get(SeenVersionHeader))
	if raw == "" {
		return 0, nil
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || v == 0 {
		return 0, errBadCitation
	}
	return v, nil
}

// badCitation answers a request whose SeenVersionHeader is not a version:
// 400, nothing dispatched.
func badCitation(w http.ResponseWriter) {
	msg := "The " + SeenVersionHeader + " header must be a positive whole number: a version a response's " + VersionHeader + " header gave."
	data, _ := json.Marshal(struct {
		Tag     string `json:"_tag"`
		Header  string `json:"header"`
		Message string `json:"message"`
	}{agent.TagInvalidInput, SeenVersionHeader, msg})
	writeResult(w, http.StatusBadRequest, Result{Refusal: agent.TagInvalidInput, Message: msg, Error: msg, Data: data})
}

// setVersion writes v as the response's VersionHeader, when it is one.
func setVersion(w http.ResponseWriter, v uint64) {
	if v != 0 {
		w.Header().Set(VersionHeader, strconv.FormatUint(v, 10))
	}
}

// catalogLook records a catalogue read as the caller's look and returns
// the version it was taken at (0 on an unversioned runtime).
func catalogLook(ctx context.Context, e *entry) uint64 {
	offer, err := e.rt.Offered(withCaller(ctx, e))
	if err != nil && offer.Capabilities == nil {
		return 0
	}
	return offer.Version
}

// serveRead answers GET <prefix>/context and GET <prefix>/resources/<name>.
func (h *Handler) serveRead(w http.ResponseWriter, r *http.Request, e *entry, resource string) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, "The application's state is read with GET.")
		return
	}
	ctx := withCaller(r.Context(), e)
	var (
		read agent.Read
		err  error
	)
	if resource == "" {
		read, err = e.rt.ContextRead(ctx)
		if err == nil && read.Value == nil {
			writeError(w, http.StatusNotFound, "The application declares no context.")
			return
		}
	} else {
		read, err = e.rt.ResourceRead(ctx, resource)
	}
	if err != nil {
		reply := agent.ReplyTo(resource, agent.Result{}, err)
		status := http.StatusInternalServerError
		if reply.Tag == agent.TagResource {
			status = http.StatusNotFound
		} else {
			h.log.Error("nativeagent: a read failed", "resource", resource, "err", err)
		}
		writeResult(w, status, Result{Refusal: reply.Tag, Message: reply.Text, Error: reply.Text, Data: reply.Data})
		return
	}
	b, err := json.Marshal(Read{Version: read.Version, Value: read.Value})
	if err != nil {
		h.log.Error("nativeagent: encoding a read failed", "err", err)
		writeError(w, http.StatusInternalServerError, "The state could not be encoded.")
		return
	}
	setVersion(w, read.Version)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
