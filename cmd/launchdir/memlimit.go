package main

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A soft memory limit that follows what serve holds (docs/search.md, "serve's
// memory at 100,000 listings").
//
// At the collector's default pacing (GOGC=100) the heap may reach twice
// the live heap before the next collection, and freed memory goes back to
// the OS over minutes, so serve held about twice its live heap. A fixed
// limit fits no directory size for long (the live heap grows with the
// listings: ~50 MB at 100,000, ~400 MB at a million). So serve collects and
// returns the freed memory once its store is open (the index loaded) and
// again once the summaries are filled, and keeps the runtime's soft memory
// limit (debug.SetMemoryLimit) at the live heap of the last collection plus
// a headroom (a sixth of it, at least 24 MiB) plus the runtime's memory
// that is not heap objects (stacks, metadata), set again every second after
// a collection. The limit only paces the collector and the scavenger: when
// the live heap grows past it (a burst of searches, an export), the next
// collection's live heap raises it. GOMEMLIMIT in the environment (a size,
// or "off") overrides the rule: serve then sets nothing.

const (
	memHeadroomMin  = 24 << 20 // bytes
	memHeadroomFrac = 6        // the headroom is at least live/memHeadroomFrac
	memPaceEvery    = time.Second
)

// paceMemoryInServe is set by main: the limit is the process's, so serve
// run in a test's process (which runs many) leaves it alone.
var paceMemoryInServe bool

// memoryLimit is the soft memory limit for a live heap of live bytes, with
// other bytes of the runtime's memory outside the heap's objects.
func memoryLimit(live, other uint64) int64 {
	return int64(live + other + max(live/memHeadroomFrac, memHeadroomMin))
}

// memMetrics are read by readMem, in this order.
var memMetrics = []string{
	"/gc/cycles/total:gc-cycles",
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
}

type memSample struct {
	cycles, live, other uint64
}

func readMem(s []metrics.Sample) memSample {
	metrics.Read(s)
	var v [7]uint64
	for i := range v {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	held := v[3] + v[4] + v[5] + v[6]
	return memSample{cycles: v[0], live: v[1], other: v[2] - min(held, v[2])}
}

// memPacer keeps the soft memory limit relative to the live heap.
type memPacer struct {
	log     *slog.Logger
	samples []metrics.Sample
	last    memSample
}

// newMemPacer returns the start-up's garbage (the index's load) to the OS
// and sets the first limit, or returns nil when GOMEMLIMIT is set.
func newMemPacer(logger *slog.Logger) *memPacer {
	if v, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		logger.Info("memory limit from GOMEMLIMIT", "GOMEMLIMIT", v)
		return nil
	}
	p := &memPacer{log: logger, samples: make([]metrics.Sample, len(memMetrics))}
	for i, name := range memMetrics {
		p.samples[i].Name = name
	}
	p.settle()
	return p
}

// settle collects, returns the freed memory and sets the limit from the
// live heap found.
func (p *memPacer) settle() {
	debug.FreeOSMemory()
	p.last = readMem(p.samples)
	limit := memoryLimit(p.last.live, p.last.other)
	debug.SetMemoryLimit(limit)
	p.log.Info("memory limit set from the live heap", "live_mib", p.last.live>>20, "limit_mib", limit>>20)
}

// run settles once more when started is closed (the summaries filled),
// and sets the limit again after each collection until ctx ends.
func (p *memPacer) run(ctx context.Context, started <-chan struct{}) {
	t := time.NewTicker(memPaceEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-started:
			started = nil
			p.settle()
		case <-t.C:
			if m := readMem(p.samples); m.cycles != p.last.cycles {
				p.last = m
				debug.SetMemoryLimit(memoryLimit(m.live, m.other))
			}
		}
	}
}
