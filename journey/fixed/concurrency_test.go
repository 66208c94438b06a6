package fixed

import (
	"context"
	"github.com/foldagent/foldagent/journey"
	"sync"
	"testing"
)

// TestPortConcurrentCalls: a port is safe for concurrent use (run with
// -race): looks, fires, polls and journey calls interleave with the app's
// own state reports and page changes.
func TestPortConcurrentCalls(t *testing.T) {
	app := newPortShop(t, journey.Options{}, "x")
	p := Serve(app.s, Options{})
	tools := string(p.ToolsJSON())
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				switch (g + i) % 5 {
				case 0:
					p.Call(context.Background(), "shop.whats_here", map[string]any{"sinceVersion": float64(i)})
				case 1:
					r := p.Call(context.Background(), "shop.do_action", map[string]any{"action": "login"})
					p.Call(context.Background(), "shop.did_it_work", map[string]any{"transitionId": r.String("transitionId")})
				case 2:
					p.Call(context.Background(), "shop.journey.purchase", nil)
				case 3:
					app.s.UpdateState(map[string]any{"cartCount": i}, "")
				case 4:
					app.s.Sync([]string{"catalog", "product", "cart", "checkout"}[i%4])
				}
			}
		}()
	}
	wg.Wait()
	if string(p.ToolsJSON()) != tools {
		t.Fatal("tools moved")
	}
	if d := app.s.Defects(); len(d) > 0 {
		t.Fatalf("defects: %v", d)
	}
}
