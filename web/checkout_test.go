package web

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// orderEnv is a web handler over a real SQLite file with ordering configured:
// the order store, a job store for the fulfilment jobs (run by the test
// itself, through FulfilOrder, so nothing happens behind its back), and one
// user with one listing.
type orderEnv struct {
	srv     *httptest.Server
	svc     *domain.Service
	console *console.Console // over the same store and clock
	db      *storage.DB
	clock   *testclock.Clock // the service's, the DB's and the runner's
	caller  context.Context
	listing int64
}

// newOrderEnv builds an orderEnv whose payment provider is pay (the built-in
// test provider when nil) and whose handler gets opts, on SQLite.
func newOrderEnv(t testing.TB, pay domain.Payments, opts ...Option) *orderEnv {
	t.Helper()
	return newOrderEnvOn(t, "sqlite", pay, opts...)
}

// newOrderEnvOn is newOrderEnv on engine: a SQLite file in t's temporary
// directory, or a fresh PostgreSQL database ("postgres").
func newOrderEnvOn(t testing.TB, engine string, pay domain.Payments, opts ...Option) *orderEnv {
	t.Helper()
	e := &orderEnv{clock: testclock.New(testNow)}
	var h http.Handler
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	// A migrated database: a copy of the template (fixtures.Migrated), or a
	// fresh PostgreSQL database from the migrated one.
	path := filepath.Join(t.TempDir(), "launchdir.db")
	if engine == "postgres" {
		path = fixtures.MigratedPostgres(t)
	} else if err := fixtures.CopySeeded(fixtures.Migrated, path); err != nil {
		t.Fatal(err)
	}
	// The service and the console as serve wires them (internal/wiring),
	// with pay as the payment provider: the order jobs are queued on the
	// wiring's runner, which is not started (the tests fulfil orders
	// through FulfilOrder).
	core, err := wiredCore(path, e.srv.URL, wiring.Adapters{Now: e.clock.Now, Payments: pay})
	if err != nil {
		t.Fatal(err)
	}
	db, st := core.DB, core.Store
	t.Cleanup(func() { _ = db.Close() })
	e.db, e.svc, e.console = db, core.Service, core.Console
	h = New(e.svc, append([]Option{WithConsole(e.console)}, opts...)...)

	ctx := context.Background()
	// The site team of the admin tests (teamOnly signs in as ops@).
	for _, admin := range []string{"ops@launchdir.test", "team@launchdir.test"} {
		if err := e.console.GrantTeamRole(ctx, console.ActorCommandLine, admin, console.RoleAdmin); err != nil {
			t.Fatal(err)
		}
	}
	u, err := storage.NewAuthStore(db).UpsertUser(ctx, "urn:launchdir:email", "ann@notably.test", "ann@notably.test", "Ann Lee", testNow)
	if err != nil {
		t.Fatal(err)
	}
	e.listing, err = st.SaveOwnListing(ctx, u.ID, 0, &domain.ListingWrite{Name: "Notably", Tagline: "Team notes in Markdown",
		URL: "https://notably.test/", Domain: "notably.test"})
	if err != nil {
		t.Fatal(err)
	}
	e.caller = domain.WithCaller(ctx, domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, Via: domain.ViaAPIKey})
	return e
}

// checkout creates an order of items for the env's user through
// create_checkout and returns it with the token of its checkout link.
func (e *orderEnv) checkout(t testing.TB, items ...domain.OrderItem) (*domain.OrderView, string) {
	t.Helper()
	v, err := e.svc.CreateCheckout(e.caller, domain.OrderInput{Items: items})
	if err != nil {
		t.Fatal(err)
	}
	if v.CheckoutURL == nil {
		t.Fatal("create_checkout answered no checkout_url")
	}
	token, ok := strings.CutPrefix(*v.CheckoutURL, e.srv.URL+domain.CheckoutPath)
	if !ok || token == "" {
		t.Fatalf("checkout_url %q is not a page of %s", *v.CheckoutURL, e.srv.URL)
	}
	return v, token
}

