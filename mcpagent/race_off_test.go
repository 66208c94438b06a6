//go:build !race

package mcpagent_test

const raceEnabled = false
