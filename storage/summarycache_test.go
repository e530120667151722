package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestSummaryCache_NeverStale serves search pages from the summary cache, then
// changes what a summary shows by each kind of write (the store's own methods,
// and plain SQL through a second handle as another process would), and checks
// that once the index has applied the change every summary a page shows is the
// database's, field by field (as get_listing reads it), and that the change is
// there. Without the cache's invalidation from search_log (reindex, rebuild)
// the pages keep the summaries of before.
func TestSummaryCache_NeverStale(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, path := newFixtureOn(t, engine)
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
		// pages returns every public listing's summary as two search pages show them.
		pages := func() map[string]domain.ListingSummary {
			t.Helper()
			out := map[string]domain.ListingSummary{}
			for _, status := range []string{"live", "upcoming"} {
				items, _, err := st.SearchListings(ctx, domain.ListingQuery{Status: status, Sort: "votes", Limit: 20})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range items {
					out[it.Slug] = it
				}
			}
			return out
		}
		if got := pages(); len(got) != 4 || st.sums.len() != 4 {
			t.Fatalf("fixture pages: %d listings, %d summaries cached", len(got), st.sums.len())
		}
		for _, tc := range []struct {
			name   string
			change func(t *testing.T)
			want   func(before, got map[string]domain.ListingSummary) string // "" when the change shows
		}{
			{"Vote", func(t *testing.T) {
				if err := st.RecordVote(ctx, 3, "fresh-voter", fxNow); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["sketchy"].Votes == before["sketchy"].Votes+1, "sketchy votes %d, was %d", got["sketchy"].Votes, before["sketchy"].Votes)
			}},
			{"View", func(t *testing.T) {
				if ok, err := st.RecordView(ctx, domain.PageView{Slug: "notely", Network: "198.51.100.7", UserAgent: "Mozilla/5.0"}); err != nil || !ok {
					t.Fatalf("view counted %v: %v", ok, err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["notely"].Views == before["notely"].Views+1, "notely views %d, was %d", got["notely"].Views, before["notely"].Views)
			}},
			{"EditOwnColumns", func(t *testing.T) {
				setRows(t, other, "listings", cols{"name": "Notely Two", "tagline": "New tagline", "url": "https://notely2.test",
					"logo_url": "https://notely2.test/logo.png", "stage": "growing", "country": "GB", "pricing_model": "paid",
					"follows_count": 7}, cols{"slug": "notely"})
			}, func(before, got map[string]domain.ListingSummary) string {
				n := got["notely"]
				return want(n.Name == "Notely Two" && n.LogoURL == "https://notely2.test/logo.png" && n.Follows == 7, "notely after edit: %+v", n)
			}},
			{"PlanFeaturedWeek", func(t *testing.T) {
				setRows(t, other, "listings", cols{"plan": "free", "featured": 1, "launch_week": "2026-11-09"}, cols{"slug": "jotter"})
			}, func(before, got map[string]domain.ListingSummary) string {
				j := got["jotter"]
				return want(j.Plan == "free" && j.Featured && j.LaunchWeek == "2026-11-09", "jotter after plan change: %+v", j)
			}},
			{"TeamEdit", func(t *testing.T) {
				if _, err := st.TeamEditListing(ctx, 3, map[string]json.RawMessage{"tagline": json.RawMessage(`"Wireframes in seconds"`)}, "ops@ex.test", audit("listing.edit")); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["sketchy"].Tagline == "Wireframes in seconds", "sketchy tagline %q", got["sketchy"].Tagline)
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
			}, func(before, got map[string]domain.ListingSummary) string {
				pc := got["soonly"].PrimaryCategory
				return want(pc != nil && pc.Slug == "notebooks" && pc.Name == "Notebooks", "soonly primary category %+v", pc)
			}},
			{"PrimaryCategoryChange", func(t *testing.T) {
				setRows(t, other, "listing_categories", cols{"is_primary": 0}, cols{"listing_id": 1, "category_id": 11})
				setRows(t, other, "listing_categories", cols{"is_primary": 1}, cols{"listing_id": 1, "category_id": 12})
			}, func(before, got map[string]domain.ListingSummary) string {
				pc := got["notely"].PrimaryCategory
				return want(pc != nil && pc.Slug == "design", "notely primary category %+v", pc)
			}},
			{"CategoryMerge", func(t *testing.T) {
				if _, err := st.MergeCategory(ctx, 11, 12, audit("category.merge")); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				pc := got["jotter"].PrimaryCategory
				return want(pc != nil && pc.Slug == "design", "jotter primary category after the merge %+v", pc)
			}},
			{"CategoryDelete", func(t *testing.T) {
				delRows(t, other, "categories", cols{"id": 12})
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["sketchy"].PrimaryCategory == nil, "sketchy primary category %+v after its delete", got["sketchy"].PrimaryCategory)
			}},
			{"Hide", func(t *testing.T) {
				if err := st.HideListing(ctx, 2, true, "Checking a complaint.", audit("listing.hide")); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				_, shown := got["jotter"]
				return want(!shown, "hidden jotter still shown")
			}},
			{"Unhide", func(t *testing.T) {
				if err := st.HideListing(ctx, 2, false, "", audit("listing.unhide")); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["jotter"].Status == "live", "jotter after unhide: %+v", got["jotter"])
			}},
			{"StatusScheduled", func(t *testing.T) {
				setRows(t, other, "listings", cols{"status": "scheduled", "launched_at": nil}, cols{"slug": "sketchy"})
			}, func(before, got map[string]domain.ListingSummary) string {
				s := got["sketchy"]
				return want(s.Status == "scheduled" && s.LaunchedAt == nil, "sketchy after rescheduling: %+v", s)
			}},
			{"RebuildAfterPrunedLog", func(t *testing.T) {
				// search_log entries the index never saw are pruned: it is rebuilt.
				setRows(t, other, "listings", cols{"name": "Soonly Later"}, cols{"slug": "soonly"})
				last := putRow(t, other, "search_log", cols{"listing_id": 0})
				if _, err := other.sql.ExecContext(ctx, `DELETE FROM search_log WHERE seq < ?`, last); err != nil {
					t.Fatal(err)
				}
			}, func(before, got map[string]domain.ListingSummary) string {
				return want(got["soonly"].Name == "Soonly Later", "soonly after a rebuild: %+v", got["soonly"])
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := pages() // the cache holds every summary
				tc.change(t)
				if err := st.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
				got := pages()
				if msg := tc.want(before, got); msg != "" {
					t.Error(msg)
				}
				for slug, ls := range got {
					l, err := st.Listing(ctx, slug)
					if err != nil {
						t.Fatalf("%s: %v", slug, err)
					}
					if diff := cmp.Diff(l.ListingSummary, ls); diff != "" {
						t.Errorf("%s: the page's summary is not the database's (-database +page):\n%s", slug, diff)
					}
				}
			})
		}
	})
}

