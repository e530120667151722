package storage

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
	"github.com/launchdir/launchdir/internal/testtier"
)

// demoNow is a Wednesday noon; its launch week starts on 2026-11-16.
var demoNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

var demoSite = domain.Site{Key: "main", Name: "Launchdir", Purpose: "A launch directory.", BaseURL: "http://launchdir.test"}

// seededDB opens a fresh database in a temporary directory holding the demo
// data as of now: a copy of a template seeded once per test binary and now
// (seeding takes seconds, a copy milliseconds; docs/testing.md).
func seededDB(t *testing.T, now time.Time) *DB {
	t.Helper()
	seededMu.Lock()
	tp := seededTemplates[now]
	if tp == nil {
		tp = &dbTemplate{}
		seededTemplates[now] = tp
	}
	seededMu.Unlock()
	return tp.open(t, "launchdir-storage-seeded-", func(db *DB) error {
		seeded, err := SeedDemo(context.Background(), db, demoSite, now)
		if err == nil && !seeded {
			err = fmt.Errorf("SeedDemo on a fresh database returned false")
		}
		return err
	})
}

var (
	seededMu        sync.Mutex
	seededTemplates = map[time.Time]*dbTemplate{}
)

// dbTemplate is a SQLite database built once per test binary (the first
// open builds it) and copied for every test that opens it.
type dbTemplate struct {
	once  sync.Once
	path  string
	err   error
	built time.Duration // how long the build took (seed and VACUUM INTO)
}

// open returns a new database in t's temporary directory holding a copy of
// the template, which the first call builds with seed (buildTemplate).
func (tp *dbTemplate) open(t *testing.T, prefix string, seed func(*DB) error) *DB {
	t.Helper()
	tp.once.Do(func() {
		start := time.Now()
		tp.path, tp.err = buildTemplate(prefix, seed)
		tp.built = time.Since(start)
	})
	if tp.err != nil {
		t.Fatal(tp.err)
	}
	path := filepath.Join(t.TempDir(), "launchdir.db")
	raw, err := os.ReadFile(tp.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// buildTemplate opens a new database in a directory named after prefix,
// fills it with seed, VACUUMs it INTO a template file (one file, no WAL) and
// returns the template's path; the directory is removed when TestMain ends
// (pgtest.Main).
func buildTemplate(prefix string, seed func(*DB) error) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	testtier.AtExit(func() { os.RemoveAll(dir) })
	db, err := Open(filepath.Join(dir, "seeding.db"), WithClock(time.Now))
	if err != nil {
		return "", err
	}
	defer db.Close()
	if err := seed(db); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "template.db")
	if _, err := db.sql.Exec(`VACUUM INTO ?`, path); err != nil {
		return "", err
	}
	return path, nil
}

