//go:build e2e

package main

import (
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// siteLayout checks that page p carries the site's layout: the site's
// header bar and footer, styled by the site's stylesheet (which the page's
// CSP must let load: its rules apply), as every other page of the site.
func siteLayout(t *testing.T, p *browsertest.Page, what string) {
	t.Helper()
	type look struct {
		Header, Footer, Brand bool
		BrandWeight           string
		Sheet                 int
	}
	l := browsertest.Eval[look](p, `(() => {
		const brand = document.querySelector('header.site .bar a.brand');
		let sheet = 0;
		for (const s of document.styleSheets) { if (s.href && s.href.endsWith('/static/style.css')) { try { sheet = s.cssRules.length; } catch (e) { sheet = -1; } } }
		return {Header: !!document.querySelector('header.site .bar nav'), Footer: !!document.querySelector('footer.site'),
			Brand: !!brand, BrandWeight: brand ? getComputedStyle(brand).fontWeight : '', Sheet: sheet};
	})()`)
	if !l.Header || !l.Footer || !l.Brand || l.Sheet <= 0 || l.BrandWeight != "800" {
		t.Errorf("%s (%s) lacks the site's layout: %+v", what, p.Viewport().Name, l)
	}
}

// TestBrowser_AuthPagesLookLikeTheSite: the sign-in page, the page after
// asking for a link, the OAuth consent page, the account page and auth's
// error page are in the
// site's layout and stylesheet at desktop and phone width. On the consent
// page Deny (the safe choice) is a plain outlined button that comes first,
// so Enter denies, and Allow is the site's filled button: they do not look
// the same.
func TestBrowser_AuthPagesLookLikeTheSite(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t)
	redirect := "http://127.0.0.1:9/callback" // never reached: the test does not press either button
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			client := registerClient(t, s.client(), origin, "Layout Assistant", redirect)
			sum := sha256.Sum256([]byte(strings.Repeat("v", 50)))
			q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect},
				"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
				"state": {"s"}, "scope": {"account:read"}, "resource": {origin + "/v1"}}
			p := b.NewPage(t, vp)
			p.Go(origin + "/authorize?" + q.Encode())
			siteLayout(t, p, "the sign-in page")
			p.Shot("signin")
			p.CheckClean("sign-in page")
			email := "layout-" + vp.Name + "@example.com"
			before := s.askLink(t, p, email)
			siteLayout(t, p, "the page after asking for a link")
			s.openLink(t, p, email, before)
			if h := p.Text("h1"); !strings.Contains(h, "Layout Assistant") {
				t.Fatalf("after the link: %q, want the consent page", h)
			}
			siteLayout(t, p, "the consent page")
			p.CheckClean("consent page")
			p.Shot("consent")
			type button struct{ Value, Background, Border, Weight string }
			buttons := browsertest.Eval[[]button](p, `[...document.querySelectorAll('form[action="/authorize/decision"] button[name=action]')].map(b => {
				const c = getComputedStyle(b); return {Value: b.value, Background: c.backgroundColor, Border: c.borderColor, Weight: c.fontWeight}; })`)
			if len(buttons) != 2 || buttons[0].Value != "deny" || buttons[1].Value != "allow" {
				t.Fatalf("consent buttons %+v, want Deny then Allow", buttons)
			}
			deny, allow := buttons[0], buttons[1]
			if deny.Background == allow.Background || !strings.Contains(deny.Background, "0, 0, 0, 0") && deny.Background != "transparent" {
				t.Errorf("Deny looks like Allow or is not plain: deny %+v, allow %+v", deny, allow)
			}
			p.Go(origin + "/account")
			if h := p.Text("h1"); h != "Your account" {
				t.Fatalf("account page heading %q", h)
			}
			siteLayout(t, p, "the account page")
			p.CheckClean("account page")
			p.Shot("account")
			// A problem (an application that is not registered) on the site's error page.
			p.Go(origin + "/authorize?response_type=code&client_id=nobody&redirect_uri=" + url.QueryEscape(redirect))
			if h := p.Text("h1"); h != "Unknown application" {
				t.Errorf("error page heading %q", h)
			}
			siteLayout(t, p, "auth's error page")
			p.Shot("error")
		})
	}
}

