package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/testtier"
)

// TestSummaryCache_NeverStale serves search pages from the summary cache, then
// changes what a summary shows by each kind of write (the store's own methods,
// and plain SQL through a second handle as another process would), and checks
// that once the index has applied the change every summary a page shows is the
// database's, field by field (as get_listing reads it), and that the change is
// there. Without the cache's invalidation from search_log (reindex, rebuild)
// the pages keep the summaries of before. Before each change the cache is
// filled as at start-up (FillSummaryCache) as well as by pages.
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
				// The cache holds every public listing's summary, read by the
				// start-up scan and by pages.
				if _, err := st.FillSummaryCache(ctx); err != nil {
					t.Fatal(err)
				}
				before := pages()
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
	missing, gen := st.sums.get(ids, out, hit, st.site)
	if len(missing) != 1 || hit[0] {
		t.Fatalf("cold cache: missing %v, hit %v", missing, hit)
	}
	old, err := st.summaryRowsByID(ctx, missing)
	if err != nil || len(old) != 1 || old[0].name != "Sketchy" {
		t.Fatalf("read: %+v %v", old, err)
	}
	setRows(t, db, "listings", cols{"name": "Sketchy Pro"}, cols{"id": 3})
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, kept := st.sums.put(gen, old, true); kept { // the search's read lands after the poll
		t.Error("a read from before the poll was kept")
	}
	items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "sketchy", Limit: 5})
	if err != nil || len(items) != 1 || items[0].Name != "Sketchy Pro" {
		t.Errorf("after the change: %+v %v", items, err)
	}
}

// TestSummaryCache_Bounded writes more summaries than the arena holds and
// checks that it stays within summaryCacheBytes, keeps the most recent ones
// and forgets the oldest, whole chunks at a time.
func TestSummaryCache_Bounded(t *testing.T) {
	t.Parallel()
	var c summaryCache
	site := domain.Site{Key: "main", BaseURL: "https://ex.test"}
	const per = 1000
	var id int64
	for c.len() == 0 || c.first == 0 || c.len() < 10*per {
		rows := make([]summaryRow, per)
		for i := range rows {
			id++
			rows[i] = testSummaryRow(id, 150)
		}
		if n, ok := c.put(c.generation(), rows, true); n != per || !ok {
			t.Fatalf("put kept %d of %d (%v)", n, per, ok)
		}
		if c.arenaBytes() > summaryCacheBytes {
			t.Fatalf("arena %d bytes, bound %d", c.arenaBytes(), summaryCacheBytes)
		}
		if id > 10*summaryCacheBytes/150 {
			t.Fatalf("%d summaries written and the first chunk not forgotten", id)
		}
	}
	out, hit := make([]domain.ListingSummary, 2), make([]bool, 2)
	c.get([]int64{1, id}, out, hit, site)
	if hit[0] || !hit[1] || out[1].Slug != fmt.Sprintf("listing-%d", id) {
		t.Errorf("oldest kept %v, newest kept %v (%q)", hit[0], hit[1], out[1].Slug)
	}
	if held := c.len(); held < summaryCacheBytes/300 || int64(held) >= id {
		t.Errorf("holds %d of %d summaries", held, id)
	}
	// A full arena refuses what does not fit unless told to forget.
	first := c.first
	for i := 0; ; i++ {
		before := c.len()
		n, ok := c.put(c.generation(), []summaryRow{testSummaryRow(id+1, 150)}, false)
		if !ok || c.first != first {
			t.Fatalf("put without eviction: ok %v, forgot chunks %d -> %d", ok, first, c.first)
		}
		if n == 0 {
			if c.len() != before {
				t.Errorf("refused, yet holds %d, was %d", c.len(), before)
			}
			break
		}
		id++
		if i > summaryChunkBytes/100 {
			t.Fatal("a full arena never refused a summary")
		}
	}
}

