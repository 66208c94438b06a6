package registry_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/foldagent/foldagent/devtools/registry"
)

// An application publishes its devtools endpoint; a tool started in the
// project finds it, and stops finding it once the application removes its
// entry.
func Example() {
	tmp, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(tmp)
	reg := filepath.Join(tmp, "registry")
	project := filepath.Join(tmp, "project")
	os.MkdirAll(filepath.Join(project, "cmd", "app"), 0o755)

	remove, err := registry.Publish(reg, registry.Entry{
		Dir:   filepath.Join(project, "cmd", "app"),
		URL:   "http://127.0.0.1:8123/devtools",
		Token: registry.NewToken(),
		App:   "todo",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fi, _ := os.Stat(reg)
	fmt.Printf("registry mode %04o\n", fi.Mode().Perm())

	e, err := registry.Newest(reg, project)
	fmt.Println(e.App, e.URL, err)

	remove()
	_, err = registry.Newest(reg, project)
	_, none := err.(*registry.NoAppError)
	fmt.Println("after remove, no app:", none)

	os.Chmod(reg, 0o755)
	_, err = registry.Newest(reg, project)
	fmt.Println("a 0755 registry is refused:", registry.IsInsecure(err))
	// Output:
	// registry mode 0700
	// todo http://127.0.0.1:8123/devtools <nil>
	// after remove, no app: true
	// a 0755 registry is refused: true
}