// order reads the order of a checkout token as stored.
func (e *orderEnv) order(t testing.TB, token string) *domain.Order {
	t.Helper()
	o, err := e.svc.CheckoutOrder(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// do sends one request without following redirects; hdr are name, value pairs.
func (e *orderEnv) do(t *testing.T, method, path string, form url.Values, hdr ...string) response {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := *e.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Pages escape text (’ and & as entities); tests compare plain text.
	return response{status: res.StatusCode, header: res.Header, body: html.UnescapeString(string(b))}
}

func (e *orderEnv) get(t *testing.T, path string) response { return e.do(t, http.MethodGet, path, nil) }

func (e *orderEnv) post(t *testing.T, path string, form url.Values, hdr ...string) response {
	return e.do(t, http.MethodPost, path, form, hdr...)
}

// want fails unless res has status and its body contains every string of has.
func want(t *testing.T, what string, res response, status int, has ...string) {
	t.Helper()
	if res.status != status {
		t.Fatalf("%s: status %d, want %d; body:\n%s", what, res.status, status, excerpt(res.body))
	}
	for _, s := range has {
		if !strings.Contains(res.body, s) {
			t.Errorf("%s: body lacks %q; body:\n%s", what, s, excerpt(res.body))
		}
	}
}

// wantNot fails when res's body contains any string of hasNot.
func wantNot(t *testing.T, what string, res response, hasNot ...string) {
	t.Helper()
	for _, s := range hasNot {
		if strings.Contains(res.body, s) {
			t.Errorf("%s: body contains %q", what, s)
		}
	}
}

// wantRedirect fails unless res is a 303 to location.
func wantRedirect(t *testing.T, what string, res response, location string) {
	t.Helper()
	if res.status != http.StatusSeeOther || res.header.Get("Location") != location {
		t.Fatalf("%s: %d to %q, want 303 to %q; body:\n%s", what, res.status, res.header.Get("Location"), location, excerpt(res.body))
	}
}

// excerpt is the <main> of a page, where the tests look, without the
// country options.
func excerpt(body string) string {
	if i := strings.Index(body, "<main>"); i >= 0 {
		body = body[i:]
	}
	if i, j := strings.Index(body, "<option"), strings.LastIndex(body, "</option>"); i >= 0 && j > i {
		body = body[:i] + "[options]" + body[j+len("</option>"):]
	}
	if len(body) > 4000 {
		body = body[:4000] + "..."
	}
	return body
}

const testBanner = "TEST MODE — no real payment is taken"

// berlin is valid billing for a consumer in Germany (VAT 19%).
var berlin = url.Values{"name": {"Ann Lee"}, "address": {"Hauptstraße 1\n10115 Berlin"}, "country": {"DE"}, "vat_number": {""}}

func TestCheckout_TestProvider(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil)
		v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
		page := domain.CheckoutPath + token

		res := e.get(t, page)
		want(t, "the new order's page", res, http.StatusOK, "Order "+v.Number, "Launch", "Notably", "$49.00", testBanner,
			"VAT is added from the billing country once you save",
			`action="`+page+`/billing"`, `action="`+page+`/cancel"`, "Save your billing details first", `<option value="DE">Germany (DE)</option>`)
		wantNot(t, "the new order's page", res, `action="`+page+`/pay"`)
		for name, value := range map[string]string{"Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow",
			"Cache-Control": "no-store"} {
			if got := res.header.Get(name); got != value {
				t.Errorf("%s = %q, want %q", name, got, value)
			}
		}
		if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' https://checkout.stripe.com;") {
			t.Errorf("the checkout CSP does not let the pay form lead to Stripe: %q", csp)
		}

		t.Run("BadVATNumber", func(t *testing.T) {
			bad := url.Values{"name": {"Notably GmbH"}, "address": {"Hauptstraße 1\n10115 Berlin"}, "country": {"DE"}, "vat_number": {"DE12345678X"}}
			res := e.post(t, page+"/billing", bad)
			want(t, "billing with a bad VAT number", res, http.StatusBadRequest, `<p class="field-error" id="vat_number-error">VAT number`, `value="DE12345678X"`,
				`value="Notably GmbH"`, "Hauptstraße 1\n10115 Berlin</textarea>", `<option value="DE" selected>`)
			if o := e.order(t, token); o.Billing != nil || o.TotalCents != 4900 {
				t.Errorf("a refused billing form changed the order: billing %+v, total %d", o.Billing, o.TotalCents)
			}
		})
		t.Run("NoName", func(t *testing.T) {
			res := e.post(t, page+"/billing", url.Values{"name": {" "}, "address": {"Main St 1"}, "country": {"US"}})
			want(t, "billing without a name", res, http.StatusBadRequest, `id="name-error"`, "Enter the name to put on the invoice",
				"Main St 1</textarea>", `<option value="US" selected>`)
			if o := e.order(t, token); o.Billing != nil {
				t.Errorf("a refused billing form saved billing %+v", o.Billing)
			}
		})
		t.Run("PayBeforeBilling", func(t *testing.T) {
			res := e.post(t, page+"/pay", url.Values{})
			want(t, "pay before billing", res, http.StatusBadRequest, "Enter and save the billing details first")
		})

		wantRedirect(t, "valid billing", e.post(t, page+"/billing", berlin), page)
		res = e.get(t, page)
		// 19% of $49.00 is $9.31.
		want(t, "the page with German billing", res, http.StatusOK, "VAT 19%", "(Germany)", "$9.31", "$58.31",
			`action="`+page+`/pay"`, "Pay $58.31", `value="Ann Lee"`, testBanner)
		if o := e.order(t, token); o.TotalCents != 5831 || o.VAT.Cents != 931 || o.Billing == nil || o.Billing.Country != "DE" {
			t.Fatalf("after billing: total %d, VAT %d, billing %+v; want 5831, 931, DE", o.TotalCents, o.VAT.Cents, o.Billing)
		}

		wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), e.srv.URL+page+"/test-pay")
		res = e.get(t, page+"/test-pay")
		want(t, "the test payment step", res, http.StatusOK, testBanner, "Pay (test) $58.31", `action="`+page+`/test-pay"`, v.Number)
		if got := res.header.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("test-pay Referrer-Policy = %q", got)
		}

		wantRedirect(t, "test payment", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
		o := e.order(t, token)
		if o.Status != domain.OrderPaid || !o.TestMode || o.PaidAt == nil {
			t.Fatalf("after the test payment: status %s, test mode %v, paid at %v; want paid in test mode", o.Status, o.TestMode, o.PaidAt)
		}
		res = e.get(t, page+"/done")
		want(t, "done before fulfilment", res, http.StatusOK, "Thank you: the order is paid", "In progress", testBanner)
		wantNot(t, "done before fulfilment", res, `action="`+page+`/billing"`, `action="`+page+`/pay"`)

		if err := e.svc.FulfilOrder(context.Background(), v.Number); err != nil {
			t.Fatal(err)
		}
		o = e.order(t, token)
		if !o.Lines[0].Fulfilled || o.Lines[0].Outcome == "" {
			t.Fatalf("line after fulfilment: %+v", o.Lines[0])
		}
		want(t, "done after fulfilment", e.get(t, page+"/done"), http.StatusOK, "Done: "+o.Lines[0].Outcome,
			"Everything in it has been done")

		// A second click on "Pay (test)" lands on the thank-you page and pays nothing twice.
		wantRedirect(t, "test payment again", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
		wantRedirect(t, "test payment step of a paid order", e.get(t, page+"/test-pay"), page+"/done")
		want(t, "pay a paid order", e.post(t, page+"/pay", url.Values{}), http.StatusConflict, "is paid")
		want(t, "billing of a paid order", e.post(t, page+"/billing", berlin), http.StatusConflict)
	})
}

