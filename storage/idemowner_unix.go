//go:build unix

package storage

import (
	"errors"
	"syscall"
)

// processGone says whether no process has the id pid (signal 0 checks
// without sending anything).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
