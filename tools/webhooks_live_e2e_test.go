package tools

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestWebhooks_ListingLive: the weekly clock turning to a listing's launch
// week makes the scheduled listing live and raises listing.live, written
// with the go-live, for its owner, once: turning the weeks again raises
// nothing more.
func TestWebhooks_ListingLive(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	ctx := context.Background()
	key := env.apiKey(t, "golive@example.com")
	monday := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // the week after the demo data's
	id := env.ownedListing(t, "golive@example.com", fixtures.Cols{"status": "scheduled", "launch_week": "2026-11-23", "scheduled_at": monday.Unix()})
	slug := slugOf(t, env, id)
	rcvs := hooksFor(t, env, []string{key}, []map[string]any{{"events": []any{"listing.live"}}})
	env.clock.Set(monday.Add(time.Hour))
	for range 2 {
		if _, err := env.svc.TurnWeeks(ctx); err != nil {
			t.Fatal(err)
		}
		env.runJobs(t)
	}
	if st := listingColumn(t, env, id, "status"); st != "live" {
		t.Fatalf("status %s after the week turned, want live", st)
	}
	data := oneHookOf(t, rcvs[0], "listing.live")
	if data["listing_id"] != float64(id) || data["slug"] != slug || data["launched_at"] == nil || data["page_url"] != env.svc.Site.BaseURL+"/listings/"+slug {
		t.Errorf("listing.live data %v, want listing %d (%s) with its page", data, id, slug)
	}
}
