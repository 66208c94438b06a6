package journey

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestGraphValidation(t *testing.T) {
	ok := func() GraphDef {
		return GraphDef{Pages: []Page{{ID: "home", Actions: []Action{{Name: "go", Does: "Go somewhere", GoTo: "home"}}}}}
	}
	cases := []struct {
		name  string
		id    string
		mut   func(*GraphDef)
		wants []string // substrings of the message, naming the culprit
	}{
		{"empty graph id", " ", nil, []string{"graph id is empty"}},
		{"graph id with a space", "my shop", nil, []string{"graph id cannot become part of a tool name"}},
		{"no pages", "g", func(d *GraphDef) { d.Pages = nil }, []string{"at least one page"}},
		{"bad page id", "g", func(d *GraphDef) { d.Pages[0].ID = "ho me" }, []string{`"ho me"`, "tool name"}},
		{"duplicate page", "g", func(d *GraphDef) { d.Pages = append(d.Pages, Page{ID: "home"}) }, []string{`page "home" is declared twice`}},
		{"missing does", "g", func(d *GraphDef) { d.Pages[0].Actions[0].Does = " " }, []string{`"home.go" has no Does`}},
		{"duplicate action", "g", func(d *GraphDef) { d.Pages[0].Actions = append(d.Pages[0].Actions, Action{Name: "go", Does: "x"}) }, []string{`declares the name "go" twice`}},
		{"action name with dot", "g", func(d *GraphDef) { d.Pages[0].Actions[0].Name = "a.b" }, []string{`"a.b"`, "tool name"}},
		{"container clashes with action", "g", func(d *GraphDef) {
			d.Pages[0].Containers = []Container{{Name: "go", Actions: []Action{{Name: "x", Does: "x"}}}}
		}, []string{`declares the name "go" twice`}},
		{"unknown goTo", "g", func(d *GraphDef) { d.Pages[0].Actions[0].GoTo = "nowhere" }, []string{`"home.go"`, `unknown page "nowhere"`}},
		{"empty guard", "g", func(d *GraphDef) { d.Pages[0].Actions[0].When = Guard{} }, []string{"home.go when is an empty guard"}},
		{"empty enabledWhen", "g", func(d *GraphDef) { d.Pages[0].Actions[0].EnabledWhen = Guard{} }, []string{"home.go enabledWhen is an empty guard"}},
		{"unknown operator", "g", func(d *GraphDef) { d.Pages[0].Actions[0].When = Guard{{Key: "k", Op: "like", Value: 1}} }, []string{`unknown operator "like"`, `"k"`}},
		{"missing operator", "g", func(d *GraphDef) { d.Pages[0].Actions[0].When = Guard{{Key: "k", Value: 1}} }, []string{`condition on "k" has no operator`}},
		{"empty key", "g", func(d *GraphDef) { d.Pages[0].Actions[0].When = Guard{{Op: OpEq, Value: 1}} }, []string{"empty key"}},
		{"in with a scalar", "g", func(d *GraphDef) { d.Pages[0].Actions[0].When = Guard{In("k", 3)} }, []string{`in on "k" needs a list`}},
		{"reserved name", "g", func(d *GraphDef) { d.Pages[0].Actions[0].Name = "leave-journey" }, []string{"reserved name"}},
		{"root action named ask", "g", func(d *GraphDef) {
			d.Actions = []RootAction{{Action: Action{Name: "ask", Does: "Ask"}, On: []string{"home"}}}
		}, []string{`root action "ask" uses a reserved name`}},
		{"root action on no page", "g", func(d *GraphDef) { d.Actions = []RootAction{{Action: Action{Name: "login", Does: "Sign in"}}} }, []string{`root action "login" is offered on no page`}},
		{"root action on unknown page", "g", func(d *GraphDef) {
			d.Actions = []RootAction{{Action: Action{Name: "login", Does: "Sign in"}, On: []string{"nope"}}}
		}, []string{`root action "login"`, `unknown page "nope"`}},
		{"root action collides", "g", func(d *GraphDef) {
			d.Pages[0].Actions = nil
			d.Actions = []RootAction{{Action: Action{Name: "x", Does: "x"}, On: []string{"home"}}, {Action: Action{Name: "x", Does: "y"}, On: []string{"home"}}}
		}, []string{`action id "x" is declared twice`}},
		{"instances without repeats", "g", func(d *GraphDef) {
			d.Pages[0].Containers = []Container{{Name: "lines", Instances: func(StateView) []string { return nil }}}
		}, []string{`container "home.lines" has Instances`}},
		{"unmatched step", "g", func(d *GraphDef) { d.Journeys = []Journey{{ID: "j", Does: "J", Steps: []string{"fly"}}} }, []string{`journey "j"`, `step "fly" matches no action`}},
		{"ambiguous step", "g", func(d *GraphDef) {
			d.Pages = append(d.Pages, Page{ID: "other", Actions: []Action{{Name: "go", Does: "Go"}}})
			d.Journeys = []Journey{{ID: "j", Does: "J", Steps: []string{"go"}}}
		}, []string{`step "go" is ambiguous`, "home.go | other.go"}},
		{"journey without steps", "g", func(d *GraphDef) { d.Journeys = []Journey{{ID: "j", Does: "J"}} }, []string{`journey "j" has no steps`}},
		{"journey without does", "g", func(d *GraphDef) { d.Journeys = []Journey{{ID: "j", Steps: []string{"go"}}} }, []string{`journey "j" has no Does`}},
		{"duplicate journey", "g", func(d *GraphDef) {
			d.Journeys = []Journey{{ID: "j", Does: "J", Steps: []string{"go"}}, {ID: "j", Does: "J", Steps: []string{"go"}}}
		}, []string{`journey "j" is declared twice`}},
		{"journey id not a tool name", "g", func(d *GraphDef) { d.Journeys = []Journey{{ID: "buy it!", Does: "J", Steps: []string{"go"}}} }, []string{`journey id "buy it!"`}},
		{"empty journey precondition", "g", func(d *GraphDef) {
			d.Journeys = []Journey{{ID: "j", Does: "J", Steps: []string{"go"}, When: Guard{}}}
		}, []string{"journey j when is an empty guard"}},
		{"bad input schema", "g", func(d *GraphDef) { d.Pages[0].Actions[0].Input = InputSchemaJSON([]byte(`{"type": 3}`)) }, []string{`"home.go": input contract`}},
		{"both verifies", "g", func(d *GraphDef) {
			d.Pages[0].Actions[0].Verify = Guard{Eq("k", 1)}
			d.Pages[0].Actions[0].VerifyFunc = func(StateView) bool { return true }
		}, []string{`"home.go" declares both Verify and VerifyFunc`}},
		{"route without slash", "g", func(d *GraphDef) { d.Pages[0].Route = "home" }, []string{`page "home": route "home"`}},
		{"bad clearedBy", "g", func(d *GraphDef) { d.Pages[0].Actions[0].BlockedBecause = &Blocked{Says: "x", ClearedBy: "god"} }, []string{`clearedBy "god"`}},
		{"tool name too long", "g", func(d *GraphDef) {
			d.Journeys = []Journey{{ID: strings.Repeat("j", 130), Does: "J", Steps: []string{"go"}}}
		}, []string{"longer than 128"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := ok()
			if c.mut != nil {
				c.mut(&d)
			}
			_, err := NewGraph(c.id, d)
			if err == nil {
				t.Fatal("NewGraph accepted an invalid graph")
			}
			var ge *GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("error is %T, want *GraphError", err)
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	if _, err := NewGraph("g", ok()); err != nil {
		t.Fatalf("the valid base graph was refused: %v", err)
	}
}

func TestMustNewGraphPanicsNamingTheCulprit(t *testing.T) {
	defer func() {
		r := recover()
		err, _ := r.(error)
		if err == nil || !strings.Contains(err.Error(), `"nowhere"`) {
			t.Fatalf("panic value %v does not name the unknown page", r)
		}
	}()
	MustNewGraph("g", GraphDef{Pages: []Page{{ID: "a", Actions: []Action{{Name: "x", Does: "X", GoTo: "nowhere"}}}}})
}

func TestDeclarationOrderIsKept(t *testing.T) {
	// Names chosen so that any sorted or hashed order differs from the
	// declared one.
	names := []string{"zeta", "alpha", "mu", "beta", "omega", "delta", "kappa", "eta"}
	var acts []Action
	for _, n := range names {
		acts = append(acts, Action{Name: n, Does: "Do " + n})
	}
	var js []Journey
	for i := len(names) - 1; i >= 0; i-- {
		js = append(js, Journey{ID: "j-" + names[i], Does: "J", Steps: []string{names[i]}})
	}
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p", Actions: acts}},
		Actions:  []RootAction{{Action: Action{Name: "root-b", Does: "B"}, On: []string{"p"}}, {Action: Action{Name: "root-a", Does: "A"}, On: []string{"p"}}},
		Journeys: js})
	var want []string
	for _, n := range names {
		want = append(want, "p."+n)
	}
	want = append(want, "root-b", "root-a")
	for i := 0; i < 20; i++ {
		var got []string
		for _, a := range g.Actions() {
			got = append(got, a.ID)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Actions() order %v, want %v", got, want)
		}
		s := g.MustNewSession(Options{})
		got = nil
		for _, r := range s.View().Available() {
			got = append(got, r.Action)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("served order %v, want %v", got, want)
		}
		var jids []string
		for _, j := range g.Journeys() {
			jids = append(jids, j.ID)
		}
		if jids[0] != "j-eta" || jids[len(jids)-1] != "j-zeta" {
			t.Fatalf("journey order %v is not the declared one", jids)
		}
		h := s.View().Here()
		for k, j := range h.Journeys {
			if j.ID != jids[k] {
				t.Fatalf("startable journey %d is %s, want %s", k, j.ID, jids[k])
			}
		}
	}
}

func TestMatchRoute(t *testing.T) {
	g := MustNewGraph("g", GraphDef{Pages: []Page{
		{ID: "product", Route: "/products/:id"},
		{ID: "new-product", Route: "/products/new"},
		{ID: "home", Route: "/"},
		{ID: "cart", Route: "/cart"},
	}})
	cases := map[string]string{
		"/products/42":       "product",
		"/products/new":      "new-product",
		"/products/new/":     "new-product",
		"/cart?x=1#top":      "cart",
		"/":                  "home",
		"/products":          "",
		"/products/42/extra": "",
		"/nowhere":           "",
	}
	for path, want := range cases {
		got, ok := g.MatchRoute(path)
		if got != want || ok != (want != "") {
			t.Errorf("MatchRoute(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

func TestRequiredStateKeysAndQualifiedIDs(t *testing.T) {
	g := MustNewGraph("g", GraphDef{Pages: []Page{{ID: "p",
		Containers: []Container{{Name: "box", When: Guard{Eq("open", true)}, Containers: []Container{{Name: "inner", Actions: []Action{
			{Name: "act", Does: "Act", When: Guard{Gt("n", 1)}, EnabledWhen: Guard{Ne("lock", true)}},
		}}}}}}},
		Journeys: []Journey{{ID: "j", Does: "J", Steps: []string{"act"}, When: Guard{Eq("vip", true)}}}})
	if got := g.RequiredStateKeys(); !slices.Equal(got, []string{"lock", "n", "open", "vip"}) {
		t.Fatalf("RequiredStateKeys = %v", got)
	}
	if _, ok := g.Action("p.box.inner.act"); !ok {
		t.Fatal("nested container action not qualified as p.box.inner.act")
	}
	j, _ := g.Journey("j")
	if !slices.Equal(j.Steps, []string{"p.box.inner.act"}) {
		t.Fatalf("suffix step resolved to %v", j.Steps)
	}
}
