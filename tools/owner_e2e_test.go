package tools

import (
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestOwner_ReadListings reads one's own listings over REST and MCP: every
// status, the whole profile, and nothing of anyone else's.
func TestOwner_ReadListings(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	theirs := env.ownedListing(t, "someone@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			id := ownListing(t, env, call, site.URL)
			queued := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "awaiting_badge", "launch_week": "2027-01-04"})

			st, list := call(t, "list_my_listings", map[string]any{"per_page": 100})
			items, _ := list["items"].([]any)
			if st != 200 || len(items) < 2 {
				t.Fatalf("list_my_listings: %d %v", st, list)
			}
			first := items[0].(map[string]any)
			if first["id"] != float64(queued) || first["status"] != "awaiting_badge" || first["launch_week"] != "2027-01-04" {
				t.Fatalf("newest first: %v", first)
			}
			for _, it := range items {
				if it.(map[string]any)["id"] == float64(theirs) {
					t.Fatalf("someone else's listing is listed")
				}
			}

			st, mine := call(t, "get_my_listing", map[string]any{"listing_id": id})
			profile, _ := mine["profile"].(map[string]any)
			if st != 200 || mine["status"] != "draft" || mine["plan"] != "free" || mine["page_url"] != nil ||
				profile == nil || profile["name"] == "" || mine["next"] == "" || fmt.Sprint(mine["unlocked_sections"]) != "[]" {
				t.Fatalf("get_my_listing: %d %v", st, mine)
			}
			if st, p := call(t, "get_my_listing", map[string]any{"listing_id": theirs}); st != 404 || p["code"] != "not_found" {
				t.Fatalf("someone else's listing: %d %v", st, p)
			}
			if st, _ := call(t, "get_my_listing", map[string]any{"listing_id": 999999}); st != 404 {
				t.Fatalf("no such listing: %d", st)
			}
			if st, p := call(t, "get_my_listing", map[string]any{"listing_id": 0}); st != 400 {
				t.Fatalf("listing_id 0: %d %v", st, p)
			}
			if st, _ := call(t, "list_my_listings", map[string]any{"per_page": 101}); st != 400 {
				t.Fatalf("per_page 101: %d", st)
			}
		})
	}
}
