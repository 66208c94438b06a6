package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Error is implemented by every refusal the runtime reports to a calling
// agent. Each has a stable Tag (the protocol's "_tag") and a message
// written for the agent: it names the capability, never the Model, the
// payload or the underlying decode failure, which stay on the error's
// cause for the application.
//
// Every Error encodes to JSON as {"_tag": ..., "message": ..., fields...}
// so an adapter can send it across a protocol boundary unchanged.
type Error interface {
	error
	// Tag is the error's stable protocol tag, such as
	// "AgentCapabilityUnavailableError".
	Tag() string
}

// Tags of the errors in this package. They are protocol: adapters, audit
// outcomes and other implementations of the contract use the same words.
const (
	TagUnknownCapability = "AgentUnknownCapabilityError"
	TagUnavailable       = "AgentCapabilityUnavailableError"
	TagInvalidInput      = "AgentInvalidInputError"
	TagAuthorization     = "AgentAuthorizationError"
	TagCancelled         = "AgentCancelledError"
	TagCompletionTimeout = "AgentCompletionTimeoutError"
	TagNotDelivered      = "AgentNotDeliveredError"
	TagResource          = "AgentResourceError"
	TagDefect            = "AgentDefect"
	TagProjection        = "AgentProjectionError"
	TagStaleView         = "AgentStaleViewError"
	TagNotFound          = "AgentNotFoundError"
	TagDeclined          = "AgentDeclinedError"
	TagApprovalTimeout   = "AgentApprovalTimeoutError"
	TagPersonLeft        = "AgentPersonLeftError"
	TagAuditUnavailable  = "AgentAuditUnavailableError"
	// TagHeld is not an error of a dispatch: it tags an adapter's answer
	// to a call that has not ended when the client's patience runs out
	// (mcpagent's held answer, nativeagent's 202): nothing is reported
	// done, the call goes on, and its caller learns the outcome later.
	TagHeld = "AgentHeldError"
	// TagState tags a refusal because the world is not in the state the
	// call needs (StateError).
	TagState = "AgentStateError"
)

// UnknownCapabilityError reports a name (or Message type) the contract does
// not expose. The Model was not read.
type UnknownCapabilityError struct {
	// Capability is the name the caller asked for, or the Go type name of
	// an unexposed Message.
	Capability string
}

func (e *UnknownCapabilityError) Error() string {
	return fmt.Sprintf("There is no capability named %q.", e.Capability)
}

// Tag returns "AgentUnknownCapabilityError".
func (e *UnknownCapabilityError) Tag() string { return TagUnknownCapability }

// MarshalJSON encodes the error as {"_tag", "capability", "message"}.
func (e *UnknownCapabilityError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.Error()})
}

// UnavailableError reports a capability that exists in the contract but is
// not offered by the current Model: its available predicate answered false.
// Nothing was decoded, authorized or dispatched.
type UnavailableError struct {
	Capability string // protocol name
	Type       string // Go type tag of the Message
	// Reason is the authored sentence of the first Requirement that does
	// not hold (Variant.Requires), or "" when Available answered false or
	// the capability declares no requirements. It is the contract's own
	// words, never Model data.
	Reason string
}

func (e *UnavailableError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("Capability %q is not offered now. %s", e.Capability, e.Reason)
	}
	return fmt.Sprintf("Capability %q is not offered in the application's current state.", e.Capability)
}

