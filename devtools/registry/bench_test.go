package registry_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/foldagent/foldagent/devtools/registry"
)

// BenchmarkNewest reads a registry of one entry and of 64 (63 of other
// projects), what the command does before each call: compare the two.
func BenchmarkNewest(b *testing.B) {
	for _, n := range []int{1, 64} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			reg, root := filepath.Join(b.TempDir(), "reg"), b.TempDir()
			proj := filepath.Join(root, "proj")
			for i := range n {
				dir := filepath.Join(root, fmt.Sprintf("other%d", i))
				if i == 0 {
					dir = proj
				}
				e := registry.Entry{Dir: dir, URL: "http://127.0.0.1:1/", Token: registry.NewToken(), Started: time.Unix(int64(i), 0)}
				if _, err := registry.Publish(reg, e); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := registry.Newest(reg, proj); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
