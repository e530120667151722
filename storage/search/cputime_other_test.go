//go:build !linux

package search

import "time"

// threadCPU is not measured outside Linux.
func threadCPU() time.Duration { return 0 }
