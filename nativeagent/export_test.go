package nativeagent

import "time"

// WithPatienceTick makes the Handler built with o end each patience wait
// on the next value sent on tick, instead of after Patience.
func WithPatienceTick(o *Options, tick <-chan time.Time) { o.patienceTick = tick }
