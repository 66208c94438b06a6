package teav1

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
	v1 "github.com/charmbracelet/bubbletea"
)

// Model is a Bubble Tea v1 model as a v2 tea.Model. V1 is the application's
// own model: a contract's projections and availability read it, and its
// Init, Update and View are called as they are.
type Model[M v1.Model] struct{ V1 M }

// New wraps a v1 model for teahost.New.
func New[M v1.Model](m M) Model[M] { return Model[M]{V1: m} }

// Init returns the v1 model's initial Cmd, translated.
func (m Model[M]) Init() tea.Cmd { return Cmd(m.V1.Init()) }

// Update translates msg (Msg), applies it with the v1 model's Update and
// translates the Cmd it returns. An Update that returns a model of
// another type than M comes back as a Model[v1.Model], which a Host for
// Model[M] reports as a violation (another type), as it would for a v2
// model.
func (m Model[M]) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.V1.Update(Msg(msg))
	if n, ok := next.(M); ok {
		m.V1 = n
		return m, Cmd(cmd)
	}
	return Model[v1.Model]{V1: next}, Cmd(cmd)
}

// View returns the v1 model's view as the content of a v2 view.
func (m Model[M]) View() tea.View { return tea.NewView(m.V1.View()) }

// Msg translates a Bubble Tea v2 Message into the v1 Message a v1 model
// expects: a key press (tea.KeyPressMsg) into a v1 KeyMsg, a paste into a
// KeyMsg with Paste set, v2's four mouse Messages into v1's MouseMsg, the
// window's size, focus and blur. Every other Message (a v1 Cmd's result
// coming back, the agent's own Messages, v2 Messages v1 has no
// counterpart for, such as key releases) is returned as it is.
func Msg(msg tea.Msg) v1.Msg {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return Key(msg.Key())
	case tea.PasteMsg:
		return v1.KeyMsg{Type: v1.KeyRunes, Runes: []rune(msg.Content), Paste: true}
	case tea.WindowSizeMsg:
		return v1.WindowSizeMsg{Width: msg.Width, Height: msg.Height}
	case tea.FocusMsg:
		return v1.FocusMsg{}
	case tea.BlurMsg:
		return v1.BlurMsg{}
	case tea.MouseClickMsg:
		return mouse(msg.Mouse(), v1.MouseActionPress)
	case tea.MouseReleaseMsg:
		return mouse(msg.Mouse(), v1.MouseActionRelease)
	case tea.MouseMotionMsg:
		return mouse(msg.Mouse(), v1.MouseActionMotion)
	case tea.MouseWheelMsg:
		return mouse(msg.Mouse(), v1.MouseActionPress)
	}
	return msg
}

// v1Buttons maps v2's mouse buttons to v1's.
var v1Buttons = map[tea.MouseButton]v1.MouseButton{
	tea.MouseNone: v1.MouseButtonNone, tea.MouseLeft: v1.MouseButtonLeft,
	tea.MouseMiddle: v1.MouseButtonMiddle, tea.MouseRight: v1.MouseButtonRight,
	tea.MouseWheelUp: v1.MouseButtonWheelUp, tea.MouseWheelDown: v1.MouseButtonWheelDown,
	tea.MouseWheelLeft: v1.MouseButtonWheelLeft, tea.MouseWheelRight: v1.MouseButtonWheelRight,
	tea.MouseBackward: v1.MouseButtonBackward, tea.MouseForward: v1.MouseButtonForward,
	tea.MouseButton10: v1.MouseButton10, tea.MouseButton11: v1.MouseButton11,
}

// mouse is a v2 mouse event as v1's MouseMsg (a button v1 lacks is none).
func mouse(m tea.Mouse, action v1.MouseAction) v1.MouseMsg {
	return v1.MouseMsg{X: m.X, Y: m.Y, Action: action, Button: v1Buttons[m.Button],
		Shift: m.Mod.Contains(tea.ModShift), Alt: m.Mod.Contains(tea.ModAlt), Ctrl: m.Mod.Contains(tea.ModCtrl)}
}

