package stripepay

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/stripe/stripe-go/v85"
)

const (
	testKey    = "sk_test_51Fake"
	testSecret = "whsec_test_fake"
)

// clock is the fixed "now" of the Begin tests.
var clock = time.Date(2026, 11, 20, 10, 7, 13, 0, time.UTC)

// apiRequest is one request the fake Stripe API received.
type apiRequest struct {
	Method, Path string
	Header       http.Header
	Form         url.Values
}

// fakeStripe stands in for api.stripe.com on loopback: it records every
// request and answers with status and body.
type fakeStripe struct {
	*httptest.Server
	mu       sync.Mutex
	requests []apiRequest
	status   int
	body     string
}

func newFakeStripe(t *testing.T, status int, body string) *fakeStripe {
	t.Helper()
	f := &fakeStripe{status: status, body: body}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		form, err := url.ParseQuery(string(raw))
		if err != nil {
			t.Errorf("fake Stripe: body is not form-encoded: %v", err)
		}
		f.mu.Lock()
		f.requests = append(f.requests, apiRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Form: form})
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_fake123")
		w.WriteHeader(f.status)
		_, _ = io.WriteString(w, f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeStripe) received() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.requests...)
}

// newProvider returns a provider talking to backendURL with the clock fixed.
func newProvider(t *testing.T, key, backendURL string) *Provider {
	t.Helper()
	p, err := New(Config{SecretKey: key, WebhookSecret: testSecret, BackendURL: backendURL, Now: time.Now})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p.now = func() time.Time { return clock }
	return p
}

// testOrder is a two-line order with 21% VAT: a launch and two extra categories.
func testOrder() *domain.Order {
	return &domain.Order{
		ID: 7, Number: "LD-2026-0001", UserID: 3, Status: domain.OrderPending, Currency: "EUR",
		Lines: []domain.OrderLine{
			{Index: 0, Product: "launch", Name: "Launch", ListingID: 11, ListingName: "Acme", Week: "2026-12-07",
				Quantity: 1, UnitPriceCents: 10000, AmountCents: 10000, VATCents: 2100, TotalCents: 12100,
				Effect: "Acme launches in the week of 2026-12-07."},
			{Index: 1, Product: "extra_categories", Name: "Extra categories", ListingID: 11, ListingName: "Acme",
				Categories: []string{"ai", "devtools"}, Quantity: 2, UnitPriceCents: 2000, AmountCents: 4000, VATCents: 840, TotalCents: 4840},
		},
		SubtotalCents: 14000, TotalCents: 16940,
		CreatedAt: clock.Add(-time.Hour), ExpiresAt: clock.Add(domain.CheckoutDays * 24 * time.Hour),
	}
}

var testPages = domain.CheckoutPages{
	Page:   "https://ld.example/checkout/tok123",
	Return: "https://ld.example/checkout/tok123/return",
	Cancel: "https://ld.example/checkout/tok123",
}

const sessionAnswer = `{"id":"cs_test_a1B2c3","object":"checkout.session","url":"https://checkout.stripe.com/c/pay/cs_test_a1B2c3#fid","amount_total":16940,"currency":"eur","mode":"payment","status":"open","payment_status":"unpaid"}`

func TestNew(t *testing.T) {
	refused := []struct{ name, key, secret, want string }{
		{"NoKey", "", testSecret, "secret key is empty"},
		{"PublishableKey", "pk_test_123", testSecret, "publishable key"},
		{"NotAKey", "abc123", testSecret, "must start with sk_ or rk_"},
		{"NoWebhookSecret", testKey, " ", "webhook secret is empty"},
		{"WebhookSecretWithoutPrefix", testKey, "test_fake", "starting with whsec_"},
		{"NoClock", testKey, testSecret, "no clock"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(Config{SecretKey: tc.key, WebhookSecret: tc.secret})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New(%q, %q) = %v, %v; want an error saying %q", tc.key, tc.secret, p, err, tc.want)
			}
		})
	}
	modes := []struct {
		key  string
		test bool
	}{{"sk_test_1", true}, {"rk_test_1", true}, {"sk_live_1", false}, {"rk_live_1", false}}
	for _, tc := range modes {
		p, err := New(Config{SecretKey: tc.key, WebhookSecret: testSecret, Now: time.Now})
		if err != nil {
			t.Fatalf("New(%q): %v", tc.key, err)
		}
		if p.Name() != "stripe" || p.TestMode() != tc.test {
			t.Errorf("New(%q): Name %q TestMode %v; want stripe, %v", tc.key, p.Name(), p.TestMode(), tc.test)
		}
	}
}

