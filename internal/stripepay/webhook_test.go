package stripepay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// recorder is the confirm seam: it records each PaymentEvent and answers
// with the next of its results (the last one repeats).
type recorder struct {
	mu      sync.Mutex
	events  []domain.PaymentEvent
	results []result
}

type result struct {
	changed bool
	err     error
}

func (r *recorder) confirm(_ context.Context, ev domain.PaymentEvent) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	res := result{changed: true}
	if len(r.results) > 0 {
		res = r.results[0]
		if len(r.results) > 1 {
			r.results = r.results[1:]
		}
	}
	return res.changed, res.err
}

func (r *recorder) calls() []domain.PaymentEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]domain.PaymentEvent(nil), r.events...)
}

// logBuffer collects the handler's log lines; the handler writes from the
// server's goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// webhookSite serves p's webhook on loopback.
func webhookSite(t *testing.T, p *Provider, rec *recorder) (*httptest.Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := httptest.NewServer(p.Webhook(rec.confirm, logger))
	t.Cleanup(srv.Close)
	return srv, logs
}

// paidSession is a completed, paid Checkout Session of order LD-2026-0001.
func paidSession() map[string]any {
	return map[string]any{
		"id": "cs_test_a1B2c3", "object": "checkout.session", "client_reference_id": "LD-2026-0001",
		"metadata": map[string]string{"order_number": "LD-2026-0001"}, "amount_total": 16940,
		"currency": "eur", "payment_status": "paid", "status": "complete", "mode": "payment", "livemode": false,
	}
}

// eventJSON is a Stripe event as the API sends it to a webhook endpoint.
func eventJSON(t *testing.T, id, typ, apiVersion string, livemode bool, object map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": apiVersion, "created": clock.Unix(), "type": typ,
		"livemode": livemode, "pending_webhooks": 1, "request": map[string]any{"id": nil, "idempotency_key": nil},
		"data": map[string]any{"object": object},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sign returns the Stripe-Signature header for payload, as Stripe computes it.
func sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// post sends a webhook and returns the status and body.
func post(t *testing.T, url string, payload []byte, signature string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if signature != "" {
		req.Header.Set("Stripe-Signature", signature)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

const received = `{"received":true}` + "\n"

func TestWebhook_PaidOnceThenReplay(t *testing.T) {
	rec := &recorder{results: []result{{changed: true}, {changed: false}}}
	srv, logs := webhookSite(t, newProvider(t, testKey, ""), rec)
	payload := eventJSON(t, "evt_1Paid", "checkout.session.completed", stripe.APIVersion, false, paidSession())
	sig := sign(payload, testSecret, time.Now())

	for i := 1; i <= 2; i++ {
		if status, body := post(t, srv.URL, payload, sig); status != http.StatusOK || body != received {
			t.Fatalf("delivery %d: %d %q, want 200 %q", i, status, body, received)
		}
		if n := len(rec.calls()); n != i {
			t.Fatalf("after delivery %d confirm was called %d times, want %d", i, n, i)
		}
	}
	want := domain.PaymentEvent{Provider: "stripe", EventID: "evt_1Paid", OrderNumber: "LD-2026-0001", Ref: "cs_test_a1B2c3",
		AmountCents: 16940, Currency: "EUR", TestMode: true}
	for i, got := range rec.calls() {
		if got != want {
			t.Errorf("confirm call %d got %+v, want %+v", i+1, got, want)
		}
	}
	if l := logs.String(); !strings.Contains(l, "changed=true") || !strings.Contains(l, "changed=false") {
		t.Errorf("the log does not show the first delivery changing the order and the replay not:\n%s", l)
	}
}

func TestWebhook_Confirms(t *testing.T) {
	noReference := paidSession()
	noReference["client_reference_id"] = nil
	tests := []struct {
		name, typ, apiVersion string
		session               map[string]any
	}{
		{"AsyncPaymentSucceeded", "checkout.session.async_payment_succeeded", stripe.APIVersion, paidSession()},
		{"OrderNumberFromMetadata", "checkout.session.completed", stripe.APIVersion, noReference},
		// An endpoint pinned to an older API version still confirms payments.
		{"OtherAPIVersion", "checkout.session.completed", "2024-06-20", paidSession()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			srv, _ := webhookSite(t, newProvider(t, testKey, ""), rec)
			payload := eventJSON(t, "evt_"+tc.name, tc.typ, tc.apiVersion, false, tc.session)
			if status, body := post(t, srv.URL, payload, sign(payload, testSecret, time.Now())); status != http.StatusOK || body != received {
				t.Fatalf("%d %q, want 200 %q", status, body, received)
			}
			calls := rec.calls()
			if len(calls) != 1 || calls[0].OrderNumber != "LD-2026-0001" || calls[0].EventID != "evt_"+tc.name || calls[0].AmountCents != 16940 {
				t.Errorf("confirm calls %+v, want one for LD-2026-0001, 16940, evt_%s", calls, tc.name)
			}
		})
	}
}

func TestWebhook_Refused(t *testing.T) {
	payload := eventJSON(t, "evt_1Paid", "checkout.session.completed", stripe.APIVersion, false, paidSession())
	tampered := bytes.Replace(payload, []byte(`"amount_total":16940`), []byte(`"amount_total":1`), 1)
	if bytes.Equal(tampered, payload) {
		t.Fatal("the tampered payload equals the original")
	}
	huge := eventJSON(t, "evt_huge", "checkout.session.completed", stripe.APIVersion, false,
		map[string]any{"id": "cs_1", "object": "checkout.session", "padding": strings.Repeat("x", 70<<10)})
	tests := []struct {
		name, signature string
		body            []byte
		status          int
		message         string
	}{
		{"MissingSignature", "", payload, 400, "header is missing"},
		{"MalformedSignature", "garbage", payload, 400, "malformed"},
		{"WrongSecret", sign(payload, "whsec_other", time.Now()), payload, 400, "No valid signature"},
		{"TamperedBody", sign(payload, testSecret, time.Now()), tampered, 400, "No valid signature"},
		{"StaleTimestamp", sign(payload, testSecret, time.Now().Add(-10*time.Minute)), payload, 400, "older than 5 minutes"},
		{"NotAnEvent", sign([]byte(`{"object":"list"}`), testSecret, time.Now()), []byte(`{"object":"list"}`), 400, "not a Stripe event"},
		{"TooLarge", sign(huge, testSecret, time.Now()), huge, 413, "64 KiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			srv, _ := webhookSite(t, newProvider(t, testKey, ""), rec)
			status, body := post(t, srv.URL, tc.body, tc.signature)
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("body %q is not JSON: %v", body, err)
			}
			if status != tc.status || e.Error.Code != "invalid" || !strings.Contains(e.Error.Message, tc.message) {
				t.Errorf("%d %q, want %d with code invalid and a message saying %q", status, body, tc.status, tc.message)
			}
			if n := len(rec.calls()); n != 0 {
				t.Errorf("confirm was called %d times for a refused webhook", n)
			}
		})
	}

	t.Run("GET", func(t *testing.T) {
		rec := &recorder{}
		srv, _ := webhookSite(t, newProvider(t, testKey, ""), rec)
		res, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || len(rec.calls()) != 0 {
			t.Errorf("GET: %d with %d confirms, want 405 and none", res.StatusCode, len(rec.calls()))
		}
	})
}

