package a2av03

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/foldagent/foldagent/a2aagent"
)

// ProtocolVersion is the version an A2A 1.0 card states for the 0.3
// interface (see Advertise).
const ProtocolVersion a2a.ProtocolVersion = "0.3"

// The JSON-RPC methods of A2A 0.3 this package serves.
const (
	MethodSend        = "message/send"
	MethodStream      = "message/stream"
	MethodGet         = "tasks/get"
	MethodCancel      = "tasks/cancel"
	MethodResubscribe = "tasks/resubscribe"
)

// Methods 0.3 defines that this agent answers with an error only: it
// sends no push notifications and has no extended card.
const (
	methodPushGet     = "tasks/pushNotificationConfig/get"
	methodPushSet     = "tasks/pushNotificationConfig/set"
	methodPushList    = "tasks/pushNotificationConfig/list"
	methodPushDelete  = "tasks/pushNotificationConfig/delete"
	methodExtendedCrd = "agent/getAuthenticatedExtendedCard"
)

// NewHandler returns the 0.3 endpoint of h's agent, to mount at its own
// path: JSON-RPC 0.3 at the mount point (POST), and the agent card in the
// form 0.3 clients read (url, preferredTransport, protocolVersion
// "0.3.0") at a2aagent.CardPath below it. The card is served behind
// h.Screen; everything else behind h.Protect, so the same Host, Origin,
// body-bound and bearer-token checks guard both versions.
//
// path is where the application mounts it, relative to h's own mount
// point (e.g. "/v0.3"), as Advertise takes it. The card's url is
// HTTPOptions.BaseURL followed by path when h has a BaseURL (a proxy
// stands between clients and the handler: the 1.0 card and Advertise say
// the same URL), and otherwise the URL the card request reached this
// handler by (its scheme, Host and path without a2aagent.CardPath).
func NewHandler(h *a2aagent.Handler, path string) http.Handler {
	rpc := h.Protect(&server{requests: h.RequestHandler()})
	card := h.Screen(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		url := requestBase(req)
		if base := h.BaseURL(); base != "" {
			url = strings.TrimSuffix(base, "/") + path
		}
		writeJSON(w, http.StatusOK, fromCard(h.CardFor(req), url))
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet && req.URL.Path == a2aagent.CardPath {
			card.ServeHTTP(w, req)
			return
		}
		rpc.ServeHTTP(w, req)
	})
}

// Advertise returns h with its 1.0 agent card listing the 0.3 endpoint
// too: one more interface, JSON-RPC with protocolVersion "0.3", at the
// card's own URL followed by path (where the application mounted
// NewHandler(h), relative to h's mount point, e.g. "/v0.3"). Every other
// request goes to h as it is.
func Advertise(h *a2aagent.Handler, path string) http.Handler {
	card := h.Screen(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := h.CardFor(req)
		base := requestBase(req)
		if len(c.SupportedInterfaces) > 0 {
			base = c.SupportedInterfaces[0].URL
		}
		c.SupportedInterfaces = append(c.SupportedInterfaces, &a2a.AgentInterface{
			URL:             strings.TrimSuffix(base, "/") + path,
			ProtocolBinding: a2a.TransportProtocolJSONRPC,
			ProtocolVersion: ProtocolVersion,
		})
		writeJSON(w, http.StatusOK, c)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet && req.URL.Path == a2aagent.CardPath {
			card.ServeHTTP(w, req)
			return
		}
		h.ServeHTTP(w, req)
	})
}

// requestBase is the URL a card request reached the handler by, without
// the card's path.
func requestBase(req *http.Request) string {
	scheme := "http"
	if req.TLS != nil {
		scheme = "https"
	}
	path := req.URL.EscapedPath()
	if req.RequestURI != "" {
		path, _, _ = strings.Cut(req.RequestURI, "?")
	}
	return trimCardPath(scheme, req.Host, path, a2aagent.CardPath)
}

// server is the 0.3 JSON-RPC binding over the SDK request handler that
// also serves 1.0: each 0.3 request is read into the SDK's request, the
// handler (with a2aagent's interceptor: owners, admission) answers it,
// and the answer is written back in the 0.3 shape.
type server struct {
	requests a2asrv.RequestHandler
}