// Key translates a v2 key press into v1's: text (with shift, or alt) as
// runes, a space as v1's KeySpace, a named key ("enter", "ctrl+up",
// "shift+tab", "ctrl+a", "f5") as the v1 KeyType of that name, alt as
// Alt. A key v1 has no name for arrives as its code, as runes.
func Key(k tea.Key) v1.KeyMsg {
	alt := k.Mod.Contains(tea.ModAlt)
	if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) {
		if k.Text == " " {
			return v1.KeyMsg{Type: v1.KeySpace, Runes: []rune{' '}, Alt: alt}
		}
		return v1.KeyMsg{Type: v1.KeyRunes, Runes: []rune(k.Text), Alt: alt}
	}
	name := strings.Replace(k.Keystroke(), "alt+", "", 1)
	if name == "space" {
		return v1.KeyMsg{Type: v1.KeySpace, Runes: []rune{' '}, Alt: alt}
	}
	if t, ok := v1Keys[name]; ok {
		return v1.KeyMsg{Type: t, Alt: alt}
	}
	return v1.KeyMsg{Type: v1.KeyRunes, Runes: []rune{k.Code}, Alt: alt}
}

// v1Keys maps v1's key names to their KeyType, read from v1's own
// KeyType.String (its control keys are 0 to 127, its other keys below 0).
var v1Keys = func() map[string]v1.KeyType {
	out := map[string]v1.KeyType{}
	for t := v1.KeyType(-256); t < 128; t++ {
		if name := t.String(); name != "" && name != "runes" && name != " " {
			out[name] = t
		}
	}
	return out
}()

// Cmd translates a v1 Cmd into a v2 Cmd: it runs the v1 Cmd and
// translates the Message it returns (CmdMsg). Nil stays nil.
func Cmd(c v1.Cmd) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg { return CmdMsg(c()) }
}

// The v1 Messages that ask v1's program for something, compared by value
// (each is an empty struct of an unexported type).
var (
	v1ClearScreen = v1.ClearScreen()
	v1WindowSize  = v1.WindowSize()()
	v1Sequence    = reflect.TypeOf(v1.Sequence(func() v1.Msg { return nil }, func() v1.Msg { return nil })())
)

// CmdMsg translates a Message a v1 Cmd returned into what v2's program
// acts on: quitting, suspending, interrupting, a batch or a sequence of
// Cmds (each translated), clearing the screen and asking for the
// window's size. v1's Cmds that set how the terminal is driven (alternate
// screen, mouse modes, the cursor, the window's title, bracketed paste,
// focus reports) are not carried over: in v2 a program sets those in its
// View or with program options, so they come back to the v1 model as
// ordinary Messages, which it ignores. Every other Message is returned as
// it is and reaches the v1 model's Update.
func CmdMsg(msg v1.Msg) tea.Msg {
	switch msg := msg.(type) {
	case nil:
		return nil
	case v1.QuitMsg:
		return tea.QuitMsg{}
	case v1.SuspendMsg:
		return tea.SuspendMsg{}
	case v1.InterruptMsg:
		return tea.InterruptMsg{}
	case v1.BatchMsg:
		return tea.BatchMsg(cmds(msg))
	}
	switch {
	case reflect.TypeOf(msg) == v1Sequence:
		seq := reflect.ValueOf(msg).Convert(reflect.TypeFor[[]v1.Cmd]()).Interface().([]v1.Cmd)
		if c := tea.Sequence(cmds(seq)...); c != nil {
			return c()
		}
		return nil
	case isComparable(msg) && msg == v1ClearScreen:
		return tea.ClearScreen()
	case isComparable(msg) && msg == v1WindowSize:
		return tea.RequestWindowSize()
	}
	return msg
}

func cmds(in []v1.Cmd) []tea.Cmd {
	out := make([]tea.Cmd, len(in))
	for i, c := range in {
		out[i] = Cmd(c)
	}
	return out
}

func isComparable(msg v1.Msg) bool { return reflect.TypeOf(msg).Comparable() }
