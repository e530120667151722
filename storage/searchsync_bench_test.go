package storage

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// BenchmarkIndexLoad opens the store over an existing database (made with
// launchdir seed --synthetic N) and reports the search index's load time, the
// process CPU time it took, and the store's live heap after a GC:
//
//	LAUNCHDIR_BENCH_DB=./data/launchdir.db go test ./storage -run '^$' -bench IndexLoad -benchtime 1x
func BenchmarkIndexLoad(b *testing.B) {
	path := os.Getenv("LAUNCHDIR_BENCH_DB")
	if path == "" {
		b.Skip("set LAUNCHDIR_BENCH_DB to a database made by launchdir seed --synthetic N")
	}
	db, err := Open(path, WithClock(time.Now))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	site := domain.Site{Key: "main", Name: "Launchdir", BaseURL: "http://127.0.0.1:8080"}
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var ru0, ru1 runtimeUsage
		ru0.read()
		start := time.Now()
		st, err := NewStore(context.Background(), db, site)
		if err != nil {
			b.Fatal(err)
		}
		load := time.Since(start)
		ru1.read()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(load.Seconds(), "load-s")
		b.ReportMetric((ru1.cpu - ru0.cpu).Seconds(), "load-cpu-s")
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "heap-MiB")
		b.ReportMetric(float64(st.Index().Len()), "listings")
		runtime.KeepAlive(st)
	}
}
