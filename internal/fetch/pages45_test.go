package fetch_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/internal/fetch"
)

// crawlPaths crawls s with budget and returns the paths read.
func crawlPaths(t *testing.T, s *site, budget int) []string {
	t.Helper()
	c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL+"/", budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	return paths(t, c)
}

// A site in three languages whose every page names its translations
// (hreflang): the pages are read in the home page's language only, and the
// budget goes to the footer's legal notice instead of /de/ and /fr/ copies.
func TestCrawl_TranslationsReadOnce(t *testing.T) {
	alt := func(p string) string {
		return `<link rel="alternate" hreflang="en" href="` + p + `"><link rel="alternate" hreflang="de" href="/de` + p + `">` +
			`<link rel="alternate" hreflang="fr" href="/fr` + p + `">`
	}
	page := func(p, body string) string {
		return `<!DOCTYPE html><html lang="en"><head>` + alt(p) + `</head><body><header><nav><a href="/pricing">Pricing</a> <a href="/customers">Customers</a></nav>` +
			`<a href="/de/">DE</a> <a href="/fr/">FR</a> <a href="/de/pricing">Preise</a></header><main>` + body + `</main>` +
			`<footer><a href="/imprint">Imprint</a> <a href="/jobs">Jobs</a></footer></body></html>`
	}
	s := newSite(t, map[string]http.HandlerFunc{
		"/":           htmlPage(page("/", "<p>Routewise plans routes.</p>")),
		"/pricing":    htmlPage(page("/pricing", "<p>€29 a month.</p>")),
		"/customers":  htmlPage(page("/customers", "<p>Customers.</p>")),
		"/imprint":    htmlPage(page("/imprint", "<p>Routewise GmbH, 10119 Berlin</p>")),
		"/jobs":       htmlPage(page("/jobs", "<p>Jobs.</p>")),
		"/de/":        htmlPage(page("/", "<p>Routewise plant Touren.</p>")),
		"/fr/":        htmlPage(page("/", "<p>Routewise planifie.</p>")),
		"/de/pricing": htmlPage(page("/pricing", "<p>29 € im Monat.</p>")),
	})
	got := crawlPaths(t, s, 5)
	for _, p := range []string{"/de/", "/fr/", "/de/pricing"} {
		if n := s.requested(p); n != 0 {
			t.Errorf("%s, a translation of a page read, requested %d times; pages %v", p, n, got)
		}
	}
	for _, p := range []string{"/pricing", "/imprint", "/customers", "/jobs"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s not read; pages %v", p, got)
		}
	}
}

// A main menu with a dropdown of six solution pages, and the company's
// story only on a footer page in a company folder under an unusual name
// (/company/origins) and a footer page "Crew": with a budget of 6 the
// company pages are read, and no more than two pages of one folder before
// the pages of others.
func TestCrawl_CompanyFolderAndSiblings(t *testing.T) {
	var nav strings.Builder
	for _, s := range []string{"retail", "clinics", "salons", "gyms", "schools", "agencies"} {
		nav.WriteString(`<a href="/solutions/` + s + `">` + s + `</a> `)
	}
	home := `<!DOCTYPE html><html><body><header><nav><a href="/pricing">Pricing</a> ` + nav.String() + `</nav></header>` +
		`<main><p>Brightdesk answers calls.</p></main><footer><a href="/company/origins">How we started</a> <a href="/crew">Crew</a></footer></body></html>`
	h := map[string]http.HandlerFunc{
		"/":                htmlPage(home),
		"/pricing":         htmlPage(doc("Pricing", "<p>$39</p>")),
		"/company/origins": htmlPage(doc("How we started", "<p>Founded in 2020.</p>")),
		"/crew":            htmlPage(doc("Crew", "<p>Dana, co-founder.</p>")),
	}
	for _, s := range []string{"retail", "clinics", "salons", "gyms", "schools", "agencies"} {
		h["/solutions/"+s] = htmlPage(doc(s, "<p>For "+s+".</p>"))
	}
	got := crawlPaths(t, newSite(t, h), 6)
	for _, p := range []string{"/pricing", "/company/origins", "/crew"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s not read; pages %v", p, got)
		}
	}
	n := 0
	for _, p := range got {
		if strings.HasPrefix(p, "/solutions/") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d solution pages read, want 2 (the budget's rest); pages %v", n, got)
	}
}

// A blog index in the main menu whose sidebar lists tag, author and page-2
// archives before its posts, newest first: beside seven other menu pages,
// the index and its oldest post (where a launch or founding is told) are
// read, the archives never.
func TestCrawl_BlogOldestPostFirst(t *testing.T) {
	home := `<!DOCTYPE html><html><body><nav><a href="/pricing">Pricing</a> <a href="/integrations">Integrations</a> <a href="/docs">Docs</a>` +
		` <a href="/status">Status</a> <a href="/blog">Blog</a> <a href="/careers">Careers</a> <a href="/terms">Terms</a> <a href="/privacy">Privacy</a></nav><p>Tidepool checks uptime.</p></body></html>`
	index := doc("Blog", `<aside><a href="/blog/tag/engineering">Engineering</a> <a href="/blog/author/kadri">Kadri</a></aside>`+
		`<article><a href="/blog/sms-alerts">SMS alerts</a></article><article><a href="/blog/regions">Regions</a></article>`+
		`<article><a href="/blog/why-we-built-tidepool">Why we built Tidepool</a></article><nav><a href="/blog/page/2">2</a></nav>`)
	h := map[string]http.HandlerFunc{"/": htmlPage(home), "/blog": htmlPage(index)}
	for _, p := range []string{"/pricing", "/integrations", "/docs", "/status", "/careers", "/terms", "/privacy",
		"/blog/tag/engineering", "/blog/author/kadri", "/blog/page/2", "/blog/sms-alerts", "/blog/regions", "/blog/why-we-built-tidepool"} {
		h[p] = htmlPage(doc(p, "<p>"+p+"</p>"))
	}
	s := newSite(t, h)
	got := crawlPaths(t, s, 6)
	for _, p := range []string{"/pricing", "/blog", "/blog/why-we-built-tidepool"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s not read; pages %v", p, got)
		}
	}
	got = crawlPaths(t, s, 20)
	for _, p := range []string{"/blog/tag/engineering", "/blog/author/kadri", "/blog/page/2"} {
		if slices.Contains(got, p) {
			t.Errorf("the archive %s read; pages %v", p, got)
		}
	}
	if !slices.Contains(got, "/blog/sms-alerts") {
		t.Errorf("with budget to spare every post is read; pages %v", got)
	}
}
