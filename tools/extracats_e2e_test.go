package tools

import (
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestDrafts_PaidExtraCategoryBecomesPrimary: when a draft edit makes one of
// the listing's paid extra categories its primary one, the two swap: the old
// primary takes the paid slot, so the listing keeps every category paid for.
func TestDrafts_PaidExtraCategoryBecomesPrimary(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	call := restCaller(env, env.apiKey(t, "owner@example.com"))
	st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, d)
	}
	draftID := builtDraft(t, env, call, d["id"].(string))["id"]
	if st, d = call(t, "submit_draft", map[string]any{"id": draftID}); st != 200 {
		t.Fatalf("submit_draft: %d %v", st, d)
	}
	id := int64(d["listing_id"].(float64))

	// categories returns the listing's category slugs, the primary first.
	categories := func() (string, []string) {
		t.Helper()
		st, l := call(t, "get_my_listing", map[string]any{"listing_id": id})
		if st != 200 {
			t.Fatalf("get_my_listing: %d %v", st, l)
		}
		primary, extra := "", []string{}
		for _, c := range l["profile"].(map[string]any)["categories"].([]any) {
			c := c.(map[string]any)
			if c["primary"] == true {
				primary = c["slug"].(string)
			} else {
				extra = append(extra, c["slug"].(string))
			}
		}
		return primary, extra
	}
	oldPrimary, extra := categories()
	if oldPrimary == "" || len(extra) != 0 {
		t.Fatalf("submitted listing: primary %q, extra %v; want a primary and no extra", oldPrimary, extra)
	}

	// The listing is paid and has bought one extra category (as order
	// fulfilment writes it).
	var paidSlug, paidName string
	for _, c := range fixtures.IDs(t, env.db, "categories", nil) {
		if r := fixtures.Row(t, env.db, "categories", c); r["slug"] != oldPrimary {
			paidSlug, paidName = r["slug"], r["name"]
			break
		}
	}
	fixtures.Update(t, env.db, "listings", fixtures.Cols{"plan": "paid"}, fixtures.Cols{"id": id})
	fixtures.ExtraCategory(t, env.db, id, paidSlug)

	if st, p := call(t, "update_draft", map[string]any{"id": draftID, "fields": map[string]any{"categories": []any{paidName}}}); st != 200 {
		t.Fatalf("update_draft categories: %d %v", st, p)
	}
	primary, extra := categories()
	if primary != paidSlug || len(extra) != 1 || extra[0] != oldPrimary {
		t.Errorf("after making the paid extra %s primary: primary %q, extra %v; want primary %s and the old primary %s in the paid slot",
			paidSlug, primary, extra, paidSlug, oldPrimary)
	}
}
