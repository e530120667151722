package storage

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/testtier"
)

// TestStore_Scale loads LAUNCHDIR_SCALE synthetic listings (e.g. 100000 or 1000000),
// checks that NewStore indexes all of them and logs load time, heap and the
// latency of the SQL-backed feeds. Without the variable it runs at 5,000, on
// a copy of syntheticDB's template (the seed's time logged is the template's
// build, seed and VACUUM INTO).
//
//	LAUNCHDIR_SCALE=1000000 go test -run TestStore_Scale -v -timeout 30m ./storage/
func TestStore_Scale(t *testing.T) {
	n := synthListings
	if v := os.Getenv("LAUNCHDIR_SCALE"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	} else if testing.Short() {
		t.Skip("short")
	}
	// Timings and heap for the log (and that the index holds every listing):
	// 43 s under -race at load 35, where its figures say nothing.
	testtier.SkipRace(t, "load time, heap and feed latencies over 5,000 synthetic listings")
	ctx := context.Background()
	var db *DB
	if n == synthListings {
		db = syntheticDB(t)
		t.Logf("seed %d listings: %v (the test binary's template)", n, synthTemplate.built)
	} else {
		var err error
		db, err = Open(filepath.Join(t.TempDir(), "scale.db"), WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		start := time.Now()
		if err := SeedSynthetic(ctx, db, fxSite, n, fxNow); err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d listings: %v", n, time.Since(start))
	}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	st, err := NewStore(context.Background(), db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if got := st.Index().Len(); got != n {
		t.Fatalf("index holds %d listings, want %d", got, n)
	}
	t.Logf("NewStore: %v, heap +%d MB", load, (int64(after.HeapAlloc)-int64(before.HeapAlloc))>>20)

	measure := func(name string, f func() error) {
		var ds []time.Duration
		for i := 0; i < 30; i++ {
			s := time.Now()
			if err := f(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ds = append(ds, time.Since(s))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		t.Logf("%-28s p50 %8v  max %8v", name, ds[len(ds)/2].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond))
	}
	for _, sec := range []string{"this-week", "trending", "most-voted", "recent", "upcoming"} {
		measure("launches "+sec, func() error {
			_, _, err := st.Launches(ctx, domain.LaunchQuery{Section: sec, Now: fxNow, Limit: 20})
			return err
		})
	}
	for _, b := range []string{"community-weekly", "community-all-time", "billboard", "domain-rating", "revenue"} {
		measure("leaderboard "+b, func() error {
			_, _, err := st.Leaderboard(ctx, domain.BoardQuery{Board: b, Week: fxNow, Limit: 20})
			return err
		})
	}
	measure("site stats", func() error { _, err := st.SiteStats(ctx); return err })
	measure("categories (cached)", func() error { _, err := st.Categories(ctx); return err })
	measure("search category filter", func() error {
		_, _, err := st.SearchListings(ctx, domain.ListingQuery{Category: "productivity", Sort: "votes", Limit: 20})
		return err
	})
	measure("search text", func() error {
		_, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "notes app", Sort: "relevance", Limit: 20})
		return err
	})
}