// Tag returns "AgentCapabilityUnavailableError".
func (e *UnavailableError) Tag() string { return TagUnavailable }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "reason"}, reason only when there is one.
func (e *UnavailableError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
		Reason     string `json:"reason,omitempty"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Reason})
}

// StaleViewError reports a call refused because something it depends on
// (a Watch the capability declares) moved since the caller last looked:
// the call was built from a state that is no longer the application's.
// Nothing was dispatched, so trying again is safe once the caller has read
// the current state (the context, a resource, the offered list).
type StaleViewError struct {
	Capability string
	Type       string
	// Moved names each watch whose value differs between the look the
	// call was judged against and the state it would have run on, in the
	// capability's declaration order. It names watches, never values.
	Moved []string
	// Version is the version of the state the call would have run on:
	// the one the caller should read again.
	Version uint64
	// Seen is the version the call was judged against: the version it
	// cited, or the caller's last look; 0 when the caller had not looked
	// yet (Unseen).
	Seen uint64
	// Unseen is true when there was nothing to judge against: the caller
	// had not read the application's state (or has been forgotten since),
	// or it cited a version the runtime no longer keeps.
	Unseen bool
	// Policy is the capability's freshness policy.
	Policy Freshness
}

func (e *StaleViewError) Error() string {
	if e.Unseen {
		return fmt.Sprintf("%q depends on state you have not read yet, so nothing was done. Read the current state, then call it again if it still fits.", e.Capability)
	}
	return fmt.Sprintf("What %q depends on changed since you last read it, so nothing was done. Read the current state, then call it again if it still fits.", e.Capability)
}

// Tag returns "AgentStaleViewError".
func (e *StaleViewError) Tag() string { return TagStaleView }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "moved", "version", "seenVersion", "unseen", "policy",
// "retrySafe": true}.
func (e *StaleViewError) MarshalJSON() ([]byte, error) {
	moved := e.Moved
	if moved == nil {
		moved = []string{}
	}
	policy := e.Policy
	if policy == "" {
		policy = StaleRefuse
	}
	return json.Marshal(struct {
		_          incomparable
		Tag        string    `json:"_tag"`
		Capability string    `json:"capability"`
		Type       string    `json:"tag"`
		Message    string    `json:"message"`
		Moved      []string  `json:"moved"`
		Version    uint64    `json:"version"`
		Seen       uint64    `json:"seenVersion,omitempty"`
		Unseen     bool      `json:"unseen,omitempty"`
		Policy     Freshness `json:"policy"`
		RetrySafe  bool      `json:"retrySafe"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), moved, e.Version, e.Seen, e.Unseen, policy, true})
}

// NotFoundError reports that the input names something that does not
// exist: a todo id, a product. It is not a refusal of the caller ("you may
// not") nor of the moment ("not now"): the referent is missing. Nothing
// was dispatched. A capability reports it through Variant.Exists, or an
// Authorize hook may return one.
type NotFoundError struct {
	Capability string
	Type       string
	// Path is a JSON Pointer (RFC 6901) to the input member that names
	// the missing thing, as in InputProblem; "" is the whole input. It
	// names where, never the value.
	Path string
	// Reason is the capability's authored sentence for a missing thing
	// (Variant.Missing), or "". It is the contract's own words, never
	// Model data.
	Reason string
}

func (e *NotFoundError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	// The path rides in the data only: a path into a map names a key the
	// caller wrote.
	return fmt.Sprintf("Something the input for %q names does not exist; its path is in the data. Read the current state for what does.", e.Capability)
}

// Tag returns "AgentNotFoundError".
func (e *NotFoundError) Tag() string { return TagNotFound }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "path"}.
func (e *NotFoundError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
		Path       string `json:"path"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Path})
}

// InvalidInputError reports a payload that does not match the capability's
// input schema. Its message is the same sentence whatever went wrong: it
// names only the capability and never restates the decoder's failure,
// which stays on the error's cause (see Unwrap) for the application's
// logs. What the agent needs to correct itself rides beside the sentence,
// as data: where the input went wrong (Problems) and the schema it should
// have met (InputSchema).
type InvalidInputError struct {
	Capability string
	Type       string
	// Problems lists the places the input broke its schema, in payload
	// order, each a JSON Pointer and a ProblemCode; at most 20 are listed.
	// It names member paths, never values. It is empty when the input
	// could not be judged at all (a typed input that does not encode).
	Problems []InputProblem
	// InputSchema is the JSON Schema the input should have met: the one
	// the capability advertises.
	InputSchema json.RawMessage
	cause       error
}

// InputProblem is one place where an input broke its schema.
type InputProblem struct {
	// Path is a JSON Pointer (RFC 6901) to the offending value or, for a
	// missing member, to where that member belongs; "" is the whole input.
	Path string `json:"path"`
	// Code says what is wrong there.
	Code ProblemCode `json:"code"`
}

// ProblemCode says what is wrong at an InputProblem's path. The codes are
// protocol: short, stable words an agent (or its client) can act on.
type ProblemCode string

// Problem codes.
const (
	// ProblemUndeclared is a member the schema does not declare: often a
	// misspelled or differently cased name.
	ProblemUndeclared ProblemCode = "undeclared"
	// ProblemMissing is a required member that is absent.
	ProblemMissing ProblemCode = "missing"
	// ProblemWrongType is a value of a type the schema does not allow
	// there (null included), or an input that is not a JSON object.
	ProblemWrongType ProblemCode = "wrong_type"
	// ProblemInvalid is a value of an allowed type that breaks another
	// rule of the schema: a range, a pattern, an enumeration, a length.
	ProblemInvalid ProblemCode = "invalid"
	// ProblemMalformed is an input that is not well-formed JSON.
	ProblemMalformed ProblemCode = "malformed"
)

func (e *InvalidInputError) Error() string {
	return fmt.Sprintf("The input for %q does not match its input schema.", e.Capability)
}

// Tag returns "AgentInvalidInputError".
func (e *InvalidInputError) Tag() string { return TagInvalidInput }

// Unwrap returns the decode failure, for the application's logs.
func (e *InvalidInputError) Unwrap() error { return e.cause }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "problems": [{"path", "code"}], "inputSchema"}. The cause,
// and any value the input held, are deliberately left out.
func (e *InvalidInputError) MarshalJSON() ([]byte, error) {
	problems := e.Problems
	if problems == nil {
		problems = []InputProblem{}
	}
	schema := e.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage("{}")
	}
	return json.Marshal(struct {
		_           incomparable
		Tag         string          `json:"_tag"`
		Capability  string          `json:"capability"`
		Type        string          `json:"tag"`
		Message     string          `json:"message"`
		Problems    []InputProblem  `json:"problems"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), problems, schema})
}

