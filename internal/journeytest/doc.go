// Package journeytest holds graph fixtures for tests and benchmarks of the
// journey package and of the ports built on it, the way net/http/httptest
// serves net/http. It is internal: only this module's tests use it (it
// was journey/journeytest).
//
// BigApp rebuilds the synthetic app behind the published byte and cost
// measurements of the design this package learns from: page-0 … page-N,
// each with a step-a action (writing kN) and a go-next action (claiming
// the next page), and 57 journeys whose first step sits on page J%56, so
// that exactly two journeys start on page-0 and the last one has a
// precondition (vip eq true) that fails with vip:false.
package journeytest
