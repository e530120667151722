package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// demoWriter inserts the values of a demo.Dataset inside one transaction.
type demoWriter struct {
	ctx    context.Context
	db     *DB
	tx     *Tx
	siteID int64
	catIDs map[string]int64
	ids    []int64 // listing ids by demo.Listing.Index
	err    error
	batch  *pgBatch // PostgreSQL: statements not sent yet (demo_batch.go)
}

// exec runs a statement unless an earlier one failed.
func (w *demoWriter) exec(query string, args ...any) {
	if w.err != nil || w.queue(query, args...) {
		return
	}
	if _, err := w.tx.ExecContext(w.ctx, query, args...); err != nil {
		w.err = fmt.Errorf("demo data: %s: %w", strings.Fields(query)[0:3], err)
	}
}

// queryID runs a statement that returns one id, unless an earlier one failed.
func (w *demoWriter) queryID(query string, args ...any) int64 {
	var id int64
	w.flush()
	if w.err == nil {
		if err := w.tx.QueryRowContext(w.ctx, query, args...).Scan(&id); err != nil {
			w.err = fmt.Errorf("demo data: %s: %w", strings.Fields(query)[0:3], err)
		}
	}
	return id
}

// prepare prepares a statement for many rows.
func (w *demoWriter) prepare(query string) *Stmt {
	if w.err != nil {
		return nil
	}
	st, err := w.tx.PrepareContext(w.ctx, query)
	if err != nil {
		w.err = fmt.Errorf("demo data: prepare: %w", err)
	}
	return st
}

func (w *demoWriter) run(st *Stmt, args ...any) {
	if w.err != nil || (st.tx != nil && w.queue(st.q, args...)) {
		return
	}
	if _, err := st.ExecContext(w.ctx, args...); err != nil {
		w.err = fmt.Errorf("demo data: insert: %w", err)
	}
}

// js encodes v as JSON text for a JSON column.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain data is encoded
	}
	return string(b)
}

