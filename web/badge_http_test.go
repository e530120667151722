package web

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// badgeListings returns a demo listing that may show every badge kind the
// demo has, and one that may not show "verified".
func badgeListings(t *testing.T) (rich domain.GetBadgesOutput, unverified string) {
	t.Helper()
	ctx := context.Background()
	res := must(demo().svc.SearchListings(ctx, domain.SearchListingsInput{Sort: "votes", Pagination: domain.Pagination{PerPage: 100}})).get(t)
	for _, s := range res.Items {
		b := must(demo().svc.GetBadges(ctx, domain.GetBadgesInput{Slug: s.Slug})).get(t)
		if len(b.Items) > len(rich.Items) {
			rich = b
		}
		verified := false
		for _, it := range b.Items {
			verified = verified || it.Kind == "verified"
		}
		if !verified && unverified == "" {
			unverified = s.Slug
		}
	}
	if len(rich.Items) < 2 || unverified == "" {
		t.Fatalf("demo data: no listing with several badges (%d) or none without verified (%q)", len(rich.Items), unverified)
	}
	return rich, unverified
}

func TestBadges_EveryStyleServed(t *testing.T) {
	t.Parallel()
	rich, _ := badgeListings(t)
	name := must(demo().svc.GetListing(context.Background(), domain.SlugInput{Slug: rich.Listing})).get(t).Name
	for _, b := range rich.Items {
		styles := b.Styles
		if b.Kind != rich.Items[0].Kind {
			styles = styles[:1] // every style once, then one per further kind
		}
		for _, st := range styles {
			res := demo().get(t, st.SVGURL)
			if res.status != 200 {
				t.Fatalf("GET %s: %d\n%s", st.SVGURL, res.status, res.body)
			}
			if ct := res.header.Get("Content-Type"); ct != "image/svg+xml" {
				t.Errorf("GET %s: Content-Type %q", st.SVGURL, ct)
			}
			if !strings.Contains(res.header.Get("Cache-Control"), "max-age=") || res.header.Get("ETag") == "" {
				t.Errorf("GET %s: no cache headers: %v", st.SVGURL, res.header)
			}
			csp := res.header.Get("Content-Security-Policy")
			if strings.Contains(csp, "frame-ancestors") || res.header.Get("X-Frame-Options") != "" || strings.Contains(csp, "script") {
				t.Errorf("GET %s: badge must stay embeddable and script-free: CSP %q XFO %q", st.SVGURL, csp, res.header.Get("X-Frame-Options"))
			}
			root := checkSVG(t, []byte(res.body), st.Shape, st.Size)
			if !strings.Contains(root.Title, name) || !strings.Contains(root.Title, b.Label) {
				t.Errorf("GET %s: title %q lacks %q or %q", st.SVGURL, root.Title, name, b.Label)
			}
			if (st.Mode == "auto") != strings.Contains(res.body, "prefers-color-scheme: dark") {
				t.Errorf("GET %s: dark media query does not match mode %s", st.SVGURL, st.Mode)
			}
		}
	}
}

var (
	hrefRE = regexp.MustCompile(`<a href="([^"]+)"`)
	srcRE  = regexp.MustCompile(`<img src="([^"]+)"`)
)

// TestBadges_EmbedLinksToListingPage follows the embed HTML of every badge:
// its link is a listing page served here and its image is a served SVG.
func TestBadges_EmbedLinksToListingPage(t *testing.T) {
	t.Parallel()
	rich, _ := badgeListings(t)
	for _, b := range rich.Items {
		href, src := hrefRE.FindStringSubmatch(b.EmbedHTML), srcRE.FindStringSubmatch(b.EmbedHTML)
		if href == nil || src == nil {
			t.Fatalf("embed HTML without link or image: %s", b.EmbedHTML)
		}
		page := htmlUnescape(href[1])
		if page != demo().srv.URL+"/listings/"+rich.Listing {
			t.Errorf("embed links to %q, want the listing page", page)
		}
		res := demo().get(t, page)
		if res.status != 200 || !strings.Contains(res.body, `id="badges"`) {
			t.Errorf("GET %s (badge link): %d", page, res.status)
		}
		img := demo().get(t, htmlUnescape(src[1]))
		if img.status != 200 || img.header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("GET %s (badge image): %d %q", src[1], img.status, img.header.Get("Content-Type"))
		}
	}
}

func htmlUnescape(s string) string { return strings.ReplaceAll(s, "&amp;", "&") }

func TestBadges_Errors(t *testing.T) {
	t.Parallel()
	rich, unverified := badgeListings(t)
	slug := url.PathEscape(rich.Listing)
	cases := []struct {
		path   string
		status int
	}{
		{"/badges/no-such-listing-here/listed.svg", 404},
		{"/badges/" + unverified + "/verified.svg", 404},
		{"/badges/" + slug + "/gold-star.svg", 404},
		{"/badges/" + slug + "/listed.png", 404},
		{"/badges/Bad_Slug/listed.svg", 404},
		{"/badges/" + slug + "/listed.svg?shape=circle", 400},
		{"/badges/" + slug + "/listed.svg?mode=sepia", 400},
		{"/badges/" + slug + "/listed.svg?size=xl", 400},
		{"/badges/" + slug + "/listed.svg", 200},
		{"/badges/" + unverified + "/listed.svg?shape=banner&mode=dark&size=s", 200},
	}
	for _, c := range cases {
		if res := demo().get(t, c.path); res.status != c.status {
			t.Errorf("GET %s: %d, want %d", c.path, res.status, c.status)
		}
	}
	// An unchanged badge is not sent twice.
	first := demo().get(t, "/badges/"+slug+"/listed.svg")
	again := demo().get(t, "/badges/"+slug+"/listed.svg", "If-None-Match", first.header.Get("ETag"))
	if again.status != 304 || again.body != "" {
		t.Errorf("conditional GET: %d with %d bytes, want 304 and no body", again.status, len(again.body))
	}
}

// TestBadges_ListingPreview shows the badges on the listing page in the style
// the person picked, and ignores options that do not exist.
func TestBadges_ListingPreview(t *testing.T) {
	t.Parallel()
	rich, _ := badgeListings(t)
	w, h := domain.BadgeDims("banner", "l")
	res := demo().get(t, "/listings/"+rich.Listing+"?shape=banner&mode=dark&size=l")
	want := fmt.Sprintf(`/badges/%s/listed.svg?shape=banner&amp;mode=dark&amp;size=l" alt="Listed on Launchdir" width="%d" height="%d"`, rich.Listing, w, h)
	if res.status != 200 || !strings.Contains(res.body, want) {
		t.Errorf("listing page with a badge style: %d, lacks %s", res.status, want)
	}
	res = demo().get(t, "/listings/"+rich.Listing+"?shape=circle")
	if res.status != 200 || !strings.Contains(res.body, "listed.svg?shape=standard&amp;mode=auto&amp;size=m") {
		t.Errorf("listing page with an unknown badge shape: %d, want the default style", res.status)
	}
}
