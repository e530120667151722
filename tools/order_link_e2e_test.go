package tools

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// withAccountPages serves the pages, the checkout pages and sign-in next to
// the API with /account listing orders through the Service, as serve wires
// it (auth.Config.Orders), and returns a sign-in for an email.
func withAccountPages(t *testing.T, env *catEnv) func(email string) *http.Client {
	t.Helper()
	return withAccountPagesOf(t, env, auth.Config{Account: env.db, Listings: env.db, Orders: env.svc})
}

// withAccountPagesOf is withAccountPages with auth configured by cfg (its
// origin, site name, store, mailer and clock are filled here).
func withAccountPagesOf(t *testing.T, env *catEnv, cfg auth.Config) func(email string) *http.Client {
	t.Helper()
	mail := &signInMail{}
	cfg.Origin, cfg.SiteName, cfg.Store, cfg.Mailer, cfg.Now = env.URL, "Launchdir", env.store, mail, env.clock.Now
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("/", web.New(env.svc, web.WithAccount(a.SignedInUser)))
	var h http.Handler = mux
	env.pages.Store(&h)
	linkRE := regexp.MustCompile(`/signin/email\?token=[A-Za-z0-9_-]+`)
	return func(email string) *http.Client {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(env.URL+"/signin", url.Values{"email": {email}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		mail.mu.Lock()
		last := mail.sent[len(mail.sent)-1]
		mail.mu.Unlock()
		link := linkRE.FindString(last)
		if !strings.HasPrefix(last, email+"|") || link == "" {
			t.Fatalf("no sign-in link mailed to %s: %q", email, last)
		}
		if res, err = c.Get(env.URL + link); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in link: %d", res.StatusCode)
		}
		return c
	}
}

// orderIn returns the order number of list_my_orders' items.
func orderIn(t testing.TB, list map[string]any, number string) map[string]any {
	t.Helper()
	items, _ := list["items"].([]any)
	for _, it := range items {
		if m := it.(map[string]any); m["number"] == number {
			return m
		}
	}
	t.Fatalf("list_my_orders does not hold %s: %v", number, list)
	return nil
}

// TestOrders_CheckoutLinkShownToOwnerWhilePayable: the
// checkout_url of a pending order is found again by its owner, over REST
// and MCP, in get_order and list_my_orders, and it is the link
// create_checkout gave, which opens the checkout page. Once the order is
// paid, canceled or expired, checkout_url is null. Nobody else sees the
// order. /account lists the person's orders (status, amount as money, the
// pay link while payable) and their listings with a link to each page.
func TestOrders_CheckoutLinkShownToOwnerWhilePayable(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock := withOrdering(t, env, domain.TestPayments{})
	signIn := withAccountPages(t, env)
	const buyer = "buyer@example.com"
	key := env.apiKey(t, buyer)
	pending := map[string]string{} // transport -> number of the order left pending
	paid := ""
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		id := env.ownedListing(t, buyer)
		st, o := call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": id}}})
		link, _ := o["checkout_url"].(string)
		if st != 201 || !strings.HasPrefix(link, env.URL+domain.CheckoutPath) {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		number := o["number"].(string)
		st, got := call(t, "get_order", map[string]any{"number": number})
		if st != 200 || got["checkout_url"] != link {
			t.Fatalf("get_order of a pending order: checkout_url %v, want the link create_checkout gave (%s); %d %v", got["checkout_url"], link, st, got)
		}
		if next, _ := got["next"].(string); !strings.Contains(next, "checkout_url") {
			t.Errorf("get_order's next does not point at checkout_url: %q", next)
		}
		st, list := call(t, "list_my_orders", map[string]any{})
		if st != 200 || orderIn(t, list, number)["checkout_url"] != link {
			t.Fatalf("list_my_orders: checkout_url %v, want %s", orderIn(t, list, number)["checkout_url"], link)
		}
		if st, page := newBrowser(t).get(link); st != 200 || !strings.Contains(page, number) {
			t.Fatalf("the link get_order showed: %d", st)
		}

		// Canceled on the checkout page: the link is gone (null, not absent).
		if st, loc := newBrowser(t).post(link+"/cancel", url.Values{}); st != 303 {
			t.Fatalf("cancel: %d %s", st, loc)
		}
		st, got = call(t, "get_order", map[string]any{"number": number})
		if v, sent := got["checkout_url"]; st != 200 || got["status"] != "canceled" || !sent || v != nil {
			t.Fatalf("get_order of a canceled order: checkout_url %v (sent: %v), want null; %d %v", v, sent, st, got)
		}

		// Paid: no link any more.
		st, o = call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": id}}})
		if st != 201 {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Ada"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
		paid = o["number"].(string)
		st, got = call(t, "get_order", map[string]any{"number": paid})
		if v, sent := got["checkout_url"]; st != 200 || got["status"] != "paid" || !sent || v != nil {
			t.Fatalf("get_order of a paid order: checkout_url %v (sent: %v), want null; %d %v", v, sent, st, got)
		}
		st, list = call(t, "list_my_orders", map[string]any{})
		if v, sent := orderIn(t, list, paid)["checkout_url"]; st != 200 || !sent || v != nil {
			t.Fatalf("list_my_orders of a paid order: checkout_url %v (sent: %v), want null", v, sent)
		}

		// Left pending, for the account page and the expiry below.
		st, o = call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": id}}})
		if st != 201 {
			t.Fatalf("create_checkout: %d %v", st, o)
		}
		pending[o["number"].(string)] = o["checkout_url"].(string)
	})

	// Someone else never sees the order or its link.
	other := restCaller(env, env.apiKey(t, "other@example.com"))
	for number := range pending {
		if st, p := other(t, "get_order", map[string]any{"number": number}); st != 404 || strings.Contains(p["detail"].(string), "checkout") {
			t.Fatalf("someone else's get_order: %d %v", st, p)
		}
	}

	// /account: the orders (amount as money, the pay link of the pending
	// ones only) and the listings with their pages.
	live := env.ownedListing(t, buyer, fixtures.Cols{"status": "live", "name": "Ledgerly Live"})
	slug := listingColumn(t, env, live, "slug")
	st, account, _ := page(t, signIn(buyer), "GET", env.URL+"/account", nil)
	account = html.UnescapeString(account)
	if st != 200 {
		t.Fatalf("/account: %d", st)
	}
	for number, link := range pending {
		if !strings.Contains(account, number) || !strings.Contains(account, `href="`+link+`"`) {
			t.Errorf("/account lacks the pending order %s or its pay link %s", number, link)
		}
	}
	if !strings.Contains(account, paid) {
		t.Errorf("/account lacks the paid order %s", paid)
	}
	if !regexp.MustCompile(`\$\d+\.\d\d`).MatchString(account) || strings.Contains(account, "cents") {
		t.Errorf("/account shows no amount as money ($12.34)")
	}
	if n := strings.Count(account, domain.CheckoutPath); n != len(pending) {
		t.Errorf("/account shows %d checkout links, want %d (the pending orders only)", n, len(pending))
	}
	if !strings.Contains(account, `href="/listings/`+slug+`"`) || !strings.Contains(account, "Ledgerly Live") {
		t.Errorf("/account does not link the live listing's page /listings/%s", slug)
	}
	if st, _, _ := page(t, signIn(buyer), "GET", env.URL+"/listings/"+slug, nil); st != 200 {
		t.Errorf("the listing page /account links: %d", st)
	}
	_, theirs, _ := page(t, signIn("other@example.com"), "GET", env.URL+"/account", nil)
	for number := range pending {
		if strings.Contains(theirs, number) || strings.Contains(theirs, domain.CheckoutPath) {
			t.Errorf("someone else's /account shows order %s", number)
		}
	}

	// Expired (unpaid 7 days): no link anywhere.
	clock.Set(catNow.Add((domain.CheckoutDays*24 + 1) * time.Hour))
	call := restCaller(env, key)
	for number := range pending {
		st, got := call(t, "get_order", map[string]any{"number": number})
		if v, sent := got["checkout_url"]; st != 200 || got["status"] != "expired" || !sent || v != nil {
			t.Fatalf("get_order of an expired order: checkout_url %v (sent: %v), want null; %d %v", v, sent, st, got)
		}
	}
	if _, account, _ := page(t, signIn(buyer), "GET", env.URL+"/account", nil); strings.Contains(account, domain.CheckoutPath) {
		t.Errorf("/account shows a checkout link of an expired order")
	}
}
