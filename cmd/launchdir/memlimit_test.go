package main

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestMemoryLimit_Rule(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, other uint64
		want        int64
	}{
		{0, 0, 24 * mib},                         // the headroom's floor
		{50 * mib, 8 * mib, (50 + 8 + 24) * mib}, // 100,000 listings: the floor still
		{144 * mib, 0, (144 + 24) * mib},         // where a sixth reaches the floor
		{402 * mib, 10 * mib, (402 + 10 + 67) * mib},
	} {
		if got := memoryLimit(c.live, c.other); got != c.want {
			t.Errorf("memoryLimit(%d MiB, %d MiB) = %d MiB, want %d MiB", c.live/mib, c.other/mib, got/mib, c.want/mib)
		}
	}
}

// TestPaceMemory runs the pacer in this process: the limit it sets must be
// above the live heap by the headroom, and GOMEMLIMIT must leave the
// limit alone.
func TestPaceMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })

	t.Run("FromLiveHeap", func(t *testing.T) {
		debug.SetMemoryLimit(math.MaxInt64)
		held := make([]byte, 48<<20) // live while the pacer reads the heap
		var logs syncBuffer
		p := newMemPacer(slog.New(slog.NewTextHandler(&logs, nil)))
		if p == nil {
			t.Fatal("no pacer without GOMEMLIMIT")
		}
		ctx, cancel := context.WithCancel(context.Background())
		started := make(chan struct{})
		close(started)
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.run(ctx, started)
		}()
		// Settled twice: at the start and when started is closed.
		deadline := time.Now().Add(30 * time.Second)
		for strings.Count(logs.String(), "memory limit set") < 2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		<-done
		got := debug.SetMemoryLimit(-1)
		if got == math.MaxInt64 {
			t.Fatalf("no limit set in 10 s; log:\n%s", logs.String())
		}
		if low := int64(len(held)) + memHeadroomMin; got < low {
			t.Errorf("limit %d MiB, want at least the 48 MiB held plus the %d MiB headroom", got>>20, memHeadroomMin>>20)
		}
		if high := int64(1 << 30); got > high {
			t.Errorf("limit %d MiB: more than a GiB for a test process", got>>20)
		}
		if strings.Count(logs.String(), "memory limit set from the live heap") < 2 {
			t.Errorf("log:\n%s", logs.String())
		}
		held[0] = 1
	})

	t.Run("GOMEMLIMIT", func(t *testing.T) {
		t.Setenv("GOMEMLIMIT", "off")
		debug.SetMemoryLimit(math.MaxInt64)
		var logs bytes.Buffer
		if p := newMemPacer(slog.New(slog.NewTextHandler(&logs, nil))); p != nil {
			t.Error("a pacer with GOMEMLIMIT set")
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("limit %d with GOMEMLIMIT set, want none", got)
		}
		if !strings.Contains(logs.String(), "memory limit from GOMEMLIMIT") {
			t.Errorf("log:\n%s", logs.String())
		}
	})
}
