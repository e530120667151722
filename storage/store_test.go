package storage

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
)

func slugs(items []domain.ListingSummary) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Slug)
	}
	return out
}

func wantCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	if got := domain.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

func TestOpen_MigrationsApplyTwice(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nested dir#1", "launch?dir.db")
	for i := 0; i < 2; i++ {
		db, err := Open(path, WithClock(time.Now))
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		files, _ := fs.Glob(migrationFS, "migrations/*.sql")
		var n int
		if err := db.sql.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != len(files) || n == 0 {
			t.Fatalf("open %d: %d migrations recorded, want %d", i, n, len(files))
		}
		db.Close()
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file not at the given path: %v", err)
	}
	if _, err := Open(":memory:", WithClock(time.Now)); err == nil {
		t.Fatal("Open(:memory:) succeeded; want an error")
	}
}

func TestOpen_PragmasOnEveryConnection(t *testing.T) {
	t.Parallel()
	db, err := Open(filepath.Join(t.TempDir(), "launchdir.db"), WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	// Hold two connections at once so both are checked.
	c1, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	for _, c := range []*sql.Conn{c1, c2} {
		var fk int
		var jm string
		var bt int
		if err := c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&jm); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&bt); err != nil {
			t.Fatal(err)
		}
		if fk != 1 || jm != "wal" || bt != 5000 {
			t.Fatalf("pragmas foreign_keys=%d journal_mode=%s busy_timeout=%d", fk, jm, bt)
		}
	}
}

func TestStore_SiteStats(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		got, err := st.SiteStats(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := domain.SiteStats{LiveListings: 3, UpcomingListings: 1, Categories: 3, FirstWeek: fxLastWeek}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SiteStats (-want +got):\n%s", diff)
		}
	})
}

