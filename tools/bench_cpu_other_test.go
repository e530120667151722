//go:build !unix

package tools

import "time"

// benchProcessCPU is not measured here: the benchmarks report calls/s only.
func benchProcessCPU() time.Duration { return 0 }
