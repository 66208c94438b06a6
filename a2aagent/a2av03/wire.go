package a2av03

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The A2A 0.3 wire shapes this package reads and writes. Objects that 0.3
// tells apart by a "kind" (messages, tasks, events, parts) carry it as a
// field set by the conversions below; field names are the protocol's.

// Kinds, as 0.3 writes them.
const (
	kindMessage        = "message"
	kindTask           = "task"
	kindStatusUpdate   = "status-update"
	kindArtifactUpdate = "artifact-update"
	kindText           = "text"
	kindData           = "data"
	kindFile           = "file"
)

// message is a 0.3 Message.
type message struct {
	Kind             string         `json:"kind"`
	MessageID        string         `json:"messageId"`
	ContextID        string         `json:"contextId,omitempty"`
	TaskID           string         `json:"taskId,omitempty"`
	Role             string         `json:"role"`
	Parts            []part         `json:"parts"`
	ReferenceTaskIDs []string       `json:"referenceTaskIds,omitempty"`
	Extensions       []string       `json:"extensions,omitempty"`
	Metadata         map[string]any `json:"metadata,omitempty"`
}

// part is a 0.3 Part: a text, data or file part, told apart by Kind.
type part struct {
	Kind     string         `json:"kind"`
	Text     *string        `json:"text,omitempty"`
	Data     any            `json:"data,omitempty"`
	File     *file          `json:"file,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// file is a 0.3 file part's content: bytes (base64) or a URI, not both.
type file struct {
	Bytes    string `json:"bytes,omitempty"`
	URI      string `json:"uri,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Name     string `json:"name,omitempty"`
}

// task is a 0.3 Task.
type task struct {
	Kind      string         `json:"kind"`
	ID        string         `json:"id"`
	ContextID string         `json:"contextId"`
	Status    status         `json:"status"`
	History   []*message     `json:"history,omitempty"`
	Artifacts []*artifact    `json:"artifacts,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// status is a 0.3 TaskStatus: its state is lower-case ("completed").
type status struct {
	State     string     `json:"state"`
	Message   *message   `json:"message,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
}

