package storage

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
)

// TestRecordView_DailyKeys: the first view of a day creates the day's key;
// a second Store over the same database (another process, or a restart)
// uses the same key, so the visitor still counts once; keys before
// yesterday are deleted by a view today; only the HMAC is stored.
func TestRecordView_DailyKeys(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		clk := testclock.New(fxNow)
		db.now = clk.Now // as WithClock does
		ctx := context.Background()
		v := domain.PageView{Slug: "notely", Network: "198.51.100.7", UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"}
		record := func(st *Store, want bool) {
			t.Helper()
			if got, err := st.RecordView(ctx, v); err != nil || got != want {
				t.Fatalf("RecordView on %s = %v, %v; want %v", clk.Now().Format(time.DateOnly), got, err, want)
			}
		}
		for _, d := range []int{-3, -2, -1} {
			clk.Set(fxNow.AddDate(0, 0, d))
			record(st, true)
		}
		if got := queryStrings(t, db, `SELECT day FROM view_keys ORDER BY day`); len(got) != 2 || got[0] != "2026-11-16" || got[1] != "2026-11-17" {
			t.Fatalf("keys on 2026-11-17: %v, want 2026-11-16 and 2026-11-17 only", got)
		}
		clk.Set(fxNow)
		record(st, true)
		other, err := NewStore(ctx, db, fxSite)
		if err != nil {
			t.Fatal(err)
		}
		record(other, false)
		if got := queryStrings(t, db, `SELECT day FROM view_keys ORDER BY day`); len(got) != 2 || got[0] != "2026-11-17" || got[1] != "2026-11-18" {
			t.Errorf("keys on 2026-11-18: %v, want 2026-11-17 and 2026-11-18 only (the key of three days ago is gone)", got)
		}
		keys := queryStrings(t, db, `SELECT viewer_key FROM views WHERE listing_id = 1 AND viewer_key LIKE 'v1:%' ORDER BY created_at`)
		if len(keys) != 4 {
			t.Fatalf("views of notely: %d, want 4 (one a day)", len(keys))
		}
		for _, k := range keys {
			if len(k) != 3+64 || k[:3] != "v1:" {
				t.Errorf("viewer_key %q, want v1: and a hex HMAC-SHA256", k)
			}
		}
		if n := queryStrings(t, db, `SELECT views_count - (SELECT COUNT(*) FROM views WHERE listing_id = 1 AND viewer_key NOT LIKE 'v1:%') FROM listings WHERE id = 1`); n[0] != "4" {
			t.Errorf("views_count beyond the fixture's views: %s, want 4", n[0])
		}
	})
}

// TestRecordView_OncePerVisitor: 20 concurrent views by one visitor count
// once; a slug that is not public (a draft, or none) is not_found and
// stores nothing.
func TestRecordView_OncePerVisitor(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		db.now = func() time.Time { return fxNow }
		ctx := context.Background()
		v := domain.PageView{Slug: "jotter", Network: "2001:db8:1:2::/64", UserAgent: "Mozilla/5.0 Safari/605.1.15"}
		var wg sync.WaitGroup
		var mu sync.Mutex
		counted := 0
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := st.RecordView(ctx, v)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					counted++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if n := queryStrings(t, db, `SELECT COUNT(*) FROM views WHERE listing_id = 2 AND viewer_key LIKE 'v1:%'`); counted != 1 || n[0] != "1" {
			t.Errorf("20 concurrent views: %d counted, %s rows; want 1 and 1", counted, n[0])
		}
		for _, slug := range []string{"drafty", "no-such-listing"} {
			_, err := st.RecordView(ctx, domain.PageView{Slug: slug, Network: "198.51.100.7", UserAgent: "Mozilla/5.0"})
			var de *domain.Error
			if !errors.As(err, &de) || de.Code != domain.ENotFound {
				t.Errorf("view of %s: %v, want not_found", slug, err)
			}
		}
		if n := queryStrings(t, db, `SELECT COUNT(*) FROM views WHERE viewer_key LIKE 'v1:%'`); n[0] != "1" {
			t.Errorf("views after the not_found ones: %s, want 1", n[0])
		}
	})
}
