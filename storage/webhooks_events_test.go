package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestStore_ModeratorCountRaisesReviewPosted: a moderator counting a held
// review publishes it, so review.posted is written with the decision for the
// listing's owner with an endpoint subscribed; hiding and showing it again
// raises nothing more.
func TestStore_ModeratorCountRaisesReviewPosted(t *testing.T) {
	t.Parallel()
	f := newModFixture(t)
	ctx := context.Background()
	owner := f.user("owner@example.com", fxNow.Add(-30*24*time.Hour))
	putRow(t, f.db, "listing_owners", cols{"listing_id": 1, "user_id": owner, "created_at": 0})
	putRow(t, f.db, "webhook_endpoints", cols{"site_id": f.st.siteID, "user_id": owner, "url": "https://hooks.example.com/",
		"events": `["review.posted"]`, "secret": "whsec_x", "secret_prefix": "whsec_x", "created_at": 0, "updated_at": 0})
	held := putRow(t, f.db, "reviews", cols{"listing_id": 1, "author_name": "Gil", "stars": 4,
		"body": "A review long enough to count.", "status": "held", "held_reason": "burst", "created_at": fxNow.Unix()})
	events := func() []Row {
		return f.rows("webhook_events", cols{"user_id": owner, "type": domain.EventReviewPosted})
	}
	if err := f.st.DecideReview(ctx, "team@example.com", held, console.ModCountReview, fxNow); err != nil {
		t.Fatal(err)
	}
	if ev := events(); len(ev) != 1 || ev[0]["listing_id"] != "1" {
		t.Fatalf("review.posted rows after counting: %v, want one for listing 1", ev)
	}
	for _, a := range []string{console.ModHideReview, console.ModUnhideReview} {
		if err := f.st.DecideReview(ctx, "team@example.com", held, a, fxNow); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(events()); n != 1 {
		t.Errorf("%d review.posted rows after hide and unhide, want still 1", n)
	}
}
