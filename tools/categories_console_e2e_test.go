package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// e2eCategorySlugs returns the slugs of the live listings search_listings
// finds in category (subcategories included), through the API.
func e2eCategorySlugs(t *testing.T, e *e2eEnv, category string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for page := 1; page <= 20; page++ {
		var res domain.SearchListingsOutput
		e.getJSON(t, fmt.Sprintf("/v1/listings?category=%s&per_page=100&page=%d", category, page), &res)
		for _, it := range res.Items {
			out[it.Slug] = true
		}
		if !res.HasMore {
			break
		}
	}
	return out
}

// TestE2E_CategoryConsoleThroughAPI: what the console does to categories
// shows through REST and MCP. After a rename, the old slug still answers
// get_category (REST and MCP, with the current slug in the answer) and
// filters search_listings; after a merge, the target has every live listing
// of both (none lost, none twice) and the merged-away slug leads to it,
// also through a chain (merged into a category renamed before); an edited
// comparison attribute is what compare_listings shows.
func TestE2E_CategoryConsoleThroughAPI(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	ctx := context.Background()
	tree, err := e.console.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two leaf categories with live listings: the source and the target.
	var leaves []console.AdminCategory
	for _, c := range tree {
		hasChild := false
		for _, d := range tree {
			hasChild = hasChild || d.ParentID == c.ID
		}
		if !hasChild && c.Primary >= 2 {
			leaves = append(leaves, c)
		}
	}
	if len(leaves) < 2 {
		t.Fatalf("the demo has %d leaf categories with two primary listings, want 2", len(leaves))
	}
	src, dst := leaves[0], leaves[1]
	srcBefore, dstBefore := e2eCategorySlugs(t, e, src.Slug), e2eCategorySlugs(t, e, dst.Slug)
	union := map[string]bool{}
	for s := range srcBefore {
		union[s] = true
	}
	for s := range dstBefore {
		union[s] = true
	}
	if len(srcBefore) == 0 || len(dstBefore) == 0 {
		t.Fatalf("no live listings in %s (%d) or %s (%d)", src.Slug, len(srcBefore), dst.Slug, len(dstBefore))
	}

	// Rename the target: its old slug keeps answering.
	newSlug := dst.Slug + "-renamed"
	if err := e.console.RenameCategory(ctx, "ops@launchdir.test", dst.ID, "Renamed "+dst.Name, newSlug); err != nil {
		t.Fatal(err)
	}
	var got domain.GetCategoryOutput
	e.getJSON(t, "/v1/categories/"+dst.Slug, &got)
	if got.Category.Slug != newSlug || got.Category.Name != "Renamed "+dst.Name || got.Total != len(dstBefore) {
		t.Errorf("REST get_category %s after the rename: slug %q name %q total %d, want %s, %d listings",
			dst.Slug, got.Category.Slug, got.Category.Name, got.Total, newSlug, len(dstBefore))
	}
	cs := e2eConnect(t, e, "")
	res := e2eCall(t, cs, "get_category", map[string]any{"slug": dst.Slug})
	if res.IsError {
		t.Fatalf("MCP get_category %s after the rename: %s", dst.Slug, e2eResultText(t, res))
	}
	var mcpGot domain.GetCategoryOutput
	if err := json.Unmarshal([]byte(e2eResultText(t, res)), &mcpGot); err != nil {
		t.Fatal(err)
	}
	if mcpGot.Category.Slug != newSlug {
		t.Errorf("MCP get_category %s after the rename: slug %q, want %s", dst.Slug, mcpGot.Category.Slug, newSlug)
	}
	if n := len(e2eCategorySlugs(t, e, dst.Slug)); n != len(dstBefore) {
		t.Errorf("search_listings?category=%s (old slug) finds %d, want %d", dst.Slug, n, len(dstBefore))
	}
	if r := e.do(t, http.MethodGet, "/v1/categories/never-was-a-category", nil, nil); r.status != http.StatusNotFound {
		t.Errorf("an unknown slug: %d, want 404", r.status)
	}

	// Merge the source into the renamed target.
	m, err := e.console.MergeCategory(ctx, "ops@launchdir.test", src.ID, dst.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Moved != src.Listings {
		t.Errorf("the merge moved %d listing links, want the source's %d", m.Moved, src.Listings)
	}
	after := e2eCategorySlugs(t, e, newSlug)
	if len(after) != len(union) {
		t.Errorf("after the merge %s has %d live listings, want %d (source %d + target %d, shared once)",
			newSlug, len(after), len(union), len(srcBefore), len(dstBefore))
	}
	for s := range union {
		if !after[s] {
			t.Errorf("listing %s is lost by the merge", s)
		}
	}
	e.getJSON(t, "/v1/categories/"+newSlug, &got)
	if got.Category.ListingCount != len(union) {
		t.Errorf("listing_count of %s after the merge: %d, want %d", newSlug, got.Category.ListingCount, len(union))
	}
	for _, old := range []string{src.Slug, dst.Slug} {
		e.getJSON(t, "/v1/categories/"+old, &got)
		if got.Category.Slug != newSlug || got.Total != len(union) {
			t.Errorf("get_category %s after the merge: %s with %d listings, want %s with %d", old, got.Category.Slug, got.Total, newSlug, len(union))
		}
		res := e2eCall(t, cs, "get_category", map[string]any{"slug": old})
		if res.IsError || json.Unmarshal([]byte(e2eResultText(t, res)), &mcpGot) != nil || mcpGot.Category.Slug != newSlug {
			t.Errorf("MCP get_category %s after the merge: %s", old, e2eResultText(t, res))
		}
	}
	if n := len(e2eCategorySlugs(t, e, src.Slug)); n != len(union) {
		t.Errorf("search_listings?category=%s (merged away) finds %d, want %d", src.Slug, n, len(union))
	}

	// Edit the comparison attributes: compare_listings shows them.
	var pair []string
	for s := range after {
		var l domain.Listing
		e.getJSON(t, "/v1/listings/"+s, &l)
		if l.PrimaryCategory != nil && l.PrimaryCategory.Slug == newSlug {
			pair = append(pair, s)
		}
		if len(pair) == 2 {
			break
		}
	}
	if len(pair) < 2 {
		t.Fatalf("fewer than two listings have %s as their primary category: %v", newSlug, pair)
	}
	c, err := e.console.AdminCategory(ctx, dst.ID)
	if err != nil {
		t.Fatal(err)
	}
	attrs := []domain.Attribute{{Key: "self_hosted", Label: "Can be self-hosted"}}
	for _, a := range c.Attributes {
		attrs = append(attrs, domain.Attribute{Key: a.Key, Label: "Edited: " + a.Label})
	}
	if err := e.console.SetCategoryAttributes(ctx, "ops@launchdir.test", dst.ID, attrs); err != nil {
		t.Fatal(err)
	}
	var cmp domain.CompareListingsOutput
	e.getJSON(t, "/v1/compare?a="+pair[0]+"&b="+pair[1], &cmp)
	labels := map[string]string{}
	for _, r := range cmp.Rows {
		labels[r.Key] = r.Label
	}
	for _, a := range attrs {
		if labels[a.Key] != a.Label {
			t.Errorf("compare_listings row %s: label %q, want %q (rows %v)", a.Key, labels[a.Key], a.Label, labels)
		}
	}
}
