package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Manifest returns the contract as agent.json: its capabilities (name, Go
// type tag, description, inputSchema, modelDependent,
// requiresAuthorization, readOnly and destructive when declared,
// completion with the schemas of its Messages), its resources and its
// context schema, indented with two spaces and ending in a newline.
//
// It reads no Model and its bytes depend only on the contract, so a
// committed manifest makes a change to what an application exposes show
// up in review (see agenttest.Golden).
func Manifest[Model, P any](c *Contract[Model, P]) []byte {
	doc := c.Describe()
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		// Every part is data this package built and already encoded once.
		panic(fmt.Sprintf("agent: Manifest: %v", err))
	}
	return append(b, '\n')
}

// Markdown returns the contract as human-readable documentation (AGENT.md).
// Like Manifest, it reads no Model and is byte-for-byte reproducible.
func Markdown[Model, P any](c *Contract[Model, P]) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	line("# Agent contract")
	line("")
	d := c.Describe()
	caps := d.Capabilities
	if len(caps) == 0 {
		line("This contract exposes no capabilities.")
		line("")
	} else {
		line("## Capabilities")
		line("")
		line("| Name | Message | Description | Model-dependent | Authorized |")
		line("| --- | --- | --- | --- | --- |")
		for _, d := range caps {
			line(fmt.Sprintf("| `%s` | `%s` | %s | %s | %s |", d.Name, d.Tag, cell(d.Description), yesNo(d.ModelDependent), yesNo(d.RequiresAuthorization)))
		}
		line("")
		for _, d := range caps {
			line(fmt.Sprintf("### `%s`", d.Name))
			line("")
			line(d.Description)
			line("")
			if d.ModelDependent {
				line("Offered only in some states of the Model.")
				line("")
			}
			if d.RequiresAuthorization {
				line("Checks that the caller is authorized before dispatching.")
				line("")
			}
			if len(d.Watches) > 0 {
				line(fmt.Sprintf("Depends on `%s`: a call made after it moved, since the caller last read the state, is %s.", strings.Join(d.Watches, "`, `"), freshnessWords(d.Freshness)))
				line("")
			}
			if d.ReadOnly {
				line("Changes nothing: declared read-only.")
				line("")
			}
			if d.Destructive {
				line("Declared destructive: what it removes or overwrites cannot be got back.")
				line("")
			}
			line("Input:")
			line("")
			jsonBlock(&b, d.InputSchema)
			if cd := d.Completion; cd != nil {
				switch {
				case cd.State:
					line("Completes when a condition on state holds.")
				default:
					s := fmt.Sprintf("Completes on `%s`", strings.Join(cd.Success, "`, `"))
					if len(cd.Failure) > 0 {
						s += fmt.Sprintf("; fails on `%s`", strings.Join(cd.Failure, "`, `"))
					}
					line(s + ".")
				}
				line("")
				for _, tag := range append(append([]string(nil), cd.Success...), cd.Failure...) {
					if schema, ok := cd.Schemas[tag]; ok {
						line(fmt.Sprintf("The result carries `%s` as `completion.message`:", tag))
						line("")
						jsonBlock(&b, schema)
					}
				}
			}
		}
	}
	if res := d.Resources; len(res) > 0 {
		line("## Resources")
		line("")
		for _, r := range res {
			line(fmt.Sprintf("### `%s`", r.Name))
			line("")
			line(r.Description)
			line("")
			jsonBlock(&b, r.Schema)
		}
	}
	line("## Context")
	line("")
	if schema := d.Context; schema != nil {
		jsonBlock(&b, schema)
	} else {
		line("This contract projects no context from the Model.")
		line("")
	}
	return b.String()
}

func jsonBlock(b *strings.Builder, raw json.RawMessage) {
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		out.Reset()
		out.Write(raw)
	}
	b.WriteString("```json\n")
	b.Write(out.Bytes())
	b.WriteString("\n```\n\n")
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func freshnessWords(f Freshness) string {
	switch f {
	case StaleDisclose:
		return "carried out, and its result names what moved"
	case StaleRequireAck:
		return "refused until the caller has read the state again"
	}
	return "refused as stale"
}
