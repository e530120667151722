package tools

import (
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestBadges_NameOfTheListing: get_badges answers the listing's name beside
// its slug, over REST and MCP, so that the badge card's heading can say
// "Badges for <name>" (web/apps/src/badges.js) as every other card names a
// listing; before, it had only the slug, and the card's heading showed
// "Badges for hale-co-bikes-1234".
func TestBadges_NameOfTheListing(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	const email = "badgename@example.com"
	key := env.apiKey(t, email)
	id := env.ownedListing(t, email, fixtures.Cols{"status": "live", "name": "Hale & Co. Bikes", "launch_week": "2026-11-09",
		"launched_at": catNow.Add(-48 * time.Hour).Unix()})
	slug := listingColumn(t, env, id, "slug")
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		st, out := call(t, "get_badges", map[string]any{"slug": slug})
		if st != 200 || out["listing"] != slug || out["name"] != "Hale & Co. Bikes" {
			t.Fatalf("get_badges over %s: %d listing %v name %v, want %s named Hale & Co. Bikes", tr, st, out["listing"], out["name"], slug)
		}
	})
}
