package tools

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestOrders_PaidAfterSiteTakenByOther: a launch bought while nobody else's
// listing of the site was public, and paid after another person's listing
// of the same registrable domain went public (docs/drafts.md, the
// first-to-publish rule), does not go live at fulfilment: the line is "Not
// applied", the listing keeps its status, and the site team gets a
// duplicate_review work item on /admin naming the public listing. The same
// person's launch of another site in the same order goes live.
func TestOrders_PaidAfterSiteTakenByOther(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "second@example.com")
	env.apiKey(t, "first@example.com")
	call := restCaller(env, key)
	ctx := context.Background()

	first := env.ownedListing(t, "first@example.com", fixtures.Cols{"status": "submitted", "name": "Shared Site",
		"url": "https://shared-site.example/", "domain": "shared-site.example"})
	second := env.ownedListing(t, "second@example.com", fixtures.Cols{"status": "submitted",
		"url": "https://app.shared-site.example/", "domain": "app.shared-site.example"})
	other := env.ownedListing(t, "second@example.com", fixtures.Cols{"status": "submitted",
		"url": "https://another-site.example/", "domain": "another-site.example"})

	for _, c := range []struct {
		name string
		week string
	}{{"launch now", ""}, {"launch in a week", "2026-11-30"}} {
		t.Run(c.name, func(t *testing.T) {
			fixtures.Update(t, env.db, "listings", fixtures.Cols{"status": "submitted"}, fixtures.Cols{"id": first})
			for _, id := range []int64{second, other} {
				fixtures.Update(t, env.db, "listings", fixtures.Cols{"status": "submitted", "plan": "free", "launch_week": nil, "scheduled_at": nil, "launched_at": nil}, fixtures.Cols{"id": id})
			}
			item := func(id int64) map[string]any {
				m := map[string]any{"product": "launch", "listing_id": id}
				if c.week != "" {
					m["week"] = c.week
				}
				return m
			}
			st, o := call(t, "create_checkout", map[string]any{"items": []any{item(second), item(other)}})
			if st != 201 {
				t.Fatalf("create_checkout while the site is nobody's in public: %d %v", st, o)
			}
			number := o["number"].(string)
			// The other person publishes first (a free launch going live).
			fixtures.Update(t, env.db, "listings", fixtures.Cols{"status": "live", "launch_week": "2026-11-16"}, fixtures.Cols{"id": first})
			payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Bo Ltd"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
			got := fulfilledOrder(t, env, call, number)
			lines := got["lines"].([]any)
			if out, _ := lines[0].(map[string]any)["outcome"].(string); !strings.HasPrefix(out, "Not applied") || !strings.Contains(out, "shared-site.example") {
				t.Errorf("the duplicate's line: %q, want Not applied naming the site", out)
			}
			if out, _ := lines[1].(map[string]any)["outcome"].(string); strings.HasPrefix(out, "Not applied") {
				t.Errorf("the other site's line: %q, want applied", out)
			}
			listingAfterJobs(t, env, second, "submitted")
			if p := listingColumn(t, env, second, "plan"); p != "free" {
				t.Errorf("the duplicate's plan became %s", p)
			}
			want := "live"
			if c.week != "" {
				want = "scheduled"
			}
			listingAfterJobs(t, env, other, want)
			if n := countRows(t, env, "work_items", fixtures.Cols{"kind": "duplicate_review", "listing_id": second, "order_number": number}); n != 1 {
				t.Fatalf("duplicate_review work items: %d, want 1", n)
			}
			items, err := env.svc.AdminWorkItems(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, w := range items {
				if w.Kind == "duplicate_review" && w.OrderNumber == number {
					found = true
					if w.Details["public_listing_id"] != float64(first) && w.Details["public_listing_id"] != first {
						t.Errorf("work item details %v, want public_listing_id %d", w.Details, first)
					}
				}
			}
			if !found {
				t.Errorf("the duplicate review of %s is not among the open work items /admin shows", number)
			}
		})
	}
}