// AuthorizationError reports that the capability's authorize hook refused
// the caller. When the hook gave a reason, the reason is the message, so
// the agent learns why; a bare refusal says only that it was refused.
type AuthorizationError struct {
	Capability string
	Type       string
	// Reason is the authorize hook's explanation, if it gave one.
	Reason string
}

func (e *AuthorizationError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	return fmt.Sprintf("You are not authorized to use %q.", e.Capability)
}

// Tag returns "AgentAuthorizationError".
func (e *AuthorizationError) Tag() string { return TagAuthorization }

// MarshalJSON encodes the error as {"_tag", "capability", "tag", "message"}.
func (e *AuthorizationError) MarshalJSON() ([]byte, error) {
	return marshalCapabilityError(e.Tag(), e.Capability, e.Type, e.Error())
}

// StateError reports that the call was refused because the world is not
// in the state it needs: the order it names is already paid, or is not
// the one under review. It is not a question of who may (that is
// AuthorizationError) nor of what is offered now (UnavailableError): the
// same caller, with the same input, is refused until the state changes.
// An authorize hook returns it with RefuseState. Nothing was done.
type StateError struct {
	Capability string
	Type       string
	// Reason is the hook's explanation, written for the agent.
	Reason string
}

func (e *StateError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	return fmt.Sprintf("%q cannot be done in the state things are in now.", e.Capability)
}

// Tag returns "AgentStateError".
func (e *StateError) Tag() string { return TagState }

// MarshalJSON encodes the error as {"_tag", "capability", "tag", "message"}.
func (e *StateError) MarshalJSON() ([]byte, error) {
	return marshalCapabilityError(e.Tag(), e.Capability, e.Type, e.Error())
}

// CancelledError reports that the caller's context ended the invocation.
//
// Dispatched is false when the Message was never handed to the host, when
// the host refused it because the context had ended, or when the host had
// not yet delivered it when the context ended (delivery is then unknown:
// see DeliveryUnknown). Dispatched is true when the Message reached update
// and only the wait for its completion was cancelled: cancelling never
// undoes a delivered Message.
type CancelledError struct {
	Capability string
	Dispatched bool
	// DeliveryUnknown is true when the host's Dispatch was called and had
	// not returned, or had queued the Message and not yet reported it
	// delivered (see DeliveryTracker), when the context ended.
	DeliveryUnknown bool
	cause           error
}

func (e *CancelledError) Error() string {
	switch {
	case e.Dispatched:
		return fmt.Sprintf("The Message of %q reached update; only the wait for its completion was cancelled. Nothing was undone.", e.Capability)
	case e.DeliveryUnknown:
		return fmt.Sprintf("%q was cancelled while its Message was being delivered; whether update received it is unknown. Read the current state before trying again.", e.Capability)
	default:
		return fmt.Sprintf("%q was cancelled before its Message reached the application; nothing happened.", e.Capability)
	}
}