// artifact is a 0.3 Artifact.
type artifact struct {
	ArtifactID  string         `json:"artifactId"`
	Name        string         `json:"name,omitempty"`
	Description string         `json:"description,omitempty"`
	Parts       []part         `json:"parts"`
	Extensions  []string       `json:"extensions,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
}

// statusUpdate is a 0.3 TaskStatusUpdateEvent. Final is true on the last
// event of a stream: a terminal state, or one that waits for the caller.
type statusUpdate struct {
	Kind      string         `json:"kind"`
	TaskID    string         `json:"taskId"`
	ContextID string         `json:"contextId"`
	Status    status         `json:"status"`
	Final     bool           `json:"final"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// artifactUpdate is a 0.3 TaskArtifactUpdateEvent.
type artifactUpdate struct {
	Kind      string         `json:"kind"`
	TaskID    string         `json:"taskId"`
	ContextID string         `json:"contextId"`
	Artifact  *artifact      `json:"artifact"`
	Append    bool           `json:"append,omitempty"`
	LastChunk bool           `json:"lastChunk,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// sendParams are the params of message/send and message/stream.
type sendParams struct {
	Message       *message       `json:"message"`
	Configuration *sendConfig    `json:"configuration,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"`
}

// sendConfig is a 0.3 MessageSendConfiguration. Blocking absent is
// blocking: the answer waits for the task to end.
type sendConfig struct {
	AcceptedOutputModes []string        `json:"acceptedOutputModes,omitempty"`
	Blocking            *bool           `json:"blocking,omitempty"`
	HistoryLength       *int            `json:"historyLength,omitempty"`
	PushConfig          json.RawMessage `json:"pushNotificationConfig,omitempty"`
}

// taskParams are the params of tasks/get, tasks/cancel and
// tasks/resubscribe (historyLength only matters to tasks/get).
type taskParams struct {
	ID            string         `json:"id"`
	HistoryLength *int           `json:"historyLength,omitempty"`
	Metadata      map[string]any `json:"metadata,omitempty"`
}

// States, as 0.3 writes them, for each 1.0 state.
var states = map[a2a.TaskState]string{
	a2a.TaskStateSubmitted:     "submitted",
	a2a.TaskStateWorking:       "working",
	a2a.TaskStateInputRequired: "input-required",
	a2a.TaskStateCompleted:     "completed",
	a2a.TaskStateCanceled:      "canceled",
	a2a.TaskStateFailed:        "failed",
	a2a.TaskStateRejected:      "rejected",
	a2a.TaskStateAuthRequired:  "auth-required",
}

func stateOf(s a2a.TaskState) string {
	if v, ok := states[s]; ok {
		return v
	}
	return "unknown"
}

// final reports whether a stream ends with a status in state s: the task
// ended, or it waits for its caller.
func final(s a2a.TaskState) bool {
	return s.Terminal() || s == a2a.TaskStateInputRequired || s == a2a.TaskStateAuthRequired
}

// errShape is a 0.3 message that cannot be read as one: the caller is
// told the params are invalid, in a sentence this package authors.
var errShape = errors.New("a2av03: the message does not have the 0.3 shape")

// toMessage reads a caller's 0.3 message as the SDK's.
func (m *message) toMessage() (*a2a.Message, error) {
	if m.Kind != "" && m.Kind != kindMessage {
		return nil, fmt.Errorf("%w: kind %q", errShape, m.Kind)
	}
	var role a2a.MessageRole
	switch m.Role {
	case "user":
		role = a2a.MessageRoleUser
	case "agent":
		role = a2a.MessageRoleAgent
	default:
		return nil, fmt.Errorf("%w: role %q", errShape, m.Role)
	}
	out := &a2a.Message{
		ID:         m.MessageID,
		ContextID:  m.ContextID,
		TaskID:     a2a.TaskID(m.TaskID),
		Role:       role,
		Extensions: m.Extensions,
		Metadata:   m.Metadata,
	}
	for _, id := range m.ReferenceTaskIDs {
		out.ReferenceTasks = append(out.ReferenceTasks, a2a.TaskID(id))
	}
	for i := range m.Parts {
		p, err := m.Parts[i].toPart()
		if err != nil {
			return nil, err
		}
		out.Parts = append(out.Parts, p)
	}
	return out, nil
}

func (p *part) toPart() (*a2a.Part, error) {
	out := &a2a.Part{Metadata: p.Metadata}
	switch p.Kind {
	case kindText:
		if p.Text == nil {
			return nil, fmt.Errorf("%w: a text part without text", errShape)
		}
		out.Content = a2a.Text(*p.Text)
	case kindData:
		if p.Data == nil {
			return nil, fmt.Errorf("%w: a data part without data", errShape)
		}
		out.Content = a2a.Data{Value: p.Data}
	case kindFile:
		if p.File == nil || (p.File.Bytes == "") == (p.File.URI == "") {
			return nil, fmt.Errorf("%w: a file part needs bytes or a uri", errShape)
		}
		out.MediaType, out.Filename = p.File.MimeType, p.File.Name
		if p.File.URI != "" {
			out.Content = a2a.URL(p.File.URI)
			break
		}
		b, err := base64.StdEncoding.DecodeString(p.File.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: file bytes are not base64", errShape)
		}
		out.Content = a2a.Raw(b)
	default:
		return nil, fmt.Errorf("%w: part kind %q", errShape, p.Kind)
	}
	return out, nil
}

// fromMessage writes the SDK's message in the 0.3 shape.
func fromMessage(m *a2a.Message) *message {
	if m == nil {
		return nil
	}
	role := "agent"
	if m.Role == a2a.MessageRoleUser {
		role = "user"
	}
	out := &message{
		Kind:       kindMessage,
		MessageID:  m.ID,
		ContextID:  m.ContextID,
		TaskID:     string(m.TaskID),
		Role:       role,
		Parts:      fromParts(m.Parts),
		Extensions: m.Extensions,
		Metadata:   m.Metadata,
	}
	for _, id := range m.ReferenceTasks {
		out.ReferenceTaskIDs = append(out.ReferenceTaskIDs, string(id))
	}
	return out
}

// fromParts writes parts in the 0.3 shape; it is never nil, since 0.3
// requires the array.
func fromParts(ps []*a2a.Part) []part {
	out := make([]part, 0, len(ps))
	for _, p := range ps {
		if p == nil {
			continue
		}
		q := part{Metadata: p.Metadata}
		switch c := p.Content.(type) {
		case a2a.Text:
			s := string(c)
			q.Kind, q.Text = kindText, &s
		case a2a.Data:
			q.Kind, q.Data = kindData, c.Value
		case a2a.Raw:
			q.Kind = kindFile
			q.File = &file{Bytes: base64.StdEncoding.EncodeToString(c), MimeType: p.MediaType, Name: p.Filename}
		case a2a.URL:
			q.Kind = kindFile
			q.File = &file{URI: string(c), MimeType: p.MediaType, Name: p.Filename}
		default:
			continue
		}
		out = append(out, q)
	}
	return out
}

func fromStatus(s a2a.TaskStatus) status {
	return status{State: stateOf(s.State), Message: fromMessage(s.Message), Timestamp: s.Timestamp}
}

func fromArtifact(a *a2a.Artifact) *artifact {
	if a == nil {
		return nil
	}
	return &artifact{
		ArtifactID:  string(a.ID),
		Name:        a.Name,
		Description: a.Description,
		Parts:       fromParts(a.Parts),
		Extensions:  a.Extensions,
		Metadata:    a.Metadata,
	}
}

// fromTask writes the SDK's task in the 0.3 shape.
func fromTask(t *a2a.Task) *task {
	out := &task{
		Kind:      kindTask,
		ID:        string(t.ID),
		ContextID: t.ContextID,
		Status:    fromStatus(t.Status),
		Metadata:  t.Metadata,
	}
	for _, m := range t.History {
		if m != nil {
			out.History = append(out.History, fromMessage(m))
		}
	}
	for _, a := range t.Artifacts {
		if a != nil {
			out.Artifacts = append(out.Artifacts, fromArtifact(a))
		}
	}
	return out
}

// fromEvent writes one of the SDK's events (a message, a task, a status
// or an artifact update) in the 0.3 shape, and says whether it is the
// last a stream carries.
func fromEvent(e a2a.Event) (any, bool, error) {
	switch e := e.(type) {
	case *a2a.Message:
		return fromMessage(e), true, nil
	case *a2a.Task:
		return fromTask(e), final(e.Status.State), nil
	case *a2a.TaskStatusUpdateEvent:
		end := final(e.Status.State)
		return &statusUpdate{
			Kind:      kindStatusUpdate,
			TaskID:    string(e.TaskID),
			ContextID: e.ContextID,
			Status:    fromStatus(e.Status),
			Final:     end,
			Metadata:  e.Metadata,
		}, end, nil
	case *a2a.TaskArtifactUpdateEvent:
		return &artifactUpdate{
			Kind:      kindArtifactUpdate,
			TaskID:    string(e.TaskID),
			ContextID: e.ContextID,
			Artifact:  fromArtifact(e.Artifact),
			Append:    e.Append,
			LastChunk: e.LastChunk,
			Metadata:  e.Metadata,
		}, false, nil
	}
	return nil, false, fmt.Errorf("a2av03: no 0.3 shape for the event %T", e)
}

// card03 is the agent card as 0.3 clients read it: one url with its
// transport, and protocolVersion.
type card03 struct {
	ProtocolVersion      string                    `json:"protocolVersion"`
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	URL                  string                    `json:"url"`
	PreferredTransport   string                    `json:"preferredTransport"`
	AdditionalInterfaces []iface03                 `json:"additionalInterfaces,omitempty"`
	Provider             *provider03               `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	DocumentationURL     string                    `json:"documentationUrl,omitempty"`
	IconURL              string                    `json:"iconUrl,omitempty"`
	Capabilities         capabilities03            `json:"capabilities"`
	SecuritySchemes      map[string]map[string]any `json:"securitySchemes,omitempty"`
	Security             []map[string][]string     `json:"security,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes"`
	Skills               []skill03                 `json:"skills"`
}

type iface03 struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

type provider03 struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

type capabilities03 struct {
	Streaming         bool          `json:"streaming,omitempty"`
	PushNotifications bool          `json:"pushNotifications,omitempty"`
	Extensions        []extension03 `json:"extensions,omitempty"`
}

type extension03 struct {
	URI         string         `json:"uri"`
	Description string         `json:"description,omitempty"`
	Required    bool           `json:"required,omitempty"`
	Params      map[string]any `json:"params,omitempty"`
}

type skill03 struct {
	ID          string                `json:"id"`
	Name        string                `json:"name"`
	Description string                `json:"description"`
	Tags        []string              `json:"tags"`
	Examples    []string              `json:"examples,omitempty"`
	InputModes  []string              `json:"inputModes,omitempty"`
	OutputModes []string              `json:"outputModes,omitempty"`
	Security    []map[string][]string `json:"security,omitempty"`
}

// protocolVersion03 is the protocolVersion a 0.3 card states.
const protocolVersion03 = "0.3.0"

// fromCard writes the SDK's 1.0 card as a 0.3 card whose one interface
// is JSON-RPC at url.
func fromCard(c *a2a.AgentCard, url string) *card03 {
	out := &card03{
		ProtocolVersion:    protocolVersion03,
		Name:               c.Name,
		Description:        c.Description,
		URL:                url,
		PreferredTransport: string(a2a.TransportProtocolJSONRPC),
		// 0.3 asks that the preferred interface be listed here too.
		AdditionalInterfaces: []iface03{{URL: url, Transport: string(a2a.TransportProtocolJSONRPC)}},
		Version:              c.Version,
		DocumentationURL:     c.DocumentationURL,
		IconURL:              c.IconURL,
		Capabilities: capabilities03{
			Streaming:         c.Capabilities.Streaming,
			PushNotifications: c.Capabilities.PushNotifications,
		},
		SecuritySchemes:    fromSchemes(c.SecuritySchemes),
		Security:           fromRequirements(c.SecurityRequirements),
		DefaultInputModes:  nonNil(c.DefaultInputModes),
		DefaultOutputModes: nonNil(c.DefaultOutputModes),
		Skills:             make([]skill03, 0, len(c.Skills)),
	}
	if c.Provider != nil {
		out.Provider = &provider03{Organization: c.Provider.Org, URL: c.Provider.URL}
	}
	for _, e := range c.Capabilities.Extensions {
		out.Capabilities.Extensions = append(out.Capabilities.Extensions, extension03{URI: e.URI, Description: e.Description, Required: e.Required, Params: e.Params})
	}
	for _, s := range c.Skills {
		out.Skills = append(out.Skills, skill03{
			ID:          s.ID,
			Name:        s.Name,
			Description: s.Description,
			Tags:        nonNil(s.Tags),
			Examples:    s.Examples,
			InputModes:  s.InputModes,
			OutputModes: s.OutputModes,
			Security:    fromRequirements(s.SecurityRequirements),
		})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func fromRequirements(rs a2a.SecurityRequirementsOptions) []map[string][]string {
	var out []map[string][]string
	for _, r := range rs {
		m := make(map[string][]string, len(r))
		for name, scopes := range r {
			m[string(name)] = nonNil(scopes)
		}
		out = append(out, m)
	}
	return out
}

// fromSchemes writes security schemes in the OpenAPI form 0.3 uses, each
// with its "type".
func fromSchemes(ss a2a.NamedSecuritySchemes) map[string]map[string]any {
	if len(ss) == 0 {
		return nil
	}
	out := make(map[string]map[string]any, len(ss))
	for name, s := range ss {
		m := map[string]any{}
		put := func(k, v string) {
			if v != "" {
				m[k] = v
			}
		}
		switch s := s.(type) {
		case a2a.HTTPAuthSecurityScheme:
			m["type"] = "http"
			put("scheme", s.Scheme)
			put("bearerFormat", s.BearerFormat)
			put("description", s.Description)
		case a2a.APIKeySecurityScheme:
			m["type"] = "apiKey"
			put("in", string(s.Location))
			put("name", s.Name)
			put("description", s.Description)
		case a2a.OpenIDConnectSecurityScheme:
			m["type"] = "openIdConnect"
			put("openIdConnectUrl", s.OpenIDConnectURL)
			put("description", s.Description)
		case a2a.MutualTLSSecurityScheme:
			m["type"] = "mutualTLS"
			put("description", s.Description)
		case a2a.OAuth2SecurityScheme:
			m["type"] = "oauth2"
			put("description", s.Description)
			put("oauth2MetadataUrl", s.Oauth2MetadataURL)
			flows := map[string]any{}
			switch f := s.Flows.(type) {
			case a2a.AuthorizationCodeOAuthFlow:
				flows["authorizationCode"] = f
			case a2a.ClientCredentialsOAuthFlow:
				flows["clientCredentials"] = f
			case a2a.ImplicitOAuthFlow:
				flows["implicit"] = f
			case a2a.PasswordOAuthFlow:
				flows["password"] = f
			}
			m["flows"] = flows
		default:
			continue
		}
		out[string(name)] = m
	}
	return out
}

// trimCardPath is the URL a card request was made for, without the card's
// own path: the scheme, the Host and the path as the client sent it
// (before any http.StripPrefix the handler is mounted under).
func trimCardPath(scheme, host, requestPath, cardPath string) string {
	return scheme + "://" + host + strings.TrimSuffix(requestPath, cardPath)
}
