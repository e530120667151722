//go:build e2e

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/demo"
	"github.com/launchdir/launchdir/web/browsertest"
)

// The browser tests run a real `launchdir serve --demo` on their own copy of
// the demo data directory (demo_template_test.go) and drive headless Chromium (web/browsertest: installed from
// Debian's packages when missing) through the pages people use. Every step
// leaves a screenshot of the page's top and, of a long page, its last
// screen (browsertest.Page.Shot; the paths are logged).

// browserServe starts serve --demo on the test's own copy of the demo data
// directory (demoDataCopy: `apikey create` for buyer@example.com, then
// `serve --demo`, done once per test binary and week) and returns it with
// buyer@example.com's API key.
func browserServe(t *testing.T, args ...string) (*served, string, string) {
	t.Helper()
	s, origin, key, _ := browserServeData(t, args...)
	return s, origin, key
}

// browserServeData is browserServe that also returns the data directory.
func browserServeData(t *testing.T, args ...string) (*served, string, string, string) {
	t.Helper()
	data, key := demoDataCopy(t)
	s := startServe(t, append([]string{"--demo", "--data", data}, args...)...)
	return s, "http://127.0.0.1:" + s.port, key, data
}

// emailedLink signs email in on page p by the emailed link: it submits the
// sign-in form p shows, reads the link from the log and opens it. The page
// that says the link is sent is the same in every test that signs in:
// TestBrowser_SignInByEmailedLink alone takes its screenshot (askLink, then
// openLink).
func (s *served) emailedLink(t *testing.T, p *browsertest.Page, email string) {
	t.Helper()
	s.openLink(t, p, email, s.askLink(t, p, email))
}

// askLink submits the sign-in form p shows for email, checks that the page
// it leads to names email, and returns how many sign-in links the log held
// before.
func (s *served) askLink(t *testing.T, p *browsertest.Page, email string) (before int) {
	t.Helper()
	before = len(reLinkLine.FindAllString(s.logs.String(), -1))
	p.Fill("input[name=email]", email)
	p.Click("form[action='/signin'] button[type=submit]")
	if got := p.Text("main"); !strings.Contains(got, email) {
		t.Errorf("after asking for a link: %q, want it to name %s", got, email)
	}
	return before
}

// openLink opens on page p the one sign-in link for email that the log got
// after it held before links.
func (s *served) openLink(t *testing.T, p *browsertest.Page, email string, before int) {
	t.Helper()
	links := reLinkLine.FindAllString(s.logs.String(), -1)
	if len(links) != before+1 {
		t.Fatalf("sign-in of %s put %d links on a line of the log", email, len(links)-before)
	}
	p.Go(links[len(links)-1])
}

// TestBrowser_SignInByEmailedLink: a person asks for a sign-in link on the
// page, opens the emailed link and lands on /account, signed in, with the
// site's navigation.
func TestBrowser_SignInByEmailedLink(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t)
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/account")
			if h := p.Text("h1"); !strings.Contains(h, "Sign in") {
				t.Errorf("sign-in page heading %q", h)
			}
			p.Shot("signin")
			p.CheckClean("sign-in page")
			email := "reader-" + vp.Name + "@example.com"
			before := s.askLink(t, p, email)
			p.Shot("link-sent")
			s.openLink(t, p, email, before)
			if u := p.URL(); u != origin+"/account" {
				t.Errorf("the link led to %s, want %s/account", u, origin)
			}
			if h := p.Text("h1"); h != "Your account" {
				t.Errorf("account page heading %q", h)
			}
			if main := p.Text("main"); !strings.Contains(main, email) {
				t.Errorf("account page does not show %s:\n%s", email, main)
			}
			nav := p.Text("header nav")
			for _, want := range []string{"Launches", "Leaderboards", "Awards", "Your account"} {
				if !strings.Contains(nav, want) {
					t.Errorf("account page navigation %q lacks %q", nav, want)
				}
			}
			// A new account's page: TestBrowser_AuthPagesLookLikeTheSite
			// keeps its screenshot.
			p.CheckClean("account page")
		})
	}
}

