package a2aagent_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A cancel of a task that has ended is refused in a sentence of ours,
// with the protocol's code (-32002, TaskNotCancelable), never the SDK's
// internal error chain; the client still recognises the error.
func TestCancelOfAnEndedTaskIsAPlainRefusal(t *testing.T) {
	f := start(t, nil)
	c := f.client(t, "owner-tok")
	task := sendTask(t, c, skillMessage("add_item", map[string]any{"title": "x"}))
	const want = "That task has already ended, so it cannot be cancelled."
	if _, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: task.ID}); !errors.Is(err, a2a.ErrTaskNotCancelable) || !strings.Contains(err.Error(), want) {
		t.Fatalf("client error: %v", err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"CancelTask","params":{"id":"` + string(task.ID) + `"}}`
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL, bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer owner-tok")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Error.Code != -32002 || out.Error.Message != want {
		t.Fatalf("wire answer: %s", b)
	}
}
