package teadevtools_test

import (
	"context"
	"io"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/devtools"
	"github.com/foldagent/foldagent/devtools/internal/twinbench"
	"github.com/foldagent/foldagent/devtools/teadevtools"
	"github.com/foldagent/foldagent/host/teahost"
)

type tick struct{}

type counter struct {
	N int `json:"n"`
}

func (c counter) Init() tea.Cmd { return nil }
func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tick); ok {
		c.N++
	}
	return c, nil
}
func (c counter) View() tea.View { return tea.NewView("") }

// runningCounter runs a headless counter on host/teahost, with devtools
// attached or not, and returns apply: dispatch n ticks and return once
// the program has applied them all.
func runningCounter(b *testing.B, attach bool) (apply func(n int), stop func()) {
	h := teahost.New[counter, tea.Msg](counter{}, &teahost.Options{MaxQueue: 1 << 16, WithoutView: true})
	var dev *devtools.Devtools[counter, tea.Msg]
	if attach {
		var err error
		if dev, err = teadevtools.Attach(h, devtools.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	changed := make(chan struct{}, 1)
	h.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	}()
	apply = func(n int) {
		want := h.Model().N + n
		for range n {
			if err := h.Dispatch(context.Background(), tick{}); err != nil {
				b.Fatal(err)
			}
		}
		for h.Model().N < want {
			<-changed
		}
	}
	apply(1) // the program runs
	return apply, func() {
		cancel()
		<-done
		if dev != nil {
			_ = dev.Close()
		}
	}
}

// BenchmarkAppliedMessage dispatches Messages to a Bubble Tea program on
// host/teahost with and without devtools attached, in alternating rounds
// of the same work, and reports the median ratio (issue 43's target is
// ≤ 1.1).
func BenchmarkAppliedMessage(b *testing.B) {
	bare, stopBare := runningCounter(b, false)
	defer stopBare()
	dev, stopDev := runningCounter(b, true)
	defer stopDev()
	twinbench.Run(b, 500, bare, dev)
}
