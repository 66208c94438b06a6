package fixed

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/foldagent/foldagent/journey"
)

// A tool's description never asks for an argument its inputSchema
// refuses (an argument is asked for as "name: value" or "with name"): a client or model that holds a call to the schema (strict
// function calling, a framework that validates arguments) must be able to
// pass every argument the description names. do_action's description once
// named expectedVersion while its schema (additionalProperties: false)
// had no such property; it now lists it, which every client can send
// (the others accept it unlisted).
func TestDescribedArgumentsAreInTheSchema(t *testing.T) {
	sample := map[string]any{
		"expectedVersion": 3, "sinceVersion": 3, "routeTo": "cart", "step": "x", "input": map[string]any{},
		"confirm": true, "decline": true, "instance": "i", "journey": "j", "transitionId": "t", "key": "k",
	}
	app := newPortShop(t, journey.Options{}, "x")
	for _, mode := range []JourneyTools{PerJourney, Single} {
		for _, tool := range Serve(app.s, Options{JourneyTools: mode}).Tools() {
			var s jsonschema.Schema
			if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
				t.Fatal(err)
			}
			r, err := s.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			required := map[string]any{}
			for _, name := range s.Required {
				required[name] = sample[name]
			}
			if strings.HasSuffix(tool.Name, "do_action") {
				required["action"] = "catalog.search"
			}
			for arg, v := range sample {
				if !regexp.MustCompile(`(^|[^-\w])`+arg+`:|with `+arg+`\b`).MatchString(tool.Description) && !(arg == "expectedVersion" && strings.HasSuffix(tool.Name, "do_action")) {
					continue
				}
				call := map[string]any{arg: v}
				for k, rv := range required {
					call[k] = rv
				}
				if err := r.Validate(call); err != nil {
					t.Errorf("%s: the description names %s, the schema refuses it: %v", tool.Name, arg, err)
				}
			}
		}
	}
}
