package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/domain/vat"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// idleOrdering configures the order operations as serve does (built-in test
// payments), with a job runner that is not started: paid orders stay
// unfulfilled until a test runs one (withOrdering).
func idleOrdering(t testing.TB, db *storage.DB, site domain.Site) *domain.Ordering {
	t.Helper()
	st, err := storage.NewOrderStore(db, site)
	if err != nil {
		t.Fatal(err)
	}
	return &domain.Ordering{Store: st, Payments: domain.TestPayments{}, VAT: vat.Rules{}, Options: &validate.Options{},
		EnqueueAt: domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: db.Now}).EnqueueAt}
}

// withOrdering makes pay env's payment provider (the outside world), runs
// the order jobs on env's database and clock (the test runs them with
// env.runJobs), and serves the checkout pages next to the API, as serve
// does. It returns the env's clock.
func withOrdering(t testing.TB, env *catEnv, pay domain.Payments) *testclock.Clock {
	t.Helper()
	runner := env.quietRunner()
	env.world.swap(func(w *testWorld) { w.payments = pay })
	env.svc.RegisterOrderJobs(runner)
	pages := web.New(env.svc)
	env.pages.Store(&pages)
	return env.clock
}

// ownListing submits the local product site as a draft and saves it as a
// listing of the caller, the way an assistant does, and returns its id.
func ownListing(t *testing.T, env *catEnv, call draftCaller, siteURL string) int64 {
	t.Helper()
	st, d := call(t, "submit_listing", map[string]any{"url": siteURL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, d)
	}
	if d = builtDraft(t, env, call, d["id"].(string)); d["status"] != "ready" {
		t.Fatalf("draft: %v", d)
	}
	st, d = call(t, "submit_draft", map[string]any{"id": d["id"]})
	if st != 200 {
		t.Fatalf("submit_draft: %d %v", st, d)
	}
	return int64(d["listing_id"].(float64))
}

// browser is a person's browser on the checkout page: plain GETs and form
// POSTs, redirects reported rather than followed.
type browser struct {
	t      *testing.T
	client *http.Client
}

