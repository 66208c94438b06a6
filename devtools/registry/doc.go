// Package registry is how a coding agent finds a running application's
// devtools with no configuration, and finds only its own user's.
//
// An application that serves devtools publishes an [Entry] (its process
// id, working directory, devtools URL, a random bearer token from
// [NewToken], its name and start time) as one JSON file in a per-user
// registry directory, and removes it when it stops. The command
// foldagent-devtools (cmd/foldagent-devtools) reads the directory with
// [Newest] to attach to the newest live application whose working
// directory is inside the project it was started in.
//
// The directory is [DefaultDir]: $FOLDAGENT_DEVTOOLS_DIR when set, else
// $XDG_RUNTIME_DIR/foldagent-devtools, else foldagent/devtools under
// [os.UserCacheDir]; a caller may name another by passing it as dir.
// [Publish] creates it with mode 0700. Because an entry holds a token,
// the package refuses, with an [*InsecureError] naming the path and its
// mode, to publish into or read from a directory or entry file that its
// group or others may read or write, or that another user owns; it never
// changes such a directory's mode itself.
//
// Entries of processes that have exited are ignored and removed by
// [Newest]. Entry files are written atomically (a temporary file renamed
// into place), so a reader never sees half an entry.
package registry