// TestBrowser_OAuthConsent: an assistant registers and sends the person to
// /authorize; in the browser the person signs in by the emailed link,
// reads the consent page and presses Allow; the browser arrives at the
// assistant's redirect URI with a code, which the assistant exchanges for a
// token that works.
func TestBrowser_OAuthConsent(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t)
	// The assistant's redirect URI: a page on loopback that shows what it got.
	codes := make(chan url.Values, 4)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		codes <- r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Assistant</title><h1>Connected</h1>`)
	}))
	defer cb.Close()
	redirect := cb.URL + "/callback"

	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			reg := struct{ ClientID string }{registerClient(t, http.DefaultClient, origin, "Browser Assistant", redirect)}
			verifier := strings.Repeat("w", 50)
			sum := sha256.Sum256([]byte(verifier))
			q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
				"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
				"state": {"st-" + vp.Name}, "scope": {"account:read"}, "resource": {origin + "/v1"}}

			p := b.NewPage(t, vp)
			p.Go(origin + "/authorize?" + q.Encode())
			if h := p.Text("h1"); !strings.Contains(h, "Sign in") {
				t.Fatalf("/authorize for a person not signed in shows %q, want the sign-in page", h)
			}
			// This sign-in page and the consent page below have their
			// screenshots in TestBrowser_AuthPagesLookLikeTheSite.
			p.CheckClean("sign-in page of /authorize")
			email := "assistant-user-" + vp.Name + "@example.com"
			s.emailedLink(t, p, email)
			if h := p.Text("h1"); !strings.Contains(h, "Browser Assistant") {
				t.Fatalf("after the link: %q, want the consent page for Browser Assistant", h)
			}
			main := p.Text("main")
			for _, want := range []string{"Signed in as " + email, "127.0.0.1", "account:read"} {
				if !strings.Contains(main, want) {
					t.Errorf("consent page lacks %q:\n%s", want, main)
				}
			}
			p.CheckClean("consent page")
			p.Click("button[name=action][value=allow]")
			var got url.Values
			select {
			case got = <-codes:
			default:
				t.Fatalf("after Allow the browser is at %s, not the redirect URI", p.URL())
			}
			if got.Get("code") == "" || got.Get("state") != "st-"+vp.Name || got.Get("iss") != origin {
				t.Fatalf("redirect carried %v, want a code, state st-%s and iss %s", got, vp.Name, origin)
			}
			if h := p.Text("h1"); h != "Connected" || !strings.HasPrefix(p.URL(), redirect+"?") {
				t.Errorf("browser at %s showing %q, want the assistant's page", p.URL(), h)
			}
			p.Shot("redirected")

			res, err := http.PostForm(origin+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {got.Get("code")},
				"redirect_uri": {redirect}, "client_id": {reg.ClientID}, "code_verifier": {verifier}, "resource": {origin + "/v1"}})
			if err != nil {
				t.Fatal(err)
			}
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			json.NewDecoder(res.Body).Decode(&tok)
			res.Body.Close()
			var me struct {
				Email string `json:"email"`
			}
			if r := s.get(t, origin+"/v1/me", "", tok.AccessToken, &me); r.StatusCode != 200 || me.Email != email {
				t.Errorf("GET /v1/me with the token from the code: %d %+v, want %s", r.StatusCode, me, email)
			}
		})
	}
}

// apiJSON sends a JSON request with the API key and decodes the answer.
func apiJSON(t *testing.T, method, u, key string, body any, v any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u, rd)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if v != nil {
		raw, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("%s %s: %d %s", method, u, res.StatusCode, raw)
		}
	}
	return res.StatusCode
}

// ownListing submits siteURL as a new listing of the key's account through
// the REST API (submit_listing, get_draft until the drafting job is done,
// submit_draft) and returns its listing_id and name.
func ownListing(t *testing.T, origin, key, siteURL string) (int64, string) {
	t.Helper()
	var d struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Fields map[string]struct {
			Value any `json:"value"`
		} `json:"fields"`
	}
	if st := apiJSON(t, "POST", origin+"/v1/drafts", key, map[string]any{"url": siteURL}, &d); st != 201 {
		t.Fatalf("submit_listing: %d %+v", st, d)
	}
	for deadline := time.Now().Add(time.Minute); d.Status != "ready" && d.Status != "failed" && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		apiJSON(t, "GET", origin+"/v1/drafts/"+d.ID, key, nil, &d)
	}
	if d.Status != "ready" {
		t.Fatalf("draft of %s: %s, want ready", siteURL, d.Status)
	}
	var saved struct {
		ListingID int64 `json:"listing_id"`
	}
	if st := apiJSON(t, "POST", origin+"/v1/drafts/"+d.ID+"/submit", key, nil, &saved); st != 200 || saved.ListingID == 0 {
		t.Fatalf("submit_draft: %d %+v", st, saved)
	}
	name, _ := d.Fields["name"].Value.(string)
	if name == "" {
		t.Fatalf("draft of %s has no name: %+v", siteURL, d.Fields)
	}
	return saved.ListingID, name
}

// TestBrowser_Checkout: a checkout made through the REST API with an API
// key is paid in the browser: billing details (country, name, address),
// the built-in test provider's payment step, the done page; then get_order
// reads paid.
func TestBrowser_Checkout(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	// The buyer's own listing: submitted by URL (a product site served on
	// loopback, read by the real drafting job) and saved.
	site := httptest.NewServer(http.FileServer(http.Dir("../../domain/extract/testdata/sites/ledgerly")))
	defer site.Close()
	_, origin, key := browserServe(t, "--fetch-allow-loopback")
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			listingID, name := ownListing(t, origin, key, site.URL+"/?from="+vp.Name)
			var order struct {
				Number      string `json:"number"`
				Status      string `json:"status"`
				CheckoutURL string `json:"checkout_url"`
			}
			body := map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": listingID}}}
			if st := apiJSON(t, "POST", origin+"/v1/orders/checkout", key, body, &order); st != 201 || order.Status != "pending" ||
				!strings.HasPrefix(order.CheckoutURL, origin+"/checkout/") {
				t.Fatalf("create_checkout: %d %+v", st, order)
			}
			l := struct{ Name string }{name}

			p := b.NewPage(t, vp)
			p.Go(order.CheckoutURL)
			if h := p.Text("h1"); h != "Order "+order.Number {
				t.Errorf("checkout page heading %q, want Order %s", h, order.Number)
			}
			main := p.Text("main")
			for _, want := range []string{"TEST MODE", "Launch", l.Name, "Save your billing details first"} {
				if !strings.Contains(main, want) {
					t.Errorf("checkout page lacks %q:\n%s", want, main)
				}
			}
			p.Shot("checkout")
			p.CheckClean("checkout page")

			p.Fill("#country", "DE")
			p.Fill("#name", "Ada Lovelace GmbH")
			p.Fill("#address", "Hauptstr. 1\n10115 Berlin")
			p.Click("section.billing button[type=submit]")
			main = p.Text("main")
			if !strings.Contains(main, "VAT 19%") || !strings.Contains(main, "(Germany)") {
				t.Errorf("after saving German billing details the order does not show German VAT (19%%):\n%s", main)
			}
			if p.Count("section.pay button.pay") != 1 {
				t.Fatalf("no Pay button after saving billing details:\n%s", main)
			}
			p.Shot("billing-saved")
			p.CheckClean("checkout page with billing details")
			// The order's totals are read without scrolling: the table fits
			// its box at every size (on a phone the Total column was cut off).
			if over := browsertest.Eval[float64](p, `(() => { const w = document.querySelector('.table-wrap'); return w.scrollWidth - w.clientWidth })()`); over > 1 {
				t.Errorf("the order table is %.0f px wider than its box: the totals are cut off", over)
			}

			p.Click("section.pay button.pay")
			if h := p.Text("h1"); h != "Test payment" {
				t.Fatalf("after Pay: %q at %s, want the test payment step", h, p.URL())
			}
			p.Shot("test-payment")
			p.CheckClean("test payment page")
			p.Click("form button.pay")
			if u := p.URL(); !strings.HasSuffix(u, "/done") {
				t.Errorf("after paying the browser is at %s, want the done page", u)
			}
			if got := p.Text(".thanks h2"); got != "Thank you: the order is paid" {
				t.Errorf("done page says %q", got)
			}
			if st := p.Text(".checkout .meta strong"); st != "paid" {
				t.Errorf("done page status %q, want paid", st)
			}
			p.Shot("done")
			p.CheckClean("done page")

			var got struct {
				Status     string `json:"status"`
				TestMode   bool   `json:"test_mode"`
				TotalCents int64  `json:"total_cents"`
			}
			if st := apiJSON(t, "GET", origin+"/v1/orders/"+order.Number, key, nil, &got); st != 200 || got.Status != "paid" || !got.TestMode ||
				got.TotalCents != 4900+931 {
				t.Errorf("get_order after paying in the browser: %d %+v, want paid, test mode, 49.00 + 19%% VAT", st, got)
			}
		})
	}
}

// TestBrowser_PublicPages: the pages a visitor opens (home, a listing, a
// launch week, a category, the launch feeds, search results, leaderboards,
// the awards) load at desktop and phone sizes without console errors,
// broken images or sideways scrolling, and show what they are about; on
// every page with launch rows each row shows its logo, name, tagline, count
// and vote button, and on a 390-pixel phone no count overlaps a tagline;
// every listing launching this week loads clean.
func TestBrowser_PublicPages(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	_, origin, key := browserServe(t)
	var week struct {
		Week  string `json:"week"`
		Items []struct {
			Listing struct {
				Slug string `json:"slug"`
				Name string `json:"name"`
			} `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/this", key, nil, &week); st != 200 || len(week.Items) == 0 {
		t.Fatalf("GET /v1/launches/weeks/this: %d, %d items", st, len(week.Items))
	}
	top := week.Items[0].Listing
	var board struct {
		Items []struct {
			Listing struct {
				Name string `json:"name"`
			} `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/leaderboards/community-all-time", key, nil, &board); st != 200 || len(board.Items) == 0 {
		t.Fatalf("GET /v1/leaderboards/community-all-time: %d, %d items", st, len(board.Items))
	}
	var cats struct {
		Items []struct {
			Subcategories []struct {
				Slug string `json:"slug"`
				Name string `json:"name"`
			} `json:"subcategories"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/categories", key, nil, &cats); st != 200 || len(cats.Items) == 0 || len(cats.Items[0].Subcategories) == 0 {
		t.Fatalf("GET /v1/categories: %d, %+v", st, cats)
	}
	cat := cats.Items[0].Subcategories[0]
	var awards struct {
		Total int `json:"total"`
		Items []struct {
			Title   string `json:"title"`
			Listing struct {
				Name string `json:"name"`
			} `json:"listing"`
		} `json:"items"`
	}
	// The weekly clock's catch-up awards the demo's past weeks in a job
	// after serve starts: the awards page compared with /v1/awards must
	// wait for all of them (3 a week), or it shows a newer first award than
	// the list read while the job ran (as happened with the browser tests
	// in parallel on a busy machine).
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if st := apiJSON(t, "GET", origin+"/v1/awards", key, nil, &awards); st != 200 || len(awards.Items) == 0 && time.Now().After(deadline) {
			t.Fatalf("GET /v1/awards: %d, %d items", st, len(awards.Items))
		}
		if awards.Total >= 3*demo.PastWeeks {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /v1/awards: %d awards after 90 s, want 3 for each of the demo's %d past weeks", awards.Total, demo.PastWeeks)
		}
	}
	pages := []struct {
		step, path string
		h1         string   // the heading contains it
		texts      []string // main contains each
		rows       bool     // the page lists launch rows
	}{
		{"home", "/", "", []string{"Launching this week", top.Name, "Trending", "Upcoming", "Leaderboards"}, true},
		{"listing", "/listings/" + top.Slug, top.Name, []string{"Visit website", "Community rating", "About " + top.Name}, false},
		{"week", "/launches/weeks/" + week.Week, "Launches of the week of", []string{top.Name}, true},
		{"category", "/categories/" + cat.Slug, cat.Name, nil, true},
		{"launches", "/launches", "Launches", []string{"Trending", "Upcoming"}, true},
		{"search", "/search?q=" + url.QueryEscape(top.Name), "Search", []string{top.Name}, true},
		{"leaderboard", "/leaderboards/community-all-time", "Community leaderboard: all time", []string{board.Items[0].Listing.Name}, true},
		{"billboard", "/leaderboards/billboard", "Billboard", []string{"PAID"}, true},
		{"awards", "/awards", "Launch of the Week awards", []string{awards.Items[0].Title, awards.Items[0].Listing.Name}, true},
		{"docs", "/docs", "API and MCP server", []string{"Claude Code", "Cursor", "MCP Inspector", "Choosing toolsets", "Tokens the model reads"}, false},
	}
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			for _, pg := range pages {
				p.Go(origin + pg.path)
				if h := p.Text("h1"); !strings.Contains(h, pg.h1) {
					t.Errorf("%s: heading %q, want it to contain %q", pg.step, h, pg.h1)
				}
				main := p.Text("main")
				for _, want := range pg.texts {
					if !strings.Contains(main, want) {
						t.Errorf("%s: page lacks %q", pg.step, want)
					}
				}
				p.Shot(pg.step)
				p.CheckClean(pg.step)
				if pg.rows {
					checkRowsDoNotOverlap(t, p, pg.step)
				}
			}
			if vp == browsertest.Desktop {
				// Listings differ (free or paid, with or without media):
				// every page of this week's launches loads clean.
				for _, it := range week.Items[1:] {
					p.Go(origin + "/listings/" + it.Listing.Slug)
					if h := p.Text("h1"); !strings.Contains(h, it.Listing.Name) {
						t.Errorf("listing %s: heading %q", it.Listing.Slug, h)
					}
					p.CheckClean("listing " + it.Listing.Slug)
				}
			}
		})
	}
}

