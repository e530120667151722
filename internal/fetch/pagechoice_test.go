package fetch_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/internal/fetch"
)

// A German site whose pages have paths that say nothing (/angebot, /wir,
// /rechtliches): the navigation's "Preise" and "Über uns" and the footer's
// "Impressum" choose them over a body link to a blog-like page.
func TestCrawl_PageChoiceByLinkText(t *testing.T) {
	home := `<html lang="de"><body><header><nav><a href="/angebot">Preise</a> <a href="/wir">Über uns</a></nav></header>
<main><p>Terminfuchs plant Termine.</p><a href="/zufall">Mehr lesen</a></main>
<footer><a href="/rechtliches">Impressum</a></footer></body></html>`
	s := newSite(t, map[string]http.HandlerFunc{
		"/":            htmlPage(home),
		"/angebot":     htmlPage(doc("Preise", "<p>Pro kostet 9 € im Monat.</p>")),
		"/wir":         htmlPage(doc("Über uns", "<p>Gegründet 2019 in Leipzig.</p>")),
		"/rechtliches": htmlPage(doc("Impressum", "<p>Terminfuchs GmbH, Leipzig</p>")),
		"/zufall":      htmlPage(doc("Zufall", "<p>Nichts.</p>")),
	})
	f := newFetcher(t, fetch.Options{})
	c, err := f.Crawl(context.Background(), s.URL, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/angebot", "/wir"}, paths(t, c)); diff != "" {
		t.Errorf("pages with a budget of 3 (-want +got):\n%s", diff)
	}
	c, err = f.Crawl(context.Background(), s.URL, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The budget left after the known topics goes to the other pages the
	// home page links to (issue 31): the body's "Mehr lesen" last.
	if diff := cmp.Diff([]string{"/", "/angebot", "/wir", "/rechtliches", "/zufall"}, paths(t, c)); diff != "" {
		t.Errorf("pages with a budget of 10 (-want +got):\n%s", diff)
	}
}

// A site whose pages are linked from nowhere but its sitemap, named by
// robots.txt's Sitemap: line at a path that is not /sitemap.xml (a sitemap
// index and its child): the crawl reads the pages worth reading, never
// requests a page robots.txt forbids, and holds its budget.
func TestCrawl_SitemapFromRobots(t *testing.T) {
	var s *site
	s = newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			text(200, "User-agent: *\nDisallow: /intern/\n\nSitemap: "+s.URL+"/maps/index.xml\n")(w, r)
		},
		"/": htmlPage(doc("Parlotti", "<p>Parlotti reads your calls.</p>")),
		"/maps/index.xml": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
				`<sitemap><loc>` + s.URL + `/maps/pages.xml</loc></sitemap></sitemapindex>`))
		},
		"/maps/pages.xml": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
				`<url><loc>` + s.URL + `/</loc></url><url><loc>` + s.URL + `/intern/pricing</loc></url>` +
				`<url><loc>` + s.URL + `/pricing</loc></url><url><loc>` + s.URL + `/about</loc></url>` +
				`<url><loc>` + s.URL + `/faq</loc></url><url><loc>` + s.URL + `/features</loc></url>` +
				`<url><loc>https://elsewhere.test/about</loc></url></urlset>`))
		},
		"/pricing":        htmlPage(doc("Pricing", "<p>Pro costs $9 per month.</p>")),
		"/about":          htmlPage(doc("About", "<p>Founded in 2021.</p>")),
		"/faq":            htmlPage(doc("FAQ", "<p>Questions.</p>")),
		"/features":       htmlPage(doc("Features", "<p>Features.</p>")),
		"/intern/pricing": htmlPage(doc("Intern", "<p>Secret.</p>")),
	})
	f := newFetcher(t, fetch.Options{})
	c, err := f.Crawl(context.Background(), s.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/pricing", "/about", "/features"}, paths(t, c)); diff != "" {
		t.Errorf("pages with a budget of 4 (-want +got):\n%s", diff)
	}
	if n := s.requested("/faq"); n != 0 {
		t.Errorf("/faq requested %d times beyond the budget of 4 pages", n)
	}
	c, err = f.Crawl(context.Background(), s.URL, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/pricing", "/about", "/features", "/faq"}, paths(t, c)); diff != "" {
		t.Errorf("pages with a budget of 10 (-want +got):\n%s", diff)
	}
	if n := s.requested("/intern/pricing"); n != 0 {
		t.Errorf("/intern/pricing, forbidden by robots.txt, requested %d times", n)
	}
	if diff := cmp.Diff([]string{s.URL + "/intern/pricing"}, c.Disallowed); diff != "" {
		t.Errorf("Disallowed (-want +got):\n%s", diff)
	}
}

