package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// SeedDemo loads the deterministic demo directory for site, anchored on the
// launch week of now: a two-level category tree, over 300 listings launched
// over the 12 past weeks and this week or scheduled for the 4 next weeks, with
// votes, awards, reviews, billboard contributions, Domain Rating, revenue,
// founders, blog posts and interview questions. The same now gives the same
// data. It does nothing and returns false when the site already has listings.
func SeedDemo(ctx context.Context, db *DB, site domain.Site, now time.Time) (seeded bool, err error) {
	siteID, err := ensureSite(ctx, db, site)
	if err != nil {
		return false, err
	}
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM listings WHERE site_id = ?`, siteID).Scan(&n); err != nil {
		return false, fmt.Errorf("storage: seed demo: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	d := generateDemo(now)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("storage: seed demo: %w", err)
	}
	defer tx.Rollback()
	w := &demoWriter{ctx: ctx, tx: tx, siteID: siteID, ids: make([]int64, len(d.Listings))}
	w.writeCategories(d.Cats)
	for _, l := range d.Listings {
		w.writeListing(l)
	}
	for _, l := range d.Listings {
		for pos, a := range l.Alternatives {
			w.exec(`INSERT INTO alternatives (listing_id, alternative_id, approved_by_owner, position) VALUES (?, ?, 1, ?)`, w.ids[l.Index], w.ids[a], pos)
		}
	}
	for _, a := range d.Awards {
		w.exec(`INSERT INTO awards (site_id, week, rank, listing_id, votes) VALUES (?, ?, ?, ?, ?)`,
			siteID, a.Week.Format(domain.DateLayout), a.Rank, w.ids[a.Listing], a.WeekVotes)
	}
	w.writeActivity(d)
	w.writeFounders(d)
	w.writeContent(d)
	if w.err != nil {
		return false, fmt.Errorf("storage: seed demo: %w", w.err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("storage: seed demo: %w", err)
	}
	return true, nil
}

// writeFounders inserts the founders, ties them to their listings and gives
// those listings the founder's story.
func (w *demoWriter) writeFounders(d *demoData) {
	byName := map[string]*demoListing{}
	for _, l := range d.Listings {
		byName[l.Name] = l
	}
	primary := map[string]bool{}
	for _, f := range demoFounders {
		slug := demoSlug(f.Name)
		bio := fmt.Sprintf("%s is %s of %s. %s %s", f.Name, lowerFirst(f.Title), joinAnd(f.Listings), f.Background, f.Personal)
		socials := map[string]string{"linkedin": "https://www.linkedin.com/in/" + slug, "x": "https://x.com/" + demoSlugPlain(f.Name)}
		if f.GitHub {
			socials["github"] = "https://github.com/" + demoSlugPlain(f.Name)
		}
		// Founders are global: a second site seeded in the same database shares them.
		id := w.queryID(`INSERT INTO founders (slug, name, title, bio, country, city, avatar_url, socials, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (slug) DO UPDATE SET name = excluded.name RETURNING id`,
			slug, f.Name, f.Title, bio, f.Country, f.City, "https://avatars.launchdir.example/"+slug+".png", js(socials), d.Now.AddDate(0, -3, 0).Unix())
		for _, ln := range f.Listings {
			w.exec(`INSERT INTO listing_founders (listing_id, founder_id, role, is_primary) VALUES (?, ?, ?, ?)`,
				w.ids[byName[ln].Index], id, f.Title, !primary[ln])
			primary[ln] = true
		}
	}
}

// assignFounderStories makes each founder's first-named listing a paid listing
// with its story unlocked and written by that founder.
func (d *demoData) assignFounderStories() {
	byName := map[string]*demoListing{}
	for _, l := range d.Listings {
		byName[l.Name] = l
	}
	done := map[string]bool{}
	for _, f := range demoFounders {
		for _, ln := range f.Listings {
			if done[ln] {
				continue
			}
			done[ln] = true
			l := byName[ln]
			st := listingStory(l, f.Name[:indexByte(f.Name, ' ')])
			st.Story = f.Background + " " + st.Story
			l.Plan, l.Story, l.Unlocked = domain.PlanPaid, st, withStory(l.Unlocked)
		}
	}
}

func withStory(unlocked []string) []string {
	for _, s := range unlocked {
		if s == domain.SectionStory {
			return unlocked
		}
	}
	return append([]string{domain.SectionStory}, unlocked...)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return len(s)
}

func demoSlugPlain(name string) string {
	s := demoSlug(name)
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

// writeContent inserts the blog posts and the interview questions.
func (w *demoWriter) writeContent(d *demoData) {
	for _, p := range demoPosts {
		at := d.Now.AddDate(0, 0, -p.DaysAgo).Truncate(time.Hour)
		w.exec(`INSERT INTO blog_posts (site_id, slug, title, excerpt, markdown, author, tags, faqs, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.siteID, p.Slug, p.Title, p.Excerpt, p.Markdown, p.Author, js(p.Tags), js(p.FAQs), at.Unix())
	}
	for i, q := range demoQuestions {
		w.exec(`INSERT INTO interview_questions (site_id, question, topic, position) VALUES (?, ?, ?, ?)`, w.siteID, q.Question, q.Topic, i+1)
	}
}

// demoTrending folds vote times into a trending score with TrendingAdd, as
// votes cast on the site do; 0 means no votes.
func demoTrending(votes []demoVote) float64 {
	score := 0.0
	for _, v := range votes {
		score = TrendingAdd(score, v.At)
	}
	return score
}
