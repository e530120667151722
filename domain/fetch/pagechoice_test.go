package fetch_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/domain/fetch"
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
	if diff := cmp.Diff([]string{"/", "/angebot", "/wir", "/rechtliches"}, paths(t, c)); diff != "" {
		t.Errorf("pages with a budget of 10 (-want +got):\n%s", diff)
	}
}