func TestCheckout_Refused(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil)

		t.Run("UnknownToken", func(t *testing.T) {
			for _, path := range []string{
				"/checkout/" + strings.Repeat("A", 43),
				"/checkout/" + strings.Repeat("A", 43) + "/done",
				"/checkout/" + strings.Repeat("A", 43) + "/test-pay",
				"/checkout/not%20a%20token",
			} {
				res := e.get(t, path)
				want(t, path, res, http.StatusNotFound, "Checkout link not found")
				if res.header.Get("Referrer-Policy") != "no-referrer" || res.header.Get("X-Robots-Tag") == "" {
					t.Errorf("%s: a 404 of a checkout address lacks its headers: %v", path, res.header)
				}
			}
			want(t, "billing of an unknown token", e.post(t, "/checkout/"+strings.Repeat("B", 43)+"/billing", berlin), http.StatusNotFound)
		})

		t.Run("CrossOrigin", func(t *testing.T) {
			_, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
			page := domain.CheckoutPath + token
			for name, hdr := range map[string][]string{
				"SecFetchSite": {"Sec-Fetch-Site", "cross-site"},
				"Origin":       {"Origin", "https://evil.example"},
			} {
				res := e.post(t, page+"/billing", berlin, hdr...)
				want(t, name, res, http.StatusForbidden, "sent from another site")
				res = e.post(t, page+"/cancel", url.Values{}, hdr...)
				want(t, name+" cancel", res, http.StatusForbidden)
			}
			if o := e.order(t, token); o.Billing != nil || o.Status != domain.OrderPending {
				t.Errorf("cross-origin posts changed the order: billing %+v, status %s", o.Billing, o.Status)
			}
			// The same form from the page itself is accepted.
			wantRedirect(t, "same-origin billing", e.post(t, page+"/billing", berlin, "Sec-Fetch-Site", "same-origin", "Origin", e.srv.URL), page)
		})

		t.Run("TooLarge", func(t *testing.T) {
			_, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
			big := url.Values{"name": {"Ann"}, "address": {strings.Repeat("a", 70<<10)}, "country": {"DE"}}
			want(t, "a 70 KiB form", e.post(t, domain.CheckoutPath+token+"/billing", big), http.StatusRequestEntityTooLarge)
		})

		t.Run("Canceled", func(t *testing.T) {
			_, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
			page := domain.CheckoutPath + token
			wantRedirect(t, "billing", e.post(t, page+"/billing", berlin), page)
			wantRedirect(t, "cancel", e.post(t, page+"/cancel", url.Values{}), page)
			res := e.get(t, page)
			want(t, "the canceled order's page", res, http.StatusOK, "This order can no longer be paid", "It is canceled")
			wantNot(t, "the canceled order's page", res, `action="`+page+`/pay"`, `action="`+page+`/billing"`)
			want(t, "pay a canceled order", e.post(t, page+"/pay", url.Values{}), http.StatusConflict, "canceled")
			want(t, "test-pay a canceled order", e.post(t, page+"/test-pay", url.Values{}), http.StatusConflict, "can no longer be paid")
			want(t, "test payment step of a canceled order", e.get(t, page+"/test-pay"), http.StatusConflict)
			want(t, "cancel again", e.post(t, page+"/cancel", url.Values{}), http.StatusConflict)
			if o := e.order(t, token); o.Status != domain.OrderCanceled {
				t.Errorf("a canceled order became %s", o.Status)
			}
		})

		t.Run("Expired", func(t *testing.T) {
			_, token := e.checkout(t, domain.OrderItem{Product: domain.ProductFeatured, ListingID: e.listing})
			page := domain.CheckoutPath + token
			wantRedirect(t, "billing", e.post(t, page+"/billing", berlin), page)
			e.clock.Advance(domain.CheckoutDays*24*time.Hour + time.Second)
			defer e.clock.Set(testNow)
			want(t, "the expired order's page", e.get(t, page), http.StatusOK, "This order can no longer be paid", "It is expired")
			want(t, "pay an expired order", e.post(t, page+"/pay", url.Values{}), http.StatusConflict, "expired")
			want(t, "test-pay an expired order", e.post(t, page+"/test-pay", url.Values{}), http.StatusConflict)
			if o := e.order(t, token); o.Status != domain.OrderExpired {
				t.Errorf("an expired order is %s", o.Status)
			}
		})
	})
}

