//go:build race

package journey_test

// raceEnabled: the race detector makes sync.Pool drop entries at random,
// so allocation counts are not deterministic under it.
const raceEnabled = true
