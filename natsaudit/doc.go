// Package natsaudit keeps an agent.AuditLog's entries on NATS JetStream, a
// distributed log that outlives any one replica of an application.
//
// A Sink publishes each entry as one JSON message (the same encoding as a
// line of agent.OpenJSONLinesSink) and returns only once JetStream has
// acknowledged it, so an entry whose Record returned nil is stored by the
// stream. The invocation id is the message id (the Nats-Msg-Id header): a
// publish retried because its acknowledgement was lost is recognised by
// the stream as a duplicate and stored once.
//
//	nc, _ := nats.Connect(url)
//	js, _ := jetstream.New(nc)
//	_, _ = js.CreateOrUpdateStream(ctx, natsaudit.StreamConfig("AUDIT"))
//	audit := agent.NewAuditLog(agent.AuditOptions[User]{
//		Sinks: []agent.AuditSink{natsaudit.New(js, natsaudit.Options{})},
//	})
//
// Durability is the stream's: an acknowledged message survives a crash of
// the server only if the server syncs its file store on every write
// (sync_interval: always; SyncAlways when embedded); by default it syncs
// every two minutes. Replicated streams (Replicas > 1) acknowledge once a
// quorum holds the message.
//
// This package is separate so that an application that does not use NATS
// does not build its client.
package natsaudit
