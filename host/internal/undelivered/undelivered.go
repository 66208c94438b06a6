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
