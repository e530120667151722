package tools

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophyProducts_CheckoutPaidFulfilled (issue 33 item 5): the
// trophy-cabinet products are ordinary products. Over REST and MCP an owner
// finds trophy_cabinet and trophy_verification in list_products with their
// prices, quotes them, checks out, the person pays on the checkout page, and
// the paid order is fulfilled as docs/orders.md says: trophy_cabinet
// unlocks the listing's trophies section (get_my_listing), and
// trophy_verification is a work item for the site team with the award's
// name and address. Bad options are a 400 naming the option; trophy_cabinet
// for a listing that has the section already is refused (nothing to buy),
// and nothing is stored for a refused order.
func TestTrophyProducts_CheckoutPaidFulfilled(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "collector@example.com")
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		id := env.ownedListing(t, "collector@example.com", fixtures.Cols{"status": "live"})
		prices := map[string]float64{}
		st, products := call(t, "list_products", map[string]any{})
		if st != 200 {
			t.Fatalf("list_products: %d %v", st, products)
		}
		for _, it := range products["items"].([]any) {
			p := it.(map[string]any)
			prices[p["code"].(string)] = p["price_cents"].(float64)
		}
		if prices["trophy_cabinet"] == 0 || prices["trophy_verification"] == 0 {
			t.Fatalf("list_products lacks the trophy products: %v", prices)
		}
		// Two pending trophies: the one paid for goes first in the console's
		// queue, marked paid; a verified one or another listing's is refused.
		site := fixtures.First(t, env.db, "sites")
		trophy := func(lid int64, title, state string) int64 {
			return fixtures.Insert(t, env.db, "trophies", fixtures.Cols{"site_id": site, "listing_id": lid, "platform": "Hunt", "title": title,
				"won_on": "2026-11-02", "award_url": "https://awards.example.org/" + tr + "/" + title, "state": state, "created_at": catNow.Unix()})
		}
		older := trophy(id, "Older", "pending")
		paid := trophy(id, "Paid", "pending")
		verified := trophy(id, "Verified", "verified")
		env.apiKey(t, "someone-"+tr+"@example.com")
		other := env.ownedListing(t, "someone-"+tr+"@example.com", fixtures.Cols{"status": "live"})
		strange := trophy(other, "Strange", "pending")
		items := []any{
			map[string]any{"product": "trophy_cabinet", "listing_id": id},
			map[string]any{"product": "trophy_verification", "listing_id": id, "options": map[string]any{"trophy_id": paid}},
		}
		body := map[string]any{"items": items, "billing_country": "US"}

		orders := countRows(t, env, "orders", nil)
		for _, bad := range []struct {
			item        map[string]any
			field, rule string
		}{
			{map[string]any{"product": "trophy_verification", "listing_id": id}, "items[0].options", "required"},
			{map[string]any{"product": "trophy_verification", "listing_id": id, "options": map[string]any{}}, "items[0].options", "required"},
			{map[string]any{"product": "trophy_verification", "listing_id": id, "options": map[string]any{"trophy_id": verified}}, "items[0].options.trophy_id", "pending"},
			{map[string]any{"product": "trophy_verification", "listing_id": id, "options": map[string]any{"trophy_id": strange}}, "items[0].options.trophy_id", "exists"},
			{map[string]any{"product": "trophy_verification", "listing_id": id, "options": map[string]any{"trophy_id": 999999}}, "items[0].options.trophy_id", "exists"},
			{map[string]any{"product": "trophy_cabinet", "listing_id": id, "options": map[string]any{"x": 1}}, "items[0].options", "not_allowed"},
		} {
			st, p := call(t, "create_checkout", map[string]any{"items": []any{bad.item}})
			if st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), bad.field) || !strings.Contains(fmt.Sprint(p["errors"]), bad.rule) {
				t.Errorf("create_checkout %v: %d %v, want 400 naming %s %s", bad.item, st, p, bad.field, bad.rule)
			}
		}
		if n := countRows(t, env, "orders", nil); n != orders {
			t.Fatalf("refused checkouts stored %d orders", n-orders)
		}

		st, q := call(t, "quote_order", body)
		if st != 200 || q["subtotal_cents"].(float64) != prices["trophy_cabinet"]+prices["trophy_verification"] {
			t.Fatalf("quote_order: %d %v (prices %v)", st, q, prices)
		}
		st, o := call(t, "create_checkout", body)
		if st != 201 || o["status"] != "pending" {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Collector Inc"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
		got := fulfilledOrder(t, env, call, o["number"].(string))
		outcomes := fmt.Sprint(got["lines"])
		if !strings.Contains(outcomes, "Trophy cabinet unlocked") || !strings.Contains(outcomes, "Queued for the site team") {
			t.Errorf("the lines' outcomes: %s", outcomes)
		}
		st, mine := call(t, "get_my_listing", map[string]any{"listing_id": id})
		if st != 200 || !strings.Contains(fmt.Sprint(mine["unlocked_sections"]), "trophies") {
			t.Fatalf("get_my_listing after paying: %d unlocked %v", st, mine["unlocked_sections"])
		}
		work := fixtures.Rows(t, env.db, "work_items", fixtures.Cols{"listing_id": id, "kind": "trophy_verification"})
		if len(work) != 1 || !strings.Contains(fmt.Sprint(work[0]["details"]), fmt.Sprintf(`"trophy_id":%d`, paid)) || work[0]["order_number"] != o["number"] {
			t.Fatalf("the site team's work items: %v", work)
		}
		queue, err := env.svc.TrophyQueue(context.Background(), "pending", 100)
		if err != nil {
			t.Fatal(err)
		}
		var queued []domain.TrophyRecord
		for _, r := range queue {
			if r.ListingID == id {
				queued = append(queued, r)
			}
		}
		if len(queued) != 2 || queued[0].ID != paid || queued[0].PaidOrder != o["number"] || queued[1].ID != older || queued[1].PaidOrder != "" {
			t.Fatalf("the console's queue after paying for trophy %d: %+v", paid, queued)
		}

		// The section is the listing's now: buying it again is refused.
		orders = countRows(t, env, "orders", nil)
		st, p := call(t, "create_checkout", map[string]any{"items": []any{items[0]}})
		if st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), "items[0].listing_id") || !strings.Contains(fmt.Sprint(p["errors"]), "state") {
			t.Errorf("trophy_cabinet again: %d %v, want 400 on items[0].listing_id (state)", st, p)
		}
		if n := countRows(t, env, "orders", nil); n != orders {
			t.Errorf("the refused order was stored")
		}
	})
}
