package storage

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// fixture times: now is a Wednesday; this week starts 2026-11-16.
var (
	fxNow      = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	fxThisWeek = time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	fxLastWeek = time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC)
	fxNextWeek = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
)

var fxSite = domain.Site{Key: "main", Name: "Launchdir", Purpose: "Test directory", BaseURL: "https://launchdir.test"}

// fixtureRows is a small hand-built directory, inserted in this order:
//
//	categories: software > notes, design
//	notely  live free (story unlocked), this week, 3 week votes, primary notes + extra design
//	jotter  live paid, this week (launched today), 1 week vote + 4 last week
//	sketchy live free, last week, primary design
//	drafty  draft (never public)
//	soonly  scheduled for next week, primary notes
var fixtureRows = []struct {
	table string
	cols  []string
	rows  [][]any
}{
	{"companies", []string{"id", "name", "domain", "created_at"}, [][]any{
		{1, "Acme Ltd", "acme.test", 0},
	}},
	{"categories", []string{"id", "site_id", "parent_id", "slug", "name", "description", "faqs", "position"}, [][]any{
		{10, fxParam{"site", 0}, nil, "software", "Software", "All software.", `[{"question":"Q?","answer":"A."}]`, 1},
		{11, fxParam{"site", 0}, 10, "notes", "Notes", "Note-taking apps.", "[]", 1},
		{12, fxParam{"site", 0}, nil, "design", "Design", "Design tools.", "[]", 2},
	}},
	{"category_attributes", []string{"category_id", "key", "label", "position"}, [][]any{
		{11, "offline", "Works offline", 1},
		{11, "platforms", "Platforms", 2},
	}},
	{"listings", []string{"id", "site_id", "company_id", "slug", "name", "tagline", "description", "url", "domain", "status", "plan", "launch_week", "launched_at", "scheduled_at", "featured", "stage", "pricing_model", "country", "keywords", "story", "unlocked_sections", "not_found_on_website", "verified", "trending_score", "created_at", "updated_at"}, [][]any{
		{1, fxParam{"site", 0}, 1, "notely", "Notely", "Markdown notes for teams", "Notely keeps meeting notes in markdown.", "https://notely.test", "notely.test", "live", "free", "2026-11-16", fxParam{"mon10", 0}, nil, 1, "beta", "freemium", "US", `["notes","markdown"]`, `{"title":"How Notely began","story":"We needed notes."}`, `["story"]`, `["founded_year"]`, 1, 0, 0, 0},
		{2, fxParam{"site", 0}, 1, "jotter", "Jotter", "Quick jots on any device", "Jotter captures ideas fast.", "https://jotter.test", "jotter.test", "live", "paid", "2026-11-16", fxParam{"today9", 0}, nil, 0, "growing", "subscription", "DE", `["notes","capture"]`, `{"title":"Jotter story","story":"Paid story."}`, "[]", "[]", 0, 5, 0, 0},
		{3, fxParam{"site", 0}, nil, "sketchy", "Sketchy", "Wireframes in minutes", "Sketchy draws wireframes.", "https://sketchy.test", "sketchy.test", "live", "free", "2026-11-09", fxParam{"lastmon", 0}, nil, 0, "launched", "free", "US", `["design"]`, nil, "[]", "[]", 0, 9, 0, 0},
		{4, fxParam{"site", 0}, nil, "drafty", "Drafty", "Not public yet", "A draft.", "https://drafty.test", "drafty.test", "draft", "free", nil, nil, nil, 0, nil, "", "", "[]", nil, "[]", "[]", 0, 0, 0, 0},
		{5, fxParam{"site", 0}, nil, "soonly", "Soonly", "Notes coming soon", "Soonly launches next week.", "https://soonly.test", "soonly.test", "scheduled", "free", "2026-11-23", nil, fxParam{"nextmon", 0}, 0, "pre-launch", "free", "FR", "[]", nil, "[]", "[]", 0, 0, 0, 0},
	}},
	{"listing_categories", []string{"listing_id", "category_id", "is_primary"}, [][]any{
		{1, 11, 1},
		{1, 12, 0},
		{2, 11, 1},
		{3, 12, 1},
		{4, 11, 1},
		{5, 11, 1},
	}},
	{"listing_attributes", []string{"listing_id", "key", "value"}, [][]any{
		{1, "offline", "Yes"},
		{2, "platforms", "Web"},
	}},
	{"milestones", []string{"listing_id", "date", "title"}, [][]any{
		{1, "2026-01-01", "Notely milestone"},
		{2, "2026-02-01", "Jotter milestone"},
	}},
	{"media", []string{"listing_id", "kind", "url"}, [][]any{
		{1, "image", "https://notely.test/a.png"},
		{2, "video", "https://jotter.test/v.mp4"},
	}},
	{"listing_updates", []string{"listing_id", "title", "body", "posted_at"}, [][]any{
		{1, "v2", "Released v2.", fxParam{"mon10", 0}},
		{1, "v1", "Released v1.", fxParam{"lastmon", 0}},
	}},
	{"reviews", []string{"listing_id", "stars", "status", "held_reason", "created_at"}, [][]any{
		{1, 5, "counted", "", 0},
		{1, 4, "counted", "", 0},
		{1, 1, "held", "flagged", 0},
	}},
	{"domain_ratings", []string{"domain", "date", "value", "source"}, [][]any{
		{"notely.test", "2026-09-01", 40, "ahrefs"},
		{"notely.test", "2026-10-01", 45, "ahrefs"},
		{"notely.test", "2026-11-01", 50, "ahrefs"},
		{"jotter.test", "2026-10-01", 30, "ahrefs"},
		{"jotter.test", "2026-11-01", 20, "ahrefs"},
		{"sketchy.test", "2026-11-01", 70, "ahrefs"},
	}},
	{"votes", []string{"listing_id", "voter_key", "created_at"}, [][]any{
		{1, "v1", fxParam{"mon10", 0}},
		{1, "v2", fxParam{"mon10", 60}},
		{1, "v3", fxParam{"today9", 0}},
		{2, "v1", fxParam{"today9", 0}},
		{2, "v2", fxParam{"lastmon", 0}},
		{2, "v3", fxParam{"lastmon", 0}},
		{2, "v4", fxParam{"lastmon", 0}},
		{2, "v5", fxParam{"lastmon", 0}},
		{3, "v1", fxParam{"lastmon", 0}},
		{3, "v2", fxParam{"lastmon", 0}},
	}},
	{"views", []string{"listing_id", "created_at"}, [][]any{
		{3, 0},
		{3, 0},
		{3, 0},
		{1, 0},
	}},
	{"follows", []string{"listing_id", "follower_key", "created_at"}, [][]any{
		{2, "f1", 0},
		{2, "f2", 0},
		{1, "f1", 0},
	}},
	{"founders", []string{"id", "slug", "name", "title", "bio", "country", "socials", "created_at"}, [][]any{
		{1, "alice-smith", "Alice Smith", "Founder", "Builds note apps.", "US", `{"x":"https://x.test/alice"}`, 0},
		{2, "bob-jones", "Bob Jones", "Maker", "Drafts things.", "DE", "{}", 0},
	}},
	{"listing_founders", []string{"listing_id", "founder_id", "role", "is_primary"}, [][]any{
		{1, 1, "CEO", 1},
		{2, 1, "Advisor", 0},
		{4, 2, "CEO", 1},
	}},
	{"alternatives", []string{"listing_id", "alternative_id", "approved_by_owner"}, [][]any{
		{1, 3, 1},
		{1, 4, 1},
	}},
	{"awards", []string{"site_id", "week", "rank", "listing_id", "votes"}, [][]any{
		{fxParam{"site", 0}, "2026-11-09", 1, 3, 10},
		{fxParam{"site", 0}, "2026-11-09", 2, 2, 4},
		{fxParam{"site", 0}, "2026-11-02", 1, 2, 7},
	}},
	{"billboard_contributions", []string{"listing_id", "amount_cents", "created_at"}, [][]any{
		{2, 123456, 0},
		{2, 100, 0},
		{1, 5000, 0},
	}},
	{"revenue_figures", []string{"listing_id", "month", "amount_cents"}, [][]any{
		{1, "2026-09", 100000},
		{1, "2026-10", 150000},
		{2, "2026-10", 90000},
	}},
	{"blog_posts", []string{"site_id", "slug", "title", "excerpt", "markdown", "author", "tags", "faqs", "published_at"}, [][]any{
		{fxParam{"site", 0}, "launch-tips", "Launch tips", "How to launch.", "# Launch well", "Ann", `["launch","tips"]`, `[{"question":"Q","answer":"A"}]`, fxParam{"lastmon", 0}},
		{fxParam{"site", 0}, "seo-guide", "SEO guide", "Rank better.", "Backlinks and launch pages.", "Ann", `["seo"]`, "[]", fxParam{"mon10", 0}},
		{fxParam{"site", 0}, "secret", "Unpublished launch", "Draft.", "Not yet.", "Ann", "[]", "[]", nil},
	}},
	{"interview_questions", []string{"site_id", "question", "topic", "position"}, [][]any{
		{fxParam{"site", 0}, "Why did you start?", "origin", 2},
		{fxParam{"site", 0}, "What is next?", "future", 3},
		{fxParam{"site", 0}, "Who are you?", "intro", 1},
	}},
}

