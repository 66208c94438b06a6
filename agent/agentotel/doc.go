// Package agentotel traces a foldagent runtime with OpenTelemetry.
//
// The agent package defines its tracing seam (agent.Tracer) and links no
// tracing library, so an application that does not trace (a browser
// build, say) carries none. An application that traces binds this
// package's adapter:
//
//	opts := &agent.BindOptions[User]{
//		Tracer: agentotel.Tracer(tp), // each dispatch runs in an "Agent.dispatch" span
//		Audit:  audit,                // whose ids every audit entry carries
//	}
//
// Without spans of its own, a runtime can still have its audit entries
// name the caller's span (an instrumented HTTP handler's, say):
//
//	opts := &agent.BindOptions[User]{TraceIDs: agentotel.TraceIDs, Audit: audit}
package agentotel
