package tools

import (
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
	id, slug, rcv := weekClockHooks(t, env, "golive@example.com",
		fixtures.Cols{"status": "scheduled", "launch_week": "2026-11-23", "scheduled_at": weekAfterDemo.Unix()}, "listing.live")
	turnWeeksTwiceAt(t, env, weekAfterDemo.Add(time.Hour))
	if st := listingColumn(t, env, id, "status"); st != "live" {
		t.Fatalf("status %s after the week turned, want live", st)
	}
	data := oneHookOf(t, rcv, "listing.live")
	if data["listing_id"] != float64(id) || data["slug"] != slug || data["launched_at"] == nil || data["page_url"] != env.svc.Site.BaseURL+"/listings/"+slug {
		t.Errorf("listing.live data %v, want listing %d (%s) with its page", data, id, slug)
	}
}