// fxParam is a time or id known only when the fixture is loaded (see
// newFixture), plus an offset in seconds.
type fxParam struct {
	name   string
	offset int64
}

// newFixture opens a fresh database, loads fixtureRows and returns the store over it.
func newFixture(t *testing.T) (*DB, *Store, string) {
	t.Helper()
	return newFixtureOn(t, "sqlite")
}

// newFixtureOn is newFixture on engine (see openEngine); the path it returns
// is the SQLite file or the PostgreSQL URL.
func newFixtureOn(t *testing.T, engine string, opts ...Option) (*DB, *Store, string) {
	t.Helper()
	db := openEngine(t, engine, opts...)
	path := db.path
	ctx := context.Background()
	siteID, err := ensureSite(ctx, db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"site": siteID, "mon10": fxThisWeek.Add(10 * time.Hour).Unix(),
		"today9": time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC).Unix(), "lastmon": fxLastWeek.Add(10 * time.Hour).Unix(),
		"nextmon": fxNextWeek.Add(9 * time.Hour).Unix()}
	for _, tb := range fixtureRows {
		for _, r := range tb.rows {
			values := map[string]any{}
			for i, c := range tb.cols {
				v := r[i]
				if p, ok := v.(fxParam); ok {
					v = params[p.name] + p.offset
				}
				values[c] = v
			}
			if _, err := db.InsertRow(ctx, tb.table, values); err != nil {
				t.Fatalf("fixture %s %v: %v", tb.table, r, err)
			}
		}
	}
	st, err := NewStore(context.Background(), db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	return db, st, path
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
