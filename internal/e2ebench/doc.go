// Package e2ebench measures the todo example's binary from outside, as an
// MCP client sees it, against a server written by hand on the same
// official go-sdk with the same tools and input types (./handwritten).
// It holds benchmarks (bench_test.go) and the load run of many clients
// on one token (load_test.go), whose test asserts only that no call
// failed and logs the figures.
package e2ebench
