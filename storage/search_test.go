package storage

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
)

func TestStore_SearchListings(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for _, tc := range []struct {
			name string
			q    domain.ListingQuery
			want []string
		}{
			{"Text", domain.ListingQuery{Q: "markdown", Sort: "relevance"}, []string{"notely"}},
			{"CategoryIncludesSubcategories", domain.ListingQuery{Category: "software", Sort: "votes"}, []string{"jotter", "notely"}},
			{"ExtraCategoryCounts", domain.ListingQuery{Category: "design", Sort: "votes"}, []string{"notely", "sketchy"}},
			{"UnknownCategoryIsEmpty", domain.ListingQuery{Category: "nope", Sort: "votes"}, []string{}},
			{"UnknownStageIsEmpty", domain.ListingQuery{Stage: "nope", Sort: "votes"}, []string{}},
			{"Stage", domain.ListingQuery{Stage: "growing", Sort: "votes"}, []string{"jotter"}},
			{"Country", domain.ListingQuery{Country: "US", Sort: "votes"}, []string{"notely", "sketchy"}},
			{"Pricing", domain.ListingQuery{PricingModel: "subscription", Sort: "votes"}, []string{"jotter"}},
			{"Domain", domain.ListingQuery{Domain: "sketchy.test", Sort: "votes"}, []string{"sketchy"}},
			{"Upcoming", domain.ListingQuery{Status: "upcoming", Sort: "votes"}, []string{"soonly"}},
			{"DraftNeverFound", domain.ListingQuery{Q: "drafty", Sort: "relevance"}, []string{}},
			{"Trending", domain.ListingQuery{Sort: "trending"}, []string{"sketchy", "jotter", "notely"}},
			{"Newest", domain.ListingQuery{Sort: "newest"}, []string{"jotter", "notely", "sketchy"}},
			{"MostViewed", domain.ListingQuery{Sort: "most_viewed"}, []string{"sketchy", "notely", "jotter"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				q := tc.q
				q.Limit = 20
				items, total, err := st.SearchListings(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, slugs(items)); diff != "" || total != len(tc.want) {
					t.Errorf("(-want +got):\n%s total=%d", diff, total)
				}
			})
		}
		items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "notely", Limit: 5})
		if err != nil || len(items) == 0 {
			t.Fatalf("notely: %v %v", items, err)
		}
		got := items[0]
		want, _ := st.Listing(ctx, "notely")
		if diff := cmp.Diff(want.ListingSummary, got); diff != "" {
			t.Errorf("indexed summary differs from the profile's (-profile +search):\n%s", diff)
		}
	})
}

// TestStore_SearchLogRefresh writes through a second *DB handle, as another process would.
func TestStore_SearchLogRefresh(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, path := newFixtureOn(t, engine)
		ctx := context.Background()
		other, err := Open(path, WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		st.PollInterval = time.Hour
		search := func(q domain.ListingQuery) []string {
			t.Helper()
			q.Limit = 20
			items, _, err := st.SearchListings(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			return slugs(items)
		}
		putRow(t, other, "listings", cols{"id": 60, "site_id": st.siteID, "slug": "zappy", "name": "Zappy", "tagline": "Lightning invoices",
			"status": "live", "created_at": 0, "updated_at": 0})
		putRow(t, other, "listing_categories", cols{"listing_id": 60, "category_id": 12, "is_primary": 1})
		setRows(t, other, "listings", cols{"tagline": "Quantum jots"}, cols{"slug": "jotter"})
		if got := search(domain.ListingQuery{Q: "zappy"}); len(got) != 0 {
			t.Fatalf("seen before the poll interval: %v", got)
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got := search(domain.ListingQuery{Q: "zappy"}); cmp.Diff([]string{"zappy"}, got) != "" {
			t.Errorf("after refresh: %v", got)
		}
		if got := search(domain.ListingQuery{Q: "quantum"}); cmp.Diff([]string{"jotter"}, got) != "" {
			t.Errorf("updated tagline: %v", got)
		}
		if got := search(domain.ListingQuery{Category: "design", Sort: "votes"}); cmp.Diff([]string{"notely", "sketchy", "zappy"}, got) != "" {
			t.Errorf("category of the new listing: %v", got)
		}
		// The poll happens inside SearchListings once the interval has passed.
		st.PollInterval = 0
		setRows(t, other, "listings", cols{"status": "archived"}, cols{"slug": "zappy"})
		delRows(t, other, "listings", cols{"slug": "sketchy"})
		setRows(t, other, "categories", cols{"name": "Notebooks"}, cols{"slug": "notes"})
		if got := search(domain.ListingQuery{Category: "design", Sort: "votes"}); cmp.Diff([]string{"notely"}, got) != "" {
			t.Errorf("after archive and delete: %v", got)
		}
		items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "notely", Limit: 1})
		if err != nil || len(items) != 1 || items[0].PrimaryCategory == nil || items[0].PrimaryCategory.Name != "Notebooks" {
			t.Errorf("renamed primary category not refreshed: %+v %v", items, err)
		}
	})
}

