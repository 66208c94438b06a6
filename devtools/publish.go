package devtools

import devregistry "github.com/foldagent/foldagent/devtools/registry"

// Registry returns an Options.Publish that publishes the Listing into
// the per-user registry directory dir ("" for registry.DefaultDir, which
// $FOLDAGENT_DEVTOOLS_DIR overrides), where the command
// foldagent-devtools finds it; Close removes it again. Publishing fails,
// and with it Listen, as registry.Publish does: into a directory its
// group or others may use, it writes nothing.
func Registry(dir string) func(Listing) (func() error, error) {
	return func(l Listing) (func() error, error) {
		return devregistry.Publish(dir, devregistry.Entry{
			PID: l.PID, Dir: l.Dir, URL: l.URL, Token: l.Token, App: l.App, Started: l.Started,
		})
	}
}