func newBrowser(t *testing.T) *browser {
	return &browser{t: t, client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) get(u string) (int, string) {
	b.t.Helper()
	res, err := b.client.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// post submits a form from the page's own origin and returns the status and
// the Location of a redirect (or the body).
func (b *browser) post(u string, form url.Values) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if loc := res.Header.Get("Location"); loc != "" {
		return res.StatusCode, loc
	}
	return res.StatusCode, string(body)
}

// payOnPage does what the person does with checkout_url: opens it, enters
// billing details, pays through the test provider.
func payOnPage(t *testing.T, env *catEnv, checkoutURL string, billing url.Values) {
	t.Helper()
	b := newBrowser(t)
	st, page := b.get(checkoutURL)
	if st != 200 || !strings.Contains(page, "TEST MODE") {
		t.Fatalf("checkout page: %d, TEST MODE shown: %v", st, strings.Contains(page, "TEST MODE"))
	}
	if st, loc := b.post(checkoutURL+"/billing", billing); st != 303 {
		t.Fatalf("billing: %d %s", st, loc)
	}
	st, loc := b.post(checkoutURL+"/pay", url.Values{})
	if st != 303 || !strings.HasSuffix(loc, "/test-pay") {
		t.Fatalf("pay: %d %s", st, loc)
	}
	if !strings.HasPrefix(loc, "http") {
		loc = env.URL + loc
	}
	if st, page := b.get(loc); st != 200 || !strings.Contains(page, "TEST MODE") {
		t.Fatalf("test payment step: %d", st)
	}
	st, done := b.post(loc, url.Values{})
	if st != 303 || !strings.HasSuffix(done, "/done") {
		t.Fatalf("test pay: %d %s", st, done)
	}
}

// fulfilledOrder runs the due jobs and returns get_order, which must then be
// paid and fulfilled.
func fulfilledOrder(t *testing.T, env *catEnv, call draftCaller, number string) map[string]any {
	t.Helper()
	env.runJobs(t)
	st, o := call(t, "get_order", map[string]any{"number": number})
	if st != 200 {
		t.Fatalf("get_order: %d %v", st, o)
	}
	if o["status"] != "paid" || o["fulfilled"] != true {
		t.Fatalf("order not paid and fulfilled once its jobs ran: %v", o)
	}
	return o
}

// listingAfterJobs runs the due jobs and fails unless listing id then has status.
func listingAfterJobs(t *testing.T, env *catEnv, id int64, status string) {
	t.Helper()
	env.runJobs(t)
	if got := listingColumn(t, env, id, "status"); got != status {
		t.Fatalf("listing %d is %s once the due jobs ran, want %s", id, got, status)
	}
}

// countRows is the number of rows of table matching where (nil: all).
func countRows(t *testing.T, env *catEnv, table string, where fixtures.Cols) int {
	t.Helper()
	return fixtures.Count(t, env.db, table, where)
}

func TestOrders_EndToEnd(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	clock := withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "buyer@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			clock.Set(catNow)
			call := tr.call(t)

			// The products list is public and offers launch weeks.
			r := catDo(t, env, "GET", "/v1/products", nil, nil)
			var products domain.ProductList
			if r.status != 200 || json.Unmarshal(r.body, &products) != nil {
				t.Fatalf("list_products: %d %s", r.status, r.body)
			}
			var weeks []string
			for _, p := range products.Items {
				if p.Code == "launch" {
					weeks = p.Weeks
				}
			}
			if len(weeks) != domain.PaidWeeksAhead || weeks[0] != "2026-11-23" {
				t.Fatalf("launch weeks = %v", weeks)
			}

			// 1. Live at once: quote with VAT, checkout, pay on the page.
			now := ownListing(t, env, call, site.URL)
			body := map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": now}}, "billing_country": "DE"}
			stored := countRows(t, env, "orders", nil)
			st, q := call(t, "quote_order", body)
			if st != 200 || q["total_cents"].(float64) != 4900+931 || q["vat"].(map[string]any)["mode"] != "standard" {
				t.Fatalf("quote: %d %v", st, q)
			}
			if n := countRows(t, env, "orders", nil); n != stored {
				t.Fatalf("a quote stored %d orders", n-stored)
			}
			st, o := call(t, "create_checkout", body)
			if st != 201 || o["status"] != "pending" || !strings.HasPrefix(o["checkout_url"].(string), env.URL+"/checkout/") {
				t.Fatalf("create_checkout: %d %v", st, o)
			}
			number := o["number"].(string)
			if len(number) > 32 {
				t.Fatalf("order number %q is longer than 32", number)
			}
			payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Ada GmbH"}, "address": {"Hauptstr. 1, Berlin"}, "country": {"DE"}})
			got := fulfilledOrder(t, env, call, number)
			if got["total_cents"].(float64) != 5831 || got["test_mode"] != true {
				t.Fatalf("paid order: %v", got)
			}
			listingAfterJobs(t, env, now, "live")
			if plan := listingColumn(t, env, now, "plan"); plan != "paid" {
				t.Fatalf("plan = %s", plan)
			}
			// The owner reads it back: live, paid, every paid section unlocked.
			st, mine := call(t, "get_my_listing", map[string]any{"listing_id": now})
			if st != 200 || mine["status"] != "live" || mine["plan"] != "paid" ||
				fmt.Sprint(mine["unlocked_sections"]) != "[media milestones story]" || mine["page_url"] == nil {
				t.Fatalf("get_my_listing after paying: %d %v", st, mine)
			}

			// 2. A future week: scheduled, live when the clock reaches that Monday.
			later := ownListing(t, env, call, site.URL)
			week := weeks[2]
			st, o = call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": later, "week": week}}})
			if st != 201 {
				t.Fatalf("create_checkout with week: %d %v", st, o)
			}
			payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Bo Ltd"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
			got = fulfilledOrder(t, env, call, o["number"].(string))
			if got["vat"].(map[string]any)["mode"] != "outside_eu" || got["total_cents"].(float64) != 4900 {
				t.Fatalf("US order: %v", got)
			}
			listingAfterJobs(t, env, later, "scheduled")
			if w := listingColumn(t, env, later, "launch_week"); w != week {
				t.Fatalf("launch_week = %s, want %s", w, week)
			}
			monday, _ := time.Parse(time.DateOnly, week)
			clock.Set(monday.Add(-time.Minute))
			env.runJobs(t) // whatever is due a minute before that Monday runs
			if s := listingColumn(t, env, later, "status"); s != "scheduled" {
				t.Fatalf("live before its week: %s", s)
			}
			clock.Set(monday.Add(time.Minute))
			listingAfterJobs(t, env, later, "live")

			// The orders list is newest first; another user's order is a 404.
			st, list := call(t, "list_my_orders", map[string]any{})
			items := list["items"].([]any)
			if st != 200 || len(items) < 2 || items[0].(map[string]any)["number"] != o["number"] {
				t.Fatalf("list_my_orders: %d %v", st, list)
			}
		})
	}
	other := restCaller(env, env.apiKey(t, "other@example.com"))
	_, list := restCaller(env, key)(t, "list_my_orders", map[string]any{})
	number := list["items"].([]any)[0].(map[string]any)["number"].(string)
	if st, p := other(t, "get_order", map[string]any{"number": number}); st != 404 || p["code"] != "not_found" {
		t.Fatalf("someone else's order: %d %v", st, p)
	}
	if st, _ := other(t, "get_order", map[string]any{"number": "LD-NOPE"}); st != 404 {
		t.Fatalf("unknown order: %d", st)
	}
}

