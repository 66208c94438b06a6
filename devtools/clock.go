package devtools

import (
	"sync/atomic"
	"time"
)

// stampEvery is how long a record's time may lag the clock: under a
// stream of Messages the recorder reads the clock at most this often.
const stampEvery = time.Millisecond

// coarseClock stamps records to the millisecond. Reading the system clock
// costs as much as applying a small Message on some virtual machines
// (about 200 ns under kvm-clock), so the recorder reads it once, keeps
// the reading, and reads again only once a timer has said a millisecond
// passed. With no Messages, nothing runs.
type coarseClock struct {
	now   atomic.Int64 // Unix nanoseconds of the last reading
	stale atomic.Bool  // the last reading is older than stampEvery
	timer *time.Timer
}

func newCoarseClock() *coarseClock {
	c := &coarseClock{}
	c.stale.Store(true)
	c.timer = time.AfterFunc(time.Hour, func() { c.stale.Store(true) })
	c.timer.Stop()
	return c
}

// Now returns the time to the millisecond. Only the recorder calls it
// and nanos (one goroutine at a time).
func (c *coarseClock) Now() time.Time { return time.Unix(0, c.nanos()) }

// nanos is Now in Unix nanoseconds.
func (c *coarseClock) nanos() int64 {
	if c.stale.Load() {
		t := time.Now().UnixNano()
		c.now.Store(t)
		c.stale.Store(false)
		c.timer.Reset(stampEvery)
		return t
	}
	return c.now.Load()
}

func (c *coarseClock) stop() { c.timer.Stop() }