// TestSummaryCache_DropSurvivesReuse drops two summaries and writes one of
// them again in a later chunk, then lets the arena forget (and reuse) the
// chunk holding the old bytes, and checks that the rewritten summary stays
// and that the dropped one is never seen again.
func TestSummaryCache_DropSurvivesReuse(t *testing.T) {
	t.Parallel()
	var c summaryCache
	site := domain.Site{Key: "main", BaseURL: "https://ex.test"}
	r1, r2 := testSummaryRow(1, 100), testSummaryRow(2, 100)
	c.put(c.generation(), []summaryRow{r1, r2}, true)
	c.drop([]int64{1, 2})
	id := int64(10)
	write := func() {
		rows := make([]summaryRow, 500)
		for i := range rows {
			id++
			rows[i] = testSummaryRow(id, 300)
		}
		c.put(c.generation(), rows, true)
	}
	for len(c.chunks) < 2 {
		write()
	}
	r1.name = "Changed"
	c.put(c.generation(), []summaryRow{r1}, true)
	out, hit := make([]domain.ListingSummary, 2), make([]bool, 2)
	for c.first == 0 { // the chunk of the first bytes of 1 and 2 forgotten and reused
		write()
		c.get([]int64{1, 2}, out, hit, site)
		if !hit[0] || out[0].Name != "Changed" || hit[1] {
			t.Fatalf("after %d writes: 1 held %v (%q), dropped 2 held %v", id, hit[0], out[0].Name, hit[1])
		}
	}
}

// TestSummaryCache_PackRoundTrip packs rows of every shape (empty and long
// strings, no launch time, no category, more shared values than the table
// keeps, large counters) and checks that each comes back as the summary the
// database read builds from the row.
func TestSummaryCache_PackRoundTrip(t *testing.T) {
	t.Parallel()
	st := &Store{site: domain.Site{Key: "main", BaseURL: "https://ex.test/dir"}}
	var c summaryCache
	rng := rand.New(rand.NewPCG(3, 10))
	word := func(n int) string {
		b := make([]rune, n)
		for i := range b {
			b[i] = []rune("abcdé日 -/?%")[rng.IntN(11)]
		}
		return string(b)
	}
	var rows []summaryRow
	for id := int64(1); id <= 2*packTableMax; id++ {
		r := testSummaryRow(id, rng.IntN(300))
		r.slug = word(rng.IntN(40))
		r.country = fmt.Sprint("C", id) // past packTableMax: inline
		r.featured = rng.IntN(2) == 0
		r.votes, r.views, r.follows = rng.IntN(1<<40), rng.IntN(3), 0
		switch rng.IntN(3) {
		case 0:
			r.launchedAt.Valid = false
		case 1:
			r.launchedAt.Int64 = -rng.Int64N(1 << 40)
		}
		if rng.IntN(4) == 0 {
			r.catSlug, r.catName = "", ""
		}
		if rng.IntN(5) == 0 {
			r.logo, r.stage, r.week = "", "", ""
		}
		rows = append(rows, r)
	}
	c.put(c.generation(), rows, true)
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].id
	}
	out, hit := make([]domain.ListingSummary, len(ids)), make([]bool, len(ids))
	if missing, _ := c.get(ids, out, hit, st.site); len(missing) != 0 {
		t.Fatalf("%d summaries missing", len(missing))
	}
	for i := range rows {
		if diff := cmp.Diff(st.summary(&rows[i]), out[i]); diff != "" {
			t.Fatalf("listing %d (-row +packed):\n%s", rows[i].id, diff)
		}
	}
	if got := len(c.tab.strs); got != packTableMax {
		t.Errorf("shared values %d, want the table's bound %d", got, packTableMax)
	}
}

// testSummaryRow is a summary row of listing id with a tagline of n bytes.
func testSummaryRow(id int64, n int) summaryRow {
	return summaryRow{
		id: id, slug: fmt.Sprintf("listing-%d", id), name: fmt.Sprintf("Listing %d", id),
		tagline: strings.Repeat("t", n), url: fmt.Sprintf("https://l%d.example", id),
		logo: fmt.Sprintf("https://l%d.example/logo.png", id), stage: "growing", country: "FR",
		pricing: "freemium", status: "live", plan: "free", week: "2026-11-23",
		launchedAt: sql.NullInt64{Int64: 1_790_000_000 + id, Valid: true},
		votes:      int(id % 97), views: int(id % 1009), follows: int(id % 13),
		catSlug: "notes", catName: "Notes",
	}
}