func TestOrders_ConcurrentCheckoutOneKey(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "buyer@example.com")
	id := env.ownedListing(t, "buyer@example.com")
	body, _ := json.Marshal(map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": id}}})
	var wg sync.WaitGroup
	urls := make([]string, 20)
	for i := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := catDo(t, env, "POST", "/v1/orders/checkout", body, map[string]string{
				"Authorization": "Bearer " + key, "Content-Type": "application/json", "Idempotency-Key": "order-once"})
			var o map[string]any
			_ = json.Unmarshal(r.body, &o)
			if r.status != 201 {
				t.Errorf("attempt %d: %d %s", i, r.status, r.body)
				return
			}
			urls[i] = fmt.Sprint(o["checkout_url"])
		}()
	}
	wg.Wait()
	if n := countRows(t, env, "orders", nil); n != 1 {
		t.Fatalf("20 retries with one key made %d orders", n)
	}
	for _, u := range urls {
		if u != urls[0] {
			t.Fatalf("replays answered different checkout links: %q %q", urls[0], u)
		}
	}
}

// ownedListing inserts a listing owned by email's account (created by
// apiKey), a draft on the free plan in the first demo category, with the
// given columns over those, and returns its id.
func (e *catEnv) ownedListing(t testing.TB, email string, cols ...fixtures.Cols) int64 {
	t.Helper()
	all := fixtures.Cols{}
	for _, c := range cols {
		for k, v := range c {
			all[k] = v
		}
	}
	return fixtures.Listing(t, e.db, email, all)
}

