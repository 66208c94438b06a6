package main_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/foldagent/foldagent/devtools/registry"
)

var hi = map[string]any{"text": "hi"}

// expect records what answered in transcript and fails t unless it is
// want.
func expect(t *testing.T, transcript *[]string, step, got, want string) {
	t.Helper()
	*transcript = append(*transcript, step+" → "+sentence(got))
	if sentence(got) != want {
		t.Errorf("%s: got %q, want %q", step, got, want)
	}
}

const (
	noApp   = "error: no app of this project is running"
	refused = "error: the app refused the devtools token of its registry entry (HTTP 401 Unauthorized)"
)

func TestPicksTheAppOfItsProjectWithNoConfiguration(t *testing.T) {
	reg, proj, sub, other := project(t)
	startApp(t, reg, appSpec{name: "shop", dir: sub, tools: []string{"echo"}})
	startApp(t, reg, appSpec{name: "shop2", dir: other, tools: []string{"echo", "count"}, started: 1}) // newer, another project
	// Started in the project, the registry named only by the environment.
	ag := startCommand(t, proj, []string{registry.EnvDir + "=" + reg})
	var tr []string
	expect(t, &tr, "tools", ag.tools(), "attached_app,echo")
	expect(t, &tr, "echo", ag.call("echo", hi), "shop: hi")
	if got := ag.call("attached_app", nil); !strings.Contains(got, `"shop"`) || !strings.Contains(got, sub) {
		t.Errorf("attached_app: %q, want the app named shop in %s", got, sub)
	}
	// Started in the other project, the same registry picks the other app.
	ag2 := startCommand(t, t.TempDir(), nil, "-project", other, "-registry", reg)
	expect(t, &tr, "other project", ag2.call("echo", hi), "shop2: hi")
}

func TestNoAppIsAToolError(t *testing.T) {
	reg, proj, _, other := project(t)
	ag := startCommand(t, proj, nil, "-registry", reg)
	var tr []string
	expect(t, &tr, "tools, no registry yet", ag.tools(), "attached_app")
	expect(t, &tr, "attached_app, no registry yet", ag.call("attached_app", nil), noApp)
	startApp(t, reg, appSpec{name: "shop2", dir: other, tools: []string{"echo"}})
	expect(t, &tr, "attached_app, another project's app", ag.call("attached_app", nil), noApp)
	expect(t, &tr, "tools, another project's app", ag.tools(), "attached_app")
}

func TestFollowsRestarts(t *testing.T) {
	runFollowing(t)
}

// runFollowing attaches to an app that restarts, is overtaken by a newer
// one, ends, and comes back with a token it refuses; it returns what
// answered at each step.
func runFollowing(t *testing.T) []string {
	reg, proj, sub, other := project(t)
	var tr []string
	first := startApp(t, reg, appSpec{name: "shop-1", dir: sub, tools: []string{"echo"}})
	startApp(t, reg, appSpec{name: "shop2", dir: other, tools: []string{"echo"}, started: 10})
	ag := startCommand(t, proj, nil, "-registry", reg)
	expect(t, &tr, "tools", ag.tools(), "attached_app,echo")
	expect(t, &tr, "echo", ag.call("echo", hi), "shop-1: hi")

	first.stop() // the app restarts: a new address and token, the same tools
	second := startApp(t, reg, appSpec{name: "shop-2", dir: sub, tools: []string{"echo"}, started: 1})
	expect(t, &tr, "echo after a restart", ag.call("echo", hi), "shop-2: hi")

	ag.drain() // a newer app of the project, with one more tool, while shop-2 runs
	third := startApp(t, reg, appSpec{name: "shop-3", dir: proj, tools: []string{"echo", "count"}, started: 2})
	expect(t, &tr, "echo with a newer app", ag.call("echo", hi), "shop-3: hi")
	ag.waitChanged("a newer app with another tool set")
	expect(t, &tr, "tools with a newer app", ag.tools(), "attached_app,count,echo")
	expect(t, &tr, "count", ag.call("count", map[string]any{"items": []string{"a", "b", "c"}}), "shop-3: 3 items")

	ag.drain()
	third.stop() // the newer app ends: back to shop-2, which has no count
	expect(t, &tr, "echo after the newer app ended", ag.call("echo", hi), "shop-2: hi")
	ag.waitChanged("back to an app without count")
	expect(t, &tr, "tools back", ag.tools(), "attached_app,echo")

	second.stop() // none runs: the last tools stay, answering that
	expect(t, &tr, "echo with none running", ag.call("echo", hi), noApp)
	expect(t, &tr, "tools with none running", ag.tools(), "attached_app,echo")

	bad := startApp(t, reg, appSpec{name: "shop-4", dir: sub, tools: []string{"echo"}, started: 3, refuses: true})
	expect(t, &tr, "echo, token refused", ag.call("echo", hi), refused)
	expect(t, &tr, "attached_app, token refused", ag.call("attached_app", nil), refused)
	if bad.refused.Load() == 0 {
		t.Error("the stand-in answered no request 401, yet the command says it refused the token")
	}
	for _, tok := range []string{first.entry.Token, second.entry.Token, bad.entry.Token} {
		if strings.Contains(ag.stderr.String(), tok) {
			t.Errorf("the command printed a token:\n%s", ag.stderr)
		}
		for _, answer := range ag.answers {
			if strings.Contains(answer, tok) {
				t.Errorf("an answer holds a token: %q", answer)
			}
		}
	}
	t.Logf("the command's log:\n%s", ag.stderr)
	return tr
}

func TestTwoRunsGiveIdenticalAnswers(t *testing.T) {
	var runs [2][]string
	for i := range runs {
		t.Run("run", func(t *testing.T) { runs[i] = runFollowing(t) })
	}
	if len(runs[0]) < 10 || !slices.Equal(runs[0], runs[1]) {
		t.Fatalf("two runs answered differently:\n%s\n---\n%s", strings.Join(runs[0], "\n"), strings.Join(runs[1], "\n"))
	}
}

func TestARegistryOthersCanReadIsRefused(t *testing.T) {
	reg, proj, sub, _ := project(t)
	startApp(t, reg, appSpec{name: "shop", dir: sub, tools: []string{"echo"}})
	ag := startCommand(t, proj, nil, "-registry", reg)
	var tr []string
	expect(t, &tr, "echo", ag.call("echo", hi), "shop: hi")
	if err := os.Chmod(reg, 0o755); err != nil {
		t.Fatal(err)
	}
	got := ag.call("echo", hi)
	if !strings.HasPrefix(got, "error: devtools registry: refusing "+reg+" (mode 0755)") {
		t.Errorf("echo with the registry at 0755: %q, want a tool error naming it and its mode", got)
	}
	_, err := registry.Publish(reg, registry.Entry{Dir: sub, URL: "http://127.0.0.1:1/", Token: registry.NewToken()})
	var ie *registry.InsecureError
	if !errors.As(err, &ie) || ie.Path != reg {
		t.Errorf("publishing into it: %v, want *InsecureError", err)
	}
	if entries, _ := os.ReadDir(reg); len(entries) != 1 {
		t.Errorf("the refused registry holds %d entries, want the one published before", len(entries))
	}
}
