package domain_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// countingCategories is the real store, counting the calls of Categories
// (the live listing counts: a query joining every live listing).
type countingCategories struct {
	domain.Store
	calls atomic.Int64
}

func (c *countingCategories) Categories(ctx context.Context) ([]domain.CategoryNode, error) {
	c.calls.Add(1)
	return c.Store.Categories(ctx)
}

// TestUpdateDraft_NoListingCounts: update_draft checks a category against
// the category tree without counting every category's live listings
// (CategoryTree, not Categories). The counts were recounted after any
// listing change, by each serving process, for every draft edit of the
// write mix of BenchmarkProcesses (issue 36; docs/scaling.md). Before
// CategoryTree, UpdateDraft called Categories once per edit.
func TestUpdateDraft_NoListingCounts(t *testing.T) {
	t.Parallel()
	env := newEnvOn(t, "sqlite", true)
	ctx := fixtures.Caller(t, env.DB, context.Background(), "owner@example.com")
	owner := fixtures.ID(t, env.DB, "users", fixtures.Cols{"email": "owner@example.com"})
	ready := fixtures.Draft(t, env.Store, owner, "https://acme.test/", domain.DraftReady)

	counted, err := env.Store.Categories(context.Background())
	if err != nil || len(counted) < 2 {
		t.Fatalf("categories: %d, %v", len(counted), err)
	}
	tree, err := env.Store.CategoryTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) != len(counted) {
		t.Fatalf("CategoryTree has %d categories, Categories %d", len(tree), len(counted))
	}
	for i, n := range tree {
		c := counted[i]
		c.ListingCount = 0
		if n.Slug != c.Slug || n.Name != c.Name || n.Parent != c.Parent || n.ListingCount != 0 {
			t.Fatalf("CategoryTree[%d] = %+v, want %+v (Categories' without its count)", i, n, c)
		}
	}

	st := &countingCategories{Store: env.Service.Store}
	env.Service.Store = st
	pick := counted[len(counted)-1]
	update := func(category string) error {
		body, _ := json.Marshal(map[string]any{"fields": map[string]any{"categories": []string{category}}})
		var in domain.UpdateDraftInput
		if err := json.Unmarshal(body, &in); err != nil {
			t.Fatal(err)
		}
		in.ID = ready
		_, err := env.Service.UpdateDraft(ctx, in)
		return err
	}
	if err := update(pick.Name); err != nil {
		t.Fatalf("update_draft with category %q: %v", pick.Name, err)
	}
	wantRule(t, update("No Such Category"), "fields.categories[0]", "enum")
	if n := st.calls.Load(); n != 0 {
		t.Fatalf("update_draft counted the categories' live listings %d times, want 0 (CategoryTree)", n)
	}
}