func TestOrders_ItemRules(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "rules@example.com")
	env.apiKey(t, "stranger@example.com")
	// The demo category slugs in id order: ownedListing makes the first the primary.
	var ruleCats []string
	for _, id := range fixtures.IDs(t, env.db, "categories", nil)[:6] {
		ruleCats = append(ruleCats, fixtures.Column(t, env.db, "categories", id, "slug"))
	}

	draft := env.ownedListing(t, "rules@example.com")
	live := env.ownedListing(t, "rules@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-09"})
	queued := env.ownedListing(t, "rules@example.com", fixtures.Cols{"status": "awaiting_badge", "launch_week": "2027-01-04"})
	paid := env.ownedListing(t, "rules@example.com", fixtures.Cols{"status": "scheduled", "plan": "paid", "launch_week": "2026-12-07"})
	featured := env.ownedListing(t, "rules@example.com", fixtures.Cols{"featured": 1})
	twoExtra := env.ownedListing(t, "rules@example.com", fixtures.Cols{"plan": "paid", "status": "live"})
	fixtures.ExtraCategory(t, env.db, twoExtra, ruleCats[1])
	fixtures.ExtraCategory(t, env.db, twoExtra, ruleCats[2])
	theirs := env.ownedListing(t, "stranger@example.com")

	item := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = item("product", "billboard_min", "listing_id", draft, "amount_cents", 500)
		}
		return out
	}
	props := map[string]any{}
	for i := 0; i < 21; i++ {
		props[fmt.Sprintf("k%d", i)] = i
	}
	// The offered weeks at catNow (Wednesday 2026-11-18): launch and relaunch
	// 2026-11-23 to 2027-02-08; skip_queue 2026-11-23 to 2026-12-21.
	for _, c := range []struct {
		name  string
		items []any
		field string // "" = accepted
		rule  string
	}{
		{"launch now", []any{item("product", "launch", "listing_id", draft)}, "", ""},
		{"launch first week", []any{item("product", "launch", "listing_id", draft, "week", "2026-11-23")}, "", ""},
		{"launch last week", []any{item("product", "launch", "listing_id", draft, "week", "2027-02-08")}, "", ""},
		{"launch week after the last", []any{item("product", "launch", "listing_id", draft, "week", "2027-02-15")}, "items[0].week", "offered"},
		{"launch this week", []any{item("product", "launch", "listing_id", draft, "week", "2026-11-16")}, "items[0].week", "offered"},
		{"launch on a Tuesday", []any{item("product", "launch", "listing_id", draft, "week", "2026-11-24")}, "items[0].week", "monday"},
		{"week not a date", []any{item("product", "launch", "listing_id", draft, "week", "2026-13-01")}, "items[0].week", "date"},
		{"week 11 characters", []any{item("product", "launch", "listing_id", draft, "week", "2026-11-230")}, "items[0].week", "maxLength"},
		{"launch without listing", []any{item("product", "launch")}, "items[0].listing_id", "required"},
		{"listing_id 0", []any{item("product", "launch", "listing_id", 0)}, "items[0].listing_id", "minimum"},
		{"someone else's listing", []any{item("product", "launch", "listing_id", theirs)}, "items[0].listing_id", "exists"},
		{"launch a live listing", []any{item("product", "launch", "listing_id", live)}, "items[0].listing_id", "state"},
		{"launch a paid scheduled listing", []any{item("product", "launch", "listing_id", paid)}, "items[0].listing_id", "state"},
		{"launch a free queued listing", []any{item("product", "launch", "listing_id", queued)}, "", ""},
		{"unknown product", []any{item("product", "rocket", "listing_id", draft)}, "items[0].product", "exists"},
		{"product 61 characters", []any{item("product", strings.Repeat("x", 61))}, "items[0].product", "maxLength"},
		{"skip_queue first week", []any{item("product", "skip_queue", "listing_id", queued, "week", "2026-11-23")}, "", ""},
		{"skip_queue last week", []any{item("product", "skip_queue", "listing_id", queued, "week", "2026-12-21")}, "", ""},
		{"skip_queue into the free window", []any{item("product", "skip_queue", "listing_id", queued, "week", "2026-12-28")}, "items[0].week", "offered"},
		{"skip_queue without week", []any{item("product", "skip_queue", "listing_id", queued)}, "items[0].week", "required"},
		{"skip_queue on a paid listing", []any{item("product", "skip_queue", "listing_id", paid, "week", "2026-11-23")}, "items[0].listing_id", "free_only"},
		{"relaunch a live listing", []any{item("product", "relaunch", "listing_id", live, "week", "2026-11-30")}, "", ""},
		{"relaunch without week", []any{item("product", "relaunch", "listing_id", live)}, "items[0].week", "required"},
		{"relaunch a draft", []any{item("product", "relaunch", "listing_id", draft, "week", "2026-11-30")}, "items[0].listing_id", "state"},
		{"week on featured", []any{item("product", "featured", "listing_id", draft, "week", "2026-11-23")}, "items[0].week", "not_allowed"},
		{"featured twice over", []any{item("product", "featured", "listing_id", featured)}, "items[0].listing_id", "state"},
		{"billboard at the minimum", []any{item("product", "billboard_min", "listing_id", live, "amount_cents", 500)}, "", ""},
		{"billboard below the minimum", []any{item("product", "billboard_min", "listing_id", live, "amount_cents", 499)}, "items[0].amount_cents", "minimum"},
		{"billboard at the maximum", []any{item("product", "billboard_min", "listing_id", live, "amount_cents", 100000000)}, "", ""},
		{"billboard above the maximum", []any{item("product", "billboard_min", "listing_id", live, "amount_cents", 100000001)}, "items[0].amount_cents", "maximum"},
		{"billboard without amount", []any{item("product", "billboard_min", "listing_id", live)}, "items[0].amount_cents", "required"},
		{"amount on launch", []any{item("product", "launch", "listing_id", draft, "amount_cents", 500)}, "items[0].amount_cents", "not_allowed"},
		{"one extra category", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{ruleCats[1]})}, "", ""},
		{"three extra categories", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{ruleCats[1], ruleCats[2], ruleCats[3]})}, "", ""},
		{"four extra categories", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{ruleCats[1], ruleCats[2], ruleCats[3], ruleCats[4]})}, "items[0].categories", "maxItems"},
		{"eleven categories", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"})}, "items[0].categories", "maxItems"},
		{"no categories", []any{item("product", "extra_categories", "listing_id", paid)}, "items[0].categories", "required"},
		{"the primary category", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{ruleCats[0]})}, "items[0].categories[0]", "primary"},
		{"an unknown category", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{"no-such-category"})}, "items[0].categories[0]", "exists"},
		{"a category twice", []any{item("product", "extra_categories", "listing_id", paid, "categories", []any{ruleCats[1], ruleCats[1]})}, "items[0].categories[1]", "unique"},
		{"the fourth extra in all", []any{item("product", "extra_categories", "listing_id", twoExtra, "categories", []any{ruleCats[3], ruleCats[4]})}, "items[0].categories", "maxItems"},
		{"the third extra in all", []any{item("product", "extra_categories", "listing_id", twoExtra, "categories", []any{ruleCats[3]})}, "", ""},
		{"extra categories for a free listing", []any{item("product", "extra_categories", "listing_id", draft, "categories", []any{ruleCats[1]})}, "items[0].listing_id", "paid_only"},
		{"extra categories for a free queued listing", []any{item("product", "extra_categories", "listing_id", queued, "categories", []any{ruleCats[1]})}, "items[0].listing_id", "paid_only"},
		{"extra categories with its launch in the order", []any{item("product", "extra_categories", "listing_id", draft, "categories", []any{ruleCats[1]}), item("product", "launch", "listing_id", draft, "week", "2026-11-23")}, "", ""},
		{"extra categories with its bundle in the order", []any{item("product", "launch_bundle", "listing_id", queued), item("product", "extra_categories", "listing_id", queued, "categories", []any{ruleCats[1]})}, "", ""},
		{"extra categories with another listing's launch", []any{item("product", "launch", "listing_id", queued), item("product", "extra_categories", "listing_id", draft, "categories", []any{ruleCats[1]})}, "items[1].listing_id", "paid_only"},
		{"categories on launch", []any{item("product", "launch", "listing_id", draft, "categories", []any{ruleCats[1]})}, "items[0].categories", "not_allowed"},
		{"ai_review option", []any{item("product", "ai_review", "listing_id", draft, "options", map[string]any{"focus": "seo"})}, "", ""},
		{"ai_review bad option", []any{item("product", "ai_review", "listing_id", draft, "options", map[string]any{"focus": "vibes"})}, "items[0].options.focus", "enum"},
		{"ai_review unknown option", []any{item("product", "ai_review", "listing_id", draft, "options", map[string]any{"tone": "kind"})}, "items[0].options", "additionalProperties"},
		{"options on launch", []any{item("product", "launch", "listing_id", draft, "options", map[string]any{"x": 1})}, "items[0].options", "not_allowed"},
		{"trophy_verification without its options", []any{item("product", "trophy_verification", "listing_id", draft)}, "items[0].options", "required"},
		{"trophy_verification of no trophy", []any{item("product", "trophy_verification", "listing_id", draft, "options", map[string]any{"trophy_id": 999999})}, "items[0].options.trophy_id", "exists"},
		{"21 option properties", []any{item("product", "ai_review", "listing_id", draft, "options", props)}, "items[0].options", "maxProperties"},
		{"no items", []any{}, "items", "minItems"},
		{"20 items", many(20), "", ""},
		{"21 items", many(21), "items", "maxItems"},
		{"the second item is wrong", []any{item("product", "featured", "listing_id", draft), item("product", "launch", "listing_id", draft, "week", "2026-11-25")}, "items[1].week", "monday"},
		{"launch and skip_queue for one listing", []any{item("product", "launch", "listing_id", queued), item("product", "skip_queue", "listing_id", queued, "week", "2026-11-23")}, "items[1].product", "conflict"},
		{"bundle and featured for one listing", []any{item("product", "launch_bundle", "listing_id", draft), item("product", "featured", "listing_id", draft)}, "items[1].product", "conflict"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"items": c.items})
			hdr := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"}
			for _, path := range []string{"/v1/orders/quote", "/v1/orders/checkout"} {
				before := countRows(t, env, "orders", nil)
				r := catDo(t, env, "POST", path, body, hdr)
				var p map[string]any
				_ = json.Unmarshal(r.body, &p)
				if c.field == "" {
					if r.status/100 != 2 {
						t.Fatalf("%s: %d %s", path, r.status, r.body)
					}
					continue
				}
				if r.status != 400 {
					t.Fatalf("%s: %d %s, want 400 on %s", path, r.status, r.body, c.field)
				}
				fields, _ := p["errors"].([]any)
				if len(fields) == 0 {
					t.Fatalf("%s: no field errors: %s", path, r.body)
				}
				f := fields[0].(map[string]any)
				if f["field"] != c.field || f["rule"] != c.rule {
					t.Fatalf("%s: first error %v %v (%v), want %s %s", path, f["field"], f["rule"], f["message"], c.field, c.rule)
				}
				if after := countRows(t, env, "orders", nil); after != before {
					t.Fatalf("%s: a refused request stored an order", path)
				}
			}
		})
	}
}

