package tools

import (
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestOwner_DraftEditsKeepListingEdits: once a draft is submitted, editing
// the draft writes only the parts that edit changed to the listing, and
// submitting again writes nothing more, so what the owner changed on the
// listing itself (update_my_listing, a milestone, a paid extra category) is
// not undone.
func TestOwner_DraftEditsKeepListingEdits(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "owner@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
			if st != 201 {
				t.Fatalf("submit_listing: %d %v", st, d)
			}
			draftID := builtDraft(t, env, call, d["id"].(string))["id"]
			st, d = call(t, "submit_draft", map[string]any{"id": draftID})
			if st != 200 {
				t.Fatalf("submit_draft: %d %v", st, d)
			}
			id := int64(d["listing_id"].(float64))
			if st, p := call(t, "update_my_listing", map[string]any{"listing_id": id,
				"fields": map[string]any{"tagline": "The owner's own words"}}); st != 200 {
				t.Fatalf("update_my_listing: %d %v", st, p)
			}
			fixtures.Insert(t, env.db, "milestones", fixtures.Cols{"listing_id": id, "date": "2025-01-01", "title": "First customer"})
			fixtures.ExtraCategory(t, env.db, id, otherCategory(t, env, id))

			if st, p := call(t, "update_draft", map[string]any{"id": draftID, "fields": map[string]any{"city": "Lisbon"}}); st != 200 {
				t.Fatalf("update_draft: %d %v", st, p)
			}
			if st, p := call(t, "submit_draft", map[string]any{"id": draftID}); st != 200 {
				t.Fatalf("submit_draft again: %d %v", st, p)
			}
			if got := listingColumn(t, env, id, "city"); got != "Lisbon" {
				t.Errorf("the draft's edit did not reach the listing: city %q", got)
			}
			if got := listingColumn(t, env, id, "tagline"); got != "The owner's own words" {
				t.Errorf("a draft edit undid the owner's tagline: %q", got)
			}
			if n := fixtures.Count(t, env.db, "milestones", fixtures.Cols{"listing_id": id}); n != 1 {
				t.Errorf("milestones after a draft edit: %d, want 1", n)
			}
			if n := fixtures.Count(t, env.db, "listing_categories", fixtures.Cols{"listing_id": id, "is_primary": 0}); n != 1 {
				t.Errorf("extra categories after a draft edit: %d, want 1", n)
			}

			// A draft edit of the tagline itself is the owner's latest word.
			if st, p := call(t, "update_draft", map[string]any{"id": draftID, "fields": map[string]any{"tagline": "Said in the draft"}}); st != 200 {
				t.Fatalf("update_draft tagline: %d %v", st, p)
			}
			if got := listingColumn(t, env, id, "tagline"); got != "Said in the draft" {
				t.Errorf("tagline sent in the draft: %q", got)
			}
		})
	}
}

// otherCategory is the slug of the first category (by id) listing id is not in.
func otherCategory(t *testing.T, env *catEnv, id int64) string {
	t.Helper()
	in := map[string]bool{}
	for _, r := range fixtures.Rows(t, env.db, "listing_categories", fixtures.Cols{"listing_id": id}) {
		in[r["category_id"]] = true
	}
	for _, c := range fixtures.IDs(t, env.db, "categories", nil) {
		if r := fixtures.Row(t, env.db, "categories", c); !in[r["id"]] {
			return r["slug"]
		}
	}
	t.Fatalf("listing %d is in every category", id)
	return ""
}
