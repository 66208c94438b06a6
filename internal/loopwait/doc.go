// Package loopwait lets this module's tests wait for a host/loop Program
// to publish a Model they expect, woken by the Program's own
// notifications rather than by a timer.
//
// A call through the agent answers when update takes its Message; the
// Program may publish the Model that Message made just after (when its
// own goroutine applies it), so a test that reads Model the moment the
// call answers can see the one before.
package loopwait