func TestWebhook_Ignored(t *testing.T) {
	unpaid := paidSession()
	unpaid["payment_status"] = "unpaid"
	noOrder := paidSession()
	noOrder["client_reference_id"], noOrder["metadata"] = nil, map[string]string{}
	tests := []struct {
		name, typ string
		livemode  bool
		object    map[string]any
		log       string
	}{
		{"Unpaid", "checkout.session.completed", false, unpaid, "session not paid yet"},
		{"OtherType", "payment_intent.succeeded", false, map[string]any{"id": "pi_1", "object": "payment_intent", "amount": 16940}, "event type not handled"},
		{"Expired", "checkout.session.expired", false, unpaid, "event type not handled"},
		{"NoOrderNumber", "checkout.session.completed", false, noOrder, "names no order"},
		// A live event reaching a test-key site means mismatched secrets.
		{"LiveEventTestKey", "checkout.session.completed", true, paidSession(), "mode does not match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			srv, logs := webhookSite(t, newProvider(t, testKey, ""), rec)
			payload := eventJSON(t, "evt_"+tc.name, tc.typ, stripe.APIVersion, tc.livemode, tc.object)
			if status, body := post(t, srv.URL, payload, sign(payload, testSecret, time.Now())); status != http.StatusOK || body != received {
				t.Errorf("%d %q, want 200 %q", status, body, received)
			}
			if n := len(rec.calls()); n != 0 {
				t.Errorf("confirm was called %d times, want none", n)
			}
			if !strings.Contains(logs.String(), tc.log) {
				t.Errorf("the log does not say %q:\n%s", tc.log, logs)
			}
		})
	}
}

func TestWebhook_ConfirmErrors(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		body   string
		level  string
	}{
		{"AmountMismatch", domain.Errorf(domain.EConflict, "Payment of 1 EUR does not match order LD-2026-0001 (16940 EUR); not marked paid."), 200, received, "level=WARN"},
		{"UnknownOrder", domain.NotFound("order", "LD-2026-0001"), 200, received, "level=WARN"},
		{"WrappedConflict", errors.Join(errors.New("confirm"), domain.Errorf(domain.EConflict, "x")), 200, received, "level=WARN"},
		{"StoreDown", errors.New("database is locked"), 500, `{"error":{"code":"internal","message":"Internal error; the event was not recorded and Stripe will send it again."}}` + "\n", "level=ERROR"},
		{"OtherDomainError", domain.Errorf(domain.EInternal, "boom"), 500, "", "level=ERROR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{results: []result{{err: tc.err}}}
			srv, logs := webhookSite(t, newProvider(t, testKey, ""), rec)
			payload := eventJSON(t, "evt_1Paid", "checkout.session.completed", stripe.APIVersion, false, paidSession())
			status, body := post(t, srv.URL, payload, sign(payload, testSecret, time.Now()))
			if status != tc.status || (tc.body != "" && body != tc.body) {
				t.Errorf("%d %q, want %d %q", status, body, tc.status, tc.body)
			}
			if n := len(rec.calls()); n != 1 {
				t.Errorf("confirm was called %d times, want 1", n)
			}
			if l := logs.String(); !strings.Contains(l, tc.level) || !strings.Contains(l, "order=LD-2026-0001") {
				t.Errorf("the log has no %s line naming the order:\n%s", tc.level, l)
			}
		})
	}
}
