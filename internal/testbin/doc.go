// Package testbin builds this module's commands for the tests that drive
// them from outside as real processes (the todo app, the shop), once per
// test binary however many tests ask, into a directory Main removes; and
// starts such a process (or a peer's) with its pipes (Start, StartPiped),
// stopping it when the test ends.
package testbin
