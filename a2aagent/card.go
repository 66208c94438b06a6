package a2aagent

import (
	"encoding/json"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/foldagent/foldagent/agent"
)

// CardPath is where the agent card is served, relative to the Handler's
// mount point.
const CardPath = "/.well-known/agent-card.json"

// InputSchemaExtension is the URI of the card extension that carries each
// skill's input JSON Schema (see the package documentation).
const InputSchemaExtension = "https://github.com/foldagent/foldagent/a2aagent/ext/input-schema/v1"

// BearerScheme is the name of the security scheme the card declares.
const BearerScheme a2a.SecuritySchemeName = "bearer"

// Skill tags.
const (
	// TagConditional marks a capability offered only in some states.
	TagConditional = "conditional"
	// TagAuthorized marks a capability that checks its caller.
	TagAuthorized = "authorized"
	// TagNeedsApproval marks a capability whose calls may wait for the
	// person's approval in the application (agent.Approval).
	TagNeedsApproval = "needs-approval"
)

// CardOptions describe the agent on its card. The zero value is usable:
// an empty Name is "foldagent", an empty Version "0.1.0".
type CardOptions struct {
	// Name is the agent's human-readable name.
	Name string
	// Description says what the agent is for. Empty uses a sentence that
	// names only the protocol.
	Description string
	// Version is the agent's own version.
	Version string
	// Provider names the organization behind the agent, if any.
	Provider *a2a.AgentProvider
}

// NewCard builds the agent card for a contract served at baseURL: one
// skill per capability, the input-schema extension, the bearer security
// scheme, and the JSON-RPC and HTTP+JSON interfaces at baseURL.
func NewCard(contract agent.Description, baseURL string, opts CardOptions) *a2a.AgentCard {
	if opts.Name == "" {
		opts.Name = "foldagent"
	}
	if opts.Version == "" {
		opts.Version = "0.1.0"
	}
	if opts.Description == "" {
		opts.Description = "An application served as an A2A agent: each skill is one of its capabilities."
	}
	skills := make([]a2a.AgentSkill, 0, len(contract.Capabilities))
	schemas := make(map[string]any, len(contract.Capabilities))
	for _, c := range contract.Capabilities {
		tags := []string{}
		if c.ModelDependent {
			tags = append(tags, TagConditional)
		}
		if c.RequiresAuthorization {
			tags = append(tags, TagAuthorized)
		}
		if c.NeedsApproval {
			tags = append(tags, TagNeedsApproval)
		}
		skills = append(skills, a2a.AgentSkill{
			ID:          c.Name,
			Name:        c.Name,
			Description: c.Description,
			Tags:        tags,
			InputModes:  []string{"application/json"},
			OutputModes: []string{"text/plain", "application/json"},
		})
		var schema any
		if err := json.Unmarshal(c.InputSchema, &schema); err != nil {
			// A Description's schemas are JSON the agent package built.
			panic(fmt.Sprintf("a2aagent: NewCard: the input schema of %q is not JSON: %v", c.Name, err))
		}
		schemas[c.Name] = schema
	}
	return &a2a.AgentCard{
		Name:        opts.Name,
		Description: opts.Description,
		Version:     opts.Version,
		Provider:    opts.Provider,
		SupportedInterfaces: []*a2a.AgentInterface{
			a2a.NewAgentInterface(baseURL, a2a.TransportProtocolJSONRPC),
			a2a.NewAgentInterface(baseURL, a2a.TransportProtocolHTTPJSON),
		},
		Capabilities: a2a.AgentCapabilities{
			Streaming: true,
			Extensions: []a2a.AgentExtension{{
				URI:         InputSchemaExtension,
				Description: "params.skills maps each skill id to the JSON Schema of its input; send {\"skill\": <id>, \"input\": <value>} in a data part.",
				Params:      map[string]any{"skills": schemas},
			}},
		},
		DefaultInputModes:  []string{"application/json"},
		DefaultOutputModes: []string{"text/plain", "application/json"},
		Skills:             skills,
		SecuritySchemes: a2a.NamedSecuritySchemes{
			BearerScheme: a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", Description: "A bearer token; the principal it stands for owns the tasks it creates."},
		},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{BearerScheme: a2a.SecuritySchemeScopes{}}},
	}
}
