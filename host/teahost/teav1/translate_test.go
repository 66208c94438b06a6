package teav1_test

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	v1 "github.com/charmbracelet/bubbletea"

	"github.com/foldagent/foldagent/host/teahost"
	"github.com/foldagent/foldagent/host/teahost/teav1"
)

// v2 key presses arrive as the v1 KeyMsg whose String a v1 model matches.
func TestKeysAsV1Names(t *testing.T) {
	for _, c := range []struct {
		in   tea.Key
		want string
	}{
		{teahost.Key("enter").Key(), "enter"},
		{teahost.Key("esc").Key(), "esc"},
		{teahost.Key("home").Key(), "home"},
		{teahost.Key("pgdown").Key(), "pgdown"},
		{teahost.Key("space").Key(), " "},
		{tea.Key{Code: tea.KeyUp, Mod: tea.ModCtrl}, "ctrl+up"},
		{tea.Key{Code: tea.KeyTab, Mod: tea.ModShift}, "shift+tab"},
		{tea.Key{Code: 'a', Mod: tea.ModCtrl}, "ctrl+a"},
		{tea.Key{Code: 'x', Mod: tea.ModAlt}, "alt+x"},
		{tea.Key{Code: tea.KeyF5}, "f5"},
		{tea.Key{Code: 'a', Text: "A", Mod: tea.ModShift}, "A"},
		{tea.Key{Code: 'é', Text: "é"}, "é"},
	} {
		if got := teav1.Key(c.in).String(); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in.String(), got, c.want)
		}
	}
	if k, ok := teav1.Msg(tea.PasteMsg{Content: "a\nb"}).(v1.KeyMsg); !ok || !k.Paste || string(k.Runes) != "a\nb" {
		t.Errorf("paste: %#v", k)
	}
	if s, ok := teav1.Msg(tea.WindowSizeMsg{Width: 3, Height: 4}).(v1.WindowSizeMsg); !ok || s.Width != 3 || s.Height != 4 {
		t.Errorf("size: %#v", s)
	}
	wheel := teav1.Msg(tea.MouseWheelMsg{X: 5, Y: 6, Button: tea.MouseWheelDown, Mod: tea.ModCtrl})
	if m, ok := wheel.(v1.MouseMsg); !ok || m.String() != "ctrl+wheel down" || m.X != 5 || m.Y != 6 {
		t.Errorf("wheel: %#v", wheel)
	}
	click := teav1.Msg(tea.MouseReleaseMsg{Button: tea.MouseRight})
	if m, ok := click.(v1.MouseMsg); !ok || m.String() != "right release" {
		t.Errorf("release: %#v", click)
	}
}

type own struct{ n int }

// What v1 Cmds return reaches v2's program as what it acts on.
func TestV1CmdResults(t *testing.T) {
	if _, ok := teav1.Cmd(v1.Quit)().(tea.QuitMsg); !ok {
		t.Error("v1.Quit is not v2's QuitMsg")
	}
	if teav1.Cmd(nil) != nil || teav1.CmdMsg(nil) != nil {
		t.Error("nil is not nil")
	}
	one := func() v1.Msg { return own{1} }
	two := func() v1.Msg { return own{2} }
	b, ok := teav1.Cmd(v1.Batch(one, two))().(tea.BatchMsg)
	if !ok || len(b) != 2 || b[1]() != (own{2}) {
		t.Errorf("batch: %#v", b)
	}
	seq := teav1.Cmd(v1.Sequence(one, two))()
	if _, ok := seq.(own); ok || seq == nil {
		t.Errorf("a sequence is not v2's sequence: %#v", seq)
	}
	if got := teav1.CmdMsg(v1.ClearScreen()); got != tea.ClearScreen() {
		t.Errorf("clear screen: %#v", got)
	}
	if got := teav1.CmdMsg(v1.WindowSize()()); got != tea.RequestWindowSize() {
		t.Errorf("window size: %#v", got)
	}
	if got := teav1.Cmd(one)(); got != (own{1}) {
		t.Errorf("an application's Message: %#v", got)
	}
}

// A v2 key press as the v1 KeyMsg a v1 model sees, and a v1 Cmd's quit as
// v2's.
func ExampleKey() {
	fmt.Println(teav1.Key(teahost.Key("shift+tab").Key()))
	fmt.Println(teav1.Key(teahost.Key("space").Key()).Type == v1.KeySpace)
	fmt.Printf("%T\n", teav1.Cmd(v1.Quit)())
	// Output:
	// shift+tab
	// true
	// tea.QuitMsg
}
