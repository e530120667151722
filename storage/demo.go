package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// SeedDemo loads the deterministic demo directory of demo.Generate(now) for
// site: a two-level category tree, over 300 listings launched over the 12 past
// weeks and this week or scheduled for the 4 next weeks, with votes, reviews,
// billboard contributions, Domain Rating, revenue, founders, blog posts and
// interview questions. It writes no award: the weekly clock decides them
// (docs/weeks.md). The same now gives the same data. It does
// nothing and returns false when the site already has listings.
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
	if err := db.forgetSnapshot(ctx); err != nil {
		return false, err
	}
	if err := writeDemo(ctx, db, siteID, demo.Generate(now)); err != nil {
		return false, fmt.Errorf("storage: seed demo: %w", err)
	}
	return true, nil
}

// writeDemo writes d for the site in one transaction. It is not retried
// (DB.inTx): the seed is single-writer by construction, run by `seed --demo`
// or serve --demo on an empty site before anything serves it, so no
// concurrent transaction can conflict with it.
func writeDemo(ctx context.Context, db *DB, siteID int64, d *demo.Dataset) error {
	tx, release, err := db.beginSeed(ctx)
	if err != nil {
		return err
	}
	defer release()
	defer tx.Rollback()
	w := &demoWriter{ctx: ctx, db: db, tx: tx, siteID: siteID, ids: make([]int64, len(d.Listings))}
	w.writeCategories(d.Cats)
	for _, l := range d.Listings {
		w.writeListing(l)
	}
	for _, l := range d.Listings {
		for pos, a := range l.Alternatives {
			w.exec(`INSERT INTO alternatives (listing_id, alternative_id, approved_by_owner, position) VALUES (?, ?, 1, ?)`, w.ids[l.Index], w.ids[a], pos)
		}
	}
	w.writeActivity(d)
	w.writeFounders(d.Founders)
	w.writeContent(d)
	w.writeFounders(d.Teams)
	w.writeTrophies(d) // demo_trophies.go
	w.flush()
	w.writeProgrammes(d) // demo_programmes.go (flushes before each read of the transaction)
	w.flush()
	if w.err != nil {
		return w.err
	}
	return tx.Commit()
}

// writeFounders inserts the founders and ties them to their listings.
func (w *demoWriter) writeFounders(founders []demo.Founder) {
	for _, f := range founders {
		// Founders are global: a second site seeded in the same database shares them.
		id := w.queryID(`INSERT INTO founders (slug, name, title, bio, country, city, avatar_url, socials, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (slug) DO UPDATE SET name = excluded.name RETURNING id`,
			f.Slug, f.Name, f.Title, f.Bio, f.Country, f.City, f.AvatarURL, js(f.Socials), f.CreatedAt.Unix())
		for _, of := range f.Listings {
			w.exec(`INSERT INTO listing_founders (listing_id, founder_id, role, is_primary) VALUES (?, ?, ?, ?)`,
				w.ids[of.Listing], id, f.Title, of.Primary)
		}
	}
}

// writeContent inserts the blog posts and the interview questions.
func (w *demoWriter) writeContent(d *demo.Dataset) {
	for _, p := range d.Posts {
		w.exec(`INSERT INTO blog_posts (site_id, slug, title, excerpt, markdown, author, tags, faqs, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.siteID, p.Slug, p.Title, p.Excerpt, p.Markdown, p.Author, js(p.Tags), js(p.FAQs), p.PublishedAt.Unix())
	}
	for i, q := range d.Questions {
		w.exec(`INSERT INTO interview_questions (site_id, question, topic, position) VALUES (?, ?, ?, ?)`, w.siteID, q.Question, q.Topic, i+1)
	}
}
