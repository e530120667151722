package fetch_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// TestFetchPage reads single pages the way badge checks and claims do: head
// meta tags and links of an HTML page, a text file only when asked for any
// type, redirects on the same host followed and to another host refused with
// SameHost, and the SSRF guard as for crawls. robots.txt, which forbids
// everything here, is never requested: a badge or claim check reads one
// page the owner named, as a site verification does (docs/claims.md).
func TestFetchPage(t *testing.T) {
	ctx := context.Background()
	var other string
	s := newSite(t, map[string]http.HandlerFunc{
		"/": htmlPage(`<!DOCTYPE html><html><head><title>Home</title>
			<meta name="Launchdir-Verification" content="tok-1"><meta name="description" content="d"></head>
			<body><meta name="late" content="no"><a href="/about?x=1#top">About</a>
			<a href="https://dir.example/listings/acme"><img alt="Listed on"></a></body></html>`),
		"/moved":                  redirect("/"),
		"/away":                   func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other+"/", http.StatusFound) },
		"/.well-known/verify.txt": text(200, "tok-2\n"),
		"/robots.txt":             text(200, "User-agent: *\nDisallow: /\n"),
	})
	other = strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	f := newFetcher(t, fetch.Options{})

	p, err := f.FetchPage(ctx, s.URL+"/moved", domain.FetchPageOptions{SameHost: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != s.URL+"/" || !slices.Equal(p.Meta["launchdir-verification"], []string{"tok-1"}) || p.Meta["late"] != nil {
		t.Fatalf("page: %s %v", p.URL, p.Meta)
	}
	if !slices.Equal(p.Links, []string{s.URL + "/about", "https://dir.example/listings/acme"}) {
		t.Fatalf("links: %v", p.Links)
	}
	if s.requested("/robots.txt") != 0 {
		t.Fatal("robots.txt was read for a single page")
	}

	if _, err := f.FetchPage(ctx, s.URL+"/.well-known/verify.txt", domain.FetchPageOptions{}); err == nil {
		t.Fatal("a text file was read as a page without AnyType")
	}
	p, err = f.FetchPage(ctx, s.URL+"/.well-known/verify.txt", domain.FetchPageOptions{AnyType: true, SameHost: true})
	if err != nil || p.Body != "tok-2\n" || !strings.HasPrefix(p.ContentType, "text/plain") {
		t.Fatalf("text file: %v %+v", err, p)
	}
	if n := s.requested("/robots.txt"); n != 0 {
		t.Fatalf("robots.txt was read %d times for a single page and file (badge and claim checks do not consult it: docs/claims.md)", n)
	}

	_, err = f.FetchPage(ctx, s.URL+"/away", domain.FetchPageOptions{SameHost: true})
	if ce := crawlError(t, err, "off_site"); !strings.Contains(ce.Message, "another host") {
		t.Fatalf("redirect to another host: %v", ce.Message)
	}
	_, err = f.FetchPage(ctx, s.URL+"/nope", domain.FetchPageOptions{})
	crawlError(t, err, domain.CrawlStatus)

	guarded := fetch.New(fetch.Options{})
	defer guarded.Close()
	_, err = guarded.FetchPage(ctx, s.URL+"/", domain.FetchPageOptions{})
	crawlError(t, err, domain.CrawlRefused)
}
