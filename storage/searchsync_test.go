package storage

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// TestStore_IndexBadKeywords: a keywords column that is not a JSON list is an
// error naming the listing when the index is refreshed or rebuilt, as it is
// when the listing is read. It used to be dropped silently, so the listing
// was indexed without its keywords and searches for them missed it.
func TestStore_IndexBadKeywords(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		// Only a defect writes such a value: the store always writes JSON.
		if n, err := db.UpdateRows(ctx, "listings", map[string]any{"keywords": "markdown, notes"}, map[string]any{"slug": "jotter"}); err != nil || n != 1 {
			t.Fatalf("write malformed keywords: %d rows, %v", n, err)
		}
		t.Run("Refresh", func(t *testing.T) {
			if err := st.Refresh(ctx); err == nil || !strings.Contains(err.Error(), "jotter") {
				t.Errorf("Refresh over a listing with malformed keywords: %v, want an error naming jotter", err)
			}
		})
		t.Run("Rebuild", func(t *testing.T) {
			if _, err := NewStore(ctx, db, fxSite); err == nil || !strings.Contains(err.Error(), "jotter") {
				t.Errorf("NewStore over a listing with malformed keywords: %v, want an error naming jotter", err)
			}
		})
	})
}

// TestStore_RebuildCancelled: the index rebuild at start stops when its
// context has ended, and a rebuild that stops keeps the previous index.
func TestStore_RebuildCancelled(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		t.Run("NewStore", func(t *testing.T) {
			if s, err := NewStore(ctx, db, fxSite); !errors.Is(err, context.Canceled) {
				t.Errorf("NewStore with a cancelled context: store %v, err %v; want context.Canceled", s, err)
			}
		})
		t.Run("KeepsIndex", func(t *testing.T) {
			before := st.Index()
			st.syncMu.Lock()
			err := st.rebuildIndex(ctx)
			st.syncMu.Unlock()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("rebuildIndex with a cancelled context: %v, want context.Canceled", err)
			}
			if st.Index() != before {
				t.Error("a cancelled rebuild replaced the index")
			}
			items, _, err := st.SearchListings(context.Background(), domain.ListingQuery{Q: "markdown", Limit: 5})
			if err != nil || len(items) == 0 {
				t.Errorf("search after a cancelled rebuild: %v %v", slugs(items), err)
			}
		})
	})
}

// TestStore_SearchReadsSummaries: the index returns ids and the store reads
// the page's summaries (from the summary cache, or from the database for those
// it lacks) in the index's order; a listing gone from the database since is
// left out. A vote count changed since shows once the index has applied the
// change (TestSummaryCache_NeverStale checks every kind of change).
func TestStore_SearchReadsSummaries(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		st.PollInterval = time.Hour
		all, total, err := st.SearchListings(ctx, domain.ListingQuery{Sort: "votes", Limit: 3})
		if err != nil || len(all) != 3 || total < 3 {
			t.Fatalf("first page: %v, total %d, err %v", slugs(all), total, err)
		}
		ids, _ := st.Index().Search(search.Query{Sort: "votes", Limit: 3})
		// One summary is read from the database, two come from the cache.
		st.sums.drop(ids[1:2])
		got, err := st.pageSummaries(ctx, append([]int64{1 << 40}, ids...)) // an id nobody has first
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(slugs(got), ",") != strings.Join(slugs(all), ",") {
			t.Errorf("pageSummaries = %v, want %v (the index's order, unknown ids left out)", slugs(got), slugs(all))
		}
		if n, err := db.UpdateRows(ctx, "listings", map[string]any{"votes_count": 123456}, map[string]any{"slug": all[2].Slug}); err != nil || n != 1 {
			t.Fatalf("update votes: %d rows, %v", n, err)
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		got, err = st.pageSummaries(ctx, ids)
		if err != nil || len(got) != 3 || got[2].Votes != 123456 || got[2].PrimaryCategory == nil && all[2].PrimaryCategory != nil {
			t.Errorf("after a vote count change: %+v, %v", got, err)
		}
	})
}