// TestOrders_VAT checks the VAT preview of quote_order for each kind of
// buyer, with the seller in IE (the default).
func TestOrders_VAT(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	key := env.apiKey(t, "vat@example.com")
	id := env.ownedListing(t, "vat@example.com")
	call := restCaller(env, key)
	for _, c := range []struct {
		name, country, number string
		mode                  string
		vatCents              float64
		field, rule           string
	}{
		{"no country", "", "", "no_country", 0, "", ""},
		{"German consumer", "DE", "", "standard", 931, "", ""},
		{"Finnish consumer, 25.5%", "FI", "", "standard", 1250, "", ""},
		{"US buyer", "US", "", "outside_eu", 0, "", ""},
		{"German business: reverse charge", "DE", "DE 136 695 976", "reverse_charge", 0, "", ""},
		{"country from the number", "", "FR04409414364", "reverse_charge", 0, "", ""},
		{"Irish business: domestic VAT", "IE", "IE6388047V", "domestic", 1127, "", ""},
		{"wrong check digit", "DE", "DE136695977", "", 0, "vat_number", "checksum"},
		{"number of another country", "DE", "FR04409414364", "", 0, "vat_number", "country"},
		{"Greek number written GR", "GR", "GR094259216", "", 0, "vat_number", "prefix"},
		{"number outside the EU", "US", "DE136695976", "", 0, "vat_number", "country"},
		{"not a country", "XX", "", "", 0, "billing_country", "country"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": id}}}
			if c.country != "" {
				body["billing_country"] = c.country
			}
			if c.number != "" {
				body["vat_number"] = c.number
			}
			st, q := call(t, "quote_order", body)
			if c.field != "" {
				f := q["errors"].([]any)[0].(map[string]any)
				if st != 400 || f["field"] != c.field || f["rule"] != c.rule {
					t.Fatalf("%d %v, want 400 on %s %s", st, q, c.field, c.rule)
				}
				return
			}
			v := q["vat"].(map[string]any)
			if st != 200 || v["mode"] != c.mode || v["cents"] != c.vatCents || q["total_cents"] != 4900+c.vatCents || v["rates_as_of"] == "" {
				t.Fatalf("%d %v, want mode %s and %v cents", st, q, c.mode, c.vatCents)
			}
		})
	}
}