// TestBrowser_AdminAndDocsFitAPhone: /admin (with its tables of prices,
// work items and orders) and /docs (with its toolsets table) are no wider
// than the screen at desktop and phone width: a wide table scrolls inside its
// own box, and the toolsets table shows every cell (on a phone each toolset
// is a block of its own).
func TestBrowser_AdminAndDocsFitAPhone(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Go(origin + "/admin")
			if h := p.Text("h1"); !strings.Contains(h, "Admin") && !strings.Contains(p.Text("main"), "Product prices") {
				t.Fatalf("/admin shows %q", h)
			}
			p.Shot("admin")
			if w := browsertest.Eval[int](p, `document.documentElement.scrollWidth`); w > int(vp.Width) {
				t.Errorf("/admin is %d px wide at %d px", w, vp.Width)
			}
			p.CheckClean("/admin")

			p.Go(origin + "/docs")
			p.Shot("docs")
			if w := browsertest.Eval[int](p, `document.documentElement.scrollWidth`); w > int(vp.Width) {
				t.Errorf("/docs is %d px wide at %d px", w, vp.Width)
			}
			p.CheckClean("/docs")
			// The toolsets table is whole on the screen: no cell is cut off
			// at its box's edge, the last column of each row in view.
			type box struct {
				Found        bool
				Scroll, Wide int
				Cut          []string
			}
			tb := browsertest.Eval[box](p, `(() => {
				const t = document.querySelector('#toolsets table'); if (!t) return {Found: false};
				const w = t.closest('.table-wrap') || t.parentElement, right = w.getBoundingClientRect().right + 1;
				const cut = [...t.querySelectorAll('tbody td')].filter(c => c.getBoundingClientRect().right > right).map(c => c.innerText.slice(0, 30));
				return {Found: true, Scroll: w.scrollWidth, Wide: w.clientWidth, Cut: cut};
			})()`)
			if !tb.Found || tb.Scroll > tb.Wide+1 || len(tb.Cut) > 0 {
				t.Errorf("/docs toolsets table (%s): box %d px of content in %d px, cells cut off: %q", vp.Name, tb.Scroll, tb.Wide, tb.Cut)
			}
			// A picture of the section alone, to look at (the page is long:
			// its screenshot stops at browsertest.ShotMaxHeight).
			shot := filepath.Join(browsertest.ScreenshotDir(t), "toolsets-"+vp.Name+".png")
			if err := os.WriteFile(shot, p.ShotOf("#toolsets"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}

// TestBrowser_ListingCharts: a listing of last week shows its Domain Rating
// history and its votes of each day of its launch week as two small charts
// that fit a phone, drawn without script (the page's CSP has none).
func TestBrowser_ListingCharts(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	_, origin, key := browserServe(t)
	var week struct {
		Items []struct {
			Listing struct{ Slug string } `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/last", key, nil, &week); st != 200 || len(week.Items) == 0 {
		t.Fatalf("last week: %d, %d launches", st, len(week.Items))
	}
	slug := week.Items[0].Listing.Slug
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/listings/" + slug)
			if n := p.Count(`svg.chart[aria-label^="Votes on each day of the launch week"] rect.bar`); n != 7 {
				t.Errorf("%s: %d bars in the launch week chart, want 7", slug, n)
			}
			type size struct{ W, H float64 }
			for _, sel := range []string{`svg.chart[aria-label^="Votes on each day"]`, `svg.chart[aria-label^="Domain Rating from"]`} {
				if p.Count(sel) == 0 {
					continue // a listing without a Domain Rating history has no such chart
				}
				s := browsertest.Eval[size](p, `(() => { const r = document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect(); return {W: r.width, H: r.height}; })()`)
				if s.W < 200 || s.H < 60 || s.W > float64(vp.Width) {
					t.Errorf("%s: chart %s drawn %vx%v px", vp.Name, sel, s.W, s.H)
				}
			}
			p.CheckClean("listing page with charts")
			p.Shot("listing")
			shot := filepath.Join(browsertest.ScreenshotDir(t), "charts-"+vp.Name+".png")
			if err := os.WriteFile(shot, p.ShotOf(".charts"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", shot)
		})
	}
}