// hostedProvider stands in for a hosted payment page such as Stripe
// Checkout: it is outside our service, so the test plays it. It remembers
// the pages it was given.
type hostedProvider struct {
	pages atomic.Pointer[domain.CheckoutPages]
}

func (*hostedProvider) Name() string   { return "stripe" }
func (*hostedProvider) TestMode() bool { return false }
func (p *hostedProvider) Begin(_ context.Context, o *domain.Order, pages domain.CheckoutPages) (string, string, error) {
	p.pages.Store(&pages)
	return "https://checkout.stripe.com/c/pay/cs_test_" + o.Number, "cs_test_" + o.Number, nil
}

func TestCheckout_HostedProvider(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		pay := &hostedProvider{}
		e := newOrderEnvOn(t, engine, pay)
		v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
		page := domain.CheckoutPath + token

		res := e.get(t, page)
		want(t, "the page with a real provider", res, http.StatusOK, "Order "+v.Number)
		wantNot(t, "the page with a real provider", res, testBanner)
		want(t, "test payment step with a real provider", e.get(t, page+"/test-pay"), http.StatusNotFound)
		want(t, "test payment with a real provider", e.post(t, page+"/test-pay", url.Values{}), http.StatusNotFound)

		wantRedirect(t, "billing", e.post(t, page+"/billing", berlin), page)
		wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), "https://checkout.stripe.com/c/pay/cs_test_"+v.Number)
		got := pay.pages.Load()
		wantPages := domain.CheckoutPages{Page: e.srv.URL + page, Return: e.srv.URL + page + "/done", Cancel: e.srv.URL + page}
		if got == nil || *got != wantPages {
			t.Fatalf("the provider was given pages %+v, want %+v", got, wantPages)
		}
		if o := e.order(t, token); o.Provider != "stripe" || o.ProviderRef != "cs_test_"+v.Number {
			t.Errorf("after pay: provider %q ref %q", o.Provider, o.ProviderRef)
		}

		// Back from the provider before its webhook: not paid yet.
		res = e.get(t, page+"/done")
		want(t, "done before the webhook", res, http.StatusOK, "Payment is being confirmed", `href="`+page+`/done"`)
		wantNot(t, "done before the webhook", res, "Thank you")

		o := e.order(t, token)
		if _, err := e.svc.ConfirmPayment(context.Background(), domain.PaymentEvent{Provider: "stripe", EventID: "evt_1",
			OrderNumber: v.Number, Ref: o.ProviderRef, AmountCents: o.TotalCents, Currency: o.Currency}); err != nil {
			t.Fatal(err)
		}
		res = e.get(t, page+"/done")
		want(t, "done after the webhook", res, http.StatusOK, "Thank you: the order is paid")
		wantNot(t, "done after the webhook", res, testBanner)
	})
}

func TestFormatMoney(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cur   string
		cents int64
		want  string
	}{
		{"USD", 4900, "$49.00"}, {"EUR", 4900, "€49.00"}, {"eur", 123456705, "€1,234,567.05"}, {"GBP", 5, "£0.05"},
		{"CHF", 4900, "49.00 CHF"}, {"USD", -931, "-$9.31"}, {"", 100, "1.00"},
	} {
		if got := formatMoney(c.cur, c.cents); got != c.want {
			t.Errorf("formatMoney(%q, %d) = %q, want %q", c.cur, c.cents, got, c.want)
		}
	}
}

func TestRedactToken(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/checkout/abcDEF_-123":         "/checkout/{token}",
		"/checkout/abcDEF_-123/billing": "/checkout/{token}/billing",
		"/admin":                        "/admin",
	} {
		if got := redactToken(in); got != want {
			t.Errorf("redactToken(%q) = %q, want %q", in, got, want)
		}
	}
}
