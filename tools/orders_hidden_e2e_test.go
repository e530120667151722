package tools

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestOrders_PaidAfterHideOrMerge: an order made before the site team hid
// (or merged) its listing and paid afterwards publishes nothing
// (docs/orders.md "Hidden, merged or archived before fulfilment"): the
// listing keeps its status, the line is fulfilled as "Not applied", the team
// gets a refund_review work item on /admin, and unhiding puts back the
// status the listing had before the hide.
func TestOrders_PaidAfterHideOrMerge(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "payer@example.com")
	call := restCaller(env, key)
	ctx := context.Background()
	billing := url.Values{"name": {"Ada GmbH"}, "address": {"Hauptstr. 1, Berlin"}, "country": {"DE"}}

	checkout := func(t *testing.T, item map[string]any) (number, checkoutURL string) {
		t.Helper()
		st, o := call(t, "create_checkout", map[string]any{"items": []any{item}})
		if st != 201 {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		return o["number"].(string), o["checkout_url"].(string)
	}
	notApplied := func(t *testing.T, number string, listing int64) {
		t.Helper()
		o := fulfilledOrder(t, env, call, number)
		for _, l := range o["lines"].([]any) {
			if out, _ := l.(map[string]any)["outcome"].(string); !strings.HasPrefix(out, "Not applied") {
				t.Errorf("line outcome %q, want Not applied", out)
			}
		}
		if n := countRows(t, env, "work_items", fixtures.Cols{"kind": "refund_review", "listing_id": listing, "order_number": number}); n != 1 {
			t.Errorf("refund_review work items for %s: %d, want 1", number, n)
		}
		items, err := env.svc.AdminWorkItems(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, w := range items {
			found = found || w.Kind == "refund_review" && w.OrderNumber == number
		}
		if !found {
			t.Errorf("the refund review of %s is not among the open work items /admin shows", number)
		}
	}

	for _, c := range []struct {
		name   string
		status string
		item   func(id int64) map[string]any
	}{
		{"launch now of a draft", "draft", func(id int64) map[string]any { return map[string]any{"product": "launch", "listing_id": id} }},
		{"launch in a week of a queued listing", "awaiting_badge", func(id int64) map[string]any {
			return map[string]any{"product": "launch", "listing_id": id, "week": "2026-11-30"}
		}},
		{"featured", "draft", func(id int64) map[string]any { return map[string]any{"product": "featured", "listing_id": id} }},
	} {
		t.Run("hidden/"+c.name, func(t *testing.T) {
			id := env.ownedListing(t, "payer@example.com", fixtures.Cols{"status": c.status, "launch_week": "2027-01-04"})
			number, page := checkout(t, c.item(id))
			if err := env.console.HideListing(ctx, "ops@example.com", id, "Spam links in the description."); err != nil {
				t.Fatal(err)
			}
			payOnPage(t, env, page, billing)
			notApplied(t, number, id)
			listingAfterJobs(t, env, id, "hidden")
			if p, f := listingColumn(t, env, id, "plan"), listingColumn(t, env, id, "featured"); p != "free" || f != "0" {
				t.Errorf("hidden listing plan %s featured %s after the payment: changed", p, f)
			}
			if err := env.console.UnhideListing(ctx, "ops@example.com", id); err != nil {
				t.Fatal(err)
			}
			listingAfterJobs(t, env, id, c.status)
		})
	}

	t.Run("unpublished", func(t *testing.T) {
		id := env.ownedListing(t, "payer@example.com")
		number, page := checkout(t, map[string]any{"product": "launch", "listing_id": id})
		if err := env.console.UnpublishListing(ctx, "ops@example.com", id, "Not a software product."); err != nil {
			t.Fatal(err)
		}
		payOnPage(t, env, page, billing)
		notApplied(t, number, id)
		listingAfterJobs(t, env, id, "archived")
		_, o := call(t, "get_order", map[string]any{"number": number})
		if out := o["lines"].([]any)[0].(map[string]any)["outcome"].(string); !strings.Contains(out, "unpublished") || strings.Contains(out, "deleted their account") {
			t.Errorf("outcome %q, want it to say the site team unpublished the listing", out)
		}
	})

	t.Run("merged", func(t *testing.T) {
		keep := env.ownedListing(t, "payer@example.com", fixtures.Cols{"domain": "mergeme.example", "status": "draft"})
		dup := env.ownedListing(t, "payer@example.com", fixtures.Cols{"domain": "mergeme.example", "status": "draft"})
		number, page := checkout(t, map[string]any{"product": "launch", "listing_id": dup})
		if _, err := env.console.MergeListings(ctx, "ops@example.com", dup, keep); err != nil {
			t.Fatal(err)
		}
		payOnPage(t, env, page, billing)
		notApplied(t, number, dup)
		listingAfterJobs(t, env, dup, "merged")
		listingAfterJobs(t, env, keep, "draft")
		if p := listingColumn(t, env, keep, "plan"); p != "free" {
			t.Errorf("the surviving listing's plan became %s", p)
		}
	})
}

// TestOrders_UnhideAfterPaidWeekStarted: a paid launch scheduled for a week
// that starts while the site team has the listing hidden does not go live
// then (the week-start job finds it hidden); unhiding it afterwards puts it
// where it would be had it not been hidden - live, launched at the unhide -
// rather than scheduled for a week that is over, which nothing would start.
func TestOrders_UnhideAfterPaidWeekStarted(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock := withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "payer@example.com")
	call := restCaller(env, key)
	ctx := context.Background()
	id := env.ownedListing(t, "payer@example.com")
	st, o := call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": id, "week": "2026-11-30"}}})
	if st != 201 {
		t.Fatalf("create_checkout: %d %v", st, o)
	}
	payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Bo Ltd"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
	fulfilledOrder(t, env, call, o["number"].(string))
	listingAfterJobs(t, env, id, "scheduled")
	if err := env.console.HideListing(ctx, "ops@example.com", id, "Checking a complaint."); err != nil {
		t.Fatal(err)
	}
	monday, _ := time.Parse(time.DateOnly, "2026-11-30")
	clock.Set(monday.Add(time.Hour))
	listingAfterJobs(t, env, id, "hidden") // the week started: nothing sets a hidden listing live
	clock.Set(monday.Add(26 * time.Hour))
	if err := env.console.UnhideListing(ctx, "ops@example.com", id); err != nil {
		t.Fatal(err)
	}
	listingAfterJobs(t, env, id, "live")
	if w, at := listingColumn(t, env, id, "launch_week"), listingColumn(t, env, id, "launched_at"); w != "2026-11-30" || at != fmt.Sprint(monday.Add(26*time.Hour).Unix()) {
		t.Errorf("unhidden after its week started: launch_week %s launched_at %s, want 2026-11-30 and the unhide's time", w, at)
	}

	// A paid launch whose week has not started is scheduled again, as it was.
	later := env.ownedListing(t, "payer@example.com", fixtures.Cols{"status": "scheduled", "plan": "paid", "launch_week": "2026-12-14"})
	if err := env.console.HideListing(ctx, "ops@example.com", later, "Checking a complaint."); err != nil {
		t.Fatal(err)
	}
	if err := env.console.UnhideListing(ctx, "ops@example.com", later); err != nil {
		t.Fatal(err)
	}
	listingAfterJobs(t, env, later, "scheduled")
}