// Tag returns "AgentCancelledError".
func (e *CancelledError) Tag() string { return TagCancelled }

// Unwrap returns the context's error (context.Canceled or
// context.DeadlineExceeded), joined with ErrHostIdle when delivery is
// unknown because the host accepted the Message and update never took it.
func (e *CancelledError) Unwrap() error { return e.cause }

// MarshalJSON encodes the error as {"_tag", "capability", "dispatched", "message"}.
func (e *CancelledError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Dispatched bool   `json:"dispatched"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.Dispatched, e.Error()})
}

// NotDeliveredError reports that the host refused the Message, or dropped
// it before update received it: its queue was full, or the application
// was stopping or had stopped. Update never saw the Message, so nothing
// happened and sending it again cannot apply it twice; whether a retry
// can succeed depends on why (a full queue drains, a stopped application
// stays stopped). It is a refusal, audited with decision "refused", unlike
// a defect (something failed) and unlike a delivery that is unknown (see
// CancelledError.DeliveryUnknown).
//
// The runtime reports it when the host's error says so: an error that
// has, anywhere in its chain (errors.As), a method NotDelivered() bool
// returning true. host/loop's and host/teahost's ErrQueueFull and
// ErrStopped do.
type NotDeliveredError struct {
	Capability string // protocol name
	Type       string // Go type tag of the Message
	// RetrySafe is always true for an error the runtime reports: the
	// Message never reached update, so sending it again cannot apply it
	// twice. It is a field so that it crosses a protocol boundary.
	RetrySafe bool
	cause     error
}

func (e *NotDeliveredError) Error() string {
	return fmt.Sprintf("The application did not take the Message of %q, so nothing happened. It is safe to try again, though it may be refused again while the application is busy or stopped.", e.Capability)
}

// Tag returns "AgentNotDeliveredError".
func (e *NotDeliveredError) Tag() string { return TagNotDelivered }

// Unwrap returns the host's error (such as loop.ErrQueueFull), for the
// application's logs.
func (e *NotDeliveredError) Unwrap() error { return e.cause }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "retrySafe", "message"}; the host's error is left out.
func (e *NotDeliveredError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		RetrySafe  bool   `json:"retrySafe"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.RetrySafe, e.Error()})
}

// CompletionTimeoutError reports that a capability's completion contract
// was not met before its deadline. The wait ended and nothing was undone.
// Unless DeliveryUnknown is set, the Message reached update (or the host
// promised it would: see Host).
//
// Its message is the agent's. What the developer should know is its cause
// (Unwrap): ErrHostIdle when the host accepted the Message and update
// never took it.
type CompletionTimeoutError struct {
	Capability string
	Invocation string
	Timeout    time.Duration
	// DeliveryUnknown is true when the deadline passed before the host's
	// Dispatch had returned, or before a host that tracks delivery had
	// reported the Message delivered: whether update received it is then
	// unknown.
	DeliveryUnknown bool
	cause           error
}

// ErrHostIdle is the cause, for the developer, of a call that ended with
// delivery unknown although the host had accepted its Message: a host
// that tracks delivery (host/loop's Program, teahost's Host) queued it,
// and update never took it before the deadline or the caller's context
// ended. The usual reason is a host that is not running: a loop.Program
// applies Messages only while its Run runs (go prog.Run(ctx)), a Bubble
// Tea program only while its Run runs. Match it with errors.Is on a
// *CompletionTimeoutError or a *CancelledError; the agent is told only
// that delivery is unknown.
var ErrHostIdle = errors.New("agent: the host accepted the Message, but update never took it; is the host running (for host/loop: go prog.Run(ctx))?")

// Unwrap returns ErrHostIdle when the host accepted the Message and update
// never took it, and nil otherwise.
func (e *CompletionTimeoutError) Unwrap() error { return e.cause }

func (e *CompletionTimeoutError) Error() string {
	if e.DeliveryUnknown {
		return fmt.Sprintf("%q did not complete within %s, and the application had not yet confirmed taking its Message; whether update received it is unknown. Read the current state before trying again.", e.Capability, e.Timeout)
	}
	return fmt.Sprintf("%q did not complete within %s. Its Message still reached update and nothing was undone; read the current state before trying again.", e.Capability, e.Timeout)
}

