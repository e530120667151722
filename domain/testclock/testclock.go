// Package testclock is the one clock that tests move by hand. The service,
// the stores (storage.WithClock), the job runner, auth and the rate limiters
// all take a func() time.Time; a test hands each of them the same Clock's
// Now and moves time with Set and Advance. It imports no project package.
package testclock

import (
	"sync"
	"time"
)

// Clock is a settable clock, safe for concurrent use. The zero value stands
// at the zero time; New starts it somewhere useful.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a clock standing at t (in UTC).
func New(t time.Time) *Clock { return &Clock{t: t.UTC()} }

// Now returns the clock's time; pass c.Now wherever a clock is taken.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t (in UTC), forward or back.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t.UTC()
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}
