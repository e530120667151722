//go:build !unix

package storage

import "time"

// runtimeUsage is not measured outside Unix.
type runtimeUsage struct{ cpu time.Duration }

func (u *runtimeUsage) read() {}
