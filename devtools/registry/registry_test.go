package registry_test

import (
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/foldagent/foldagent/devtools/registry"
)

// private returns a new registry directory path (not yet created) under
// a fresh temporary directory.
func private(t *testing.T) string {
	return filepath.Join(t.TempDir(), "reg")
}

func entry(dir string, started time.Time) registry.Entry {
	return registry.Entry{Dir: dir, URL: "http://127.0.0.1:1/devtools", Token: registry.NewToken(), App: "demo", Started: started}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestPublishCreatesAPrivateDirectoryAndFile(t *testing.T) {
	reg := filepath.Join(private(t), "nested")
	proj := t.TempDir()
	remove, err := registry.Publish(reg, entry(proj, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(t, reg); m != 0o700 {
		t.Errorf("registry directory mode %04o, want 0700", m)
	}
	files := entryFiles(t, reg)
	if len(files) != 1 || !strings.HasSuffix(files[0], ".json") {
		t.Fatalf("registry holds %q, want one entry file and no temporary file", files)
	}
	if m := mode(t, filepath.Join(reg, files[0])); m != 0o600 {
		t.Errorf("entry file mode %04o, want 0600", m)
	}
	got, err := registry.Newest(reg, proj)
	if err != nil {
		t.Fatal(err)
	}
	if got.PID != os.Getpid() || got.Dir != proj || got.Started.IsZero() || got.App != "demo" {
		t.Errorf("Newest = %+v; want this process, its dir, a start time filled", got)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if files := entryFiles(t, reg); len(files) != 0 {
		t.Errorf("after remove the registry holds %q", files)
	}
	if err := remove(); err != nil {
		t.Errorf("a second remove: %v, want nil", err)
	}
	var none *registry.NoAppError
	if _, err := registry.Newest(reg, proj); !errors.As(err, &none) {
		t.Errorf("Newest after remove: %v, want *NoAppError", err)
	}
}

func TestARegistryOthersCanReadIsRefused(t *testing.T) {
	reg := private(t)
	if err := os.Mkdir(reg, 0o700); err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	if _, err := registry.Publish(reg, entry(proj, time.Time{})); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(reg, 0o755); err != nil {
		t.Fatal(err)
	}
	before := entryFiles(t, reg)
	for name, call := range map[string]func() error{
		"Publish": func() error { _, err := registry.Publish(reg, entry(proj, time.Time{})); return err },
		"Newest":  func() error { _, err := registry.Newest(reg, proj); return err },
	} {
		err := call()
		var ie *registry.InsecureError
		if !errors.As(err, &ie) {
			t.Fatalf("%s into a 0755 directory: %v, want *InsecureError", name, err)
		}
		if ie.Path != reg || ie.Mode.Perm() != 0o755 || !strings.Contains(err.Error(), reg) || !strings.Contains(err.Error(), "0755") {
			t.Errorf("%s: %+v (%q); want the path and mode 0755 named", name, ie, err)
		}
	}
	if after := entryFiles(t, reg); len(after) != len(before) {
		t.Errorf("a refused Publish changed the directory: %q, then %q", before, after)
	}
	if m := mode(t, reg); m != 0o755 {
		t.Errorf("the refused directory's mode became %04o; it must be left as it was", m)
	}
}

func TestAnEntryFileOthersCanReadIsRefused(t *testing.T) {
	reg, proj := private(t), t.TempDir()
	if _, err := registry.Publish(reg, entry(proj, time.Time{})); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(reg, entryFiles(t, reg)[0])
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *registry.InsecureError
	if _, err := registry.Newest(reg, proj); !errors.As(err, &ie) || ie.Path != file || ie.Mode.Perm() != 0o644 {
		t.Fatalf("Newest with a 0644 entry: %v, want *InsecureError naming %s", err, file)
	}
}

func TestAnEntryFileThatIsASymlinkIsRefused(t *testing.T) {
	reg, proj := private(t), t.TempDir()
	if _, err := registry.Publish(reg, entry(proj, time.Time{})); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(reg, entryFiles(t, reg)[0])
	if err := os.Symlink(target, filepath.Join(reg, "link.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Newest(reg, proj); !registry.IsInsecure(err) {
		t.Fatalf("Newest with a symlinked entry: %v, want *InsecureError", err)
	}
}

func TestNewestPicksTheLatestLiveAppInsideTheProject(t *testing.T) {
	reg, root := private(t), t.TempDir()
	proj := filepath.Join(root, "a", "b")
	sibling := filepath.Join(root, "a", "bc") // shares a prefix, not inside
	sub := filepath.Join(proj, "cmd", "app")
	for _, d := range []string{proj, sibling, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	publish := func(dir string, started time.Time) registry.Entry {
		t.Helper()
		e := entry(dir, started)
		if _, err := registry.Publish(reg, e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	publish(proj, t0)
	inner := publish(sub, t0.Add(time.Minute))
	publish(sibling, t0.Add(2*time.Minute))              // newer, but in /a/bc
	publish(filepath.Join(root, "a"), t0.Add(time.Hour)) // the project's parent

	got, err := registry.Newest(reg, proj)
	if err != nil {
		t.Fatal(err)
	}
	if got.Dir != sub || got.Token != inner.Token {
		t.Errorf("Newest picked the app in %s, want the one in %s", got.Dir, sub)
	}
	var none *registry.NoAppError
	if _, err := registry.Newest(reg, filepath.Join(root, "elsewhere")); !errors.As(err, &none) || none.Elsewhere != 4 {
		t.Errorf("Newest for a project with no app: %v, want *NoAppError counting 4 elsewhere", err)
	}
}

func TestContainmentResolvesSymlinks(t *testing.T) {
	reg, root := private(t), t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Publish(reg, entry(filepath.Join(real, "sub"), time.Time{})); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Newest(reg, link); err != nil {
		t.Errorf("an app under the real path, the project named through a link: %v", err)
	}
	reg2 := private(t)
	if _, err := registry.Publish(reg2, entry(filepath.Join(link, "sub"), time.Time{})); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Newest(reg2, real); err != nil {
		t.Errorf("an app published through a link, the project named by its real path: %v", err)
	}
	if _, err := registry.Newest(reg2, filepath.Join(root, "rea")); err == nil {
		t.Errorf("a project whose path is a prefix of the app's, not a parent, picked it")
	}
}

// endedPID returns the id of a process that has exited.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestEntriesOfEndedProcessesAreIgnoredAndRemoved(t *testing.T) {
	reg, proj := private(t), t.TempDir()
	live := entry(proj, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if _, err := registry.Publish(reg, live); err != nil {
		t.Fatal(err)
	}
	dead := entry(proj, time.Now())
	dead.PID = endedPID(t)
	if _, err := registry.Publish(reg, dead); err != nil {
		t.Fatal(err)
	}
	if n := len(entryFiles(t, reg)); n != 2 {
		t.Fatalf("%d entries published, want 2", n)
	}
	got, err := registry.Newest(reg, proj)
	if err != nil {
		t.Fatal(err)
	}
	if got.Token != live.Token {
		t.Errorf("Newest picked the ended process's (newer) entry")
	}
	if n := len(entryFiles(t, reg)); n != 1 {
		t.Errorf("%d entries left, want the ended one removed", n)
	}
}

func TestNoRegistryDirectoryMeansNoApp(t *testing.T) {
	reg := private(t)
	var none *registry.NoAppError
	if _, err := registry.Newest(reg, t.TempDir()); !errors.As(err, &none) || none.Dir != reg {
		t.Fatalf("Newest on a missing directory: %v, want *NoAppError naming it", err)
	}
	if _, err := os.Stat(reg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Newest created the registry directory: %v", err)
	}
}

func TestPublishRefusesABadEntryAndWritesNothing(t *testing.T) {
	reg := private(t)
	for field, e := range map[string]registry.Entry{
		"token": {URL: "http://127.0.0.1:1/"},
		"url":   {URL: "127.0.0.1:1", Token: "t"},
		"pid":   {PID: -1, URL: "http://127.0.0.1:1/", Token: "t"},
	} {
		_, err := registry.Publish(reg, e)
		var ie *registry.InvalidEntryError
		if !errors.As(err, &ie) || ie.Field != field {
			t.Errorf("entry bad in %s: %v, want *InvalidEntryError for it", field, err)
		}
	}
	if _, err := os.Stat(reg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Publish created the directory: %v", err)
	}
}

func TestAnUnreadableFileIsCountedNotFatal(t *testing.T) {
	reg, proj := private(t), t.TempDir()
	if _, err := registry.Publish(reg, entry(t.TempDir(), time.Time{})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reg, "junk.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	huge := `{"pid":1,"dir":"/","url":"http://x/","token":"t","app":"` + strings.Repeat("a", 1<<20) + `"}`
	if err := os.WriteFile(filepath.Join(reg, "huge.json"), []byte(huge), 0o600); err != nil {
		t.Fatal(err)
	}
	var none *registry.NoAppError
	if _, err := registry.Newest(reg, proj); !errors.As(err, &none) || none.Unreadable != 2 || none.Elsewhere != 1 {
		t.Fatalf("Newest: %v, want *NoAppError with 2 unreadable (junk, oversized) and 1 elsewhere", err)
	}
}

func TestDefaultDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv(registry.EnvDir, "")
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	if got, _ := registry.DefaultDir(); got != filepath.Join(xdg, "foldagent-devtools") {
		t.Errorf("with XDG_RUNTIME_DIR: %s", got)
	}
	own := t.TempDir()
	t.Setenv(registry.EnvDir, own)
	if got, _ := registry.DefaultDir(); got != own {
		t.Errorf("with %s: %s, want it", registry.EnvDir, got)
	}
	t.Setenv(registry.EnvDir, "")
	t.Setenv("XDG_RUNTIME_DIR", "relative/run") // to be ignored
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache directory here:", err)
	}
	if got, _ := registry.DefaultDir(); got != filepath.Join(cache, "foldagent", "devtools") {
		t.Errorf("without either: %s", got)
	}
}

func TestPublishWithNoDirUsesTheDefault(t *testing.T) {
	reg := private(t)
	t.Setenv(registry.EnvDir, reg)
	proj := t.TempDir()
	remove, err := registry.Publish("", entry(proj, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	if _, err := registry.Newest("", proj); err != nil {
		t.Fatal(err)
	}
	if n := len(entryFiles(t, reg)); n != 1 {
		t.Errorf("%d entries in %s, want 1", n, reg)
	}
}

func TestTokens(t *testing.T) {
	a, b := registry.NewToken(), registry.NewToken()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a) || a == b {
		t.Fatalf("tokens %q and %q; want two different 64-digit hex strings", a, b)
	}
	r, _ := http.NewRequest("GET", "http://x/", nil)
	if registry.Authorized(r, a) {
		t.Error("a request without a token is authorized")
	}
	r.Header.Set("Authorization", "Bearer "+b)
	if registry.Authorized(r, a) {
		t.Error("a wrong token is authorized")
	}
	r.Header.Set("Authorization", "Bearer "+a)
	if !registry.Authorized(r, a) {
		t.Error("the right token is refused")
	}
	r.Header.Set("Authorization", "Bearer ")
	if registry.Authorized(r, "") {
		t.Error("an empty token authorizes")
	}
}

func TestEntryStringHidesTheToken(t *testing.T) {
	e := entry("/p", time.Time{})
	if s := e.String(); strings.Contains(s, e.Token) || !strings.Contains(s, e.URL) {
		t.Errorf("String() = %q; want the URL and not the token", s)
	}
}