func TestStore_Listing(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()

		t.Run("FreeWithStoryUnlocked", func(t *testing.T) {
			l, err := st.Listing(ctx, "notely")
			if err != nil {
				t.Fatal(err)
			}
			if l.Story == nil || l.Story.Title != "How Notely began" {
				t.Errorf("Story = %+v, want the unlocked story", l.Story)
			}
			if l.Milestones != nil || l.Media != nil {
				t.Errorf("locked sections shown: milestones=%v media=%v", l.Milestones, l.Media)
			}
			if r := l.CommunityRating; r == nil || *r != (domain.Rating{Average: 4.5, Count: 2}) {
				t.Errorf("CommunityRating = %+v, want genuine reviews only {4.5 2}", l.CommunityRating)
			}
			dr := l.DomainRating
			if dr == nil || dr.Current != 50 || dr.Trend != "up" || dr.Change != 10 || len(dr.History) != 3 || dr.AsOf != "2026-11-01" || dr.Source != "ahrefs" {
				t.Errorf("DomainRating = %+v", dr)
			}
			wantCats := []domain.CategoryRef{{Slug: "notes", Name: "Notes", Primary: true}, {Slug: "design", Name: "Design"}}
			if diff := cmp.Diff(wantCats, l.Categories); diff != "" {
				t.Errorf("Categories (-want +got):\n%s", diff)
			}
			if l.PrimaryCategory == nil || l.PrimaryCategory.Slug != "notes" {
				t.Errorf("PrimaryCategory = %+v", l.PrimaryCategory)
			}
			if len(l.Founders) != 1 || l.Founders[0].Slug != "alice-smith" || l.Founders[0].Title != "CEO" || !l.Founders[0].Primary ||
				l.Founders[0].PageURL != "https://launchdir.test/founders/alice-smith" {
				t.Errorf("Founders = %+v", l.Founders)
			}
			if len(l.LatestUpdates) != 2 || l.LatestUpdates[0].Title != "v2" {
				t.Errorf("LatestUpdates = %+v, want newest first", l.LatestUpdates)
			}
			if l.Votes != 3 || l.Views != 1 || l.Follows != 1 || l.PaidPlacement == nil || l.PaidPlacement.AmountCents != 5000 || !l.PaidPlacement.Paid || !l.Verified || !l.Featured {
				t.Errorf("counters votes=%d views=%d follows=%d paid_placement=%+v verified=%v featured=%v",
					l.Votes, l.Views, l.Follows, l.PaidPlacement, l.Verified, l.Featured)
			}
			if diff := cmp.Diff([]string{"founded_year"}, l.NotFoundOnWebsite); diff != "" {
				t.Errorf("NotFoundOnWebsite: %s", diff)
			}
			if l.Company != "Acme Ltd" || l.PageURL != "https://launchdir.test/listings/notely" || l.LaunchWeek != "2026-11-16" ||
				l.LaunchedAt == nil || !l.LaunchedAt.Equal(fxThisWeek.Add(10*time.Hour)) || l.Links["website"] != "https://notely.test" {
				t.Errorf("profile fields: company=%q page=%q week=%q launched=%v links=%v", l.Company, l.PageURL, l.LaunchWeek, l.LaunchedAt, l.Links)
			}
			if diff := cmp.Diff([]string{"notes", "markdown"}, l.Keywords); diff != "" {
				t.Errorf("Keywords: %s", diff)
			}
		})
		t.Run("PaidShowsAllSections", func(t *testing.T) {
			l, err := st.Listing(ctx, "jotter")
			if err != nil {
				t.Fatal(err)
			}
			if l.Story == nil || len(l.Milestones) != 1 || len(l.Media) != 1 || l.Media[0].Kind != "video" {
				t.Errorf("paid sections: story=%v milestones=%v media=%v", l.Story, l.Milestones, l.Media)
			}
			if l.CommunityRating != nil || l.Reviews.Count != 0 || l.Reviews.Items == nil || len(l.Reviews.Items) != 0 {
				t.Errorf("CommunityRating = %+v, reviews %+v; want null and none without reviews", l.CommunityRating, l.Reviews)
			}
			if l.DomainRating == nil || l.DomainRating.Trend != "down" || l.DomainRating.Change != -10 {
				t.Errorf("DomainRating = %+v, want down -10", l.DomainRating)
			}
			want := []domain.AwardRef{{Week: "2026-11-09", Rank: 2, Title: "Launch of the Week #2"}, {Week: "2026-11-02", Rank: 1, Title: "Launch of the Week #1"}}
			if diff := cmp.Diff(want, l.Awards); diff != "" {
				t.Errorf("Awards (-want +got):\n%s", diff)
			}
			if l.PaidPlacement == nil || l.PaidPlacement.AmountCents != 123556 {
				t.Errorf("PaidPlacement = %+v, want the trigger-maintained sum 123556", l.PaidPlacement)
			}
		})
		t.Run("ScheduledIsPublic", func(t *testing.T) {
			l, err := st.Listing(ctx, "soonly")
			if err != nil {
				t.Fatal(err)
			}
			if l.Status != "scheduled" || l.LaunchedAt != nil || l.DomainRating != nil {
				t.Errorf("soonly: status=%q launched=%v dr=%v", l.Status, l.LaunchedAt, l.DomainRating)
			}
		})
		t.Run("DraftIsNotFound", func(t *testing.T) {
			_, err := st.Listing(ctx, "drafty")
			wantCode(t, err, domain.ENotFound)
			_, err = st.Listing(ctx, "nope")
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestStore_AlternativesAndAttributes(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		alts, err := st.Alternatives(ctx, "notely", 20)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range alts {
			got = append(got, a.Slug+map[bool]string{true: "+approved", false: ""}[a.Approved])
		}
		// drafty is approved but not public; jotter shares the primary category.
		if diff := cmp.Diff([]string{"sketchy+approved", "jotter"}, got); diff != "" {
			t.Errorf("Alternatives (-want +got):\n%s", diff)
		}
		if alts, err = st.Alternatives(ctx, "notely", 1); err != nil || len(alts) != 1 {
			t.Errorf("limit 1: %v %v", alts, err)
		}
		attrs, err := st.ListingAttributes(ctx, "notely")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"offline": "Yes"}, attrs); diff != "" {
			t.Errorf("ListingAttributes: %s", diff)
		}
		_, err = st.Alternatives(ctx, "drafty", 20)
		wantCode(t, err, domain.ENotFound)
		_, err = st.ListingAttributes(ctx, "drafty")
		wantCode(t, err, domain.ENotFound)
	})
}

