package nativeagent_test

import (
	"encoding/json"
	"testing"
)

// An action's body says what it changed of the context: its paths and new
// values, and the versions before and after (agent.Change).
func TestAnActionsBodySaysWhatItChanged(t *testing.T) {
	s := newShop(t)
	a := s.send(t, "POST", "actions/open_product", "alice-tok", `{"sku":"hat"}`, nil)
	changed, _ := a.data()["changed"].(map[string]any)
	paths, _ := json.Marshal(changed["paths"])
	if a.status != 200 || string(paths) != `[{"path":"/open","value":"hat"}]` || uint64(changed["to"].(float64)) != a.version {
		t.Fatalf("%d %v", a.status, a.body)
	}
}
