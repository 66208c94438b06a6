// Package teahosttest runs Bubble Tea programs headless in tests and reads
// what they drew.
//
// Bubble Tea's renderer writes only the cells that changed since the last
// frame, so the raw output of a program rarely contains the text a person
// sees: "count: 12" may arrive as a cursor movement followed by "12". A
// [Screen] is an io.Writer that keeps everything the renderer wrote and
// replays it through a minimal terminal emulator, so a test can assert on
// the screen as a person would read it. Pass [Screen.ProgramOptions] to
// teahost's Run (or tea.NewProgram) to draw into it.
package teahosttest