// want returns "" when ok, else the message.
func want(ok bool, format string, args ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, args...)
}

// TestSummaryCache_ReadBeforeChangeNotKept reads a summary from the database,
// lets a change be applied to the index before the read is put in the cache
// (as a search racing a poll would), and checks that the next page shows the
// change: a read older than an applied change is never kept.
func TestSummaryCache_ReadBeforeChangeNotKept(t *testing.T) {
	t.Parallel()
	db, st, _ := newFixture(t)
	ctx := context.Background()
	st.PollInterval = time.Hour
	ids := []int64{3}
	out, hit := make([]domain.ListingSummary, 1), make([]bool, 1)
	missing, gen := st.sums.get(ids, out, hit)
	if len(missing) != 1 || hit[0] {
		t.Fatalf("cold cache: missing %v, hit %v", missing, hit)
	}
	old, err := st.summariesByID(ctx, missing)
	if err != nil || old[3].Name != "Sketchy" {
		t.Fatalf("read: %+v %v", old, err)
	}
	setRows(t, db, "listings", cols{"name": "Sketchy Pro"}, cols{"id": 3})
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	st.sums.put(gen, old) // the search's read lands after the poll
	items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "sketchy", Limit: 5})
	if err != nil || len(items) != 1 || items[0].Name != "Sketchy Pro" {
		t.Errorf("after the change: %+v %v", items, err)
	}
}

