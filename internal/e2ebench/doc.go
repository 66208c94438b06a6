// Package e2ebench measures the todo example's binary from outside, as an
// MCP client sees it, against a server written by hand on the same
// official go-sdk with the same tools and input types (./handwritten).
// It holds only benchmarks; see bench_test.go.
package e2ebench