// Tag returns "AgentCompletionTimeoutError".
func (e *CompletionTimeoutError) Tag() string { return TagCompletionTimeout }

// MarshalJSON encodes the error as {"_tag", "capability", "invocation", "message"}.
func (e *CompletionTimeoutError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Invocation string `json:"invocation"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.Invocation, e.Error()})
}

// ResourceError reports a resource that cannot be read by that name.
type ResourceError struct {
	Resource string
}

func (e *ResourceError) Error() string {
	return fmt.Sprintf("There is no resource named %q to read.", e.Resource)
}

// Tag returns "AgentResourceError".
func (e *ResourceError) Tag() string { return TagResource }

// MarshalJSON encodes the error as {"_tag", "resource", "message"}.
func (e *ResourceError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_        incomparable
		Tag      string `json:"_tag"`
		Resource string `json:"resource"`
		Message  string `json:"message"`
	}{incomparable{}, e.Tag(), e.Resource, e.Error()})
}

// ProjectionError reports a context or resource value whose JSON does not
// match the schema its projection advertises: a WireSchema type whose
// encoding contradicts the schema it declares, say. It is a defect, not a
// refusal: the agent can do nothing about it, the value is never served,
// and its message names only the projection. Where the value and its
// schema parted is kept as the cause (see Unwrap), for the application's
// logs; it names a member path and restates no value.
//
// Types whose schema and encoding can be seen to disagree are refused
// when the projection is declared (see Project), so this error is left
// for what only a served value can show.
type ProjectionError struct {
	// Projection is "context" for the context projection, or the
	// resource's name.
	Projection string
	// Resource is true when Projection names a resource.
	Resource bool
	cause    error
}

func (e *ProjectionError) Error() string {
	if e.Resource {
		return fmt.Sprintf("The resource %q could not be read: the application produced a value that breaks the resource's own schema.", e.Projection)
	}
	return "The application's context could not be read: the application produced a value that breaks the context's own schema."
}

// Tag returns "AgentProjectionError".
func (e *ProjectionError) Tag() string { return TagProjection }

// Unwrap returns where the value and the schema disagree.
func (e *ProjectionError) Unwrap() error { return e.cause }

// MarshalJSON encodes the error as {"_tag", "projection", "message"}: the
// cause never crosses a protocol boundary.
func (e *ProjectionError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Projection string `json:"projection"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Projection, e.Error()})
}

// DefectError reports a failure inside application code: a panic or error
// in the host, in a hook (available, authorize, toMessage, a projection),
// or a projection that cannot be encoded. It is not a refusal the agent
// can correct, so its message reveals nothing but the capability; the
// panic value or error is kept on Cause for the application.
type DefectError struct {
	// Capability is the capability (or resource) being served.
	Capability string
	// Stage names where it failed: "model", "available", "decode",
	// "principal", "authorize", "approval", "construct", "dispatch",
	// "completion", "context" or "resource".
	Stage string
	// Cause is the error returned, or the recovered panic value wrapped as
	// an error.
	Cause error
}

func (e *DefectError) Error() string {
	return fmt.Sprintf("Capability %q failed unexpectedly.", e.Capability)
}

// Tag returns "AgentDefect".
func (e *DefectError) Tag() string { return TagDefect }

// Unwrap returns the underlying failure.
func (e *DefectError) Unwrap() error { return e.Cause }

// MarshalJSON encodes the error as {"_tag", "capability", "message"}: the
// cause never crosses a protocol boundary.
func (e *DefectError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.Error()})
}

// PanicError wraps a value recovered from a panic in application code. It
// is the Cause of the *DefectError the panic becomes, so errors.As finds
// it through the defect, and errors.Is and errors.As see through it to a
// panic value that is itself an error.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the panicking goroutine's stack, for the application's logs.
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error, and nil otherwise.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

func marshalCapabilityError(tag, capability, typ, message string) ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
	}{incomparable{}, tag, capability, typ, message})
}

