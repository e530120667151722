package tools

import (
	"database/sql"
	"testing"
)

// TestOwner_DraftEditsKeepListingEdits: once a draft is submitted, editing
// the draft writes only the parts that edit changed to the listing, and
// submitting again writes nothing more, so what the owner changed on the
// listing itself (update_my_listing, a milestone, a paid extra category) is
// not undone.
func TestOwner_DraftEditsKeepListingEdits(t *testing.T) {
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
			db, err := sql.Open("sqlite3", env.dbPath+"?_busy_timeout=5000")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`INSERT INTO milestones (listing_id, date, title) VALUES (?, '2025-01-01', 'First customer')`, id); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO listing_categories (listing_id, category_id, is_primary)
				SELECT ?, id, 0 FROM categories WHERE id NOT IN (SELECT category_id FROM listing_categories WHERE listing_id = ?) LIMIT 1`, id, id); err != nil {
				t.Fatal(err)
			}
			count := func(q string) int {
				var n int
				if err := db.QueryRow(q, id).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}

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
			if n := count(`SELECT count(*) FROM milestones WHERE listing_id = ?`); n != 1 {
				t.Errorf("milestones after a draft edit: %d, want 1", n)
			}
			if n := count(`SELECT count(*) FROM listing_categories WHERE listing_id = ? AND is_primary = 0`); n != 1 {
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
