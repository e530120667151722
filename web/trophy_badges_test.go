package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophyBadges_VerifiedEveryStyle: a verified trophy's badge, from the
// cabinet answer's svg_url, is served in every shape, mode and size as a
// well-formed SVG naming the trophy ("#1 Product of the Week - Product
// Hunt") and the listing; its embed HTML links to the listing page; the
// listing page's cabinet links it. Pending, rejected and unconfirmed
// trophies have no badge (404); bad options are 400 naming the parameter.
func TestTrophyBadges_VerifiedEveryStyle(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	ctx := context.Background()
	lrow := e.rows(t, "listings", map[string]any{"id": e.listing})[0]
	slug, name := fmt.Sprint(lrow["slug"]), fmt.Sprint(lrow["name"])
	site := fixtures.First(t, e.db, "sites")
	at := testNow.Unix()
	add := func(title, state string, cols fixtures.Cols) int64 {
		row := fixtures.Cols{"site_id": site, "listing_id": e.listing, "platform": "Product Hunt", "title": title, "rank": 1, "won_on": "2026-11-02",
			"award_url": "https://hunt.test/" + url.PathEscape(title), "state": state, "created_at": at}
		for k, v := range cols {
			row[k] = v
		}
		return fixtures.Insert(t, e.db, "trophies", row)
	}
	verified := add("Product of the Week", "verified", fixtures.Cols{"method": "page", "evidence": "links to https://acme.test/", "verified_at": at, "checked_at": at})
	pending := add("Pending award", "pending", fixtures.Cols{"next_check_at": at})
	rejected := add("Rejected award", "rejected", fixtures.Cols{"method": "page", "reason": "does not name it", "checked_at": at})
	unconfirmed := add("Unconfirmed award", "unconfirmed", fixtures.Cols{"method": "page", "reason": "The award page answered 404.",
		"verified_at": at - 86400*40, "checked_at": at, "unconfirmed_since": at})

	c, err := e.svc.GetTrophyCabinet(ctx, domain.GetTrophyCabinetInput{Slug: slug})
	if err != nil {
		t.Fatal(err)
	}
	var b *domain.TrophyBadge
	for _, it := range c.Items {
		if it.ID == verified {
			b = it.Badge
		} else if it.Badge != nil {
			t.Errorf("trophy %d (%s) has a badge: %+v", it.ID, it.State, it.Badge)
		}
	}
	if b == nil {
		t.Fatalf("the verified trophy has no badge in the cabinet: %+v", c.Items)
	}
	if b.Label != "#1 Product of the Week - Product Hunt" {
		t.Errorf("label %q", b.Label)
	}
	base := fmt.Sprintf("/badges/%s/trophies/%d.svg", slug, verified)
	if !strings.HasPrefix(b.SVGURL, e.srv.URL+base+"?") {
		t.Errorf("svg_url %q, want %s%s?...", b.SVGURL, e.srv.URL, base)
	}
	href, src := hrefRE.FindStringSubmatch(b.EmbedHTML), srcRE.FindStringSubmatch(b.EmbedHTML)
	if href == nil || src == nil || html.UnescapeString(href[1]) != e.srv.URL+"/listings/"+slug || html.UnescapeString(src[1]) != b.SVGURL {
		t.Errorf("embed HTML %s: want the image %s linked to the listing page", b.EmbedHTML, b.SVGURL)
	}

	for _, shape := range domain.BadgeShapes {
		for _, mode := range domain.BadgeModes {
			for _, size := range domain.BadgeSizes {
				path := base + "?" + url.Values{"shape": {shape}, "mode": {mode}, "size": {size}}.Encode()
				res := e.do(t, http.MethodGet, path, nil)
				if res.status != http.StatusOK || res.header.Get("Content-Type") != "image/svg+xml" {
					t.Fatalf("GET %s: %d %q\n%s", path, res.status, res.header.Get("Content-Type"), excerpt(res.body))
				}
				root := checkSVG(t, []byte(res.body), shape, size)
				if !strings.Contains(root.Title, name) || !strings.Contains(root.Title, "#1 Product of the Week - Product Hunt") {
					t.Errorf("GET %s: title %q lacks %q or the trophy", path, root.Title, name)
				}
				if !strings.Contains(res.body, "#1 PRODUCT OF THE WEEK") || !strings.Contains(res.body, ">Product Hunt<") {
					t.Errorf("GET %s: the badge does not show the trophy:\n%s", path, res.body)
				}
				if (mode == "auto") != strings.Contains(res.body, "prefers-color-scheme: dark") {
					t.Errorf("GET %s: dark media query does not match mode %s", path, mode)
				}
			}
		}
	}

	for _, c := range []struct {
		path string
		code int
		has  string
	}{
		{fmt.Sprintf("/badges/%s/trophies/%d.svg", slug, pending), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/%s/trophies/%d.svg", slug, rejected), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/%s/trophies/%d.svg", slug, unconfirmed), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/%s/trophies/%d.svg", slug, verified+1000), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/no-such-listing/trophies/%d.svg", verified), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/%s/trophies/%d.png", slug, verified), http.StatusNotFound, ""},
		{fmt.Sprintf("/badges/%s/trophy.svg", slug), http.StatusNotFound, ""}, // not a listing badge kind
		{base + "?shape=circle", http.StatusBadRequest, "shape must be one of standard, outline, pill, banner, square"},
		{base + "?size=xl", http.StatusBadRequest, "size must be one of s, m, l"},
		{base + "?mode=sepia", http.StatusBadRequest, "mode must be one of light, dark, auto"},
	} {
		want(t, "GET "+c.path, e.do(t, http.MethodGet, c.path, nil), c.code, c.has)
	}

	// The listing page's cabinet links the badge and shows its embed code.
	page := e.do(t, http.MethodGet, "/listings/"+slug, nil)
	want(t, "the listing page", page, http.StatusOK, "Badge for your site")
	// (e.do unescapes the page once: the embed code reads as get_trophy_cabinet gives it.)
	if !strings.Contains(page.body, `<a href="`+b.SVGURL+`">`) || !strings.Contains(page.body, "<pre><code>"+b.EmbedHTML+"</code></pre>") {
		t.Errorf("the listing page lacks the badge link %s or its embed code %s", b.SVGURL, b.EmbedHTML)
	}
	if n := strings.Count(page.body, `class="trophy-badge"`); n != 1 {
		t.Errorf("the listing page shows %d trophy badges, want the verified one only", n)
	}
}