// nullable returns nil for the zero value so the column stays NULL.
func nullable[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

func (w *demoWriter) writeCategories(cats []demo.Category) {
	w.catIDs = map[string]int64{}
	for i, c := range cats {
		var parent any
		if c.Parent != "" {
			parent = w.catIDs[c.Parent]
		}
		id := w.queryID(`INSERT INTO categories (site_id, parent_id, slug, name, description, faqs, position) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			w.siteID, parent, c.Slug, c.Name, c.Description, js(c.FAQs), i)
		w.catIDs[c.Slug] = id
		for j, a := range c.Attrs {
			w.exec(`INSERT INTO category_attributes (category_id, key, label, position) VALUES (?, ?, ?, ?)`, id, a.Key, a.Label, j)
		}
	}
}

func (w *demoWriter) writeListing(l *demo.Listing) {
	company := w.queryID(`INSERT INTO companies (name, domain, created_at) VALUES (?, ?, ?) RETURNING id`, l.Company, l.Domain, l.CreatedAt.Unix())
	var launched, scheduled, week any
	if !l.LaunchedAt.IsZero() {
		launched = l.LaunchedAt.Unix()
	}
	if !l.LaunchWeek.IsZero() {
		week = l.LaunchWeek.Format(domain.DateLayout)
	}
	if l.Status == domain.StatusScheduled {
		scheduled = l.LaunchWeek.Unix()
	}
	var story any
	if l.Story != nil {
		story = js(l.Story)
	}
	unlocked := l.Unlocked
	if unlocked == nil {
		unlocked = []string{}
	}
	notFound := l.NotFound
	if notFound == nil {
		notFound = []string{}
	}
	id := w.queryID(`INSERT INTO listings (site_id, company_id, slug, name, tagline, short_description, description, url, domain, logo_url,
		status, plan, launch_week, launched_at, scheduled_at, featured, stage, pricing_model, pricing_summary, country, city, founded_year,
		contact_email, demo_video_url, keywords, features, usps, faqs, socials, story, unlocked_sections, not_found_on_website, verified,
		trending_score, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		w.siteID, company, l.Slug, l.Name, l.Tagline, l.ShortDesc, l.Description, l.URL, l.Domain, l.LogoURL,
		l.Status, l.Plan, week, launched, scheduled, l.Featured, l.Stage, l.PricingModel, l.PricingSummary, l.Country, l.City, nullable(l.FoundedYear),
		l.Email, l.VideoURL, js(l.Keywords), js(l.Features), js(l.USPs), js(l.FAQs), js(l.Socials), story, js(unlocked), js(notFound), l.Verified,
		0, l.CreatedAt.Unix(), l.UpdatedAt.Unix())
	w.ids[l.Index] = id
	w.exec(`INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`, id, w.catIDs[l.Cat.Slug])
	for _, e := range l.Extra {
		w.exec(`INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 0)`, id, w.catIDs[e])
	}
	for _, k := range slices.Sorted(maps.Keys(l.Attrs)) {
		w.exec(`INSERT INTO listing_attributes (listing_id, key, value) VALUES (?, ?, ?)`, id, k, l.Attrs[k])
	}
	for _, u := range l.Updates {
		w.exec(`INSERT INTO listing_updates (listing_id, title, body, posted_at) VALUES (?, ?, ?, ?)`, id, u.Title, u.Body, u.PostedAt.Unix())
	}
	for _, m := range l.Milestones {
		w.exec(`INSERT INTO milestones (listing_id, date, title, description, url) VALUES (?, ?, ?, ?, ?)`, id, m.Date, m.Title, m.Description, m.URL)
	}
	for i, m := range l.Media {
		w.exec(`INSERT INTO media (listing_id, kind, url, caption, position) VALUES (?, ?, ?, ?, ?)`, id, m.Kind, m.URL, m.Caption, i)
	}
	for _, b := range l.Billboard {
		w.exec(`INSERT INTO billboard_contributions (listing_id, amount_cents, currency, created_at) VALUES (?, ?, 'USD', ?)`, id, b.Cents, b.At.Unix())
	}
	for _, r := range l.Revenue {
		w.exec(`INSERT INTO revenue_figures (listing_id, month, amount_cents, currency) VALUES (?, ?, ?, 'USD')`, id, r.At.Format("2006-01"), r.Cents)
	}
	for _, p := range l.DR {
		// Readings belong to the domain; a second demo site shares them.
		w.exec(`INSERT INTO domain_ratings (domain, listing_id, date, value, source) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (domain, date, source) DO NOTHING`, l.Domain, id, p.Date, p.Value, demo.DRSource)
	}
}

// writeActivity writes the demo people as accounts and what they did: their
// votes, cast under the rules of the votes people cast on the site
// (castDemoVotes), in the order they were cast; their follows and reviews. Views are rows spread
// evenly from launch to now; triggers keep the counters.
func (w *demoWriter) writeActivity(d *demo.Dataset) {
	users := w.writePeople(d.People)
	w.castDemoVotes(d, users)
	follows := w.prepare(`INSERT INTO follows (listing_id, follower_key, created_at) VALUES (?, ?, ?)`)
	reviews := w.prepare(`INSERT INTO reviews (listing_id, user_id, author_name, stars, body, status, held_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	for _, st := range []*Stmt{follows, reviews} {
		if st != nil {
			defer st.Close()
		}
	}
	for _, l := range d.Listings {
		for _, f := range l.Followers {
			w.run(follows, w.ids[l.Index], domain.FollowerKey(users[f.Person]), f.At.Unix())
		}
		for _, r := range l.Reviews {
			status, reason, user := domain.ReviewCounted, "", any(nil)
			if !r.Genuine {
				status, reason = domain.ReviewHeld, domain.HeldFlagged
			}
			if r.Person >= 0 {
				user = users[r.Person]
			}
			w.run(reviews, w.ids[l.Index], user, r.Author, r.Rating, r.Body, status, reason, r.At.Unix())
		}
	}
	// Views are computed in SQL so that tens of thousands of rows cost one
	// statement per listing.
	if w.db != nil && w.db.eng.pricedRoundTrips() {
		w.writeViewsPG(d)
		return
	}
	w.writeViews(d)
}

// writeViews inserts each listing's views, which the views_count_ins
// trigger counts.
func (w *demoWriter) writeViews(d *demo.Dataset) {
	for _, l := range d.Listings {
		if l.LaunchedAt.IsZero() || l.Views == 0 {
			continue
		}
		from, span := l.LaunchedAt.Unix(), max(d.Now.Unix()-l.LaunchedAt.Unix(), 1)
		w.exec(viewsInsert, l.Views, w.ids[l.Index], from, span, l.Views)
	}
}

// viewsInsert inserts a listing's views, spread evenly from its launch to
// now: the arguments are the count, the listing id, the launch, the span and
// the count again.
const viewsInsert = `WITH RECURSIVE n(i) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
	INSERT INTO views (listing_id, viewer_key, created_at) SELECT ?, 'viewer-' || ((i * 7919) % 20000), ? + (i * ?) / ? FROM n`

// writePeople inserts the demo accounts (users are global: a second site
// seeded in the same database shares them) and returns their ids by index.
// They sign in by email only, at addresses that receive no mail, and have no
// sessions: nobody can sign in as them.
func (w *demoWriter) writePeople(people []demo.Person) []int64 {
	ids := make([]int64, len(people))
	w.flush()
	st := w.prepare(`INSERT INTO users (issuer, subject, email, name, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (issuer, subject) DO UPDATE SET name = excluded.name RETURNING id`)
	if st == nil {
		return ids
	}
	defer st.Close()
	for i, p := range people {
		if w.err != nil {
			break
		}
		if err := st.QueryRowContext(w.ctx, auth.EmailIssuer, strings.ToLower(p.Email), p.Email, p.Name, p.CreatedAt.Unix()).Scan(&ids[i]); err != nil {
			w.err = fmt.Errorf("demo data: person %s: %w", p.Email, err)
		}
	}
	return ids
}
