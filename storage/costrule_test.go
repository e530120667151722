package storage

import (
	"context"
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
	ctx := context.Background()
	if st.countRule.factor == 0 || st.catRule.factor == 0 {
		t.Fatalf("NewStore's cost rules are off (counts %+v, categories %+v): serve would take every count again at each change", st.countRule, st.catRule)
	}
	var cat int64
	var catSlug string
	if err := db.sql.QueryRowContext(ctx, `SELECT id, slug FROM categories WHERE site_id = ? ORDER BY id LIMIT 1`, st.siteID).Scan(&cat, &catSlug); err != nil {
		t.Fatal(err)
	}
	counts := func() (live, inCat int) {
		t.Helper()
		stats, err := st.SiteStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := st.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if n.Slug == catSlug {
				inCat = n.ListingCount
			}
		}
		return stats.LiveListings, inCat
	}
	// slow makes the counts just taken look slow to compute (a large
	// directory's, or any on a loaded machine).
	slow := func() {
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
	n := 0
	goLive := func() {
		t.Helper()
		n++
		slug := "cost-rule-" + string(rune('a'+n))
		var id int64
		if err := db.sql.QueryRowContext(ctx, `INSERT INTO listings (site_id, slug, name, status, launched_at, created_at, updated_at)
			VALUES (?, ?, ?, 'live', ?, ?, ?) RETURNING id`, st.siteID, slug, slug, fxNow.Unix(), fxNow.Unix(), fxNow.Unix()).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := db.sql.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`, id, cat); err != nil {
			t.Fatal(err)
		}
	}

	live0, cat0 := counts()
	slow()
	goLive()
	if live, inCat := counts(); live != live0 || inCat != cat0 {
		t.Errorf("slow counts after a listing went live, NewStore's rules: %d live, %d in the category; want the cached %d and %d", live, inCat, live0, cat0)
	}

	st.countRule, st.catRule = costRule{}, costRule{}
	if live, inCat := counts(); live != live0+1 || inCat != cat0+1 {
		t.Errorf("slow counts with the cost rules off: %d live, %d in the category; want %d and %d", live, inCat, live0+1, cat0+1)
	}
	slow()
	goLive()
	if live, inCat := counts(); live != live0+2 || inCat != cat0+2 {
		t.Errorf("slow counts after another listing went live, cost rules off: %d live, %d in the category; want %d and %d", live, inCat, live0+2, cat0+2)
	}
}
