package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/console"
)

// TestCategories_OwnChangeShowsAtOnce: the category counts are cached, and
// while the directory changes a slow count is reused for
// categoryCacheFactor times its cost (a large directory, or a loaded
// machine: under -race on the shared CI machine the demo's count costs more
// than categoryCacheMin). The console's own rename, merge and new category
// must still show at once in get_category and list_categories of this
// process: before, a rename left get_category of the new slug with a
// listing_count of 0 and a merge left the target's count without the
// source's listings until the cache ran out (tools'
// TestE2E_CategoryConsoleThroughAPI failed so under load).
func TestCategories_OwnChangeShowsAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := seededDB(t, demoNow)
	st, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	// slow makes the cached counts count as slow ones, as a large
	// directory's or a loaded machine's do: reused while the log changes.
	slow := func() {
		st.catMu.Lock()
		st.catCost = time.Second
		st.catMu.Unlock()
	}
	liveIn := func(id int64) int {
		t.Helper()
		var n int
		if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(DISTINCT lc.listing_id) FROM listing_categories lc
			JOIN listings l ON l.id = lc.listing_id AND l.status = 'live' WHERE lc.category_id = ?`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	all, err := st.AdminCategories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var leaves []console.AdminCategory
	for _, c := range all {
		hasChild := false
		for _, d := range all {
			hasChild = hasChild || d.ParentID == c.ID
		}
		if !hasChild && liveIn(c.ID) >= 2 {
			leaves = append(leaves, c)
		}
	}
	if len(leaves) < 2 {
		t.Fatalf("the demo has %d leaf categories with two live listings, want 2", len(leaves))
	}
	src, dst := leaves[0], leaves[1]
	entry := func(action string) console.AuditEntry {
		return console.AuditEntry{At: demoNow, Actor: "ops@ex.test", Action: action}
	}

	// Rename: the new slug has the category's listings.
	before, err := st.Category(ctx, dst.Slug)
	if err != nil {
		t.Fatal(err)
	}
	if want := liveIn(dst.ID); before.ListingCount != want || want == 0 {
		t.Fatalf("listing_count of %s: %d, want %d", dst.Slug, before.ListingCount, want)
	}
	slow()
	renamed := dst
	renamed.Slug, renamed.Name = dst.Slug+"-renamed", "Renamed "+dst.Name
	if err := st.SaveCategory(ctx, renamed, console.CategoryNaming, entry("category.rename")); err != nil {
		t.Fatal(err)
	}
	got, err := st.Category(ctx, renamed.Slug)
	if err != nil {
		t.Fatal(err)
	}
	if got.ListingCount != before.ListingCount {
		t.Errorf("listing_count of %s right after the rename: %d, want %d", renamed.Slug, got.ListingCount, before.ListingCount)
	}

	// Merge: the target counts the source's listings.
	slow()
	if _, err := st.MergeCategory(ctx, src.ID, dst.ID, entry("category.merge")); err != nil {
		t.Fatal(err)
	}
	if got, err = st.Category(ctx, renamed.Slug); err != nil {
		t.Fatal(err)
	}
	if want := liveIn(dst.ID); got.ListingCount != want || want <= before.ListingCount {
		t.Errorf("listing_count of %s right after the merge: %d, want %d (%d before it)", renamed.Slug, got.ListingCount, want, before.ListingCount)
	}

	// A new category is listed at once.
	slow()
	if _, err := st.CreateCategory(ctx, console.AdminCategory{Slug: "brand-new", Name: "Brand new"}, entry("category.create")); err != nil {
		t.Fatal(err)
	}
	nodes, err := st.Categories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range nodes {
		found = found || n.Slug == "brand-new"
	}
	if !found {
		t.Errorf("list_categories right after a category was created lacks it")
	}
}
