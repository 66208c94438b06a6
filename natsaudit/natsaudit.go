package natsaudit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/foldagent/foldagent/agent"
)

// DefaultSubject is the subject entries are published on when
// Options.Subject is empty.
const DefaultSubject = "foldagent.audit"

// DefaultTimeout bounds one Record, retries included, when Options.Timeout
// is zero.
const DefaultTimeout = 5 * time.Second

// DefaultDuplicateWindow is how long StreamConfig's stream remembers a
// message id, and so how late a retried publish is still recognised.
const DefaultDuplicateWindow = 2 * time.Minute

// retryWait is the pause between two attempts of one Record.
const retryWait = 50 * time.Millisecond

// Publisher is what a Sink needs from JetStream: a synchronous publish
// that waits for the stream's acknowledgement. jetstream.JetStream
// satisfies it.
type Publisher interface {
	Publish(ctx context.Context, subject string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error)
}

// Options configure a Sink. The zero value publishes on DefaultSubject to
// whichever stream holds it and gives each Record DefaultTimeout.
type Options struct {
	// Subject is the subject entries are published on. Empty means
	// DefaultSubject. A stream must capture it (see StreamConfig).
	Subject string
	// Stream, when set, is the stream that must hold the entries: a
	// publish that no stream of that name acknowledges is an error rather
	// than an entry stored somewhere unexpected.
	Stream string
	// Timeout bounds one Record, including the retries after a lost
	// acknowledgement. Zero means DefaultTimeout.
	Timeout time.Duration
}

// Sink is an agent.AuditSink that publishes entries to JetStream. It is
// safe for concurrent use; each Record is one synchronous publish.
type Sink struct {
	js      Publisher
	subject string
	stream  string
	timeout time.Duration
}

// New returns a Sink publishing through js. It panics on a nil js, a
// mistake of construction.
func New(js Publisher, opts Options) *Sink {
	if js == nil {
		panic("natsaudit: New needs a JetStream publisher")
	}
	s := &Sink{js: js, subject: opts.Subject, stream: opts.Stream, timeout: opts.Timeout}
	if s.subject == "" {
		s.subject = DefaultSubject
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	return s
}

// StreamConfig returns a stream configuration fit for audit entries on
// DefaultSubject: file storage, every message kept, duplicates recognised
// for DefaultDuplicateWindow. Adjust it (subjects, replicas, limits)
// before creating the stream.
func StreamConfig(name string) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:       name,
		Subjects:   []string{DefaultSubject},
		Storage:    jetstream.FileStorage,
		Retention:  jetstream.LimitsPolicy,
		Discard:    jetstream.DiscardNew,
		Duplicates: DefaultDuplicateWindow,
	}
}

// Record publishes e and returns once the stream has acknowledged it. A
// publish whose acknowledgement does not arrive is retried, with the same
// message id, until Options.Timeout: the stream stores the entry once
// however many attempts reach it. An acknowledgement that the message was
// a duplicate means the entry was already stored, and is success.
//
// An error wrapping ErrDeliveryUnknown says no acknowledgement came back
// in time: the entry may be stored, and recording it again is safe. Any
// other error says it was not stored.
//
// An entry without an invocation id (which the runtime never records) is
// published without a message id, and so is not deduplicated.
func (s *Sink) Record(e agent.AuditEntry) error {
	data, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("natsaudit: encoding entry %s: %w", e.Invocation, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	var opts []jetstream.PublishOpt
	if id := messageID(e); id != "" {
		opts = append(opts, jetstream.WithMsgID(id))
	}
	if s.stream != "" {
		opts = append(opts, jetstream.WithExpectStream(s.stream))
	}
	var last error
	for attempt := 1; ; attempt++ {
		ack, err := s.js.Publish(ctx, s.subject, data, opts...)
		if err == nil {
			if s.stream != "" && ack.Stream != s.stream {
				return fmt.Errorf("natsaudit: entry %s was stored by stream %q, not %q", e.Invocation, ack.Stream, s.stream)
			}
			return nil
		}
		last = err
		if !retryable(err) || e.Invocation == "" {
			break
		}
		select {
		case <-ctx.Done():
			// Some attempt may have been stored with its acknowledgement
			// lost: that is not known, and not a failure.
			return fmt.Errorf("%w: entry %s not acknowledged within %s after %d attempts (recording it again is safe: the stream stores it once): %w",
				ErrDeliveryUnknown, e.Invocation, s.timeout, attempt, last)
		case <-time.After(retryWait):
		}
	}
	return fmt.Errorf("natsaudit: publishing entry %s: %w", e.Invocation, last)
}

// ErrDeliveryUnknown is the cause of a Record error after which the entry
// may or may not be stored: every attempt's acknowledgement was lost or
// late. Recording the same entry again is safe (the stream keeps it once);
// errors.Is tells it from a refusal, after which the entry is certainly
// not stored.
var ErrDeliveryUnknown = errors.New("natsaudit: delivery unknown")

// messageID is the id the stream deduplicates an entry by: its invocation
// id, and for the entry of a call held for the person's approval (which
// shares its invocation with the entry that records how the call ended)
// that id marked as the held one, so both are kept.
func messageID(e agent.AuditEntry) string {
	if e.Invocation == "" {
		return ""
	}
	if e.Decision == agent.DecisionHeld {
		return e.Invocation + "#held"
	}
	return e.Invocation
}

// retryable reports whether a publish may have failed only on the way back
// (its acknowledgement lost) or before the stream was reachable, so that
// sending it again with the same message id is safe and may succeed.
func retryable(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		return false // the stream answered: it refused this message
	}
	return true
}
