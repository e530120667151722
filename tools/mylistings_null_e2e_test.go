package tools

import (
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestMyListings_LaunchWeekNull: a listing without a launch week (a draft)
// sends launch_week as null, in get_my_listing and list_my_listings over
// REST and MCP, and a scheduled one sends its Monday; the output schemas
// allow both (the MCP client validates results against them).
func TestMyListings_LaunchWeekNull(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	draft := env.ownedListing(t, "owner@example.com")
	scheduled := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "scheduled", "launch_week": "2026-12-07"})
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		for id, want := range map[int64]any{draft: nil, scheduled: "2026-12-07"} {
			st, l := call(t, "get_my_listing", map[string]any{"listing_id": id})
			if v, ok := l["launch_week"]; st != 200 || !ok || v != want {
				t.Fatalf("get_my_listing %d: launch_week %v (sent: %v), want %v; %d %v", id, v, ok, want, st, l)
			}
		}
		st, list := call(t, "list_my_listings", map[string]any{"per_page": 100})
		seen := 0
		for _, it := range list["items"].([]any) {
			m := it.(map[string]any)
			v, ok := m["launch_week"]
			switch m["id"] {
			case float64(draft):
				seen++
				if !ok || v != nil {
					t.Fatalf("list_my_listings draft: launch_week %v (sent: %v)", v, ok)
				}
			case float64(scheduled):
				seen++
				if v != "2026-12-07" {
					t.Fatalf("list_my_listings scheduled: launch_week %v", v)
				}
			}
		}
		if st != 200 || seen != 2 {
			t.Fatalf("list_my_listings: %d, %d of 2 listings", st, seen)
		}
	})
}