// checkRowsDoNotOverlap fails when a list of launch rows (templates/row.html:
// the home page's, a week's, a feed's, a board's) has a row without its
// logo, name, tagline, count or vote button (a link to follow, upcoming),
// when a count's box overlaps any row's name, tagline or meta line, or when
// a row's parts stick out of the row.
func checkRowsDoNotOverlap(t *testing.T, p *browsertest.Page, step string) {
	t.Helper()
	overlaps := browsertest.Eval[[]string](p, `(() => {
		const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
		const out = [];
		const rows = [...document.querySelectorAll('.rows > li')];
		if (!rows.length) return ['no launch rows (.rows > li)'];
		const texts = [];
		for (const li of rows) {
			for (const e of li.querySelectorAll('.name, .tagline, .row-meta')) {
				for (const r of e.getClientRects()) texts.push([e, r]);
			}
		}
		const shown = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
		for (const li of rows) {
			const name = li.querySelector('a.name');
			const what = '"' + (name ? name.innerText : li.innerText.slice(0, 60)) + '"';
			for (const [sel, part] of [['.logo', 'logo'], ['a.name', 'name'], ['.tagline', 'tagline'], ['.metric', 'count'],
				['form.vote-form button, a.vote-signin, a.row-follow', 'vote button']]) {
				const e = li.querySelector(sel);
				if (!shown(e) || (part !== 'logo' && !e.innerText.trim())) out.push('row ' + what + ' shows no ' + part);
			}
			const lr = li.getBoundingClientRect();
			for (const e of li.querySelectorAll('.logo, .what, .act')) {
				const r = e.getBoundingClientRect();
				if (r.top < lr.top - 0.5 || r.bottom > lr.bottom + 0.5 || r.left < lr.left - 0.5 || r.right > lr.right + 0.5)
					out.push(e.className + ' sticks out of its row ' + what);
			}
			const m = li.querySelector('.act');
			if (!m) continue;
			const mr = m.getBoundingClientRect();
			for (const [e, r] of texts) {
				if (hit(mr, r)) out.push('"' + e.innerText + '" overlaps "' + m.innerText + '"');
			}
		}
		return out;
	})()`)
	for _, o := range overlaps {
		t.Errorf("%s (%s): %s", step, p.Viewport().Name, o)
	}
}