// TestStore_SearchLogPruned rebuilds the index when entries it never saw were pruned.
func TestStore_SearchLogPruned(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		setRows(t, db, "listings", cols{"name": "Renamed"}, cols{"slug": "sketchy"})
		last := putRow(t, db, "search_log", cols{"listing_id": 0})
		logged, err := db.Rows(ctx, "search_log", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range logged { // prune every entry but the newest
			if r["seq"] != strconv.FormatInt(last, 10) {
				delRows(t, db, "search_log", cols{"seq": r["seq"]})
			}
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: "renamed", Limit: 5})
		if err != nil || cmp.Diff([]string{"sketchy"}, slugs(items)) != "" {
			t.Errorf("after pruned log: %v %v", slugs(items), err)
		}
	})
}

func TestTrendingAdd(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)
	one := TrendingAdd(0, at)
	two := TrendingAdd(one, at)
	if math.Abs(two-one-math.Ln2) > 1e-9 {
		t.Errorf("two simultaneous votes = %v, want one + ln 2 = %v", two, one+math.Ln2)
	}
	// One vote now beats two votes cast 2*tau ago (2*e^-2 < 1), and loses to three votes tau*0.5 ago.
	old := TrendingAdd(TrendingAdd(0, at.Add(-2*TrendingTau)), at.Add(-2*TrendingTau))
	if !(one > old) {
		t.Errorf("fresh vote %v <= two old votes %v", one, old)
	}
	half := at.Add(-TrendingTau / 2)
	three := TrendingAdd(TrendingAdd(TrendingAdd(0, half), half), half)
	if !(three > one) {
		t.Errorf("three votes half a tau ago %v <= one fresh vote %v", three, one)
	}
	// Order of additions does not matter.
	a := TrendingAdd(TrendingAdd(0, at), at.Add(-time.Hour))
	b := TrendingAdd(TrendingAdd(0, at.Add(-time.Hour)), at)
	if math.Abs(a-b) > 1e-9 {
		t.Errorf("order dependent: %v vs %v", a, b)
	}
}

func TestStore_RecordVote(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		at := fxNow
		if err := st.RecordVote(ctx, 3, "fresh-voter", at); err != nil {
			t.Fatal(err)
		}
		var votes int
		var score float64
		if err := db.sql.QueryRow(`SELECT votes_count, trending_score FROM listings WHERE id = 3`).Scan(&votes, &score); err != nil {
			t.Fatal(err)
		}
		if votes != 3 || math.Abs(score-TrendingAdd(9, at)) > 1e-9 {
			t.Errorf("votes=%d score=%v, want 3 and %v", votes, score, TrendingAdd(9, at))
		}
		wantCode(t, st.RecordVote(ctx, 3, "fresh-voter", at), domain.EConflict)
		wantCode(t, st.RecordVote(ctx, 999, "x", at), domain.ENotFound)
		if err := db.sql.QueryRow(`SELECT votes_count FROM listings WHERE id = 3`).Scan(&votes); err != nil || votes != 3 {
			t.Errorf("after conflict votes=%d err=%v, want unchanged 3", votes, err)
		}
		// The week's ranking sees the new vote.
		live, _, err := st.WeekLaunches(ctx, fxLastWeek)
		if err != nil || len(live) != 1 || live[0].WeekVotes != 2 {
			t.Errorf("a vote outside the week counted: %+v %v", live, err)
		}
	})
}

// TestStore_ConcurrentSearchAndVotes searches from several goroutines while votes are
// written; run with -race. Every vote must be visible after a final refresh.
func TestStore_ConcurrentSearchAndVotes(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		st.PollInterval = 0
		ctx := context.Background()
		const voters = 20
		errs := make(chan error, 4)
		stop := make(chan struct{})
		for g := 0; g < 3; g++ {
			go func() {
				for {
					select {
					case <-stop:
						errs <- nil
						return
					default:
					}
					if _, _, err := st.SearchListings(ctx, domain.ListingQuery{Sort: "votes", Limit: 5}); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		for i := 0; i < voters; i++ {
			if err := st.RecordVote(ctx, 3, "c"+itoa(int64(i)), fxNow.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		for g := 0; g < 3; g++ {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		items, _, err := st.SearchListings(ctx, domain.ListingQuery{Sort: "votes", Limit: 1})
		if err != nil || len(items) != 1 || items[0].Slug != "sketchy" || items[0].Votes != 2+voters {
			t.Fatalf("top by votes = %+v %v, want sketchy with %d votes", items, err, 2+voters)
		}
	})
}
