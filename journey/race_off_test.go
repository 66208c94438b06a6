//go:build !race

package journey_test

const raceEnabled = false
