//go:build unix

package storage

import (
	"syscall"
	"time"
)

// runtimeUsage is the process's CPU time (user and system) at a moment.
type runtimeUsage struct{ cpu time.Duration }

func (u *runtimeUsage) read() {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
}
