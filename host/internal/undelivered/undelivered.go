// Package undelivered is the error the shipped hosts return from Dispatch
// when update certainly never saw the Message: the queue was full, the
// program had stopped, or the caller's context had already ended. Its
// NotDelivered method is how a dispatcher (agent.Runtime) recognizes it,
// through errors.As, without importing the host; a context's error is
// wrapped in one, so errors.Is still finds context.Canceled.
package undelivered

// Error is a Dispatch failure that promises update never saw the Message.
// Text is its message when it wraps nothing; Cause, when set, is both its
// message and what it unwraps to.
type Error struct {
	Text  string
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Cause.Error()
	}
	return e.Text
}

// NotDelivered reports true: update never received the Message.
func (e *Error) NotDelivered() bool { return true }

// Unwrap returns the cause, such as the context's error.
func (e *Error) Unwrap() error { return e.Cause }
