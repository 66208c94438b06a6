// Package twinbench measures what attaching devtools costs an
// application: the same work on two running programs, one bare and one
// with devtools attached, in alternating rounds so that both see the
// same machine, reported as the median time per Message of each and the
// median of the rounds' ratios. The devtools benchmarks of host/loop and
// host/teahost share it.
package twinbench

import (
	"slices"
	"testing"
	"time"
)

// Run times rounds of per Messages on bare, then on attached (each
// applies n Messages and returns once they are applied), b.N/per rounds
// of each, at least one, and reports "ns/msg-bare", "ns/msg-devtools"
// and "ratio".
func Run(b *testing.B, per int, bare, attached func(n int)) {
	timed := func(apply func(int)) float64 {
		start := time.Now()
		apply(per)
		return float64(time.Since(start).Nanoseconds()) / float64(per)
	}
	var bareNs, devNs, ratios []float64
	b.ResetTimer()
	for range max(b.N/per, 1) {
		x, y := timed(bare), timed(attached)
		bareNs, devNs, ratios = append(bareNs, x), append(devNs, y), append(ratios, y/x)
	}
	b.ReportMetric(median(bareNs), "ns/msg-bare")
	b.ReportMetric(median(devNs), "ns/msg-devtools")
	b.ReportMetric(median(ratios), "ratio")
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