func TestBegin(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFakeStripe(t, http.StatusOK, sessionAnswer)
		p := newProvider(t, testKey, f.URL)
		redirect, ref, err := p.Begin(context.Background(), testOrder(), testPages)
		if err != nil {
			t.Fatalf("Begin: %v", err)
		}
		if redirect != "https://checkout.stripe.com/c/pay/cs_test_a1B2c3#fid" || ref != "cs_test_a1B2c3" {
			t.Errorf("Begin = %q, %q; want the session's url and id", redirect, ref)
		}
		reqs := f.received()
		if len(reqs) != 1 {
			t.Fatalf("fake Stripe got %d requests, want 1", len(reqs))
		}
		req := reqs[0]
		if req.Method != http.MethodPost || req.Path != "/v1/checkout/sessions" {
			t.Errorf("request %s %s, want POST /v1/checkout/sessions", req.Method, req.Path)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("Authorization %q, want the bearer secret key", got)
		}
		// 2026-11-20 10:07:13 + 23h = 2026-11-21 09:07:13, rounded down to the quarter hour.
		wantExp := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC).Unix()
		if got, want := req.Header.Get("Idempotency-Key"), "launchdir-checkout-LD-2026-0001-16940eur-"+strconv.FormatInt(wantExp, 10); got != want {
			t.Errorf("Idempotency-Key %q, want %q", got, want)
		}
		want := map[string]string{
			"mode":                   "payment",
			"client_reference_id":    "LD-2026-0001",
			"metadata[order_number]": "LD-2026-0001",
			"payment_intent_data[metadata][order_number]": "LD-2026-0001",
			"success_url":                                          "https://ld.example/checkout/tok123/return?session_id={CHECKOUT_SESSION_ID}",
			"cancel_url":                                           "https://ld.example/checkout/tok123",
			"expires_at":                                           strconv.FormatInt(wantExp, 10),
			"line_items[0][quantity]":                              "1",
			"line_items[0][price_data][currency]":                  "eur",
			"line_items[0][price_data][unit_amount]":               "12100",
			"line_items[0][price_data][product_data][name]":        "Launch · Acme · week of 2026-12-07",
			"line_items[0][price_data][product_data][description]": "Acme launches in the week of 2026-12-07.",
			"line_items[1][quantity]":                              "1",
			"line_items[1][price_data][currency]":                  "eur",
			"line_items[1][price_data][unit_amount]":               "4840",
			"line_items[1][price_data][product_data][name]":        "Extra categories · Acme · ai, devtools",
		}
		for k, v := range want {
			if got := req.Form.Get(k); got != v {
				t.Errorf("form %s = %q, want %q", k, got, v)
			}
		}
		var sum int64
		for k := range req.Form {
			if strings.HasPrefix(k, "payment_method_types") {
				t.Errorf("form has %s: the methods must come from the dashboard", k)
			}
			if strings.HasPrefix(k, "line_items[2]") {
				t.Errorf("form has %s: one line item per order line", k)
			}
			if strings.HasSuffix(k, "[price_data][unit_amount]") {
				n, _ := strconv.ParseInt(req.Form.Get(k), 10, 64)
				sum += n
			}
		}
		if sum != 16940 {
			t.Errorf("line items add up to %d, want the order total 16940", sum)
		}
	})

	t.Run("DoubleClickSameKeyNewTotalNewKey", func(t *testing.T) {
		f := newFakeStripe(t, http.StatusOK, sessionAnswer)
		p := newProvider(t, testKey, f.URL)
		o := testOrder()
		for _, after := range []time.Duration{0, 2 * time.Second} {
			p.now = func() time.Time { return clock.Add(after) }
			if _, _, err := p.Begin(context.Background(), o, testPages); err != nil {
				t.Fatalf("Begin: %v", err)
			}
		}
		// New billing details: no VAT (reverse charge), so a new total.
		o.Lines[0].VATCents, o.Lines[0].TotalCents = 0, 10000
		o.Lines[1].VATCents, o.Lines[1].TotalCents = 0, 4000
		o.TotalCents = 14000
		if _, _, err := p.Begin(context.Background(), o, testPages); err != nil {
			t.Fatalf("Begin: %v", err)
		}
		reqs := f.received()
		if len(reqs) != 3 {
			t.Fatalf("fake Stripe got %d requests, want 3", len(reqs))
		}
		k0, k1, k2 := reqs[0].Header.Get("Idempotency-Key"), reqs[1].Header.Get("Idempotency-Key"), reqs[2].Header.Get("Idempotency-Key")
		if k0 != k1 {
			t.Errorf("a second click 2 s later sent key %q, want the first's %q", k1, k0)
		}
		if reqs[0].Form.Encode() != reqs[1].Form.Encode() {
			t.Errorf("a second click sent other parameters under the same key:\n%s\n%s", reqs[0].Form.Encode(), reqs[1].Form.Encode())
		}
		if k2 == k0 || !strings.Contains(k2, "-14000eur-") {
			t.Errorf("a new total sent key %q; want a new key naming 14000eur", k2)
		}
	})

	t.Run("StripeError", func(t *testing.T) {
		f := newFakeStripe(t, http.StatusBadRequest, `{"error":{"type":"invalid_request_error","code":"parameter_invalid_empty","param":"line_items[0][price_data][currency]","message":"Invalid currency: xyz."}}`)
		p := newProvider(t, testKey, f.URL)
		redirect, ref, err := p.Begin(context.Background(), testOrder(), testPages)
		if err == nil {
			t.Fatalf("Begin = %q, %q, nil; want the Stripe error", redirect, ref)
		}
		for _, want := range []string{"LD-2026-0001", "400", "invalid_request_error", "parameter line_items[0][price_data][currency]", "Invalid currency: xyz.", "req_fake123"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		var se *stripe.Error
		if !errors.As(err, &se) || se.HTTPStatusCode != http.StatusBadRequest {
			t.Errorf("error %v does not unwrap to a *stripe.Error with status 400", err)
		}
		if n := len(f.received()); n != 1 {
			t.Errorf("fake Stripe got %d requests, want 1 (a 400 is not retried)", n)
		}
	})

	refused := []struct {
		name  string
		edit  func(*domain.Order)
		pages domain.CheckoutPages
		want  string
	}{
		{"LinesDoNotAddUp", func(o *domain.Order) { o.TotalCents = 17000 }, testPages, "add up to 16940 cents but its total is 17000"},
		{"NothingToPay", func(o *domain.Order) { o.Lines, o.TotalCents = nil, 0 }, testPages, "nothing to pay"},
		{"NoReturnPage", func(*domain.Order) {}, domain.CheckoutPages{Page: testPages.Page}, "return or cancel"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeStripe(t, http.StatusOK, sessionAnswer)
			p := newProvider(t, testKey, f.URL)
			o := testOrder()
			tc.edit(o)
			if _, _, err := p.Begin(context.Background(), o, tc.pages); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Begin error %v, want one saying %q", err, tc.want)
			}
			if n := len(f.received()); n != 0 {
				t.Errorf("fake Stripe got %d requests; a refused order must not reach Stripe", n)
			}
		})
	}
}

func TestExpiresAt(t *testing.T) {
	p := newProvider(t, testKey, "")
	tests := []struct {
		name         string
		orderExpires time.Time
		want         time.Time
	}{
		{"OrderLastsDays", clock.Add(7 * 24 * time.Hour), time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)},
		{"OrderLastsHours", clock.Add(2*time.Hour + 500*time.Millisecond), clock.Add(2 * time.Hour)},
		// Stripe refuses less than 30 minutes: 10:07:13 + 31 min, rounded up to 10:45.
		{"OrderAboutToExpire", clock.Add(10 * time.Minute), time.Date(2026, 11, 20, 10, 45, 0, 0, time.UTC)},
		{"NoOrderExpiry", time.Time{}, time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := p.expiresAt(tc.orderExpires)
			if !got.Equal(tc.want) {
				t.Errorf("expiresAt(%v) = %v, want %v", tc.orderExpires, got, tc.want)
			}
			if life := got.Sub(clock); life < 30*time.Minute || life > 24*time.Hour {
				t.Errorf("session life %v is outside Stripe's 30 min .. 24 h", life)
			}
		})
	}
}