// request is a JSON-RPC 2.0 request. ID is kept raw, so that it is
// answered exactly as it was sent.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// response is a JSON-RPC 2.0 response: Result or Error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error. Message is always a sentence this
// package (or a2aagent) authored; runtime values ride in Data.
type rpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

var null = json.RawMessage("null")

func (s *server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, response{JSONRPC: "2.0", ID: null, Error: errorFor(a2a.ErrInvalidRequest)})
		return
	}
	var body json.RawMessage
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: null, Error: errorFor(a2a.ErrParseError)})
		return
	}
	var r request
	if err := json.Unmarshal(body, &r); err != nil || !validID(r.ID) {
		writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: null, Error: errorFor(a2a.ErrInvalidRequest)})
		return
	}
	if len(r.ID) == 0 {
		r.ID = null
	}
	if r.JSONRPC != "2.0" || r.Method == "" {
		writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: r.ID, Error: errorFor(a2a.ErrInvalidRequest)})
		return
	}
	ctx, _ := a2asrv.NewCallContext(req.Context(), a2asrv.NewServiceParams(req.Header))
	switch r.Method {
	case MethodStream, MethodResubscribe:
		s.stream(ctx, w, &r)
		return
	}
	result, err := s.call(ctx, &r)
	if err != nil {
		writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: r.ID, Error: errorFor(err)})
		return
	}
	writeJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: r.ID, Result: result})
}

// call answers a method that is not streamed.
func (s *server) call(ctx context.Context, r *request) (any, error) {
	switch r.Method {
	case MethodSend:
		send, err := sendRequest(r.Params)
		if err != nil {
			return nil, err
		}
		res, err := s.requests.SendMessage(ctx, send)
		if err != nil {
			return nil, err
		}
		out, _, err := fromEvent(res)
		if err != nil {
			return nil, errors.Join(a2a.ErrInternalError, err)
		}
		return out, nil
	case MethodGet:
		p, err := readTaskParams(r.Params)
		if err != nil {
			return nil, err
		}
		t, err := s.requests.GetTask(ctx, &a2a.GetTaskRequest{ID: a2a.TaskID(p.ID), HistoryLength: p.HistoryLength})
		if err != nil {
			return nil, err
		}
		return fromTask(t), nil
	case MethodCancel:
		p, err := readTaskParams(r.Params)
		if err != nil {
			return nil, err
		}
		t, err := s.requests.CancelTask(ctx, &a2a.CancelTaskRequest{ID: a2a.TaskID(p.ID), Metadata: p.Metadata})
		if err != nil {
			return nil, err
		}
		return fromTask(t), nil
	case methodPushGet, methodPushSet, methodPushList, methodPushDelete:
		return nil, a2a.ErrPushNotificationNotSupported
	case methodExtendedCrd:
		return nil, a2a.ErrExtendedCardNotConfigured
	}
	return nil, a2a.ErrMethodNotFound
}

// stream answers message/stream and tasks/resubscribe with server-sent
// events, each data line one JSON-RPC response carrying one event (or the
// error that ends the stream). The stream ends after the event marked
// final, or when the caller goes away.
func (s *server) stream(ctx context.Context, w http.ResponseWriter, r *request) {
	var events iter.Seq2[a2a.Event, error]
	if r.Method == MethodStream {
		send, err := sendRequest(r.Params)
		if err != nil {
			events = failed(err)
		} else {
			events = s.requests.SendStreamingMessage(ctx, send)
		}
	} else {
		p, err := readTaskParams(r.Params)
		if err != nil {
			events = failed(err)
		} else {
			events = s.requests.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: a2a.TaskID(p.ID)})
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	write := func(resp response) bool {
		b, err := json.Marshal(resp)
		if err != nil {
			b, _ = json.Marshal(response{JSONRPC: "2.0", ID: r.ID, Error: errorFor(a2a.ErrInternalError)})
		}
		if _, err := w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	for ev, err := range events {
		if err != nil {
			write(response{JSONRPC: "2.0", ID: r.ID, Error: errorFor(err)})
			return
		}
		out, last, err := fromEvent(ev)
		if err != nil {
			write(response{JSONRPC: "2.0", ID: r.ID, Error: errorFor(errors.Join(a2a.ErrInternalError, err))})
			return
		}
		if !write(response{JSONRPC: "2.0", ID: r.ID, Result: out}) || last {
			return
		}
	}
}

func failed(err error) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, err) }
}