// A French home page with an English alternate: the draft is made from the
// English home and the English pages it links to, and the crawl records
// the language it drafted from. A site without an alternate keeps its
// language.
func TestCrawl_HreflangEnglishPreferred(t *testing.T) {
	fr := `<!DOCTYPE html><html lang="fr"><head><title>Bocal</title>
<link rel="alternate" hreflang="fr" href="/"><link rel="alternate" hreflang="en" href="/en/"></head>
<body><nav><a href="/tarifs">Tarifs</a> <a href="/a-propos">À propos</a></nav></body></html>`
	en := `<!DOCTYPE html><html lang="en"><head><title>Bocal</title></head>
<body><nav><a href="/en/pricing">Pricing</a> <a href="/en/about">About</a></nav></body></html>`
	s := newSite(t, map[string]http.HandlerFunc{
		"/":           htmlPage(fr),
		"/en/":        htmlPage(en),
		"/tarifs":     htmlPage(doc("Tarifs", "<p>9 € par mois.</p>")),
		"/a-propos":   htmlPage(doc("À propos", "<p>Fondé en 2020.</p>")),
		"/en/pricing": htmlPage(doc("Pricing", "<p>€9 a month.</p>")),
		"/en/about":   htmlPage(doc("About", "<p>Founded in 2020.</p>")),
	})
	f := newFetcher(t, fetch.Options{})
	c, err := f.Crawl(context.Background(), s.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/en/", "/en/pricing", "/en/about"}, paths(t, c)); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if c.Language != "en" {
		t.Errorf("Language %q, want en", c.Language)
	}
	if n := s.requested("/tarifs") + s.requested("/a-propos"); n != 0 {
		t.Errorf("French pages requested %d times", n)
	}

	s2 := newSite(t, map[string]http.HandlerFunc{"/": htmlPage(`<html lang="de-CH"><body><p>Grüezi</p></body></html>`)})
	c, err = f.Crawl(context.Background(), s2.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Language != "de-ch" {
		t.Errorf("Language %q, want de-ch", c.Language)
	}
}

// Changelog links named in the site's language ("Änderungen", "Wijzigingen",
// "Neuerungen") are read like "Changelog", before a body link that names no topic.
func TestCrawl_ChangelogInOtherLanguages(t *testing.T) {
	for _, name := range []string{"Änderungen", "Wijzigingen", "Neuerungen", "Notes de version"} {
		home := `<html><body><main><a href="/zufall">Mehr</a></main><footer><a href="/x1">` + name + `</a></footer></body></html>`
		s := newSite(t, map[string]http.HandlerFunc{
			"/":       htmlPage(home),
			"/x1":     htmlPage(doc(name, "<p>2.0 — 3. März 2024</p>")),
			"/zufall": htmlPage(doc("Zufall", "<p>Nichts.</p>")),
		})
		c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"/", "/x1"}, paths(t, c)); diff != "" {
			t.Errorf("%s: pages with a budget of 2 (-want +got):\n%s", name, diff)
		}
	}
}

// Issue 31 item 1: pages are chosen by structure, not only by known words. A
// Polish site names its pages in words no table has (/funkcje, /cennik, an
// about page /kim-jestesmy linked only from the footer); its logo links the
// home page as /index.html and a page links /cennik/ with a trailing slash;
// /oferta names /cennik as its rel=canonical; a news index /news links its
// dated posts. Every page is read once, the home page is not read again, the
// copy under another name is not kept, the news posts are read one level
// below their index, and robots.txt still decides (/panel is never requested).
func TestCrawl_PageChoiceByStructure(t *testing.T) {
	home := `<html lang="pl"><body><header><a href="/index.html"><img src="/logo.png" alt="Fakturka"></a>
<nav><a href="/">Start</a> <a href="/funkcje">Funkcje</a> <a href="/cennik/">Cennik</a></nav></header>
<main><p>Fakturka wystawia faktury.</p><a href="/oferta">Oferta</a> <a href="/news">Aktualności</a></main>
<footer><a href="/kim-jestesmy">Kim jesteśmy</a> <a href="/panel/salony">Panel</a></footer></body></html>`
	var s *site
	s = newSite(t, map[string]http.HandlerFunc{
		"/robots.txt":   text(200, "User-agent: *\nDisallow: /panel\n"),
		"/":             htmlPage(home),
		"/index.html":   htmlPage(home),
		"/funkcje":      htmlPage(doc("Funkcje", `<p>Faktury VAT.</p><a href="/index.html">Start</a>`)),
		"/cennik/":      htmlPage(doc("Cennik", "<p>49 zł / mies.</p>")),
		"/kim-jestesmy": htmlPage(doc("Kim jesteśmy", "<p>Założona w 2019.</p>")),
		"/oferta": func(w http.ResponseWriter, r *http.Request) {
			htmlPage(`<html><head><link rel="canonical" href="`+s.URL+`/cennik"></head><body><p>49 zł / mies.</p></body></html>`)(w, r)
		},
		"/news":           htmlPage(doc("Aktualności", `<article><time>2023-05-10</time><a href="/news/aplikacja">Aplikacja</a></article>`)),
		"/news/aplikacja": htmlPage(doc("Aplikacja", "<p>10 maja 2023: aplikacja mobilna.</p>")),
		"/panel/salony":   htmlPage(doc("Panel", "<p>Zaloguj.</p>")),
	})
	c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL+"/", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := paths(t, c)
	for _, p := range []string{"/funkcje", "/cennik/", "/kim-jestesmy", "/news", "/news/aplikacja"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s not read; pages %v", p, got)
		}
	}
	if slices.Contains(got, "/oferta") {
		t.Errorf("/oferta, whose canonical page /cennik was read, kept; pages %v", got)
	}
	for p, want := range map[string]int{"/index.html": 0, "/": 1, "/panel/salony": 0, "/cennik/": 1, "/cennik": 0} {
		if n := s.requested(p); n != want {
			t.Errorf("%s requested %d times, want %d", p, n, want)
		}
	}
	if len(c.Disallowed) != 1 || !strings.HasSuffix(c.Disallowed[0], "/panel/salony") {
		t.Errorf("Disallowed %v, want /panel/salony", c.Disallowed)
	}
}

