package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestListingAdmin_HiddenLeavesPublicReads: a listing the site team hides
// (docs/console.md "Listings") is gone from every public read over REST and
// MCP - get_listing 404, search_listings, the all-time leaderboard, this
// week's launches - while its owner sees status hidden and the reason in
// get_my_listing and list_my_listings; unhiding brings all of it back.
func TestListingAdmin_HiddenLeavesPublicReads(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.Store.(*storage.Store).PollInterval = 0 // search follows search_log at every query
	key := env.apiKey(t, "owner@example.com")
	id := env.ownedListing(t, "owner@example.com", fixtures.Cols{"slug": "zebrafoxly", "name": "Zebrafoxly", "status": "live",
		"launch_week": "2026-11-16", "launched_at": catNow.Add(-24 * 3600e9).Unix(), "votes_count": 1_000_000,
		"tagline": "Hidden-listing canary"})
	ctx := context.Background()
	if err := env.console.GrantTeamRole(ctx, console.ActorCommandLine, "mod@example.com", console.RoleModerator); err != nil {
		t.Fatal(err)
	}
	const reason = "Misleading claims on the homepage; fix them and tell us."

	// seen reports which public reads show the listing, over one transport.
	seen := func(t *testing.T, call draftCaller) map[string]bool {
		t.Helper()
		has := func(items any) bool {
			list, _ := items.([]any)
			for _, it := range list {
				if m, ok := it.(map[string]any); ok && m["slug"] == "zebrafoxly" {
					return true
				}
			}
			return false
		}
		out := map[string]bool{}
		st, _ := call(t, "get_listing", map[string]any{"slug": "zebrafoxly"})
		out["get_listing"] = st == 200
		if st != 200 && st != 404 {
			t.Fatalf("get_listing: %d", st)
		}
		_, s := call(t, "search_listings", map[string]any{"q": "zebrafoxly"})
		out["search_listings"] = has(s["items"])
		_, b := call(t, "get_leaderboard", map[string]any{"board": "community-all-time"})
		bj, _ := json.Marshal(b["items"])
		out["leaderboard"] = strings.Contains(string(bj), `"zebrafoxly"`)
		_, w := call(t, "get_launch_week", map[string]any{"week": "2026-11-16"})
		wj, _ := json.Marshal(w)
		out["launch_week"] = strings.Contains(string(wj), `"zebrafoxly"`)
		return out
	}
	owner := func(t *testing.T, call draftCaller) (status string, moderation map[string]any) {
		t.Helper()
		st, l := call(t, "get_my_listing", map[string]any{"listing_id": id})
		if st != 200 {
			t.Fatalf("get_my_listing: %d %v", st, l)
		}
		m, _ := l["moderation"].(map[string]any)
		_, list := call(t, "list_my_listings", map[string]any{"per_page": 100})
		for _, it := range list["items"].([]any) {
			if it.(map[string]any)["id"] == float64(id) {
				lm, _ := it.(map[string]any)["moderation"].(map[string]any)
				if (lm == nil) != (m == nil) || lm != nil && lm["reason"] != m["reason"] {
					t.Errorf("list_my_listings moderation %v, get_my_listing %v", lm, m)
				}
			}
		}
		return l["status"].(string), m
	}
	all := func(t *testing.T, got map[string]bool, want bool) {
		t.Helper()
		for read, ok := range got {
			if ok != want {
				t.Errorf("%s shows the listing: %v, want %v", read, ok, want)
			}
		}
	}
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		all(t, seen(t, call), true)
		if st, m := owner(t, call); st != "live" || m != nil {
			t.Fatalf("before hiding: status %s, moderation %v", st, m)
		}
		if err := env.console.HideListing(ctx, "mod@example.com", id, reason); err != nil {
			t.Fatal(err)
		}
		all(t, seen(t, call), false)
		st, m := owner(t, call)
		if st != domain.ListingHidden || m == nil || m["reason"] != reason || m["action"] != "hidden" {
			t.Fatalf("hidden, the owner sees status %s, moderation %v", st, m)
		}
		if err := env.console.UnhideListing(ctx, "mod@example.com", id); err != nil {
			t.Fatal(err)
		}
		all(t, seen(t, call), true)
		if st, m := owner(t, call); st != "live" || m != nil {
			t.Fatalf("unhidden: status %s, moderation %v", st, m)
		}
	})
}

// TestListingAdmin_MergedSlugResolves: after the site team merges a
// duplicate into another listing of the same company, get_listing of the
// duplicate's slug answers the survivor over REST and MCP, and the
// duplicate is in no search.
func TestListingAdmin_MergedSlugResolves(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.Store.(*storage.Store).PollInterval = 0
	key := env.apiKey(t, "owner@example.com")
	keep := env.ownedListing(t, "owner@example.com", fixtures.Cols{"slug": "quokkanote", "name": "Quokkanote", "status": "live",
		"domain": "quokkanote.test", "launch_week": "2026-11-09", "launched_at": catNow.Add(-8 * 24 * 3600e9).Unix()})
	dup := env.ownedListing(t, "owner@example.com", fixtures.Cols{"slug": "quokkanote-app", "name": "Quokkanote App", "status": "live",
		"domain": "quokkanote.test", "launch_week": "2026-11-16", "launched_at": catNow.Add(-24 * 3600e9).Unix()})
	if _, err := env.console.MergeListings(context.Background(), "ops@example.com", dup, keep); err != nil {
		t.Fatal(err)
	}
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		st, l := call(t, "get_listing", map[string]any{"slug": "quokkanote-app"})
		if st != 200 || l["slug"] != "quokkanote" {
			t.Fatalf("get_listing of the merged slug: %d %v", st, l["slug"])
		}
		_, s := call(t, "search_listings", map[string]any{"q": "quokkanote"})
		sj, _ := json.Marshal(s["items"])
		if strings.Contains(string(sj), `"quokkanote-app"`) || !strings.Contains(string(sj), `"quokkanote"`) {
			t.Fatalf("search after the merge: %s", sj)
		}
		st, m := call(t, "get_my_listing", map[string]any{"listing_id": dup})
		if st != 200 || m["status"] != domain.ListingMerged {
			t.Fatalf("the owner's merged listing: %d %v", st, m["status"])
		}
	})
}
