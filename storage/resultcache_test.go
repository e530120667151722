package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/search"
)

// resultQueries are searches whose pages every kind of change below alters:
// words (name, tagline, category names), filters and each sort.
var resultQueries = []domain.ListingQuery{
	{Q: "notes", Status: "live", Sort: "relevance", Limit: 20},
	{Q: "note", Status: "live", Sort: "relevance", Limit: 20},
	{Q: "notes", Status: "upcoming", Sort: "relevance", Limit: 20},
	{Q: "wireframes minutes", Status: "live", Sort: "relevance", Limit: 20},
	{Q: "notebooks", Status: "live", Sort: "relevance", Limit: 20},
	{Q: "design", Status: "live", Sort: "newest", Limit: 20},
	{Q: "notely two", Status: "live", Sort: "relevance", Limit: 20},
	{Status: "live", Sort: "votes", Limit: 20},
	{Status: "live", Sort: "most_viewed", Limit: 20},
	{Status: "live", Sort: "trending", Limit: 2},
	{Status: "upcoming", Sort: "votes", Limit: 20},
	{Category: "notes", Status: "live", Sort: "votes", Limit: 20},
	{Category: "notebooks", Status: "live", Sort: "votes", Limit: 20},
	{Category: "design", Status: "live", Sort: "votes", Limit: 20},
	{Q: "quick", Category: "software", Status: "live", Sort: "relevance", Limit: 20},
}

// resultPageOf is what a search answers, for comparing.
type resultPageOf struct {
	Items []domain.SearchListingItem
	Total int
}

// searchPages answers every resultQueries search on st.
func searchPages(t *testing.T, st *Store) map[string]resultPageOf {
	t.Helper()
	out := map[string]resultPageOf{}
	for _, q := range resultQueries {
		items, total, err := st.SearchListingsMatched(context.Background(), q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		out[fmt.Sprintf("%+v", q)] = resultPageOf{items, total}
	}
	return out
}

// TestResultCache_NeverStale answers searches from the result cache, then
// changes what they find by each kind of write (the store's own methods, and
// plain SQL through a second handle as another process would), and checks
// that once the index has applied the change every page is the one a store
// built afresh from the database answers (items, their summaries and matched
// words, totals), and that the change shows. Without the cache's emptying at
// every change of the index (reindex, rebuild) the pages of before are served.
func TestResultCache_NeverStale(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, path := newFixtureOn(t, engine)
		ctx := context.Background()
		other, err := Open(path, WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		st.PollInterval = time.Hour // only Refresh applies search_log
		audit := func(action string) console.AuditEntry {
			return console.AuditEntry{At: fxNow, Actor: "ops@ex.test", Action: action, Target: "test:1"}
		}
		// fresh answers the searches from an index built from the database now.
		fresh := func() map[string]resultPageOf {
			t.Helper()
			f, err := NewStore(ctx, db, fxSite)
			if err != nil {
				t.Fatal(err)
			}
			f.SetResultCache(false)
			return searchPages(t, f)
		}
		for _, tc := range []struct {
			name   string
			change func(t *testing.T)
		}{
			{"Vote", func(t *testing.T) {
				for i := range 6 {
					if err := st.RecordVote(ctx, 3, fmt.Sprintf("result-cache-voter-%d", i), fxNow); err != nil {
						t.Fatal(err)
					}
				}
			}},
			{"View", func(t *testing.T) {
				if ok, err := st.RecordView(ctx, domain.PageView{Slug: "jotter", Network: "198.51.100.7", UserAgent: "Mozilla/5.0"}); err != nil || !ok {
					t.Fatalf("view counted %v: %v", ok, err)
				}
			}},
			{"EditOwnColumns", func(t *testing.T) {
				setRows(t, other, "listings", cols{"name": "Notely Two", "tagline": "Markdown notes in minutes",
					"follows_count": 7, "trending_score": 50}, cols{"slug": "notely"})
			}},
			{"TeamEdit", func(t *testing.T) {
				if _, err := st.TeamEditListing(ctx, 3, map[string]json.RawMessage{"tagline": json.RawMessage(`"Quick wireframes"`)}, "ops@ex.test", audit("listing.edit")); err != nil {
					t.Fatal(err)
				}
			}},
			{"CategoryRename", func(t *testing.T) {
				c, err := st.AdminCategory(ctx, 11)
				if err != nil {
					t.Fatal(err)
				}
				c.Slug, c.Name = "notebooks", "Notebooks"
				if err := st.SaveCategory(ctx, *c, console.CategoryNaming, audit("category.rename")); err != nil {
					t.Fatal(err)
				}
			}},
			{"PrimaryCategoryChange", func(t *testing.T) {
				setRows(t, other, "listing_categories", cols{"is_primary": 0}, cols{"listing_id": 1, "category_id": 11})
				setRows(t, other, "listing_categories", cols{"is_primary": 1}, cols{"listing_id": 1, "category_id": 12})
			}},
			{"CategoryMerge", func(t *testing.T) {
				if _, err := st.MergeCategory(ctx, 11, 12, audit("category.merge")); err != nil {
					t.Fatal(err)
				}
			}},
			{"Hide", func(t *testing.T) {
				if err := st.HideListing(ctx, 2, true, "Checking a complaint.", audit("listing.hide")); err != nil {
					t.Fatal(err)
				}
			}},
			{"Unhide", func(t *testing.T) {
				if err := st.HideListing(ctx, 2, false, "", audit("listing.unhide")); err != nil {
					t.Fatal(err)
				}
			}},
			{"StatusScheduled", func(t *testing.T) {
				setRows(t, other, "listings", cols{"status": "scheduled", "launched_at": nil}, cols{"slug": "sketchy"})
			}},
			{"CategoryDelete", func(t *testing.T) {
				delRows(t, other, "categories", cols{"id": 12})
			}},
			{"RebuildAfterPrunedLog", func(t *testing.T) {
				// search_log entries the index never saw are pruned: it is rebuilt.
				setRows(t, other, "listings", cols{"name": "Soonly Later", "tagline": "Notes later"}, cols{"slug": "soonly"})
				last := putRow(t, other, "search_log", cols{"listing_id": 0})
				if _, err := other.sql.ExecContext(ctx, `DELETE FROM search_log WHERE seq < ?`, last); err != nil {
					t.Fatal(err)
				}
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := searchPages(t, st)
				held0, hits0, _ := st.results.stats()
				if again := searchPages(t, st); !cmp.Equal(before, again) {
					t.Fatalf("the same searches answered differently from the cache:\n%s", cmp.Diff(before, again))
				}
				// Every search is kept but those of a category slug no category
				// has (no search is made: an empty page).
				if held, hits, _ := st.results.stats(); held != held0 || hits-hits0 != uint64(held) || held < len(resultQueries)-3 {
					t.Fatalf("second round: %d hits, %d pages held (%d after the first); want one hit per page held, %d or more", hits-hits0, held, held0, len(resultQueries)-3)
				}
				tc.change(t)
				if err := st.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
				got, want := searchPages(t, st), fresh()
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("pages after the change are not a fresh index's (-fresh +cached):\n%s", diff)
				}
				if cmp.Equal(before, want) {
					t.Errorf("the change altered no page: the test shows nothing")
				}
			})
		}
	})
}