func TestStore_Categories(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		nodes, err := st.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []domain.CategoryNode{
			{Slug: "notes", Name: "Notes", Parent: "software", ListingCount: 2},
			{Slug: "software", Name: "Software", ListingCount: 2},
			{Slug: "design", Name: "Design", ListingCount: 2},
		}
		if diff := cmp.Diff(want, nodes); diff != "" {
			t.Errorf("Categories counted at load (-want +got):\n%s", diff)
		}
		all, _ := st.allCategories(ctx)
		counts, err := st.liveCounts(ctx)
		if diff := cmp.Diff(want, categoryNodes(all, counts)); diff != "" || err != nil {
			t.Errorf("Categories counted in SQL (-want +got):\n%s %v", diff, err)
		}
		c, err := st.Category(ctx, "software")
		if err != nil {
			t.Fatal(err)
		}
		if c.ListingCount != 2 || c.Parent != nil || len(c.FAQs) != 1 || len(c.Subcategories) != 1 || c.Subcategories[0].Slug != "notes" ||
			c.PageURL != "https://launchdir.test/categories/software" || len(c.Attributes) != 0 {
			t.Errorf("Category(software) = %+v", c)
		}
		c, err = st.Category(ctx, "notes")
		if err != nil {
			t.Fatal(err)
		}
		wantAttrs := []domain.Attribute{{Key: "offline", Label: "Works offline"}, {Key: "platforms", Label: "Platforms"}}
		if diff := cmp.Diff(wantAttrs, c.Attributes); diff != "" || c.Parent == nil || c.Parent.Slug != "software" {
			t.Errorf("Category(notes) parent=%v attrs diff %s", c.Parent, diff)
		}
		_, err = st.Category(ctx, "nope")
		wantCode(t, err, domain.ENotFound)

		// A new live listing in notes is counted in notes and software at once (the log changed).
		putRow(t, st.db, "listings", cols{"id": 50, "site_id": st.siteID, "slug": "fresh", "name": "Fresh", "status": "live", "created_at": 0, "updated_at": 0})
		putRow(t, st.db, "listing_categories", cols{"listing_id": 50, "category_id": 11, "is_primary": 1})
		c, err = st.Category(ctx, "software")
		if err != nil || c.ListingCount != 3 {
			t.Errorf("after insert: software count = %d (%v), want 3", c.ListingCount, err)
		}
	})
}

// injectFault runs a schema statement (a trigger that makes a write fail)
// on the store's own connection; it is for fault injection only, never for
// test data, which goes through the store or the row methods (rows.go).
func injectFault(t *testing.T, db *DB, q string, args ...any) {
	t.Helper()
	if _, err := db.sql.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestStore_WeekLaunches(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		live, sched, err := st.WeekLaunches(ctx, fxThisWeek.AddDate(0, 0, 3)) // any day snaps to Monday
		if err != nil {
			t.Fatal(err)
		}
		// jotter has more votes in all but fewer cast this week.
		type rw struct {
			Rank, Votes int
			Slug        string
		}
		var got []rw
		for _, w := range live {
			got = append(got, rw{w.Rank, w.WeekVotes, w.Listing.Slug})
		}
		if diff := cmp.Diff([]rw{{1, 3, "notely"}, {2, 1, "jotter"}}, got); diff != "" || len(sched) != 0 {
			t.Errorf("this week (-want +got):\n%s scheduled=%v", diff, slugs(sched))
		}
		live, sched, err = st.WeekLaunches(ctx, fxNextWeek)
		if err != nil || len(live) != 0 || cmp.Diff([]string{"soonly"}, slugs(sched)) != "" {
			t.Errorf("next week: live=%v scheduled=%v err=%v", live, slugs(sched), err)
		}
		live, _, err = st.WeekLaunches(ctx, fxLastWeek)
		if err != nil || len(live) != 1 || live[0].Listing.Slug != "sketchy" || live[0].WeekVotes != 2 {
			t.Errorf("last week: %+v %v", live, err)
		}
	})
}

func TestStore_Launches(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for _, tc := range []struct {
			section string
			want    []string
		}{
			{"today", []string{"jotter"}},
			{"this-week", []string{"notely", "jotter"}},
			{"trending", []string{"sketchy", "jotter", "notely"}},
			{"most-voted", []string{"jotter", "notely", "sketchy"}},
			{"recent", []string{"jotter", "notely", "sketchy"}},
			{"most-viewed", []string{"sketchy", "notely", "jotter"}},
			{"most-followed", []string{"jotter", "notely", "sketchy"}},
			{"upcoming", []string{"soonly"}},
		} {
			t.Run(tc.section, func(t *testing.T) {
				items, total, err := st.Launches(ctx, domain.LaunchQuery{Section: tc.section, Now: fxNow, Limit: 20})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, slugs(items)); diff != "" || total != len(tc.want) {
					t.Errorf("(-want +got):\n%s total=%d", diff, total)
				}
			})
		}
		items, total, err := st.Launches(ctx, domain.LaunchQuery{Section: "most-voted", Now: fxNow, Offset: 1, Limit: 1})
		if err != nil || total != 3 || cmp.Diff([]string{"notely"}, slugs(items)) != "" {
			t.Errorf("page 2 of 1: %v total=%d err=%v", slugs(items), total, err)
		}
		_, _, err = st.Launches(ctx, domain.LaunchQuery{Section: "bogus", Now: fxNow, Limit: 1})
		wantCode(t, err, domain.EInvalid)
	})
}

