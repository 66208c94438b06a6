package loop_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/foldagent/foldagent/host/loop"
)

// A todo list whose saves run off the update goroutine and report back with
// their own Messages.
type todos struct {
	Titles []string
	Saved  int // how many titles the last successful save wrote
	Err    string
}

type todoMsg interface{}

type (
	added      struct{ Title string }
	saved      struct{ N int }
	saveFailed struct{ Err error }
)

type todoApp struct {
	save func(ctx context.Context, titles []string) error
}

func (a todoApp) Init() (todos, loop.Cmd[todoMsg]) { return todos{}, nil }

func (a todoApp) Update(m todos, msg todoMsg) (todos, loop.Cmd[todoMsg]) {
	switch msg := msg.(type) {
	case added:
		// Build a new slice: the old Model may still be read elsewhere.
		m.Titles = append(append([]string(nil), m.Titles...), msg.Title)
		return m, a.saveCmd(m.Titles)
	case saved:
		m.Saved, m.Err = msg.N, ""
	case saveFailed:
		m.Err = msg.Err.Error()
	}
	return m, nil
}

func (a todoApp) saveCmd(titles []string) loop.Cmd[todoMsg] {
	return func(ctx context.Context, send func(todoMsg)) {
		if err := a.save(ctx, titles); err != nil {
			send(saveFailed{Err: err})
			return
		}
		send(saved{N: len(titles)})
	}
}

func Example() {
	app := todoApp{save: func(ctx context.Context, titles []string) error {
		if len(titles) > 2 {
			return errors.New("disk full")
		}
		return nil // a real app writes a file here
	}}
	p := loop.New[todos, todoMsg](app, nil)

	// Watch results the way an agent runtime does: register, then dispatch.
	results := make(chan string, 10)
	p.Observe(func(msg todoMsg) {
		switch msg.(type) {
		case saved, saveFailed:
			m := p.Model() // already includes msg
			results <- fmt.Sprintf("%d titles, %d saved, error %q", len(m.Titles), m.Saved, m.Err)
		}
	})

	go p.Run(context.Background())
	for _, title := range []string{"Milk", "Eggs", "Bread"} {
		p.Dispatch(context.Background(), added{Title: title})
		fmt.Println(<-results)
	}

	// Stop waits for queued Messages and running Cmds first.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	fmt.Println("stop:", p.Stop(ctx))
	// Output:
	// 1 titles, 1 saved, error ""
	// 2 titles, 2 saved, error ""
	// 3 titles, 2 saved, error "disk full"
	// stop: <nil>
}

func ExampleBatch() {
	p := loop.New(loop.Funcs(
		func() (int, loop.Cmd[int]) {
			// Two independent effects at start-up; their Messages may
			// arrive in either order.
			return 0, loop.Batch(loop.Emit(1), loop.Emit(10))
		},
		func(m, msg int) (int, loop.Cmd[int]) { return m + msg, nil },
	), nil)
	done := make(chan struct{})
	p.Subscribe(func() {
		if p.Model() == 11 {
			close(done)
		}
	})
	go p.Run(context.Background())
	<-done
	fmt.Println(p.Model())
	// Output: 11
}

func ExampleOptions_panicMsg() {
	type msg = string
	p := loop.New(loop.Funcs(
		func() (string, loop.Cmd[msg]) { return "", nil },
		func(m string, ms msg) (string, loop.Cmd[msg]) {
			if ms == "divide" {
				var zero int
				_ = 1 / zero
			}
			return ms, nil
		},
	), &loop.Options[msg]{
		// Turn a contained panic into a Message the application handles.
		PanicMsg: func(e *loop.PanicError) msg { return "recovered from a panic in " + e.Source },
	})
	done := make(chan struct{})
	p.Observe(func(ms msg) { close(done) })
	go p.Run(context.Background())
	p.Dispatch(context.Background(), "divide")
	<-done
	fmt.Println(p.Model())
	// Output: recovered from a panic in update
}