// TestSummaryCache_Bounded fills the cache with more summaries than it holds
// and checks that it keeps summaryCacheSize of them, the most recent ones.
func TestSummaryCache_Bounded(t *testing.T) {
	t.Parallel()
	var c summaryCache
	const n = summaryCacheSize + 1000
	for start := int64(1); start <= n; start += 100 {
		m := map[int64]domain.ListingSummary{}
		for id := start; id < start+100 && id <= n; id++ {
			m[id] = domain.ListingSummary{Slug: fmt.Sprint(id)}
		}
		c.put(0, m)
	}
	if c.len() != summaryCacheSize {
		t.Errorf("holds %d summaries, want %d", c.len(), summaryCacheSize)
	}
	out, hit := make([]domain.ListingSummary, 2), make([]bool, 2)
	c.get([]int64{1, n}, out, hit)
	if hit[0] || !hit[1] || out[1].Slug != fmt.Sprint(n) {
		t.Errorf("oldest kept %v, newest kept %v (%q)", hit[0], hit[1], out[1].Slug)
	}
}

// BenchmarkSummaryCacheMemory seeds summaryCacheSize synthetic listings, fills
// the cache with their summaries through search pages' path (pageSummaries,
// 20 at a time) and reports the live heap it holds after a GC:
//
//	go test ./storage -run '^$' -bench SummaryCacheMemory -benchtime 1x
func BenchmarkSummaryCacheMemory(b *testing.B) {
	ctx := context.Background()
	db := openEngine(b, "sqlite")
	if err := SeedSynthetic(ctx, db, fxSite, summaryCacheSize, fxNow); err != nil {
		b.Fatal(err)
	}
	st, err := NewStore(ctx, db, fxSite)
	if err != nil {
		b.Fatal(err)
	}
	var ids []int64
	rows, err := db.sql.QueryContext(ctx, `SELECT id FROM listings ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	for b.Loop() {
		st.sums.dropAll()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < len(ids); i += 20 {
			if _, err := st.pageSummaries(ctx, ids[i:min(i+20, len(ids))]); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
		b.ReportMetric(float64(st.sums.len()), "summaries")
		b.ReportMetric(heap/float64(st.sums.len()), "bytes/summary")
		b.ReportMetric(heap/(1<<20), "heap-MiB")
	}
}

// TestSummariesByID_Statements reads summaries by id through the statements
// prepared per size (the ids padded to the next size) and checks them
// against the same query with one placeholder per id, for every count from
// 1 to past the largest size (where the unprepared query runs), with
// duplicate ids and ids that have no listing, on both engines.
func TestSummariesByID_Statements(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		db := openEngine(t, engine)
		const n = 150
		if err := SeedSynthetic(ctx, db, fxSite, n, fxNow); err != nil {
			t.Fatal(err)
		}
		st, err := NewStore(ctx, db, fxSite)
		if err != nil {
			t.Fatal(err)
		}
		all, err := queryIDs(ctx, db.sql, `SELECT id FROM listings ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != n {
			t.Fatalf("%d listings, want %d", len(all), n)
		}
		want := func(ids []int64) map[int64]domain.ListingSummary {
			t.Helper()
			in, args := db.eng.inIDs("l.id", ids)
			out := map[int64]domain.ListingSummary{}
			var id int64
			if err := st.querySummaries(ctx, summaryByIDQuery(in), args, func() []any { return []any{&id} },
				func(ls domain.ListingSummary) { out[id] = ls }); err != nil {
				t.Fatal(err)
			}
			return out
		}
		rng := rand.New(rand.NewPCG(9, 30))
		largest := summaryStmtSizes[len(summaryStmtSizes)-1]
		for count := 1; count <= largest+3; count++ {
			ids := make([]int64, count)
			for i := range ids {
				switch rng.IntN(8) {
				case 0: // no such listing
					ids[i] = all[n-1] + 1 + rng.Int64N(1000)
				case 1: // an id already in the list
					ids[i] = ids[rng.IntN(i+1)]
				default:
					ids[i] = all[rng.IntN(n)]
				}
			}
			got, err := st.summariesByID(ctx, ids)
			if err != nil {
				t.Fatalf("%d ids: %v", count, err)
			}
			if diff := cmp.Diff(want(ids), got); diff != "" {
				t.Fatalf("%d ids %v (-one placeholder per id +summariesByID):\n%s", count, ids, diff)
			}
		}
		prepared := 0
		for _, s := range st.sums.stmts.st {
			if s != nil {
				prepared++
			}
		}
		if wantN := map[string]int{"sqlite": len(summaryStmtSizes), "postgres": 0}[engine]; prepared != wantN {
			t.Errorf("%d statements prepared, want %d", prepared, wantN)
		}
	})
}
