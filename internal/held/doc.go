// Package held is the book of held calls that mcpagent and nativeagent
// keep: calls whose answer outlived their request (a call still waiting
// past its client's patience, a task), each running on a context of its
// own while its caller learns the outcome by asking again or reading it
// by id.
//
// A Book keeps each identity's calls by id, bounded per identity and in
// all by internal/bound's rule: a call holds its place from Admit until
// its outcome is forgotten, KeepOutcome after it ended (lazily, on the
// book's next use: no timer runs for it) or when the adapter forgets it.
// Another identity's id is not found, exactly as an id that never was.
// Asking the same again (same identity, name and arguments) rejoins the
// oldest call not yet delivered instead of starting another.
//
// An adapter embeds Call in its own entry, whose further fields the
// book's lock guards (Do), so the mechanism is written once and each
// adapter's answers stay its own.
package held
