package webmcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/foldagent/foldagent/agent"
)

// Catalog is what FormTool reads a capability from: the whole contract as
// data, whatever the Model. *agent.Contract and *agent.Runtime satisfy it.
type Catalog interface {
	Describe() agent.Description
}

// FormOptions configure FormTool. The zero value (or nil) is ready to use.
type FormOptions struct {
	// Autosubmit adds toolautosubmit: the browser submits the form once
	// the agent has filled it, without waiting for the person to review
	// and submit it.
	Autosubmit bool
}

// Attr is one HTML attribute: set it on the element with
// setAttribute(Name, Value).
type Attr struct {
	Name  string
	Value string
}

// Form is a capability drawn as a WebMCP declarative form. It only knows
// the attributes to write; pass it to Register (Options.Forms) to answer
// the form's agent submissions.
type Form struct {
	name        string
	description string
	autosubmit  bool
	fields      []formField
}

type formField struct {
	key         string
	description string
}

// FormTool draws the capability name of contract as a declarative form:
// its attributes come from the same descriptor the imperative tool is
// built from, so the form and the tool cannot name or describe the
// capability differently.
//
// It fails for a name the contract does not expose and for a capability
// whose input is not an object of fields. A form submits its fields as
// text, so give such a capability string fields, or fields whose wire
// form is a string (agent.WireSchema).
func FormTool(contract Catalog, name string, opts *FormOptions) (*Form, error) {
	if contract == nil {
		return nil, fmt.Errorf("webmcp: FormTool(%q) needs a contract", name)
	}
	caps := contract.Describe().Capabilities
	i := slices.IndexFunc(caps, func(d agent.Descriptor) bool { return d.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("webmcp: FormTool: the contract exposes no capability named %q", name)
	}
	d := caps[i]
	var schema struct {
		Type       any `json:"type"`
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(d.InputSchema, &schema); err != nil || schema.Type != "object" || schema.Properties == nil {
		return nil, fmt.Errorf("webmcp: FormTool: the input of %q is not an object of fields, so it cannot be drawn as a form", name)
	}
	f := &Form{name: d.Name, description: d.Description}
	if opts != nil {
		f.autosubmit = opts.Autosubmit
	}
	// The keys are sorted as strings, whose sort the page links anyway,
	// rather than the fields by key, which would link a sort of its own.
	keys := slices.Sorted(maps.Keys(schema.Properties))
	for _, key := range keys {
		f.fields = append(f.fields, formField{key: key, description: schema.Properties[key].Description})
	}
	return f, nil
}

// MustFormTool is like FormTool but panics where FormTool would return an
// error. It is meant for package-level declarations.
func MustFormTool(contract Catalog, name string, opts *FormOptions) *Form {
	f, err := FormTool(contract, name, opts)
	if err != nil {
		panic(err)
	}
	return f
}

// Name returns the capability's protocol name, which is the form's
// toolname.
func (f *Form) Name() string { return f.name }

// Fields returns the keys of the capability's input, sorted: the names of
// the form's fields.
func (f *Form) Fields() []string {
	keys := make([]string, len(f.fields))
	for i, fd := range f.fields {
		keys[i] = fd.key
	}
	return keys
}

// Attrs returns the form element's attributes: toolname,
// tooldescription and, with Autosubmit, toolautosubmit (a boolean
// attribute, with an empty value).
func (f *Form) Attrs() []Attr {
	attrs := []Attr{{"toolname", f.name}, {"tooldescription", f.description}}
	if f.autosubmit {
		attrs = append(attrs, Attr{"toolautosubmit", ""})
	}
	return attrs
}

// Field returns the attributes of the form field for key: its name and,
// when the input schema describes the field, toolparamdescription. It
// fails for a key the capability's input does not have.
func (f *Form) Field(key string) ([]Attr, error) {
	i := slices.IndexFunc(f.fields, func(fd formField) bool { return fd.key == key })
	if i < 0 {
		return nil, fmt.Errorf("webmcp: form %q has no field %q: the input's fields are %s", f.name, key, strings.Join(f.Fields(), ", "))
	}
	attrs := []Attr{{"name", key}}
	if d := f.fields[i].description; d != "" {
		attrs = append(attrs, Attr{"toolparamdescription", d})
	}
	return attrs, nil
}

// MustField is like Field but panics where Field would return an error.
func (f *Form) MustField(key string) []Attr {
	attrs, err := f.Field(key)
	if err != nil {
		panic(err)
	}
	return attrs
}
