package apps

import (
	"slices"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/foldagent/foldagent/agent"
	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/keyact"
)

// Signup is a huh form as a program: a name, a plan and a confirmation.
// huh's Form is a pointer that its Update changes in place; its Update and
// View are huh's own.
type Signup struct{ *huh.Form }

// --- glue: the form as a tea.Model. Counted in the report.

func (s Signup) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	f, cmd := s.Form.Update(msg)
	if f, ok := f.(*huh.Form); ok {
		s.Form = f
	}
	return s, cmd
}
func (s Signup) View() tea.View { return tea.NewView(s.Form.View()) }

// Plans are what the form offers, in order.
var Plans = []string{"free", "team", "enterprise"}

// NewSignup returns the program with an empty form.
func NewSignup() Signup {
	return Signup{huh.NewForm(huh.NewGroup(
		huh.NewInput().Key("name").Title("Name"),
		huh.NewSelect[string]().Key("plan").Title("Plan").Options(huh.NewOptions(Plans...)...),
		huh.NewConfirm().Key("agree").Title("Sign up?"),
	))}
}

// --- end of glue.

// SignupView is the context an agent reads.
type SignupView struct {
	Focused string `json:"focused" jsonschema:"the key of the field the cursor is in"`
	Name    string `json:"name"`
	Plan    string `json:"plan"`
	Agree   bool   `json:"agree"`
	Done    bool   `json:"done" jsonschema:"the form was submitted"`
}

// PlanInput names a plan.
type PlanInput struct {
	Plan string `json:"plan" jsonschema:"one of free, team, enterprise"`
}

// NameInput is a name to type.
type NameInput struct {
	Name string `json:"name" jsonschema:"the name to type into the Name field"`
}

// AnswerInput is the confirmation's answer.
type AnswerInput struct {
	Agree bool `json:"agree" jsonschema:"true to sign up, false not to"`
}

type signupAction[In any] = keyact.Action[In, Signup, agent.NoPrincipal]

func focusedOn(key string) func(Signup) bool {
	return func(s Signup) bool {
		return s.State == huh.StateNormal && s.GetFocusedField() != nil && s.GetFocusedField().GetKey() == key
	}
}

// SignupContract is the agent's contract for Signup.
var SignupContract = agent.Make(agent.Definition[Signup, agent.NoPrincipal]{
	Context: agent.Project(func(s Signup) SignupView {
		v := SignupView{Name: s.GetString("name"), Plan: s.GetString("plan"), Agree: s.GetBool("agree"), Done: s.State == huh.StateCompleted}
		if f := s.GetFocusedField(); f != nil {
			v.Focused = f.GetKey()
		}
		return v
	}),
	Capabilities: []agent.Capability[Signup, agent.NoPrincipal]{
		keyact.Expose(signupAction[NameInput]{
			Name:        "enter_name",
			Description: "Type a name into the Name field and move on, as the person would.",
			Available:   focusedOn("name"),
			Depends:     func(s Signup) any { return s.GetString("name") },
			Keys: func(in NameInput, _ Signup) []tea.KeyPressMsg {
				return append(teahost.Type(in.Name), teahost.Key("enter"))
			},
		}),
		keyact.Expose(signupAction[PlanInput]{
			Name:        "choose_plan",
			Description: "Choose a plan in the Plan field and move on, as the arrow keys and enter do.",
			Available:   focusedOn("plan"),
			Exists: func(in PlanInput, _ Signup) (string, bool) {
				return "/plan", slices.Contains(Plans, in.Plan)
			},
			Missing: "There is no such plan; use one of free, team, enterprise.",
			Depends: func(s Signup) any { return s.GetFocusedField().GetValue() },
			Keys: func(in PlanInput, s Signup) []tea.KeyPressMsg {
				var keys []tea.KeyPressMsg
				from, to := slices.Index(Plans, s.GetFocusedField().GetValue().(string)), slices.Index(Plans, in.Plan)
				for ; from < to; from++ {
					keys = append(keys, teahost.Key("down"))
				}
				for ; from > to; from-- {
					keys = append(keys, teahost.Key("up"))
				}
				return append(keys, teahost.Key("enter"))
			},
		}),
		keyact.Expose(signupAction[AnswerInput]{
			Name:        "answer_confirmation",
			Description: "Answer the Sign up? question, which submits the form, as y or n does.",
			Available:   focusedOn("agree"),
			Keys: func(in AnswerInput, _ Signup) []tea.KeyPressMsg {
				if in.Agree {
					return []tea.KeyPressMsg{teahost.Key("y")}
				}
				return []tea.KeyPressMsg{teahost.Key("n")}
			},
		}),
	},
})