// TestSummaryCache_Memory fills the cache from synthetic listings (the
// benchmarks' generator) and checks the memory a summary takes, the arena and
// the map by id together (the live heap after a GC), against what a site of
// 100,000 listings may take for all of them to fit: summaryCacheBytes / 100,000.
//
// It fills on one goroutine and is not parallel, so under -race it skips
// (the package's parallel tests would wait for it).
func TestSummaryCache_Memory(t *testing.T) { // not parallel: it reads the heap
	testtier.SkipRace(t, "the heap of 5,000 summaries filled on one goroutine; TestSummaryCache_NeverStale and TestSummaryCache_FillStopsAtClose fill the cache under -race")
	ctx := context.Background()
	const n = synthListings
	_, st := syntheticStore(t, "sqlite", n)
	st.sums.dropAll()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	held, err := st.FillSummaryCache(ctx)
	if err != nil || held != n {
		t.Fatalf("filled %d of %d: %v", held, n, err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(held)
	arena := float64(st.sums.arenaBytes()) / float64(held)
	t.Logf("%d summaries: %.0f bytes each on the heap (arena %.0f)", held, per, arena)
	if limit := float64(summaryCacheBytes) / 100_000; arena > limit || per > 1.3*limit {
		t.Errorf("%.0f bytes a summary (arena %.0f): 100,000 would not fit %d MiB", per, arena, summaryCacheBytes>>20)
	}
}

// syntheticStore is a store over a database on engine seeded with n
// synthetic listings: a copy of syntheticDB's template when the engine is
// SQLite and n is synthListings.
func syntheticStore(t *testing.T, engine string, n int) (*DB, *Store) {
	t.Helper()
	ctx := context.Background()
	var db *DB
	if engine == "sqlite" && n == synthListings {
		db = syntheticDB(t)
	} else {
		db = openEngine(t, engine)
		if err := SeedSynthetic(ctx, db, fxSite, n, fxNow); err != nil {
			t.Fatal(err)
		}
	}
	st, err := NewStore(ctx, db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	return db, st
}

// synthListings is how many synthetic listings syntheticDB's template holds.
const synthListings = 5_000

// synthTemplate holds syntheticDB's data, seeded once per test binary.
var synthTemplate dbTemplate

// syntheticDB opens a copy of a SQLite database seeded once per test binary
// with synthListings synthetic listings of fxSite at fxNow (a seed of
// seconds shared by the tests that need that many listings but not their
// own seed).
func syntheticDB(t *testing.T) *DB {
	t.Helper()
	return synthTemplate.open(t, "launchdir-storage-synthetic-", func(db *DB) error {
		return SeedSynthetic(context.Background(), db, fxSite, synthListings, fxNow)
	})
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
		const n = 150
		db, st := syntheticStore(t, engine, n)
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
			rows, err := db.sql.QueryContext(ctx, summaryByIDQuery(in), args...)
			if err != nil {
				t.Fatal(err)
			}
			out := map[int64]domain.ListingSummary{}
			if err := scanSummaryRows(rows, func(r *summaryRow) { out[r.id] = st.summary(r) }); err != nil {
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

// TestSummaryCache_FillStopsAtClose closes a store while its background
// fill waits for the cache: Close must stop the fill (its first query runs
// on a cancelled context), not wait for it to read every listing.
func TestSummaryCache_FillStopsAtClose(t *testing.T) {
	t.Parallel()
	_, st := syntheticStore(t, "sqlite", synthListings) // five of the fill's batches
	st.sums.dropAll()
	st.sums.mu.Lock() // the fill waits at its first batch
	locked := true
	defer func() {
		if locked {
			st.sums.mu.Unlock()
		}
	}()
	st.FillSummaryCacheInBackground()
	closed := make(chan error, 1)
	go func() { closed <- st.Close() }()
	select {
	case <-st.bg().Done():
	case <-time.After(time.Minute):
		t.Fatal("Close did not cancel the summary fill")
	}
	st.sums.mu.Unlock()
	locked = false
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if held := st.sums.len(); held != 0 {
		t.Errorf("the fill kept %d summaries after Close, want 0", held)
	}
}

// TestSummaryCache_TableFollowsArena writes summaries past the arena's bound,
// every four with a launch week of their own (12,000 weeks, three times what
// the table of shared values holds), so that the table is full long before
// the oldest chunks are forgotten: the weeks of forgotten summaries must
// leave the table (the last summaries' weeks are shared again, not written
// inline for good), a value every summary uses must stay, and every summary
// still held must unpack to its row with the table's numbers reused.
func TestSummaryCache_TableFollowsArena(t *testing.T) {
	t.Parallel()
	st := &Store{site: domain.Site{Key: "main", BaseURL: "https://ex.test/dir"}}
	var c summaryCache
	tagline := strings.Repeat("t", 900)
	row := func(id int64) summaryRow {
		r := testSummaryRow(id, 0)
		r.tagline = tagline
		r.week = fmt.Sprint("W", id/4)
		return r
	}
	const n = 48_000 // about 45 MiB of summaries: past the 32 MiB bound
	for id := int64(1); id <= n; {
		rows := make([]summaryRow, 0, 1000)
		for ; id <= n && len(rows) < cap(rows); id++ {
			rows = append(rows, row(id))
		}
		c.put(c.generation(), rows, true)
	}
	if c.first == 0 {
		t.Fatal("no chunk was forgotten: write more")
	}
	if len(c.tab.strs) > packTableMax {
		t.Errorf("%d shared values, bound %d", len(c.tab.strs), packTableMax)
	}
	if _, ok := c.tab.ids[fmt.Sprint("W", n/4)]; !ok {
		t.Errorf("the last summary's week is not shared: the table kept %d values of forgotten summaries", len(c.tab.ids))
	}
	if _, ok := c.tab.ids["FR"]; !ok {
		t.Error("the country every summary shares left the table")
	}
	ids := make([]int64, 0, len(c.at))
	for id := range c.at {
		ids = append(ids, id)
	}
	out, hit := make([]domain.ListingSummary, len(ids)), make([]bool, len(ids))
	if missing, _ := c.get(ids, out, hit, st.site); len(missing) != 0 {
		t.Fatalf("%d summaries missing", len(missing))
	}
	for i, id := range ids {
		r := row(id)
		if want := st.summary(&r); !reflect.DeepEqual(want, out[i]) {
			t.Fatalf("listing %d (-row +packed):\n%s", id, cmp.Diff(want, out[i]))
		}
	}
}

// BenchmarkSummaryCacheGet takes pages of 20 summaries, at random among
// 100,000 held, from the cache, as a search page does (pageSummariesAt):
//
//	go test ./storage -run '^$' -bench SummaryCacheGet -benchtime 200000x
func BenchmarkSummaryCacheGet(b *testing.B) {
	site := domain.Site{Key: "main", BaseURL: "https://ex.test/dir"}
	var c summaryCache
	const n = 100_000
	rows := make([]summaryRow, 0, 1000)
	for id := int64(1); id <= n; id++ {
		r := testSummaryRow(id, 60)
		r.week = fmt.Sprint("2026-W", id%60)
		rows = append(rows, r)
		if len(rows) == cap(rows) {
			c.put(c.generation(), rows, true)
			rows = rows[:0]
		}
	}
	rng := rand.New(rand.NewPCG(5, 20))
	ids := make([]int64, 20)
	out, hit := make([]domain.ListingSummary, len(ids)), make([]bool, len(ids))
	b.ReportAllocs()
	var u0, u1 runtimeUsage // process CPU, the GC's included: a busy machine's wall time says little
	u0.read()
	for b.Loop() {
		for i := range ids {
			ids[i] = 1 + rng.Int64N(n)
		}
		if missing, _ := c.get(ids, out, hit, site); len(missing) != 0 {
			b.Fatalf("%d missing", len(missing))
		}
	}
	u1.read()
	b.ReportMetric(float64((u1.cpu-u0.cpu).Nanoseconds())/float64(b.N), "cpu_ns/op")
}
