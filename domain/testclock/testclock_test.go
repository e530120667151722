package testclock

import (
	"sync"
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 18, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	c := New(start)
	if got := c.Now(); !got.Equal(start) || got.Location() != time.UTC {
		t.Fatalf("Now = %v, want %v in UTC", got, start)
	}
	if got := c.Advance(time.Hour); !got.Equal(start.Add(time.Hour)) || !c.Now().Equal(got) {
		t.Fatalf("Advance = %v, Now = %v", got, c.Now())
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Fatalf("after Set: %v", c.Now())
	}
	// Safe for concurrent use (run with -race): 100 advances of a second.
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Advance(time.Second); _ = c.Now() }()
	}
	wg.Wait()
	if got := c.Now().Sub(start); got != 100*time.Second {
		t.Fatalf("after 100 concurrent advances of 1 s: %v", got)
	}
}