// DeclinedError reports that the person declined a call held for their
// approval (Variant.Approval). Nothing was dispatched. It is not
// retry-safe in spirit: the person said no; ask them, not the runtime.
type DeclinedError struct {
	Capability string
	Type       string
	// Approval is the request's id.
	Approval string
	// Reason is the person's own reason, as they gave it in the app, or
	// "". It is data: it never enters the message.
	Reason string
}

func (e *DeclinedError) Error() string {
	return fmt.Sprintf("The person declined %q in the app, so nothing was done. Their reason, when they gave one, is in the data.", e.Capability)
}

// Tag returns "AgentDeclinedError".
func (e *DeclinedError) Tag() string { return TagDeclined }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "approval", "reason"}.
func (e *DeclinedError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
		Approval   string `json:"approval"`
		Reason     string `json:"reason,omitempty"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Approval, e.Reason})
}

// ApprovalTimeoutError reports that nobody answered a request for the
// person's approval before its deadline. The request was withdrawn from
// the person's screen and can never be approved later; nothing was
// dispatched.
type ApprovalTimeoutError struct {
	Capability string
	Type       string
	// Approval is the request's id.
	Approval string
}

func (e *ApprovalTimeoutError) Error() string {
	return fmt.Sprintf("Nobody answered the request to approve %q in time. It was withdrawn and nothing was done; call again to ask again.", e.Capability)
}

// Tag returns "AgentApprovalTimeoutError".
func (e *ApprovalTimeoutError) Tag() string { return TagApprovalTimeout }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "approval", "retrySafe"}.
func (e *ApprovalTimeoutError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
		Approval   string `json:"approval"`
		RetrySafe  bool   `json:"retrySafe"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Approval, true})
}

// PersonLeftError reports that the person who approves a call left
// before answering: the application stopped (its host's Done closed,
// the headless app's q) while the call was held. Nothing was dispatched.
// Unlike an ApprovalTimeoutError, asking again now cannot help: nobody
// is there to answer until the application runs again.
type PersonLeftError struct {
	Capability string
	Type       string
	// Approval is the request's id.
	Approval string
}

func (e *PersonLeftError) Error() string {
	return fmt.Sprintf("The person who approves %q left the application before answering, so nothing was done. Nobody can approve it until they are back.", e.Capability)
}

// Tag returns "AgentPersonLeftError".
func (e *PersonLeftError) Tag() string { return TagPersonLeft }

// MarshalJSON encodes the error as {"_tag", "capability", "tag",
// "message", "approval"}.
func (e *PersonLeftError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		Type       string `json:"tag"`
		Message    string `json:"message"`
		Approval   string `json:"approval"`
	}{incomparable{}, e.Tag(), e.Capability, e.Type, e.Error(), e.Approval})
}

// AuditUnavailableError refuses a call because the application keeps an
// audit of every call and cannot keep one now (its audit log's sink is
// failing, and the application set AuditOptions.RefuseUnaudited). Nothing
// was decoded, authorized or dispatched, so trying again later is safe.
type AuditUnavailableError struct {
	Capability string // protocol name
	// RetrySafe is always true: nothing ran. It is a field so that it
	// crosses a protocol boundary.
	RetrySafe bool
}

func (e *AuditUnavailableError) Error() string {
	return fmt.Sprintf("The application records every call and cannot record one right now, so %q was not run. Nothing happened; try again later.", e.Capability)
}

// Tag returns "AgentAuditUnavailableError".
func (e *AuditUnavailableError) Tag() string { return TagAuditUnavailable }

// MarshalJSON encodes the error as {"_tag", "capability", "retrySafe",
// "message"}.
func (e *AuditUnavailableError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		_          incomparable
		Tag        string `json:"_tag"`
		Capability string `json:"capability"`
		RetrySafe  bool   `json:"retrySafe"`
		Message    string `json:"message"`
	}{incomparable{}, e.Tag(), e.Capability, e.RetrySafe, e.Error()})
}

// incomparable, a first field of no size, makes a struct type that is
// never compared (the anonymous wire forms of MarshalJSON, and a few of
// the runtime's own records) not comparable, so that no equality
// function is compiled for it: each costs a browser page's download some
// 100 to 200 bytes of gzip for nothing. Comparing such a value, or using
// it as a map key, does not compile; only an interface comparison would
// get past the compiler, and none of these types is ever put in one.
type incomparable [0]func()
