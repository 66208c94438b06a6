//go:build race

package a2aagent_test

// raceEnabled is true when the race detector is on; the load test then
// runs smaller to stay within seconds.
const raceEnabled = true
