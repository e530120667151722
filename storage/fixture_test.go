package storage

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
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

// fixtureSQL is a small hand-built directory:
//
//	categories: software > notes, design
//	notely  live free (story unlocked), this week, 3 week votes, primary notes + extra design
//	jotter  live paid, this week (launched today), 1 week vote + 4 last week
//	sketchy live free, last week, primary design
//	drafty  draft (never public)
//	soonly  scheduled for next week, primary notes
const fixtureSQL = `
INSERT INTO companies (id, name, domain, created_at) VALUES (1, 'Acme Ltd', 'acme.test', 0);
INSERT INTO categories (id, site_id, parent_id, slug, name, description, faqs, position) VALUES
  (10, :site, NULL, 'software', 'Software', 'All software.', '[{"question":"Q?","answer":"A."}]', 1),
  (11, :site, 10, 'notes', 'Notes', 'Note-taking apps.', '[]', 1),
  (12, :site, NULL, 'design', 'Design', 'Design tools.', '[]', 2);
INSERT INTO category_attributes (category_id, key, label, position) VALUES
  (11, 'offline', 'Works offline', 1), (11, 'platforms', 'Platforms', 2);
INSERT INTO listings (id, site_id, company_id, slug, name, tagline, description, url, domain, status, plan,
  launch_week, launched_at, scheduled_at, featured, stage, pricing_model, country, keywords, story,
  unlocked_sections, not_found_on_website, verified, trending_score, created_at, updated_at) VALUES
  (1, :site, 1, 'notely', 'Notely', 'Markdown notes for teams', 'Notely keeps meeting notes in markdown.',
   'https://notely.test', 'notely.test', 'live', 'free', '2026-11-16', :mon10, NULL, 1, 'beta', 'freemium', 'US',
   '["notes","markdown"]', '{"title":"How Notely began","story":"We needed notes."}', '["story"]',
   '["founded_year"]', 1, 0, 0, 0),
  (2, :site, 1, 'jotter', 'Jotter', 'Quick jots on any device', 'Jotter captures ideas fast.',
   'https://jotter.test', 'jotter.test', 'live', 'paid', '2026-11-16', :today9, NULL, 0, 'growing', 'subscription', 'DE',
   '["notes","capture"]', '{"title":"Jotter story","story":"Paid story."}', '[]', '[]', 0, 5, 0, 0),
  (3, :site, NULL, 'sketchy', 'Sketchy', 'Wireframes in minutes', 'Sketchy draws wireframes.',
   'https://sketchy.test', 'sketchy.test', 'live', 'free', '2026-11-09', :lastmon, NULL, 0, 'launched', 'free', 'US',
   '["design"]', NULL, '[]', '[]', 0, 9, 0, 0),
  (4, :site, NULL, 'drafty', 'Drafty', 'Not public yet', 'A draft.', 'https://drafty.test', 'drafty.test',
   'draft', 'free', NULL, NULL, NULL, 0, NULL, '', '', '[]', NULL, '[]', '[]', 0, 0, 0, 0),
  (5, :site, NULL, 'soonly', 'Soonly', 'Notes coming soon', 'Soonly launches next week.', 'https://soonly.test',
   'soonly.test', 'scheduled', 'free', '2026-11-23', NULL, :nextmon, 0, 'pre-launch', 'free', 'FR', '[]', NULL,
   '[]', '[]', 0, 0, 0, 0);
INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES
  (1, 11, 1), (1, 12, 0), (2, 11, 1), (3, 12, 1), (4, 11, 1), (5, 11, 1);
INSERT INTO listing_attributes (listing_id, key, value) VALUES (1, 'offline', 'Yes'), (2, 'platforms', 'Web');
INSERT INTO milestones (listing_id, date, title) VALUES (1, '2026-01-01', 'Notely milestone'), (2, '2026-02-01', 'Jotter milestone');
INSERT INTO media (listing_id, kind, url) VALUES (1, 'image', 'https://notely.test/a.png'), (2, 'video', 'https://jotter.test/v.mp4');
INSERT INTO listing_updates (listing_id, title, body, posted_at) VALUES (1, 'v2', 'Released v2.', :mon10), (1, 'v1', 'Released v1.', :lastmon);
INSERT INTO reviews (listing_id, stars, genuine, created_at) VALUES (1, 5, 1, 0), (1, 4, 1, 0), (1, 1, 0, 0);
INSERT INTO domain_ratings (domain, date, value, source) VALUES
  ('notely.test', '2026-09-01', 40, 'ahrefs'), ('notely.test', '2026-10-01', 45, 'ahrefs'), ('notely.test', '2026-11-01', 50, 'ahrefs'),
  ('jotter.test', '2026-10-01', 30, 'ahrefs'), ('jotter.test', '2026-11-01', 20, 'ahrefs'), ('sketchy.test', '2026-11-01', 70, 'ahrefs');
INSERT INTO votes (listing_id, voter_key, created_at) VALUES
  (1, 'v1', :mon10), (1, 'v2', :mon10 + 60), (1, 'v3', :today9),
  (2, 'v1', :today9), (2, 'v2', :lastmon), (2, 'v3', :lastmon), (2, 'v4', :lastmon), (2, 'v5', :lastmon),
  (3, 'v1', :lastmon), (3, 'v2', :lastmon);
INSERT INTO views (listing_id, created_at) VALUES (3, 0), (3, 0), (3, 0), (1, 0);
INSERT INTO follows (listing_id, follower_key, created_at) VALUES (2, 'f1', 0), (2, 'f2', 0), (1, 'f1', 0);
INSERT INTO founders (id, slug, name, title, bio, country, socials, created_at) VALUES
  (1, 'alice-smith', 'Alice Smith', 'Founder', 'Builds note apps.', 'US', '{"x":"https://x.test/alice"}', 0),
  (2, 'bob-jones', 'Bob Jones', 'Maker', 'Drafts things.', 'DE', '{}', 0);
INSERT INTO listing_founders (listing_id, founder_id, role, is_primary) VALUES (1, 1, 'CEO', 1), (2, 1, 'Advisor', 0), (4, 2, 'CEO', 1);
INSERT INTO alternatives (listing_id, alternative_id, approved_by_owner) VALUES (1, 3, 1), (1, 4, 1);
INSERT INTO awards (site_id, week, rank, listing_id, votes) VALUES
  (:site, '2026-11-09', 1, 3, 10), (:site, '2026-11-09', 2, 2, 4), (:site, '2026-11-02', 1, 2, 7);
INSERT INTO billboard_contributions (listing_id, amount_cents, created_at) VALUES (2, 123456, 0), (2, 100, 0), (1, 5000, 0);
INSERT INTO revenue_figures (listing_id, month, amount_cents) VALUES (1, '2026-09', 100000), (1, '2026-10', 150000), (2, '2026-10', 90000);
INSERT INTO blog_posts (site_id, slug, title, excerpt, markdown, author, tags, faqs, published_at) VALUES
  (:site, 'launch-tips', 'Launch tips', 'How to launch.', '# Launch well', 'Ann', '["launch","tips"]', '[{"question":"Q","answer":"A"}]', :lastmon),
  (:site, 'seo-guide', 'SEO guide', 'Rank better.', 'Backlinks and launch pages.', 'Ann', '["seo"]', '[]', :mon10),
  (:site, 'secret', 'Unpublished launch', 'Draft.', 'Not yet.', 'Ann', '[]', '[]', NULL);
INSERT INTO interview_questions (site_id, question, topic, position) VALUES
  (:site, 'Why did you start?', 'origin', 2), (:site, 'What is next?', 'future', 3), (:site, 'Who are you?', 'intro', 1);
`

// newFixture opens a fresh database, loads fixtureSQL and returns the store over it.
func newFixture(t *testing.T) (*DB, *Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "launchdir.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	siteID, err := ensureSite(ctx, db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	today9 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC).Unix()
	// Parameters are plain integers, substituted into the text: the driver binds
	// arguments per statement, which a multi-statement script cannot use by name.
	text := strings.NewReplacer(":site", itoa(siteID), ":mon10", itoa(fxThisWeek.Add(10*time.Hour).Unix()),
		":today9", itoa(today9), ":lastmon", itoa(fxLastWeek.Add(10*time.Hour).Unix()),
		":nextmon", itoa(fxNextWeek.Add(9*time.Hour).Unix())).Replace(fixtureSQL)
	if _, err = db.sql.ExecContext(ctx, text); err != nil {
		t.Fatal(err)
	}
	st, err := NewStore(context.Background(), db, fxSite)
	if err != nil {
		t.Fatal(err)
	}
	return db, st, path
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