// sendRequest reads message/send and message/stream params.
func sendRequest(raw json.RawMessage) (*a2a.SendMessageRequest, error) {
	var p sendParams
	if err := json.Unmarshal(orEmpty(raw), &p); err != nil || p.Message == nil {
		return nil, a2a.ErrInvalidParams
	}
	msg, err := p.Message.toMessage()
	if err != nil {
		return nil, errors.Join(a2a.ErrInvalidParams, err)
	}
	out := &a2a.SendMessageRequest{Message: msg, Metadata: p.Metadata}
	if c := p.Configuration; c != nil {
		if len(c.PushConfig) > 0 && string(c.PushConfig) != "null" {
			return nil, a2a.ErrPushNotificationNotSupported
		}
		out.Config = &a2a.SendMessageConfig{
			AcceptedOutputModes: c.AcceptedOutputModes,
			HistoryLength:       c.HistoryLength,
			ReturnImmediately:   c.Blocking != nil && !*c.Blocking,
		}
	}
	return out, nil
}

// readTaskParams reads the params naming one task.
func readTaskParams(raw json.RawMessage) (*taskParams, error) {
	var p taskParams
	if err := json.Unmarshal(orEmpty(raw), &p); err != nil || p.ID == "" {
		return nil, a2a.ErrInvalidParams
	}
	return &p, nil
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// validID reports whether a JSON-RPC id is a string, a number, null or
// absent.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	var v any
	if err := json.Unmarshal(id, &v); err != nil {
		return false
	}
	switch v.(type) {
	case nil, string, float64:
		return true
	}
	return false
}

// codes are the JSON-RPC error codes of A2A 0.3, each with the sentence
// this package answers with when the error carries none of its own.
var codes = []struct {
	err      error
	code     int
	sentence string
}{
	{a2a.ErrParseError, -32700, "The request body is not JSON."},
	{a2a.ErrInvalidRequest, -32600, "The request is not a JSON-RPC 2.0 request this endpoint takes: send a POST whose body has jsonrpc \"2.0\", an id and a method."},
	{a2a.ErrMethodNotFound, -32601, "This endpoint serves the A2A 0.3 methods message/send, message/stream, tasks/get, tasks/cancel and tasks/resubscribe; the request names none of them."},
	{a2a.ErrInvalidParams, -32602, "The request's params do not have the A2A 0.3 shape this method takes."},
	{a2a.ErrTaskNotFound, -32001, "There is no task with that id."},
	{a2a.ErrTaskNotCancelable, -32002, "That task has already ended, so it cannot be cancelled."},
	{a2a.ErrPushNotificationNotSupported, -32003, "This agent does not send push notifications."},
	{a2a.ErrUnsupportedOperation, -32004, "This agent does not support that operation."},
	{a2a.ErrUnsupportedContentType, -32005, "This agent cannot answer in the content types the request accepts."},
	{a2a.ErrInvalidAgentResponse, -32006, "This agent produced an answer that does not fit the method."},
	{a2a.ErrExtendedCardNotConfigured, -32007, "This agent has no authenticated extended card."},
	{a2a.ErrServerError, -32000, "This agent cannot serve this request right now."},
	{a2a.ErrInternalError, -32603, "This agent could not answer this request."},
}

// errorFor is the 0.3 error for what the SDK or a2aagent answered. The
// message is the sentence a2aagent put in an *a2a.Error, or else this
// package's sentence for the error's code: the SDK's own error text
// (its internal chain) never reaches the caller.
func errorFor(err error) *rpcError {
	out := &rpcError{Code: -32603, Message: codes[len(codes)-1].sentence}
	for _, c := range codes {
		if errors.Is(err, c.err) {
			out.Code, out.Message = c.code, c.sentence
			break
		}
	}
	var authored *a2a.Error
	if errors.As(err, &authored) {
		if authored.Message != "" {
			out.Message = authored.Message
		}
		if len(authored.Details) > 0 {
			out.Data = authored.Details
		}
	}
	return out
}

// writeJSON writes v as the JSON body of a response with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(response{JSONRPC: "2.0", ID: null, Error: errorFor(a2a.ErrInternalError)})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(append(b, '\n'))
}
