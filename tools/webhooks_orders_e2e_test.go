package tools

import (
	"net/url"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestWebhooks_OrderPaidAndFulfilled: paying an order on its checkout page
// raises order.paid, written with the payment, and fulfilling it raises
// order.fulfilled, written with its last line; the buyer's endpoint gets each
// once, signed, with the order's number, listing, total and products; a
// replayed payment raises nothing more, and an endpoint not subscribed gets
// nothing.
func TestWebhooks_OrderPaidAndFulfilled(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	withWebhooks(t, env)
	key := env.apiKey(t, "buyer@example.com")
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		listing := env.ownedListing(t, "buyer@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
		rcvs := hooksFor(t, env, []string{key, key}, []map[string]any{
			{"events": []any{"order.paid", "order.fulfilled"}, "listing_ids": []any{listing}}, {"events": []any{"update.posted"}}})
		before := 0
		st, o := call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": listing}}, "billing_country": "DE"})
		if st != 201 {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		number := o["number"].(string)
		payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Ada GmbH"}, "address": {"Hauptstr. 1, Berlin"}, "country": {"DE"}})
		fulfilledOrder(t, env, call, number)
		env.runJobs(t)
		got := rcvs[0].received()[before:]
		if len(got) != 2 || got[0].typ != "order.paid" || got[1].typ != "order.fulfilled" || !got[0].verified || !got[1].verified {
			t.Fatalf("receiver got %+v, want a verified order.paid then order.fulfilled", got)
		}
		paid, _ := got[0].body["data"].(map[string]any)
		total, _ := paid["total"].(map[string]any)
		if paid["number"] != number || paid["listing_id"] != float64(listing) || total["amount"] != o["total_cents"] || total["currency"] != o["currency"] ||
			len(paid["products"].([]any)) != 1 || paid["products"].([]any)[0] != "featured" {
			t.Errorf("order.paid data %v, want order %s of listing %d for %v %v", paid, number, listing, o["total_cents"], o["currency"])
		}
		done, _ := got[1].body["data"].(map[string]any)
		lines, _ := done["lines"].([]any)
		if done["number"] != number || done["listing_id"] != float64(listing) || len(lines) != 1 || lines[0].(map[string]any)["outcome"] == "" {
			t.Errorf("order.fulfilled data %v, want order %s with its line's outcome", done, number)
		}
		// The provider replays the payment: nothing more is raised.
		if _, err := env.svc.ConfirmPayment(t.Context(), domain.PaymentEvent{Provider: domain.TestProvider, EventID: "test-" + number,
			OrderNumber: number, AmountCents: int64(o["total_cents"].(float64)), Currency: o["currency"].(string), TestMode: true}); err != nil {
			t.Fatal(err)
		}
		env.runJobs(t)
		if n := len(rcvs[0].received()) - before; n != 2 {
			t.Errorf("%d POSTs after a replayed payment, want still 2", n)
		}
		if n := len(rcvs[1].received()); n != 0 {
			t.Errorf("an endpoint not subscribed to order events got %d POSTs", n)
		}
	})
}