// TestResultCache_PageMadeDuringChangeNotKept makes a page while the index
// changes (as a search racing a poll would) and checks that it is not kept,
// nor served while the change is under way, nor one begun before it.
func TestResultCache_PageMadeDuringChangeNotKept(t *testing.T) {
	t.Parallel()
	var c resultCache
	page := []domain.SearchListingItem{{ListingSummary: domain.ListingSummary{Slug: "a"}}}
	gen := c.start()
	done := c.change()
	c.put(gen, "k", page, 1) // begun before the change
	c.put(c.start(), "k", page, 1)
	done()
	if _, _, ok := c.get("k"); ok {
		t.Fatal("a page made before or during a change was kept")
	}
	gen = c.start()
	c.put(gen, "k", page, 1)
	done = c.change()
	if _, _, ok := c.get("k"); ok {
		t.Fatal("a page was served while the index changed")
	}
	done()
	if _, _, ok := c.get("k"); ok {
		t.Fatal("a page of before the change was served after it")
	}
	c.put(c.start(), "k", page, 1)
	items, total, ok := c.get("k")
	if !ok || total != 1 || len(items) != 1 {
		t.Fatalf("a page made on an unchanged index: %v %d %v", items, total, ok)
	}
	items[0].Slug = "changed by a caller"
	if again, _, _ := c.get("k"); again[0].Slug != "a" {
		t.Errorf("a caller's write to its page reached the cache: %q", again[0].Slug)
	}
}