func TestStore_Leaderboard(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		type row struct {
			Rank   int
			Slug   string
			Metric int64
			Label  string
		}
		for _, tc := range []struct {
			board string
			want  []row
		}{
			{"community-weekly", []row{{1, "notely", 3, "3 votes"}, {2, "jotter", 1, "1 vote"}}},
			{"community-all-time", []row{{1, "jotter", 5, "5 votes"}, {2, "notely", 3, "3 votes"}, {3, "sketchy", 2, "2 votes"}}},
			{"billboard", []row{{1, "jotter", 123556, "$1,235.56 contributed (paid)"}, {2, "notely", 5000, "$50.00 contributed (paid)"}}},
			{"domain-rating", []row{{1, "sketchy", 70, "DR 70"}, {2, "notely", 50, "DR 50"}, {3, "jotter", 20, "DR 20"}}},
			{"revenue", []row{{1, "notely", 150000, "$1,500.00 per month (stated by the owner)"}, {2, "jotter", 90000, "$900.00 per month (stated by the owner)"}}},
		} {
			t.Run(tc.board, func(t *testing.T) {
				items, total, err := st.Leaderboard(ctx, domain.BoardQuery{Board: tc.board, Week: fxNow, Limit: 20})
				if err != nil {
					t.Fatal(err)
				}
				var got []row
				for _, it := range items {
					got = append(got, row{it.Rank, it.Listing.Slug, it.Metric, it.MetricLabel})
				}
				if diff := cmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
					t.Errorf("(-want +got):\n%s total=%d", diff, total)
				}
				items, _, err = st.Leaderboard(ctx, domain.BoardQuery{Board: tc.board, Week: fxNow, Offset: 1, Limit: 1})
				if err != nil || len(items) != 1 || items[0].Rank != 2 {
					t.Errorf("second page: %+v %v", items, err)
				}
			})
		}
		_, _, err := st.Leaderboard(ctx, domain.BoardQuery{Board: "nope", Limit: 1})
		wantCode(t, err, domain.ENotFound)
	})
}

func TestStore_FoundersAndFounder(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for _, tc := range []struct {
			q    domain.FounderQuery
			want []string
		}{
			{domain.FounderQuery{Limit: 20}, []string{"alice-smith"}}, // bob is only on a draft
			{domain.FounderQuery{Q: "ALI", Limit: 20}, []string{"alice-smith"}},
			{domain.FounderQuery{Q: "bob", Limit: 20}, nil},
			{domain.FounderQuery{Q: "%", Limit: 20}, nil},
			{domain.FounderQuery{Country: "US", Limit: 20}, []string{"alice-smith"}},
			{domain.FounderQuery{Q: "smith", Country: "DE", Limit: 20}, nil},
		} {
			items, total, err := st.Founders(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range items {
				got = append(got, f.Slug)
				if f.Companies != 2 || f.PageURL == "" {
					t.Errorf("%+v: companies=%d page=%q", tc.q, f.Companies, f.PageURL)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
				t.Errorf("Founders(%+v) (-want +got):\n%s total=%d", tc.q, diff, total)
			}
		}
		f, err := st.Founder(ctx, "alice-smith")
		if err != nil {
			t.Fatal(err)
		}
		if f.Bio != "Builds note apps." || f.Socials["x"] != "https://x.test/alice" || f.FounderSummary.Companies != 2 ||
			len(f.Companies) != 2 || f.Companies[0].Role != "CEO" || f.Companies[0].Listing.Slug != "notely" {
			t.Errorf("Founder = %+v", f)
		}
		var stories []string
		for _, s := range f.Stories {
			stories = append(stories, s.Listing+":"+s.Title)
		}
		if diff := cmp.Diff([]string{"notely:How Notely began", "jotter:Jotter story"}, stories); diff != "" {
			t.Errorf("Stories (-want +got):\n%s", diff)
		}
		_, err = st.Founder(ctx, "bob-jones")
		wantCode(t, err, domain.ENotFound)
	})
}

