package storage_test

import (
	"context"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestSearch_CategoryRename checks that a category's name is searchable in
// every listing of the category and of its subcategories
// and stays so after a rename, although the rename logs only the listings
// whose primary category it is: "finance" holds listings through its
// subcategories (invoicing, accounting, ...), none of which is logged.
func TestSearch_CategoryRename(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := storage.NewStore(ctx, fixtures.OpenSeeded(t, fixtures.DemoSeeded), fixtures.Site)
	if err != nil {
		t.Fatal(err)
	}
	_, inTree, err := st.SearchListings(ctx, domain.ListingQuery{Category: "finance", Sort: "votes", Limit: 1})
	if err != nil || inTree < 20 {
		t.Fatalf("finance and its subcategories: %d live listings (%v), want >= 20", inTree, err)
	}
	count := func(q string) int {
		t.Helper()
		_, n, err := st.SearchListings(ctx, domain.ListingQuery{Q: q, Sort: "relevance", Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	cats, err := st.AdminCategories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var fin *console.AdminCategory
	for i := range cats {
		if cats[i].Slug == "finance" {
			fin = &cats[i]
		}
	}
	if fin == nil {
		t.Fatal("no finance category")
	}
	c, err := st.AdminCategory(ctx, fin.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := count("zorblatic"); n != 0 {
		t.Fatalf("zorblatic before the rename: %d listings", n)
	}
	c.Name = "Zorblatic Money"
	if err := st.SaveCategory(ctx, *c, console.CategoryNaming, console.AuditEntry{Actor: "ops@ex.test", Action: "category.rename", Target: "category:finance"}); err != nil {
		t.Fatal(err)
	}
	if n := count("zorblatic"); n != inTree {
		t.Errorf("zorblatic after renaming finance: %d listings, want the %d of finance and its subcategories", n, inTree)
	}
}
