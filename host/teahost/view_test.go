package teahost_test

import (
	"context"
	"io"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/foldagent/foldagent/host/teahost"
)

// viewCounter counts how often its View is asked for.
type viewCounter struct {
	n     int
	views *atomic.Int64
}

func (v viewCounter) Init() tea.Cmd { return nil }

func (v viewCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(int); ok {
		v.n++
	}
	return v, nil
}

func (v viewCounter) View() tea.View { v.views.Add(1); return tea.NewView("") }

// With WithoutView, a headless program never renders the application's
// view, however many Messages it applies; without it, Bubble Tea asks for
// it.
func TestWithoutViewNeverRendersTheApplication(t *testing.T) {
	for _, without := range []bool{true, false} {
		views := new(atomic.Int64)
		h := teahost.New[viewCounter, tea.Msg](viewCounter{views: views}, &teahost.Options{WithoutView: without})
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan error, 1)
		go func() {
			_, err := h.Run(ctx, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignals())
			ran <- err
		}()
		for i := range 20 {
			if err := h.Dispatch(ctx, i); err != nil {
				t.Fatal(err)
			}
		}
		applied := make(chan struct{})
		stop := h.Subscribe(func() {
			if h.Model().n == 20 {
				select {
				case <-applied:
				default:
					close(applied)
				}
			}
		})
		if h.Model().n < 20 {
			<-applied
		}
		stop()
		cancel()
		<-ran
		if got := views.Load(); without && got != 0 {
			t.Fatalf("WithoutView: the application's View was called %d times", got)
		} else if !without && got == 0 {
			t.Fatal("without WithoutView, Bubble Tea never asked for the view: the test shows nothing")
		}
	}
}
