package fixed

import (
	"encoding/json"
	"testing"

	"github.com/foldagent/foldagent/journey"
)

// What a step wrote is readable by the model, as data: a committed fire's
// settled answer carries valuesNow for the keys its action declares
// writing, and why {key} carries the key's value. A redacted key's value
// rides neither: it is named instead.
func TestValuesNowAndWhyValue(t *testing.T) {
	for _, redact := range []bool{false, true} {
		opts := journey.Options{}
		if redact {
			opts.RedactedKeys = []string{"results"}
		}
		app := newPortShop(t, opts, "hostile text")
		p := Serve(app.s, Options{})
		r := callTest(t, p, "shop.do_action", map[string]any{"action": "search", "input": map[string]any{"q": "x"}})
		id, _ := r["transitionId"].(string)
		settleTest(t, p, id)
		w := callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": id})
		why := callTest(t, p, "shop.why", map[string]any{"key": "results"})
		vals, _ := w["valuesNow"].(map[string]any)
		if redact {
			if w["valuesNow"] != nil || mustJSONText(w["valuesRedacted"]) != `["results"]` || why["value"] != nil || why["redacted"] != true {
				t.Fatalf("redacted: %v\n%v", w, why)
			}
			continue
		}
		if mustJSONText(vals["results"]) != `["hostile text"]` || w["valuesRedacted"] != nil || mustJSONText(why["value"]) != `["hostile text"]` {
			t.Fatalf("values: %v\n%v", w, why)
		}
		// A step declaring no writes carries none.
		o := callTest(t, p, "shop.do_action", map[string]any{"action": "open-product", "input": map[string]any{"sku": "a"}})
		oid, _ := o["transitionId"].(string)
		settleTest(t, p, oid)
		if w := callTest(t, p, "shop.did_it_work", map[string]any{"transitionId": oid}); w["valuesNow"] != nil || w["valuesRedacted"] != nil {
			t.Fatalf("open-product: %v", w)
		}
	}
}

func mustJSONText(v any) string { b, _ := json.Marshal(v); return string(b) }
