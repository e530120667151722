package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

// accountSite serves e's pages next to auth's sign-in and account pages
// with the own-data pages on (Config.Account), as serve does.
func accountSite(t *testing.T, e *orderEnv) (*auth.Auth, string, func(email string) *http.Client) {
	t.Helper()
	mails := &mailbox{links: map[string]string{}}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	az, err := auth.New(auth.Config{Origin: srv.URL, SiteName: "Launchdir", Store: storage.NewAuthStore(e.db), Mailer: mails,
		Account: e.db, Listings: e.db, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	az.Register(mux)
	mux.Handle("/", New(e.svc))
	signIn := func(email string) *http.Client {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(srv.URL+"/signin", url.Values{"email": {email}, "next": {"/account"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		mails.mu.Lock()
		link := mails.links[email]
		delete(mails.links, email)
		mails.mu.Unlock()
		if res.StatusCode != 200 || link == "" {
			t.Fatalf("sign-in of %s: %d, link %q", email, res.StatusCode, link)
		}
		if res, err = c.Get(link); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return c
	}
	return az, srv.URL, signIn
}

// submitForm posts form as a signed-in browser.
func submitForm(t *testing.T, c *http.Client, u string, form url.Values) response {
	t.Helper()
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// csrfOf returns the csrf field of a page's form.
func csrfOf(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `name="csrf" value="`)
	v, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 || v == "" {
		t.Fatalf("no csrf field in:\n%s", excerpt(body))
	}
	return v
}

// export downloads the signed-in account's data.
func export(t *testing.T, c *http.Client, origin string) (domain.AccountExport, map[string]json.RawMessage, http.Header) {
	t.Helper()
	res := browse(t, c, http.MethodGet, origin+"/account/export")
	if res.status != 200 {
		t.Fatalf("export: %d\n%s", res.status, excerpt(res.body))
	}
	var x domain.AccountExport
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.body), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(res.body), &raw); err != nil {
		t.Fatal(err)
	}
	return x, raw, res.header
}

// TestAccountData_ExportAndDelete: an account that did everything (draft,
// listing, claim, paid order, vote, review, follow, API key) downloads each
// of those; a wrong confirmation erases nothing; deleting signs out, stops
// the session and the key, leaves the email in no row of the database and
// the person's data on no page or operation; signing in again with the
// same address gives a new, empty account.
func TestAccountData_ExportAndDelete(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil)
	ctx := context.Background()
	const email, name = "ann@notably.test", "Ann Lee"
	caller, _ := domain.CallerFrom(e.caller)
	ann := caller.UserID

	// Another company's live listing that Ann votes for, reviews, follows and claims.
	st, err := storage.NewStore(ctx, e.db, domain.Site{Key: "main", Name: "Launchdir", BaseURL: e.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := storage.NewAuthStore(e.db).UpsertUser(ctx, auth.EmailIssuer, "bob@other.test", "bob@other.test", "Bob", testNow.Add(-90*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	other, err := st.SaveOwnListing(ctx, bob.ID, 0, &domain.ListingWrite{Name: "Otherly", Tagline: "Another tool", URL: "https://other.test/", Domain: "other.test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.UpdateRows(ctx, "listings", map[string]any{"status": "live", "launched_at": testNow.Add(-time.Hour).Unix()}, map[string]any{"id": other}); err != nil {
		t.Fatal(err)
	}
	// Ann's account is old enough for her vote and review to count.
	if _, err := e.db.UpdateRows(ctx, "users", map[string]any{"created_at": testNow.Add(-90 * 24 * time.Hour).Unix()}, map[string]any{"id": ann}); err != nil {
		t.Fatal(err)
	}
	// A co-owned listing: Ann submitted it, Cleo owns it with her.
	cleo, err := storage.NewAuthStore(e.db).UpsertUser(ctx, auth.EmailIssuer, "cleo@shared.test", "cleo@shared.test", "Cleo", testNow)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := st.SaveOwnListing(ctx, ann, 0, &domain.ListingWrite{Name: "Sharedly", Tagline: "Shared by two", URL: "https://shared.test/", Domain: "shared.test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.UpdateRows(ctx, "listings", map[string]any{"contact_email": email}, map[string]any{"id": shared}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.InsertRow(ctx, "listing_owners", map[string]any{"listing_id": shared, "user_id": cleo.ID, "via": "claim", "created_at": testNow.Unix()}); err != nil {
		t.Fatal(err)
	}

	// A listing Ann owns alone without orders, with her founder profile on it.
	lonely, err := st.SaveOwnListing(ctx, ann, 0, &domain.ListingWrite{Name: "Lonely", Tagline: "Only Ann", URL: "https://lonely.test/", Domain: "lonely.test"})
	if err != nil {
		t.Fatal(err)
	}
	founder, err := e.db.InsertRow(ctx, "founders", map[string]any{"slug": "ann-lee", "name": name, "bio": "Builds tools.", "created_at": testNow.Unix()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.InsertRow(ctx, "listing_founders", map[string]any{"listing_id": lonely, "founder_id": founder, "is_primary": 1}); err != nil {
		t.Fatal(err)
	}

	// A paid launch of Ann's own listing.
	v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
	page := domain.CheckoutPath + token
	wantRedirect(t, "billing", e.post(t, page+"/billing", url.Values{"name": {name}, "address": {"1 Main St"}, "country": {"US"}}), page)
	wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), e.srv.URL+page+"/test-pay")
	wantRedirect(t, "test payment", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
	if err := e.svc.FulfilOrder(ctx, v.Number); err != nil {
		t.Fatal(err)
	}
	own, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: "notably"})
	if err != nil {
		t.Fatal(err)
	}

	// A draft (the fixture a submit_listing leaves once drafted).
	if _, err := e.db.InsertRow(ctx, "drafts", map[string]any{"id": "7b1f1c52-0000-4000-8000-000000000001", "site_id": 1, "user_id": ann,
		"url": "https://drafted.test/", "status": "ready", "doc": `{"name":"Draftly"}`, "created_at": testNow.Unix(), "updated_at": testNow.Unix()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Vote(ctx, ann, "otherly", "203.0.113.9", "test-agent"); err != nil {
		t.Fatal(err)
	}
	const reviewBody = "Clear, fast and made by people who answer email."
	if _, err := e.svc.WriteReview(ctx, ann, "otherly", 5, reviewBody, "203.0.113.9", "test-agent"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Follow(ctx, ann, "otherly", true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ClaimListing(e.caller, domain.ClaimListingInput{Slug: "otherly", Method: "dns"}); err != nil {
		t.Fatal(err)
	}

	az, origin, signIn := accountSite(t, e)
	key, _, err := az.CreateAPIKey(ctx, email, "deploy script")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := az.Verify(ctx, key, az.APIResource()); err != nil {
		t.Fatalf("the key before deletion: %v", err)
	}
	// Signed out: the pages send to sign-in and come back; a cross-site post is refused.
	anon := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/account/export", "/account/delete"} {
		if res := browse(t, anon, http.MethodGet, origin+p); res.status != http.StatusSeeOther ||
			res.header.Get("Location") != "/signin?next="+url.QueryEscape(p) {
			t.Errorf("signed-out GET %s: %d to %q", p, res.status, res.header.Get("Location"))
		}
	}
	c := signIn(email)
	if res := browse(t, c, http.MethodPost, origin+"/account/delete", "Sec-Fetch-Site", "cross-site"); res.status != http.StatusForbidden {
		t.Errorf("cross-site POST /account/delete: %d", res.status)
	}
	acc := browse(t, c, http.MethodGet, origin+"/account")
	// Its listings, from Config.Listings (serve wires the database).
	want(t, "account page", acc, 200, `href="/account/export"`, `href="/account/delete"`, "notably", "sharedly")

	x, raw, hdr := export(t, c, origin)
	if got := hdr.Get("Content-Disposition"); got != `attachment; filename="launchdir-account-`+itoa(ann)+`.json"` {
		t.Errorf("Content-Disposition %q", got)
	}
	if hdr.Get("Cache-Control") != "no-store" || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Errorf("export headers %v", hdr)
	}
	if x.Account["email"] != email || x.Account["id"] != float64(ann) {
		t.Errorf("account %v", x.Account)
	}
	has := func(section string, recs []domain.Record, field string, val any) {
		t.Helper()
		for _, r := range recs {
			if r[field] == val {
				return
			}
		}
		t.Errorf("export %s: no record with %s=%v in %v", section, field, val, recs)
	}
	has("sign_in_methods", x.SignInMethods, "method", "email_link")
	if len(x.Sessions) == 0 {
		t.Error("export: no sessions")
	}
	has("api_keys", x.APIKeys, "name", "deploy script")
	has("drafts", x.Drafts, "url", "https://drafted.test/")
	has("listings", x.Listings, "slug", "notably")
	has("listings", x.Listings, "slug", "sharedly")
	has("claims", x.Claims, "listing_slug", "otherly")
	has("orders", x.Orders, "number", v.Number)
	has("votes", x.Votes, "listing_slug", "otherly")
	has("reviews", x.Reviews, "body", reviewBody)
	has("follows", x.Follows, "listing_slug", "otherly")
	for _, secret := range []string{key, key[:12], `"hash"`, `"token"`, `"token_hash"`, `"csrf"`} {
		if strings.Contains(string(mustJSON(t, raw)), secret) {
			t.Errorf("the export holds a secret: %q", secret)
		}
	}
	for _, o := range x.Orders {
		if !strings.Contains(string(mustJSON(t, o["billing"])), "1 Main St") || o["status"] != "paid" {
			t.Errorf("order %v", o)
		}
	}

	// A wrong confirmation: 400 next to the field, nothing erased.
	del := browse(t, c, http.MethodGet, origin+"/account/delete")
	want(t, "delete page", del, 200, "What stays", `name="confirm"`, email)
	csrf := csrfOf(t, del.body)
	res := submitForm(t, c, origin+"/account/delete", url.Values{"csrf": {csrf}, "confirm": {"ann@notably.tes"}})
	want(t, "wrong confirmation", res, http.StatusBadRequest, `id="confirm-error"`, "Type your email address")
	res = submitForm(t, c, origin+"/account/delete", url.Values{"csrf": {"wrong"}, "confirm": {email}})
	want(t, "wrong csrf", res, http.StatusForbidden)
	if again, _, _ := export(t, c, origin); len(again.Reviews) != 1 || len(again.Listings) != 3 || again.Account["email"] != email {
		t.Fatalf("a refused deletion erased something: %+v", again)
	}

	// Deleting: 303 to the home page, which says so; signed out.
	u, _ := url.Parse(origin)
	oldCookies := c.Jar.Cookies(u)
	res = submitForm(t, c, origin+"/account/delete", url.Values{"csrf": {csrf}, "confirm": {" ANN@notably.test "}})
	wantRedirect(t, "delete", res, auth.DeletedPath)
	want(t, "home after deletion", browse(t, c, http.MethodGet, origin+auth.DeletedPath), 200, "Your account was deleted")
	res = browse(t, c, http.MethodGet, origin+"/account")
	if res.status != http.StatusSeeOther || !strings.HasPrefix(res.header.Get("Location"), "/signin") {
		t.Fatalf("account page after deletion: %d %q", res.status, res.header.Get("Location"))
	}
	// The old session cookie and API key no longer work.
	jar, _ := cookiejar.New(nil)
	jar.SetCookies(u, oldCookies)
	stale := &http.Client{Jar: jar, CheckRedirect: c.CheckRedirect}
	if res := browse(t, stale, http.MethodGet, origin+"/account/export"); res.status != http.StatusSeeOther {
		t.Fatalf("the old session after deletion: %d", res.status)
	}
	if _, err := az.Verify(ctx, key, az.APIResource()); err == nil {
		t.Fatal("the API key still works after deletion")
	}

	// The email is in no row of the database; the name only on the paid
	// order's billing details, which the law keeps.
	tables, err := e.db.Tables(ctx)
	if err != nil || len(tables) < 30 {
		t.Fatalf("tables %v, %v", tables, err)
	}
	for _, tb := range tables {
		rows, err := e.db.Rows(ctx, tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			for col, val := range r {
				l := strings.ToLower(val)
				if strings.Contains(l, email) || (strings.Contains(l, strings.ToLower(name)) && !(tb == "orders" && col == "billing")) ||
					strings.Contains(val, reviewBody) {
					t.Errorf("after deletion %s.%s holds %q", tb, col, val)
				}
			}
		}
	}
	if rows, _ := e.db.Rows(ctx, "orders", map[string]any{"number": v.Number}); len(rows) != 1 || rows[0]["status"] != "paid" {
		t.Errorf("the paid order is not kept: %v", rows)
	}
	// Ann's sole listing is hidden (it has a paid order), the shared one stays with Cleo.
	if _, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: own.Slug}); err == nil {
		t.Error("get_listing still shows the deleted account's listing")
	}
	want(t, "the hidden listing's page", browse(t, c, http.MethodGet, origin+"/listings/notably"), http.StatusNotFound)
	if rows, _ := e.db.Rows(ctx, "listings", map[string]any{"id": shared}); len(rows) != 1 || rows[0]["owner_id"] != itoa(cleo.ID) || rows[0]["contact_email"] != "" {
		t.Errorf("the shared listing: %v", rows)
	}
	mine, err := e.svc.ListMyListings(domain.WithCaller(ctx, domain.Caller{UserID: cleo.ID, Email: cleo.Email}), domain.ListMyListingsInput{})
	if err != nil || len(mine.Items) != 1 {
		t.Errorf("Cleo's listings: %+v, %v", mine, err)
	}
	for _, tb := range []string{"listings", "founders"} {
		id := lonely
		if tb == "founders" {
			id = founder
		}
		if rows, _ := e.db.Rows(ctx, tb, map[string]any{"id": id}); len(rows) != 0 {
			t.Errorf("the listing Ann owned alone without orders: %s %v", tb, rows)
		}
	}
	// The other listing's page and get_listing show no review and still count the vote.
	op := browse(t, c, http.MethodGet, origin+"/listings/otherly")
	want(t, "the reviewed listing's page", op, 200, "Otherly")
	wantNot(t, "the reviewed listing's page", op, reviewBody, name, email)
	got, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: "otherly"})
	if err != nil || got.Votes != 1 {
		t.Errorf("otherly after deletion: votes %d, %v", got.Votes, err)
	}
	if b, _ := json.Marshal(got); strings.Contains(string(b), reviewBody) || strings.Contains(string(b), name) {
		t.Errorf("get_listing still shows the deleted account's review: %s", b)
	}

	// Signing in again with the address: a new, empty account.
	c2 := signIn(email)
	y, _, _ := export(t, c2, origin)
	if y.Account["id"] == float64(ann) || y.Account["email"] != email {
		t.Errorf("the new account %v", y.Account)
	}
	for name, sec := range map[string][]domain.Record{"api_keys": y.APIKeys, "connected_apps": y.ConnectedApps, "drafts": y.Drafts,
		"invites": y.Invites, "listings": y.Listings, "claims": y.Claims, "orders": y.Orders, "votes": y.Votes, "reviews": y.Reviews,
		"follows": y.Follows, "notifications": y.Notifications} {
		if len(sec) != 0 {
			t.Errorf("the new account's %s: %v", name, sec)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