// TestTrophyBadges_AwardsHere: the awards won here (Launch of the Week and
// programme wins of the demo data) have badges too, named with the site's
// name as the site_name setting says now.
func TestTrophyBadges_AwardsHere(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	ctx := context.Background()
	if err := e.console.SetSiteSettings(ctx, "ops@example.com", map[string]string{domain.SettingSiteName: "Rocket Board"}); err != nil {
		t.Fatal(err)
	}
	res := must(e.svc.SearchListings(ctx, domain.SearchListingsInput{Sort: "votes", Pagination: domain.Pagination{PerPage: 100}})).get(t)
	seen := map[string]bool{}
	for _, l := range res.Items {
		c, err := e.svc.GetTrophyCabinet(ctx, domain.GetTrophyCabinetInput{Slug: l.Slug})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range c.Items {
			if it.Source != "here" || it.Badge == nil {
				continue
			}
			kind := "week"
			if strings.Contains(it.AwardURL, "/programmes/") {
				kind = "programme"
			}
			if seen[kind] {
				continue
			}
			seen[kind] = true
			if !strings.HasSuffix(it.Badge.Label, " - Rocket Board") || !strings.Contains(it.Badge.SVGURL, "/trophies/"+kind+"-") {
				t.Errorf("%s award of %s: label %q, svg_url %q", kind, l.Slug, it.Badge.Label, it.Badge.SVGURL)
			}
			img := e.get(t, it.Badge.SVGURL)
			if img.status != http.StatusOK || !strings.Contains(img.body, "Rocket Board") || !strings.Contains(img.body, "#"+fmt.Sprint(it.Rank)) {
				t.Errorf("GET %s: %d\n%s", it.Badge.SVGURL, img.status, excerpt(img.body))
			}
			checkSVG(t, []byte(img.body), "standard", "m")
		}
	}
	if !seen["week"] || !seen["programme"] {
		t.Fatalf("demo data: badges of a Launch of the Week award (%v) and a programme win (%v) expected", seen["week"], seen["programme"])
	}
}

// TestTrophyBadges_Links: the site's footer links the award programmes and
// the console's index links the trophy queue and the programmes console.
func TestTrophyBadges_Links(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	want(t, "the home page", e.do(t, http.MethodGet, "/", nil), http.StatusOK, `href="/programmes"`)
	want(t, "the console index", e.do(t, http.MethodGet, "/admin", nil, e.team...), http.StatusOK, `href="/admin/trophies"`, `href="/admin/programmes"`)
}
