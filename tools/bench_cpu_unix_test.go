//go:build unix

package tools

import (
	"syscall"
	"time"
)

// benchProcessCPU is the CPU time (user and system) this process has used.
func benchProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
