package storage

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// TestStore_CostRule: the cost rule of the cached counts is one mechanism,
// set by NewStore for every Store (serve's too): the site's counts and the
// category counts, when taking them was slow, are reused although a listing
// went live since (a large directory's counts lag instead of being taken
// again at each change); a Store whose rules are costRule{} (factor 0, as the
// seq rule's tests set them) takes them again at once. Before, the rule had
// a second switch on top of it (slowCountsStale) that tests flipped.
func TestStore_CostRule(t *testing.T) {
	t.Parallel()
	db, st, _ := newFixture(t)
	if st.countRule.factor == 0 || st.catRule.factor == 0 {
		t.Fatalf("NewStore's cost rules are off (counts %+v, categories %+v): serve would take every count again at each change", st.countRule, st.catRule)
	}
	p := newCountsProbe(t, db, st)
	live0, cat0 := p.counts()
	p.slow()
	p.goLive(db.sql, "cost-rule-b")
	if live, inCat := p.counts(); live != live0 || inCat != cat0 {
		t.Errorf("slow counts after a listing went live, NewStore's rules: %d live, %d in the category; want the cached %d and %d", live, inCat, live0, cat0)
	}

	st.countRule, st.catRule = costRule{}, costRule{}
	if live, inCat := p.counts(); live != live0+1 || inCat != cat0+1 {
		t.Errorf("slow counts with the cost rules off: %d live, %d in the category; want %d and %d", live, inCat, live0+1, cat0+1)
	}
	p.slow()
	p.goLive(db.sql, "cost-rule-c")
	if live, inCat := p.counts(); live != live0+2 || inCat != cat0+2 {
		t.Errorf("slow counts after another listing went live, cost rules off: %d live, %d in the category; want %d and %d", live, inCat, live0+2, cat0+2)
	}
}

// countsProbe reads and moves the counts that the cost-rule and late-commit
// tests compare: the site's live listings and those of its first category.
type countsProbe struct {
	t       *testing.T
	st      *Store
	cat     int64
	catSlug string
}

func newCountsProbe(t *testing.T, db *DB, st *Store) *countsProbe {
	t.Helper()
	p := &countsProbe{t: t, st: st}
	if err := db.sql.QueryRowContext(context.Background(), `SELECT id, slug FROM categories WHERE site_id = ? ORDER BY id LIMIT 1`, st.siteID).Scan(&p.cat, &p.catSlug); err != nil {
		t.Fatal(err)
	}
	return p
}

// counts returns the site's live listings and the category's, as the Store
// answers them (from its caches when its rules allow).
func (p *countsProbe) counts() (live, inCat int) {
	p.t.Helper()
	ctx := context.Background()
	stats, err := p.st.SiteStats(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	nodes, err := p.st.Categories(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, n := range nodes {
		if n.Slug == p.catSlug {
			inCat = n.ListingCount
		}
	}
	return stats.LiveListings, inCat
}

// slow makes the counts just taken look slow to compute (a large
// directory's, or any on a loaded machine).
func (p *countsProbe) slow() {
	st := p.st
	st.countMu.Lock()
	for k, e := range st.counts {
		e.cost = time.Second
		st.counts[k] = e
	}
	st.countMu.Unlock()
	st.catMu.Lock()
	st.catCost = time.Second
	st.catMu.Unlock()
}

// goLive inserts a live listing named slug in the category through q (the
// database or an open transaction).
func (p *countsProbe) goLive(q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, slug string) {
	p.t.Helper()
	ctx := context.Background()
	var id int64
	if err := q.QueryRowContext(ctx, `INSERT INTO listings (site_id, slug, name, status, launched_at, created_at, updated_at)
		VALUES (?, ?, ?, 'live', ?, ?, ?) RETURNING id`, p.st.siteID, slug, slug, fxNow.Unix(), fxNow.Unix(), fxNow.Unix()).Scan(&id); err != nil {
		p.t.Fatal(err)
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`, id, p.cat); err != nil {
		p.t.Fatal(err)
	}
}
