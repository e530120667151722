package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/launchdir/launchdir/internal/stripepay"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

const testWebhookSecret = "whsec_launchdir_test"

// TestOrders_StripeWebhook pays an order the way Stripe does: the Pay button
// creates a Checkout Session (at a stand-in for api.stripe.com, which lies
// outside the service) and the order is marked paid only by a webhook signed
// with stripe-go's own test helper.
func TestOrders_StripeWebhook(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	var sessions int
	fakeStripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/v1/checkout/sessions" {
			http.Error(w, `{"error":{"message":"unexpected"}}`, 404)
			return
		}
		sessions++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"cs_test_%d","object":"checkout.session","url":"https://checkout.stripe.com/c/pay/cs_test_%d"}`, sessions, sessions)
	}))
	defer fakeStripe.Close()
	p, err := stripepay.New(stripepay.Config{SecretKey: "sk_test_launchdir", WebhookSecret: testWebhookSecret, BackendURL: fakeStripe.URL, Now: env.svc.Now})
	if err != nil {
		t.Fatal(err)
	}
	withOrdering(t, env, p)
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks/stripe", p.Webhook(env.svc.ConfirmPayment, nil))
	mux.Handle("/", web.New(env.svc))
	var pages http.Handler = mux
	env.pages.Store(&pages)

	key := env.apiKey(t, "stripe@example.com")
	call := restCaller(env, key)
	checkout := func(id int64) (number, link string) {
		st, o := call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": id}}})
		if st != 201 {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		return o["number"].(string), o["checkout_url"].(string)
	}
	id := env.ownedListing(t, "stripe@example.com")
	number, link := checkout(id)
	b := newBrowser(t)
	if st, loc := b.post(link+"/billing", url.Values{"name": {"Ada"}, "address": {"Rue 1, Paris"}, "country": {"FR"}}); st != 303 {
		t.Fatalf("billing: %d %s", st, loc)
	}
	if st, loc := b.post(link+"/pay", url.Values{}); st != 303 || loc != "https://checkout.stripe.com/c/pay/cs_test_1" {
		t.Fatalf("pay: %d %s", st, loc)
	}
	if st, _ := b.get(link + "/test-pay"); st != 404 {
		t.Fatalf("the test payment step is open with Stripe: %d", st)
	}

	event := func(eventID, order string, amount int) []byte {
		b, _ := json.Marshal(map[string]any{
			"id": eventID, "object": "event", "type": "checkout.session.completed", "livemode": false,
			"data": map[string]any{"object": map[string]any{
				"id": "cs_test_1", "object": "checkout.session", "client_reference_id": order,
				"amount_total": amount, "currency": "usd", "payment_status": "paid", "mode": "payment",
			}},
		})
		return b
	}
	send := func(payload []byte, sig string) int {
		req, _ := http.NewRequest("POST", env.URL+"/webhooks/stripe", bytes.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Stripe-Signature", sig)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	signed := func(payload []byte) string {
		return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: testWebhookSecret}).Header
	}

	// French consumer: 4900 + 20% VAT.
	paid := event("evt_1", number, 5880)
	if st := send(paid, signed(paid)); st != 200 {
		t.Fatalf("valid webhook: %d", st)
	}
	o := fulfilledOrder(t, env, call, number)
	// sk_test_ keys take Stripe test-mode payments: the order says so.
	if o["test_mode"] != true || o["total_cents"].(float64) != 5880 || o["vat"].(map[string]any)["mode"] != "standard" {
		t.Fatalf("paid order: %v", o)
	}
	listingAfterJobs(t, env, id, "live")
	paidAt := o["paid_at"]

	// The same event again (Stripe retries): nothing changes.
	if st := send(paid, signed(paid)); st != 200 {
		t.Fatalf("replayed webhook: %d", st)
	}
	if n := countRows(t, env, "payment_events", nil); n != 1 {
		t.Fatalf("replay recorded %d payment events", n)
	}
	if _, o = call(t, "get_order", map[string]any{"number": number}); o["paid_at"] != paidAt {
		t.Fatalf("replay changed paid_at: %v -> %v", paidAt, o["paid_at"])
	}
	if n := countRows(t, env, "billboard_contributions", fixtures.Cols{"listing_id": id}); n != 0 {
		t.Fatalf("unexpected billboard rows: %d", n)
	}

	// A bad signature, or one made with another secret, is refused and pays nothing.
	other := env.ownedListing(t, "stripe@example.com")
	number2, _ := checkout(other)
	forged := event("evt_2", number2, 4900)
	for _, sig := range []string{
		"t=1,v1=deadbeef",
		webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: forged, Secret: "whsec_other"}).Header,
		signed(event("evt_2", number2, 1)), // signed, but for another body
	} {
		if st := send(forged, sig); st != 400 {
			t.Fatalf("bad signature %q: %d, want 400", sig, st)
		}
	}
	if _, o := call(t, "get_order", map[string]any{"number": number2}); o["status"] != "pending" {
		t.Fatalf("a refused webhook changed the order: %v", o["status"])
	}
	// A signed event whose amount is not the order's is not a payment of it.
	short := event("evt_3", number2, 100)
	if st := send(short, signed(short)); st != 200 {
		t.Fatalf("mismatched amount: %d", st)
	}
	if _, o := call(t, "get_order", map[string]any{"number": number2}); o["status"] != "pending" || !strings.HasPrefix(number2, "LD-") {
		t.Fatalf("an amount mismatch paid the order: %v", o["status"])
	}
}