// A single-page app whose links sit only in its <noscript> fallback: the
// crawler, a reader without scripts, follows them (issue 31).
func TestCrawl_NoscriptLinks(t *testing.T) {
	home := `<html lang="cs"><body><div id="app"></div><noscript><nav><a href="/cenik">Ceník</a></nav>
<footer><a href="/o-nas">O nás</a></footer></noscript></body></html>`
	s := newSite(t, map[string]http.HandlerFunc{
		"/":      htmlPage(home),
		"/cenik": htmlPage(doc("Ceník", "<p>149 Kč měsíčně</p>")),
		"/o-nas": htmlPage(doc("O nás", "<p>Praha</p>")),
	})
	c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL+"/", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/cenik", "/o-nas"}, paths(t, c)); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

// A Romanian home page whose hreflang "en" alternate is an English about
// page that names its own Romanian original (/despre), not the home page:
// it is no translation of the home (hreflang links go both ways), so the
// home page is kept and drafted from, and the about page is one of the
// pages read, not fetched twice.
func TestCrawl_HreflangAlternateMustNameTheHome(t *testing.T) {
	ro := `<!DOCTYPE html><html lang="ro"><head><title>Programează</title>
<link rel="alternate" hreflang="en" href="/en/about"></head>
<body><nav><a href="/preturi">Prețuri</a> <a href="/despre">Despre noi</a> <a href="/en/about">English</a></nav><p>Am lansat public în 2020.</p></body></html>`
	en := `<!DOCTYPE html><html lang="en"><head><title>About</title><link rel="alternate" hreflang="ro" href="/despre"></head>
<body><nav><a href="/preturi">Pricing</a></nav><p>Founded in 2018.</p></body></html>`
	s := newSite(t, map[string]http.HandlerFunc{
		"/":         htmlPage(ro),
		"/en/about": htmlPage(en),
		"/preturi":  htmlPage(doc("Prețuri", "<p>49 lei / lună.</p>")),
		"/despre":   htmlPage(doc("Despre noi", "<p>Fondată în 2018.</p>")),
	})
	f := newFetcher(t, fetch.Options{})
	c, err := f.Crawl(context.Background(), s.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := paths(t, c)
	if len(got) == 0 || got[0] != "/" || !slices.Contains(got, "/en/about") || len(got) != 4 {
		t.Errorf("pages %q, want the home page first and /en/about among 4", got)
	}
	if c.Language != "ro" {
		t.Errorf("Language %q, want ro", c.Language)
	}
	if n := s.requested("/en/about"); n != 1 {
		t.Errorf("/en/about requested %d times, want 1", n)
	}
}

// A news or blog index named in another language (/uutiset, /tin-tuc,
// /blogi) is followed one level like /news: its posts are read when the
// budget has room.
func TestCrawl_LocalIndexPostsFollowed(t *testing.T) {
	for _, ix := range []string{"uutiset", "tin-tuc", "blogi", "oshirase"} {
		home := `<!DOCTYPE html><html><head><title>Acme</title></head><body><nav><a href="/hinnat">Hinnat</a> <a href="/` + ix + `">News</a></nav></body></html>`
		index := doc("News", `<ul><li><a href="/`+ix+`/acme-2">Acme 2.0</a> <time datetime="2024-09-03">3.9.2024</time></li>
<li><a href="/`+ix+`/app">Acme app</a> <time datetime="2023-02-14">14.2.2023</time></li></ul>`)
		s := newSite(t, map[string]http.HandlerFunc{
			"/":                  htmlPage(home),
			"/hinnat":            htmlPage(doc("Hinnat", "<p>6 € / kk</p>")),
			"/" + ix:             htmlPage(index),
			"/" + ix + "/acme-2": htmlPage(doc("Acme 2.0", "<p>Released.</p>")),
			"/" + ix + "/app":    htmlPage(doc("Acme app", "<p>Released.</p>")),
		})
		f := newFetcher(t, fetch.Options{})
		c, err := f.Crawl(context.Background(), s.URL, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := paths(t, c)
		if !slices.Contains(got, "/"+ix+"/acme-2") || !slices.Contains(got, "/"+ix+"/app") {
			t.Errorf("%s: pages %q, want the index's posts read", ix, got)
		}
	}
}
