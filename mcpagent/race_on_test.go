//go:build race

package mcpagent_test

// raceEnabled is true when the race detector is on; the load test then
// runs at a tenth of its size to stay within seconds.
const raceEnabled = true
