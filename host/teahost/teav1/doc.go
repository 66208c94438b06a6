// Package teav1 hosts a Bubble Tea v1 application (github.com/charmbracelet/bubbletea
// v1.x, with bubbles v0.x or v1.0 and huh v0.x or v1.0), unchanged, under
// host/teahost, which runs Bubble Tea v2 (charm.land/bubbletea/v2).
//
// Most published Bubble Tea programs are still on v1. Moving one to v2 is
// work across the whole program (below), so a developer who wants an agent
// to drive the program they have would rather not start there: [New]
// wraps the v1 model as a v2 tea.Model, and teahost, keyact and teaserve
// take it as they take any:
//
//	h := teahost.New[teav1.Model[myModel], tea.Msg](teav1.New(myModel{...}), nil)
//
// A contract is declared over teav1.Model[myModel] and reads the v1 model
// as its V1 field. The v1 model's Init, Update and View are called as they
// are, with Messages translated at the edge: v2 key presses (the person's
// and keyact's) become v1 KeyMsgs of the same name, a paste a KeyMsg with
// Paste set, mouse events v1's MouseMsg, the window's size, focus and
// blur their v1 Messages; what v1
// Cmds return (quit, suspend, interrupt, batches, sequences, clear screen,
// window size) becomes what v2's program acts on. Everything else passes
// as it is, so a v1 component's own Messages (a list's filter results, a
// spinner's tick) come back to it. Not translated: key releases (v1 has
// none), and the v1 Cmds that drive the terminal (alternate screen, mouse
// modes, cursor, window title): in v2 those are fields of the View, which
// a v1 model does not set, so the program runs in the normal screen
// without mouse reports unless the application wraps Model and sets them
// in its View.
//
// Why an adapter rather than only a guide: the move to v2 touches every
// file that handles keys or draws (below), and a program's dependencies
// (bubbles, huh, lipgloss) must move with it; hosting the v1 model as it
// is lets an agent drive the program the day it is wanted, through the
// same checked path as a v2 one, and the move can follow on its own
// schedule.
//
// # Moving a v1 application to v2
//
// Checked against bubbletea v1.3.10 → v2.1.1, bubbles v1.0.0 → v2.1.1:
//
//   - Imports: github.com/charmbracelet/bubbletea → charm.land/bubbletea/v2;
//     github.com/charmbracelet/bubbles/<c> → charm.land/bubbles/v2/<c>;
//     lipgloss → charm.land/lipgloss/v2; huh → charm.land/huh/v2.
//   - View returns a tea.View, not a string: tea.NewView(s). What v1 set
//     with program options or Cmds (tea.WithAltScreen, tea.EnterAltScreen,
//     tea.WithMouseCellMotion, tea.SetWindowTitle) is set on the View
//     (AltScreen, MouseMode, WindowTitle); those v1 names are gone.
//   - Init keeps its signature, Init() tea.Cmd; Update keeps
//     Update(tea.Msg) (tea.Model, tea.Cmd).
//   - Keys: tea.KeyMsg is an interface over presses and releases; match
//     tea.KeyPressMsg. Key.Type and Key.Runes become Key.Code and Key.Text;
//     msg.String() names keys as before except the space bar, "space" in
//     v2 and " " in v1.
//   - Mouse: tea.MouseMsg is an interface; match tea.MouseClickMsg,
//     MouseReleaseMsg, MouseWheelMsg or MouseMotionMsg.
//   - bubbles: sizes are set with methods and options, not fields
//     (textinput's Width field → SetWidth; viewport.New(w, h) →
//     viewport.New(viewport.WithWidth(w), viewport.WithHeight(h))).
//
// Once moved, the program needs no adapter: host it with teahost.New
// directly.
package teav1
