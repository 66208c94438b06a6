package undelivered

// Error is a Dispatch failure that promises update never saw the Message.
// Text is its message when it wraps nothing; Cause, when set, is both its
// message and what it unwraps to. Halted says the program is stopping or
// stopped (the person is gone with it).
type Error struct {
	Text   string
	Cause  error
	Halted bool
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Cause.Error()
	}
	return e.Text
}

// NotDelivered reports true: update never received the Message.
func (e *Error) NotDelivered() bool { return true }

// Stopped reports whether the program is stopping or stopped.
func (e *Error) Stopped() bool { return e.Halted }

// Unwrap returns the cause, such as the context's error.
func (e *Error) Unwrap() error { return e.Cause }
