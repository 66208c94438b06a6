// Package undelivered is the error the shipped hosts return from Dispatch
// when update certainly never saw the Message: the queue was full, the
// program had stopped, or the caller's context had already ended. Its
// NotDelivered method is how a dispatcher (agent.Runtime) recognizes it,
// through errors.As, without importing the host; a context's error is
// wrapped in one, so errors.Is still finds context.Canceled.
package undelivered
