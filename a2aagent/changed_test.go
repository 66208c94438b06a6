package a2aagent_test

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A call's data part says what it changed of the context: its paths and
// new values, and the versions before and after (agent.Change).
func TestADataPartSaysWhatTheCallChanged(t *testing.T) {
	f := startShop(t)
	c := f.client(t, "alice-tok")
	task := sendTask(t, c, skillMessage("open_product", map[string]any{"sku": "dress-red"}))
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("state %s", task.Status.State)
	}
	data := statusData(task)
	changed, _ := data["changed"].(map[string]any)
	if mustJSON(changed["paths"]) != `[{"path":"/open","value":"dress-red"}]` || changed["to"] != data["version"] || changed["from"].(float64) >= changed["to"].(float64) {
		t.Fatalf("data %s", mustJSON(data))
	}
}