func TestStore_Blog(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"", []string{"seo-guide", "launch-tips"}},
			{"launch", []string{"seo-guide", "launch-tips"}},
			{"LAUNCH tips", []string{"launch-tips"}},
			{"seo backlinks", []string{"seo-guide"}},
			{"unpublished", nil},
		} {
			items, total, err := st.BlogPosts(ctx, domain.BlogQuery{Q: tc.q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range items {
				got = append(got, p.Slug)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
				t.Errorf("BlogPosts(%q) (-want +got):\n%s", tc.q, diff)
			}
		}
		p, err := st.BlogPost(ctx, "launch-tips")
		if err != nil {
			t.Fatal(err)
		}
		if p.Markdown != "# Launch well" || len(p.FAQs) != 1 || cmp.Diff([]string{"launch", "tips"}, p.Tags) != "" ||
			p.PageURL != "https://launchdir.test/blog/launch-tips" || !p.PublishedAt.Equal(fxLastWeek.Add(10*time.Hour)) {
			t.Errorf("BlogPost = %+v", p)
		}
		_, err = st.BlogPost(ctx, "secret")
		wantCode(t, err, domain.ENotFound)
	})
}

func TestStore_AwardsBadgesQuestions(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		aw, total, err := st.Awards(ctx, "", 0, 20)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range aw {
			got = append(got, a.Week+"#"+itoa(int64(a.Rank))+":"+a.Listing.Slug)
		}
		if diff := cmp.Diff([]string{"2026-11-09#1:sketchy", "2026-11-09#2:jotter", "2026-11-02#1:jotter"}, got); diff != "" || total != 3 {
			t.Errorf("Awards (-want +got):\n%s total=%d", diff, total)
		}
		if aw[0].Votes != 10 || aw[0].Title != "Launch of the Week #1" {
			t.Errorf("award 0 = %+v", aw[0])
		}
		aw, total, err = st.Awards(ctx, "jotter", 1, 20)
		if err != nil || total != 2 || len(aw) != 1 || aw[0].Week != "2026-11-02" {
			t.Errorf("Awards(jotter, offset 1) = %+v total=%d err=%v", aw, total, err)
		}

		f, err := st.BadgeFacts(ctx, "jotter")
		if err != nil || !f.Launched || f.Featured || f.Verified || len(f.Awards) != 2 || f.Name != "Jotter" {
			t.Errorf("BadgeFacts(jotter) = %+v %v", f, err)
		}
		f, err = st.BadgeFacts(ctx, "notely")
		if err != nil || !f.Featured || !f.Verified || len(f.Awards) != 0 {
			t.Errorf("BadgeFacts(notely) = %+v %v", f, err)
		}
		f, err = st.BadgeFacts(ctx, "soonly")
		if err != nil || f.Launched {
			t.Errorf("BadgeFacts(soonly) = %+v %v", f, err)
		}
		_, err = st.BadgeFacts(ctx, "drafty")
		wantCode(t, err, domain.ENotFound)

		qs, err := st.InterviewQuestions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, q := range qs {
			texts = append(texts, q.Question)
		}
		if diff := cmp.Diff([]string{"Who are you?", "Why did you start?", "What is next?"}, texts); diff != "" {
			t.Errorf("InterviewQuestions (-want +got):\n%s", diff)
		}
	})
}

func TestMapErr(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		_, err := db.InsertRow(ctx, "listings", cols{"site_id": st.siteID, "slug": "notely", "name": "Dup", "created_at": 0, "updated_at": 0})
		wantCode(t, mapErr(err, "listing", "notely"), domain.EConflict)
		_, err = db.InsertRow(ctx, "listing_categories", cols{"listing_id": 1, "category_id": 11, "is_primary": 0})
		wantCode(t, mapErr(err, "listing category", ""), domain.EConflict) // primary key
		_, err = db.InsertRow(ctx, "votes", cols{"listing_id": 999, "voter_key": "x", "created_at": 0})
		err = mapErr(err, "vote", "x")
		var de *domain.Error
		if err == nil || errors.As(err, &de) {
			t.Errorf("foreign key violation = %v, want a non-domain (internal) error", err)
		}
		wantCode(t, err, domain.EInternal)
		// Mapped inside a transaction and again around it, it says so once.
		if twice := mapErr(err, "vote", "x").Error(); twice != err.Error() || strings.Count(twice, "storage: ") != 1 {
			t.Errorf("mapped twice: %q, want it as mapped once: %q", twice, err.Error())
		}
		_, err = db.InsertRow(ctx, "votes", cols{"listing_id": 1, "voter_key": "x", "created_at": "2026-01-01"})
		// SQLite rejects it by the typeof CHECK, PostgreSQL by the BIGINT column (invalid input, 22P02).
		if rejected := map[string]string{"sqlite": "CHECK", "postgres": "22P02"}[engine]; err == nil || !strings.Contains(err.Error(), rejected) {
			t.Errorf("text timestamp accepted: %v", err)
		}
		wantCode(t, mapErr(sql.ErrNoRows, "listing", "x"), domain.ENotFound)
	})
}
