//go:build !race

package a2aagent_test

const raceEnabled = false