func queryInt(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.sql.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func queryStrings(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.sql.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSeedDemo seeds one database and checks it from several sides.
func TestSeedDemo(t *testing.T) {
	t.Parallel()
	db := seededDB(t, demoNow)
	t.Run("Golden", func(t *testing.T) { // first: the subtests below add rows
		// A digest of every row, read on one goroutine: 4 s of CPU under -race.
		testtier.SkipRace(t, "the seeded database's digest; the seed runs under -race in seededDB's template build")
		testDemoGolden(t, db)
	})
	t.Run("Counts", func(t *testing.T) { testDemoCounts(t, db) })
	t.Run("Calendar", func(t *testing.T) { testDemoCalendar(t, db) })
	t.Run("AwardsFollowWeekVotes", func(t *testing.T) { testDemoAwards(t, db) })
	t.Run("NoteTaking", func(t *testing.T) { testDemoNoteTaking(t, db) })
	t.Run("SecondCallIsNoOp", func(t *testing.T) { testDemoSecondCall(t, db) })
	t.Run("SecondSite", func(t *testing.T) {
		// The whole demo seeded again, on one goroutine: 10 s of CPU under
		// -race. SeedDemo runs under -race in seededDB's template build.
		testtier.SkipRace(t, "the demo seeded a second time, for a second site")
		other := domain.Site{Key: "other", Name: "Other directory"}
		if seeded, err := SeedDemo(context.Background(), db, other, demoNow); err != nil || !seeded {
			t.Fatalf("SeedDemo for a second site = %v, %v; want true, nil", seeded, err)
		}
		a := queryInt(t, db, `SELECT COUNT(*) FROM listings l JOIN sites s ON s.id = l.site_id WHERE s.key = 'main'`)
		b := queryInt(t, db, `SELECT COUNT(*) FROM listings l JOIN sites s ON s.id = l.site_id WHERE s.key = 'other'`)
		if a != b || queryInt(t, db, `SELECT COUNT(*) FROM founders`) != demo.FounderCount()+len(demo.Generate(demoNow).Teams) {
			t.Errorf("listings main %d, other %d; founders %d", a, b, queryInt(t, db, `SELECT COUNT(*) FROM founders`))
		}
	})
}

func testDemoSecondCall(t *testing.T, db *DB) {
	before := queryInt(t, db, `SELECT COUNT(*) FROM listings`)
	seeded, err := SeedDemo(context.Background(), db, demoSite, demoNow.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if seeded {
		t.Error("second SeedDemo returned true")
	}
	if after := queryInt(t, db, `SELECT COUNT(*) FROM listings`); after != before {
		t.Errorf("listings after second SeedDemo = %d, want %d", after, before)
	}
}

func testDemoCounts(t *testing.T, db *DB) {
	atLeast := []struct {
		name  string
		query string
		min   int
	}{
		{"listings", `SELECT COUNT(*) FROM listings`, 320},
		{"live listings", `SELECT COUNT(*) FROM listings WHERE status = 'live'`, 300},
		{"categories", `SELECT COUNT(*) FROM categories`, 25},
		{"top-level categories", `SELECT COUNT(*) FROM categories WHERE parent_id IS NULL`, 8},
		{"featured", `SELECT COUNT(*) FROM listings WHERE featured = 1 AND plan = 'paid' AND status = 'live'`, 8},
		{"verified", `SELECT COUNT(*) FROM listings WHERE verified = 1`, 30},
		{"paid with story", `SELECT COUNT(*) FROM listings WHERE plan = 'paid' AND story IS NOT NULL AND unlocked_sections LIKE '%story%'`, 20},
		{"milestones", `SELECT COUNT(DISTINCT listing_id) FROM milestones`, 10},
		{"media", `SELECT COUNT(DISTINCT listing_id) FROM media`, 10},
		{"votes", `SELECT COUNT(*) FROM votes`, 5000},
		{"views", `SELECT COUNT(*) FROM views`, 10000},
		{"follows", `SELECT COUNT(*) FROM follows`, 1000},
		{"reviewed listings", `SELECT COUNT(DISTINCT listing_id) FROM reviews WHERE status = 'counted'`, 100},
		{"listings with a not-genuine review", `SELECT COUNT(DISTINCT listing_id) FROM reviews WHERE status = 'held' AND stars = 1`, 5},
		{"billboard listings", `SELECT COUNT(DISTINCT listing_id) FROM billboard_contributions`, 30},
		{"revenue listings", `SELECT COUNT(DISTINCT listing_id) FROM revenue_figures`, 60},
		{"domain rating listings", `SELECT COUNT(DISTINCT listing_id) FROM domain_ratings`, 150},
		{"founders", `SELECT COUNT(*) FROM founders WHERE bio <> '' AND country <> '' AND socials <> '{}'`, 20},
		{"listings with 2 founders", `SELECT COUNT(*) FROM (SELECT listing_id FROM listing_founders GROUP BY listing_id HAVING COUNT(*) >= 2)`, 2},
		{"blog posts", `SELECT COUNT(*) FROM blog_posts WHERE markdown LIKE '%## %' AND markdown LIKE '%](%' AND json_array_length(faqs) >= 2`, 10},
		{"interview questions", `SELECT COUNT(*) FROM interview_questions WHERE topic <> ''`, 12},
		{"listings with updates", `SELECT COUNT(DISTINCT listing_id) FROM listing_updates`, 40},
		{"listings with approved alternatives", `SELECT COUNT(DISTINCT listing_id) FROM alternatives WHERE approved_by_owner = 1`, 20},
		{"listings with unknown founding year", `SELECT COUNT(*) FROM listings WHERE founded_year IS NULL AND not_found_on_website LIKE '%founded_year%'`, 20},
		{"listings with blank attributes", `SELECT COUNT(*) FROM listings l WHERE (SELECT COUNT(*) FROM listing_attributes a WHERE a.listing_id = l.id) <
			(SELECT COUNT(*) FROM category_attributes ca JOIN listing_categories lc ON lc.category_id = ca.category_id AND lc.is_primary = 1 WHERE lc.listing_id = l.id)`, 50},
	}
	for _, c := range atLeast {
		if n := queryInt(t, db, c.query); n < c.min {
			t.Errorf("%s = %d, want at least %d", c.name, n, c.min)
		}
	}
	for _, c := range []struct {
		name  string
		query string
	}{
		{"categories deeper than two levels", `SELECT COUNT(*) FROM categories c JOIN categories p ON p.id = c.parent_id WHERE p.parent_id IS NOT NULL`},
		{"categories outside 2-4 FAQs", `SELECT COUNT(*) FROM categories WHERE json_array_length(faqs) NOT BETWEEN 2 AND 4 OR description = ''`},
		{"categories outside 3-6 attributes", `SELECT COUNT(*) FROM categories c WHERE (SELECT COUNT(*) FROM category_attributes a WHERE a.category_id = c.id) NOT BETWEEN 3 AND 6`},
		{"top-level categories outside 2-4 subcategories", `SELECT COUNT(*) FROM categories p WHERE p.parent_id IS NULL AND (SELECT COUNT(*) FROM categories c WHERE c.parent_id = p.id) NOT BETWEEN 2 AND 4`},
		{"listings without exactly one primary category", `SELECT COUNT(*) FROM listings l WHERE (SELECT COUNT(*) FROM listing_categories c WHERE c.listing_id = l.id AND c.is_primary = 1) <> 1`},
		{"free listings with extra categories", `SELECT COUNT(*) FROM listings l WHERE plan = 'free' AND EXISTS (SELECT 1 FROM listing_categories c WHERE c.listing_id = l.id AND c.is_primary = 0)`},
		{"listings with more than 3 extra categories", `SELECT COUNT(*) FROM (SELECT listing_id FROM listing_categories WHERE is_primary = 0 GROUP BY listing_id HAVING COUNT(*) > 3)`},
		{"duplicate domains", `SELECT COUNT(*) - COUNT(DISTINCT domain) FROM listings`},
		{"free listings with paid sections", `SELECT COUNT(*) FROM listings WHERE plan = 'free' AND (story IS NOT NULL OR unlocked_sections <> '[]')`},
		{"votes_count not equal to counted vote rows", `SELECT COUNT(*) FROM listings l WHERE votes_count <> (SELECT COUNT(*) FROM votes v WHERE v.listing_id = l.id AND v.status = 'counted')`},
		{"voted listings without trending score", `SELECT COUNT(*) FROM listings WHERE votes_count > 0 AND trending_score = 0`},
		{"votes in the future", `SELECT COUNT(*) FROM votes WHERE created_at > ?`},
		{"votes before launch", `SELECT COUNT(*) FROM votes v JOIN listings l ON l.id = v.listing_id WHERE v.created_at < l.launched_at`},
		{"launches in the future", `SELECT COUNT(*) FROM listings WHERE launched_at > ?`},
		{"founders without a live listing", `SELECT COUNT(*) FROM founders f WHERE NOT EXISTS (SELECT 1 FROM listing_founders lf JOIN listings l ON l.id = lf.listing_id WHERE lf.founder_id = f.id AND l.status = 'live')`},
	} {
		if n := queryInt(t, db, c.query, demoNow.Unix()); n != 0 {
			t.Errorf("%s: %d", c.name, n)
		}
	}
	// trending_score is TrendingAdd folded over the listing's vote rows.
	rows, err := db.sql.Query(`SELECT l.slug, l.trending_score, v.created_at FROM listings l JOIN votes v ON v.listing_id = l.id AND v.status = 'counted' ORDER BY l.id, v.created_at`)
	if err != nil {
		t.Fatal(err)
	}
	stored, folded := map[string]float64{}, map[string]float64{}
	for rows.Next() {
		var slug string
		var score float64
		var at int64
		if err := rows.Scan(&slug, &score, &at); err != nil {
			t.Fatal(err)
		}
		stored[slug], folded[slug] = score, TrendingAdd(folded[slug], time.Unix(at, 0))
	}
	rows.Close()
	for slug, want := range folded {
		if got := stored[slug]; math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: trending_score %v, want %v from its vote rows", slug, got, want)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(DISTINCT pricing_model) FROM listings`); n != 6 {
		t.Errorf("pricing models = %d, want 6", n)
	}
	trends := queryStrings(t, db, `SELECT DISTINCT CASE WHEN last > first THEN 'up' WHEN last < first THEN 'down' ELSE 'flat' END FROM (
		SELECT (SELECT value FROM domain_ratings d WHERE d.listing_id = x.listing_id ORDER BY date LIMIT 1) AS first,
		       (SELECT value FROM domain_ratings d WHERE d.listing_id = x.listing_id ORDER BY date DESC LIMIT 1) AS last
		FROM (SELECT listing_id FROM domain_ratings GROUP BY listing_id HAVING COUNT(*) BETWEEN 6 AND 12) x)`)
	if len(trends) != 3 {
		t.Errorf("Domain Rating trends = %v, want up, down and flat", trends)
	}
}

func testDemoCalendar(t *testing.T, db *DB) {
	monday := domain.Monday(demoNow)
	for w := -demo.PastWeeks; w <= 0; w++ {
		week := monday.AddDate(0, 0, 7*w)
		n := queryInt(t, db, `SELECT COUNT(*) FROM listings WHERE status = 'live' AND launch_week = ? AND launched_at >= ? AND launched_at < ?`,
			week.Format(domain.DateLayout), week.Unix(), week.AddDate(0, 0, 7).Unix())
		if n < 15 || n > 30 {
			t.Errorf("week %s: %d live launches, want 15-30", week.Format(domain.DateLayout), n)
		}
	}
	for w := 1; w <= demo.FutureWeeks; w++ {
		week := monday.AddDate(0, 0, 7*w).Format(domain.DateLayout)
		if n := queryInt(t, db, `SELECT COUNT(*) FROM listings WHERE status = 'scheduled' AND launch_week = ? AND launched_at IS NULL`, week); n == 0 {
			t.Errorf("week %s: no scheduled launches", week)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM listings WHERE status = 'live' AND (launch_week IS NULL OR launch_week < ?)`,
		monday.AddDate(0, 0, -7*demo.PastWeeks).Format(domain.DateLayout)); n != 0 {
		t.Errorf("%d live listings outside the 13 weeks", n)
	}
	today := time.Date(demoNow.Year(), demoNow.Month(), demoNow.Day(), 0, 0, 0, 0, time.UTC)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM listings WHERE launched_at >= ? AND launched_at <= ?`, today.Unix(), demoNow.Unix()); n < 2 {
		t.Errorf("%d listings launched today, want some", n)
	}
	inWeek := queryInt(t, db, `SELECT COUNT(*) FROM votes v JOIN listings l ON l.id = v.listing_id
		WHERE v.created_at < unixepoch(l.launch_week) + 7 * 86400`)
	if all := queryInt(t, db, `SELECT COUNT(*) FROM votes`); inWeek*10 < all*7 {
		t.Errorf("%d of %d votes within the launch week, want most", inWeek, all)
	}
}

// testDemoAwards checks that the seeder writes no award and that the weekly
// clock, catching up as serve does at start, gives every past week of the demo
// its three awards: the top three of the week's counted votes, as
// WeekLaunches (get_launch_week) ranks them, the week votes recomputed here
// from the vote rows.
func testDemoAwards(t *testing.T, db *DB) {
	ctx := context.Background()
	if n := queryInt(t, db, `SELECT COUNT(*) FROM awards`); n != 0 {
		t.Fatalf("the demo seeder wrote %d awards; awards are the weekly clock's alone", n)
	}
	st, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	svc := domain.NewService(st, demoSite, func() time.Time { return demoNow })
	done, err := svc.TurnWeeks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != demo.PastWeeks {
		t.Errorf("the clock finalised %d weeks, want the %d past weeks", len(done), demo.PastWeeks)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM awards a JOIN sites s ON s.id = a.site_id WHERE s.key = ?`, demoSite.Key); n != 3*demo.PastWeeks {
		t.Errorf("awards = %d, want %d", n, 3*demo.PastWeeks)
	}
	monday := domain.Monday(demoNow)
	for w := 1; w <= demo.PastWeeks; w++ {
		week := monday.AddDate(0, 0, -7*w)
		live, _, err := st.WeekLaunches(ctx, week)
		if err != nil || len(live) < 3 {
			t.Fatalf("week %s: %d launches, %v", week.Format(domain.DateLayout), len(live), err)
		}
		var want []string
		for _, l := range live[:3] {
			counted := queryInt(t, db, `SELECT COUNT(*) FROM votes v JOIN listings l ON l.id = v.listing_id
				WHERE l.slug = ? AND v.status = 'counted' AND v.created_at >= ? AND v.created_at < ?`,
				l.Listing.Slug, week.Unix(), week.AddDate(0, 0, 7).Unix())
			if counted != l.WeekVotes {
				t.Errorf("week %s: %s has %d counted week votes, the week says %d", week.Format(domain.DateLayout), l.Listing.Slug, counted, l.WeekVotes)
			}
			want = append(want, fmt.Sprintf("%d:%s:%d", l.Rank, l.Listing.Slug, l.WeekVotes))
		}
		got := queryStrings(t, db, `SELECT a.rank || ':' || l.slug || ':' || a.votes FROM awards a JOIN listings l ON l.id = a.listing_id
			WHERE a.week = ? AND a.site_id = l.site_id AND l.site_id = (SELECT id FROM sites WHERE key = ?) ORDER BY a.rank`,
			week.Format(domain.DateLayout), demoSite.Key)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("week %s: awards %v, want the top three of the week %v", week.Format(domain.DateLayout), got, want)
		}
	}
}

func testDemoNoteTaking(t *testing.T, db *DB) {
	var tagline, status string
	if err := db.sql.QueryRow(`SELECT tagline, status FROM listings WHERE slug = 'notewise'`).Scan(&tagline, &status); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tagline, "note-taking app") || status != "live" {
		t.Errorf("notewise: tagline %q status %q, want a live note-taking app", tagline, status)
	}
	live := queryInt(t, db, `SELECT COUNT(*) FROM listings l JOIN listing_categories lc ON lc.listing_id = l.id AND lc.is_primary = 1
		JOIN categories c ON c.id = lc.category_id WHERE c.slug = 'note-taking' AND l.status = 'live' AND l.description LIKE '%note-taking app%'`)
	if live < 3 {
		t.Errorf("live note-taking apps = %d, want at least 3", live)
	}
	attrs := func(slug string) string {
		return strings.Join(queryStrings(t, db, `SELECT a.key || '=' || a.value FROM listing_attributes a JOIN listings l ON l.id = a.listing_id
			WHERE l.slug = ? ORDER BY a.key`, slug), "; ")
	}
	a, b, c := attrs("notewise"), attrs("jotstack"), attrs("quillbase")
	if a == "" || a == b || a == c || b == c {
		t.Errorf("note-taking attributes should differ:\nnotewise: %s\njotstack: %s\nquillbase: %s", a, b, c)
	}
}

func TestSeedSynthetic(t *testing.T) {
	t.Parallel()
	// synthListings listings seeded on one goroutine (syntheticDB's template,
	// once per test binary, shared with TestStore_Scale and the summary
	// cache's tests) and counted; SeedSynthetic runs under -race in the
	// template's build and snapDB's, and in TestSeedSynthetic_Golden.
	testtier.SkipRace(t, "synthetic listings seeded and counted")
	db := syntheticDB(t)
	ctx := context.Background()
	if n := queryInt(t, db, `SELECT COUNT(*) FROM listings WHERE status = 'live' AND launched_at <= ?`, fxNow.Unix()); n != synthListings {
		t.Errorf("live synthetic listings = %d, want %d", n, synthListings)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM listing_categories WHERE is_primary = 1`); n != synthListings {
		t.Errorf("primary categories = %d, want %d", n, synthListings)
	}
	// The Zipf spread of the words is TestSynthetic_ZipfSpread in domain/demo.
	// A second call adds more listings without clashing slugs.
	if err := SeedSynthetic(ctx, db, fxSite, 10, fxNow); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM listings`); n != synthListings+10 {
		t.Errorf("listings after second call = %d, want %d", n, synthListings+10)
	}
}