// TestResultCache_SearchesDuringChanges searches on several goroutines while
// listings are renamed and the index applies each rename, then checks that
// the pages the cache answers afterwards are a fresh index's.
func TestResultCache_SearchesDuringChanges(t *testing.T) {
	t.Parallel()
	db, st, _ := newFixture(t)
	ctx := context.Background()
	st.PollInterval = 0 // every search polls: changes land between and during searches
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, q := range resultQueries {
					if _, _, err := st.SearchListingsMatched(ctx, q); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	for i := range 30 {
		setRows(t, db, "listings", cols{"name": fmt.Sprintf("Notely %d", i), "trending_score": i}, cols{"slug": "notely"})
		setRows(t, db, "listings", cols{"tagline": strings.Repeat("wireframes ", i%3+1) + "in minutes"}, cols{"slug": "sketchy"})
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	f, err := NewStore(ctx, db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	f.SetResultCache(false)
	searchPages(t, st) // a search racing the last rename may have kept nothing; now every page is made or served
	if diff := cmp.Diff(searchPages(t, f), searchPages(t, st)); diff != "" {
		t.Errorf("after concurrent changes the cache answers pages a fresh index does not (-fresh +cached):\n%s", diff)
	}
}

// TestResultCache_Bounded puts more pages than the cache holds and checks
// that it keeps resultCacheSize of them, the most recent ones.
func TestResultCache_Bounded(t *testing.T) {
	t.Parallel()
	var c resultCache
	for i := range resultCacheSize + 100 {
		c.put(c.start(), fmt.Sprint(i), nil, i)
	}
	if held, _, _ := c.stats(); held != resultCacheSize {
		t.Errorf("holds %d pages, want %d", held, resultCacheSize)
	}
	if _, _, ok := c.get("0"); ok {
		t.Error("the oldest page was kept")
	}
	if _, total, ok := c.get(fmt.Sprint(resultCacheSize + 99)); !ok || total != resultCacheSize+99 {
		t.Error("the newest page was not kept")
	}
	// Pages of 100 listings: as many as resultCacheItems listings, the newest.
	big := make([]domain.SearchListingItem, 100)
	for i := range resultCacheSize {
		c.put(c.start(), fmt.Sprint("big", i), big, i)
	}
	if held, _, _ := c.stats(); held != resultCacheItems/100 || c.items != resultCacheItems/100*100 {
		t.Errorf("pages of 100: holds %d pages, %d listings; want %d pages, %d listings", held, c.items, resultCacheItems/100, resultCacheItems/100*100)
	}
	if _, _, ok := c.get(fmt.Sprint("big", resultCacheSize-1)); !ok {
		t.Error("the newest page of 100 was not kept")
	}
	c.put(c.start(), "big0", big, 0) // the same key again: one page
	done := c.change()
	done()
	if held, _, _ := c.stats(); held != 0 || c.items != 0 {
		t.Errorf("after a change: %d pages, %d listings held", held, c.items)
	}
}

// TestResultKey_FieldsApart checks that no two different queries share a key.
func TestResultKey_FieldsApart(t *testing.T) {
	t.Parallel()
	keys := map[string]string{}
	for _, q := range []struct {
		name string
		key  string
	}{
		{"text a, stage b", resultKey(searchQueryOf("a", "b", nil))},
		{"text ab", resultKey(searchQueryOf("ab", "", nil))},
		{"text with a field's end", resultKey(searchQueryOf("a\x00b", "", nil))},
		{"no category filter", resultKey(searchQueryOf("a", "", nil))},
		{"empty category filter", resultKey(searchQueryOf("a", "", []int64{}))},
		{"categories 1, 2", resultKey(searchQueryOf("a", "", []int64{1, 2}))},
		{"category 12", resultKey(searchQueryOf("a", "", []int64{12}))},
	} {
		if other, dup := keys[q.key]; dup {
			t.Errorf("%s and %s share the key %q", q.name, other, q.key)
		}
		keys[q.key] = q.name
	}
}

// searchQueryOf is a query of text, stage and category filter.
func searchQueryOf(text, stage string, cats []int64) search.Query {
	return search.Query{Text: text, Stage: stage, Categories: cats, Status: domain.StatusLive, Sort: "relevance", Limit: 20}
}

// BenchmarkResultCacheMemory seeds synthetic listings, answers resultCacheSize
// different searches of a page of 20 with the result cache off (so the summary
// cache holds their summaries), then again with it on, and reports the live
// heap the result cache adds per page after a GC:
//
//	go test ./storage -run '^$' -bench ResultCacheMemory -benchtime 1x
func BenchmarkResultCacheMemory(b *testing.B) {
	ctx := context.Background()
	db := openEngine(b, "sqlite")
	if err := SeedSynthetic(ctx, db, fxSite, 5000, fxNow); err != nil {
		b.Fatal(err)
	}
	st, err := NewStore(ctx, db, fxSite)
	if err != nil {
		b.Fatal(err)
	}
	var queries []domain.ListingQuery
	rows, err := db.sql.QueryContext(ctx, `SELECT name FROM listings ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	for rows.Next() && len(queries) < resultCacheSize {
		var name string
		if err := rows.Scan(&name); err != nil {
			b.Fatal(err)
		}
		w := strings.ToLower(strings.Fields(name)[0])
		if !seen[w] {
			seen[w] = true
			queries = append(queries, domain.ListingQuery{Q: w, Status: "live", Sort: "relevance", Limit: 20})
		}
	}
	rows.Close()
	run := func() {
		for _, q := range queries {
			if _, _, err := st.SearchListingsMatched(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		st.SetResultCache(false)
		run()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		st.SetResultCache(true)
		run()
		runtime.GC()
		runtime.ReadMemStats(&after)
		held, _, _ := st.results.stats()
		heap := float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
		b.ReportMetric(float64(held), "pages")
		b.ReportMetric(heap/float64(held), "bytes/page")
		b.ReportMetric(heap/(1<<20), "heap-MiB")
	}
}
