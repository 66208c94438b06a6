package journey

import "testing"

// TestVisibilityPart exercises the visibility part alone: defaults, a tab
// shown hiding its siblings, a blocking modal masking the page, and what
// leaving a page forgets.
func TestVisibilityPart(t *testing.T) {
	g := MustNewGraph("v", GraphDef{Pages: []Page{{ID: "p", Actions: []Action{{Name: "bare", Does: "Bare."}},
		Containers: []Container{
			{Name: "one", Tab: true, Actions: []Action{{Name: "a", Does: "A."}}},
			{Name: "two", Tab: true, Actions: []Action{{Name: "b", Does: "B."}}},
			{Name: "dlg", Modal: true, Actions: []Action{{Name: "ok", Does: "OK."}}},
		}}}})
	act := func(id string) *actionNode { return g.actionIndex[id] }
	con := func(path string) *containerNode { return g.containerIndex[path] }
	type step struct {
		show    string // path shown before the checks ("" for none)
		hide    string
		leave   bool
		changed bool
	}
	for _, c := range []struct {
		name       string
		steps      []step
		hiddenA    string // hiddenBy(p.one.a)
		hiddenB    string
		overlay    string     // overlay(p.bare)
		activation Activation // activation(p.one.a)
	}{
		{name: "defaults: the first tab shown, the modal closed", hiddenA: "", hiddenB: "p.two", activation: ActivationShown},
		{name: "the second tab shown hides the first", steps: []step{{show: "p.two", changed: true}}, hiddenA: "p.one", activation: ActivationHidden},
		{name: "showing the shown tab changes nothing", steps: []step{{show: "p.one", changed: false}}, hiddenB: "p.two", activation: ActivationShown},
		{name: "a blocking modal masks the page", steps: []step{{show: "p.dlg", changed: true}}, hiddenB: "p.two", overlay: "p.dlg", activation: ActivationShown},
		{name: "leaving the page forgets", steps: []step{{show: "p.two", changed: true}, {show: "p.dlg", changed: true}, {leave: true}}, hiddenB: "p.two", activation: ActivationShown},
		{name: "a modal hidden again", steps: []step{{show: "p.dlg", changed: true}, {hide: "p.dlg", changed: true}}, hiddenB: "p.two", activation: ActivationShown},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := newVisibility(g)
			for _, st := range c.steps {
				switch {
				case st.leave:
					v.leave(0)
					continue
				case st.show != "":
					if got := v.set(con(st.show), true); got != st.changed {
						t.Fatalf("show %s changed=%v", st.show, got)
					}
				case st.hide != "":
					if got := v.set(con(st.hide), false); got != st.changed {
						t.Fatalf("hide %s changed=%v", st.hide, got)
					}
				}
			}
			path := func(c *containerNode) string {
				if c == nil {
					return ""
				}
				return c.path
			}
			if got := path(v.hiddenBy(act("p.one.a"))); got != c.hiddenA {
				t.Errorf("hiddenBy(a) %q, want %q", got, c.hiddenA)
			}
			if got := path(v.hiddenBy(act("p.two.b"))); got != c.hiddenB {
				t.Errorf("hiddenBy(b) %q, want %q", got, c.hiddenB)
			}
			if got := path(v.overlay(act("p.bare"), 0)); got != c.overlay {
				t.Errorf("overlay %q, want %q", got, c.overlay)
			}
			if got := v.activation(act("p.one.a")); got != c.activation {
				t.Errorf("activation %q, want %q", got, c.activation)
			}
			if got := v.activation(act("p.bare")); got != "" {
				t.Errorf("a control on the page has activation %q", got)
			}
		})
	}
	v := newVisibility(g)
	if _, err := v.container("p.nope"); err == nil {
		t.Fatal("an undeclared path must be refused")
	}
}
