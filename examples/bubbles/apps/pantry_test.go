package apps_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/foldagent/foldagent/examples/bubbles/apps"
)

func pantryView(t *testing.T, r *rig[apps.Pantry]) apps.PantryView {
	t.Helper()
	raw, err := r.rt.Context(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var v apps.PantryView
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The agent clears two groceries and filters the list while the person
// moves the cursor with j and k and another reader reads the context: the
// list removes items in place (list.RemoveItem), and -race must stay quiet.
func TestPantryWholeTask(t *testing.T) {
	r := start(t, apps.NewPantry("apples", "bread", "butter", "cheese", "milk", "eggs"), apps.PantryContract)
	stop := r.person(t, "jjkjk")
	r.until(t, "remove_grocery", `{"name":"bread"}`)
	r.until(t, "remove_grocery", `{"name":"milk"}`)
	d := r.until(t, "filter_groceries", `{"text":"che"}`)
	if !d.Changed || d.Keys[0] != "/" || d.Keys[len(d.Keys)-1] != "enter" {
		t.Fatalf("filter: %+v", d)
	}
	// A grocery the list no longer shows is refused before any key.
	if _, err := r.call(t, "remove_grocery", `{"name":"bread"}`); err == nil {
		t.Fatal("removing a grocery that is gone was not refused")
	}
	r.until(t, "clear_filter", `{}`)
	stop()
	v := pantryView(t, r)
	if want := []string{"apples", "butter", "cheese", "eggs"}; !slices.Equal(v.Items, want) || v.Filtering || v.Filter != "" {
		t.Fatalf("pantry = %+v, want %v unfiltered", v, want)
	}
}
