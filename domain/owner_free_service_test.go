package domain_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestService_ChooseFreeListing checks each rule of choose_free_listing
// against a real SQLite file and PostgreSQL: one subtest per listing state that cannot
// join the free queue (conflict), someone else's listing (not found), full
// weeks, and a join that reads the homepage and waits for the badge.
func TestService_ChooseFreeListing(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<!doctype html><html><head><title>Acme</title></head><body><h1>Acme</h1><p>No badge yet.</p></body></html>`))
		}))
		t.Cleanup(home.Close)
		pages := fetch.New(fetch.Options{AllowLoopback: true})
		t.Cleanup(pages.Close)
		env.Service.Owner.Pages = pages
		// The demo's upcoming free launches move to the paid plan: the free weeks start empty.
		for _, status := range []string{"awaiting_badge", "scheduled"} {
			fixtures.Update(t, env.DB, "listings", fixtures.Cols{"plan": "paid"}, fixtures.Cols{"plan": "free", "status": status})
		}
		ctx := fixtures.Caller(t, env.DB, context.Background(), "founder@example.com")
		fixtures.User(t, env.DB, "stranger@example.com")
		mine := func(cols fixtures.Cols) int64 {
			row := fixtures.Cols{"url": home.URL + "/"}
			for k, v := range cols {
				row[k] = v
			}
			return fixtures.Listing(t, env.DB, "founder@example.com", row)
		}

		for _, c := range []struct {
			name string
			id   func() int64
			code domain.Code
		}{
			{"NotYours", func() int64 { return fixtures.Listing(t, env.DB, "stranger@example.com", nil) }, domain.ENotFound},
			{"NoSuchListing", func() int64 { return 99999999 }, domain.ENotFound},
			// A free listing already scheduled or live: the repeat answers its
			// state and changes nothing (choose_free_listing is idempotent).
			{"ScheduledRepeat", func() int64 { return mine(fixtures.Cols{"status": "scheduled", "launch_week": "2027-01-04"}) }, ""},
			{"LiveRepeat", func() int64 { return mine(fixtures.Cols{"status": "live"}) }, ""},
			{"Paid", func() int64 { return mine(fixtures.Cols{"plan": "paid"}) }, domain.EConflict},
			{"PaidLive", func() int64 { return mine(fixtures.Cols{"plan": "paid", "status": "live"}) }, domain.EConflict},
			{"Rejected", func() int64 { return mine(fixtures.Cols{"status": "rejected"}) }, domain.EConflict},
			{"Archived", func() int64 { return mine(fixtures.Cols{"status": "archived"}) }, domain.EConflict},
		} {
			t.Run(c.name, func(t *testing.T) {
				id := c.id()
				before := fixtures.Count(t, env.DB, "free_queue", nil)
				_, err := env.Service.ChooseFreeListing(ctx, domain.ChooseFreeListingInput{ListingID: id})
				wantCode(t, err, c.code)
				if fixtures.Count(t, env.DB, "free_queue", nil) != before || fixtures.Count(t, env.DB, "badge_checks", fixtures.Cols{"listing_id": id}) != 0 {
					t.Fatalf("a refused or repeated choice queued the listing or checked its badge")
				}
			})
		}
		t.Run("Unauthenticated", func(t *testing.T) {
			_, err := env.Service.ChooseFreeListing(context.Background(), domain.ChooseFreeListingInput{ListingID: mine(nil)})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("OK", func(t *testing.T) {
			id := mine(nil)
			f, err := env.Service.ChooseFreeListing(ctx, domain.ChooseFreeListingInput{ListingID: id})
			if err != nil || f.Status != domain.ListingAwaitingBadge || f.LaunchWeek == nil || f.QueuePosition != 1 {
				t.Fatalf("choose: %+v %v", f, err)
			}
			if n := fixtures.Count(t, env.DB, "badge_checks", fixtures.Cols{"listing_id": id}); n != 1 {
				t.Fatalf("badge checks after choosing: %d, want 1", n)
			}
		})
		t.Run("WeeksFull", func(t *testing.T) {
			fixtures.SiteSetting(t, env.DB, "free_week_capacity", 1)
			fixtures.SiteSetting(t, env.DB, "free_weeks_max", 6)
			fixtures.SiteSetting(t, env.DB, "free_weeks_min", 6)
			id := mine(nil)
			_, err := env.Service.ChooseFreeListing(ctx, domain.ChooseFreeListingInput{ListingID: id})
			wantCode(t, err, domain.EConflict)
			if fixtures.Count(t, env.DB, "free_queue", fixtures.Cols{"listing_id": id}) != 0 {
				t.Fatalf("a listing joined full weeks")
			}
		})
	})
}
