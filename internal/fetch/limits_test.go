package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// big serves an HTML page of n bytes, with or without a Content-Length
// (chunked), so both the header check and the LimitReader are exercised.
func big(n int, withLength bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := doc("Big", `<a href="/about">About</a>`+strings.Repeat("<p>filler text</p>", n/18+1))[:n]
		w.Header().Set("Content-Type", "text/html")
		if withLength {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		for i := 0; i < len(body); i += 1000 { // in pieces, so no Content-Length is set for us
			w.Write([]byte(body[i:min(i+1000, len(body))]))
			if !withLength {
				w.(http.Flusher).Flush()
			}
		}
	}
}

func TestCrawl_Size(t *testing.T) {
	const limit = 4096
	s := newSite(t, map[string]http.HandlerFunc{
		"/":          htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/features">Features</a> <a href="/faq">FAQ</a>`)),
		"/about":     big(limit+1, true),
		"/pricing":   big(limit+1, false),
		"/features":  big(limit, false),
		"/faq":       big(limit, true),
		"/big":       big(limit*3, false),
		"/big-known": big(limit*3, true),
	})
	f := newFetcher(t, fetch.Options{MaxBytes: limit})
	c, err := f.Crawl(context.Background(), s.URL, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := skipped(t, c), map[string]string{"/about": domain.CrawlTooLarge, "/pricing": domain.CrawlTooLarge}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
	if len(c.Pages) != 3 || len(c.Page(s.URL+"/features").HTML) != limit {
		t.Errorf("pages %v", paths(t, c))
	}
	for _, p := range []string{"/big", "/big-known"} {
		_, err := f.Crawl(context.Background(), s.URL+p, 5, nil)
		crawlError(t, err, domain.CrawlTooLarge)
	}
}

func TestCrawl_ContentType(t *testing.T) {
	typed := func(ct, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no sniffing by the test server
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			w.Write([]byte(body))
		}
	}
	s := newSite(t, map[string]http.HandlerFunc{
		"/": htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/features">Features</a>
			<a href="/faq">FAQ</a> <a href="/team">Team</a>`)),
		"/about":    typed("application/xhtml+xml; charset=utf-8", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>About us</p></body></html>`),
		"/pricing":  typed("application/pdf", "%PDF-1.4"),
		"/features": typed("application/json", `{"features":[]}`),
		"/faq":      typed("", doc("FAQ", "Questions")), // no type: sniffed as HTML
		"/team":     typed("", "just some text"),        // no type, not HTML
		"/doc.pdf":  typed("application/pdf", "%PDF-1.4"),
	})
	c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"/pricing": domain.CrawlContentType, "/features": domain.CrawlContentType, "/team": domain.CrawlContentType}
	if got := skipped(t, c); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
	if p := c.Page(s.URL + "/about"); p == nil || !strings.Contains(p.Text, "About us") || c.Page(s.URL+"/faq") == nil {
		t.Errorf("pages %v", paths(t, c))
	}
	_, err = newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL+"/doc.pdf", 6, nil)
	if ce := crawlError(t, err, domain.CrawlContentType); !strings.Contains(ce.Message, "application/pdf") {
		t.Errorf("%+v", ce)
	}
}

// MaxRedirects redirects are followed, one more is refused.
func TestCrawl_Redirects(t *testing.T) {
	h := map[string]http.HandlerFunc{"/end": htmlPage(doc("End", "arrived"))}
	for i := 1; i <= 4; i++ {
		next := fmt.Sprintf("/r%d", i-1)
		if i == 1 {
			next = "/end"
		}
		h[fmt.Sprintf("/r%d", i)] = redirect(next)
	}
	h["/loop"] = redirect("/loop")
	s := newSite(t, h)
	f := newFetcher(t, fetch.Options{MaxRedirects: 3})
	c, err := f.Crawl(context.Background(), s.URL+"/r3", 1, nil)
	if err != nil || c.Pages[0].URL != s.URL+"/end" || c.URL != s.URL+"/r3" {
		t.Fatalf("3 redirects: %v", err)
	}
	for _, p := range []string{"/r4", "/loop"} {
		_, err = f.Crawl(context.Background(), s.URL+p, 1, nil)
		if ce := crawlError(t, err, domain.CrawlRedirects); ce.Temporary {
			t.Errorf("%+v", ce)
		}
	}
	// none at all
	_, err = newFetcher(t, fetch.Options{MaxRedirects: -1}).Crawl(context.Background(), s.URL+"/r1", 1, nil)
	crawlError(t, err, domain.CrawlRedirects)

	// a sub-page may not redirect to another site, nor to another scheme
	s2 := newSite(t, map[string]http.HandlerFunc{
		"/":        htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a>`)),
		"/about":   redirect("http://other.example/about"),
		"/pricing": redirect("ftp://example.com/pricing"),
	})
	c, err = newFetcher(t, fetch.Options{}).Crawl(context.Background(), s2.URL, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := skipped(t, c); got["/about"] != "off_site" || got["/pricing"] != domain.CrawlRefused {
		t.Errorf("skipped %v", got)
	}
}

func TestCrawl_Status(t *testing.T) {
	s := newSite(t, map[string]http.HandlerFunc{
		"/":        htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a>`)),
		"/pricing": func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) },
		"/gone":    func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) },
		"/busy":    func(w http.ResponseWriter, r *http.Request) { http.Error(w, "slow down", http.StatusTooManyRequests) },
	})
	f := newFetcher(t, fetch.Options{})
	c, err := f.Crawl(context.Background(), s.URL, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := skipped(t, c); got["/about"] != domain.CrawlStatus || got["/pricing"] != domain.CrawlStatus || len(c.Pages) != 1 {
		t.Errorf("skipped %v, pages %v", got, paths(t, c))
	}
	for p, temporary := range map[string]bool{"/missing": false, "/gone": false, "/pricing": true, "/busy": true} {
		_, err := f.Crawl(context.Background(), s.URL+p, 3, nil)
		if ce := crawlError(t, err, domain.CrawlStatus); ce.Temporary != temporary || !strings.Contains(ce.Message, s.URL+p) {
			t.Errorf("%s: %+v", p, ce)
		}
	}
}

// Pages in legacy encodings are decoded to UTF-8, whether the charset is in
// the header, in a <meta> or in a byte order mark.
func TestCrawl_Charset(t *testing.T) {
	raw := func(ct string, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Write(body)
		}
	}
	// "Café Zürich costs €5 – naïve" in windows-1252 (é=E9, ü=FC, €=80, –=96, ï=EF)
	cp1252 := []byte("Caf\xe9 Z\xfcrich costs \x805 \x96 na\xefve")
	s := newSite(t, map[string]http.HandlerFunc{
		"/header": raw("text/html; charset=windows-1252", append([]byte("<html><head><title>T\xe9st</title></head><body><p>"), append(cp1252, "</p></body></html>"...)...)),
		"/latin1": raw("text/html; charset=ISO-8859-1", []byte("<html><body><p>Caf\xe9 Z\xfcrich</p></body></html>")),
		"/meta":   raw("text/html", []byte(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body><p>Caf`+"\xe9 Z\xfcrich</p></body></html>")),
		"/meta5":  raw("text/html", []byte(`<html><head><meta charset="windows-1252"></head><body><p>`+string(cp1252)+"</p></body></html>")),
		"/bom":    raw("text/html", append([]byte("\xef\xbb\xbf"), "<html><body><p>Café Zürich</p></body></html>"...)),
		"/utf16":  raw("text/html", utf16le("<html><body><p>Café Zürich</p></body></html>")),
		"/guess":  raw("text/html", []byte("<html><body><p>Caf\xe9 Z\xfcrich</p></body></html>")),
	})
	f := newFetcher(t, fetch.Options{})
	for p, want := range map[string]string{
		"/header": "Café Zürich costs €5 – naïve", "/latin1": "Café Zürich", "/meta": "Café Zürich",
		"/meta5": "Café Zürich costs €5 – naïve", "/bom": "Café Zürich", "/utf16": "Café Zürich", "/guess": "Café Zürich",
	} {
		c, err := f.Crawl(context.Background(), s.URL+p, 1, nil)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := c.Pages[0].Text; got != want || strings.HasPrefix(c.Pages[0].HTML, "\ufeff") {
			t.Errorf("%s: text %q, want %q", p, got, want)
		}
	}
	c, _ := f.Crawl(context.Background(), s.URL+"/header", 1, nil)
	if c.Pages[0].Title != "Tést" {
		t.Errorf("title %q", c.Pages[0].Title)
	}
}

func utf16le(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, r := range s { // the test strings are in the BMP
		out = append(out, byte(r), byte(r>>8))
	}
	return out
}

// A page that does not answer within PageTimeout is given up: the home page
// fails the crawl as unreachable (temporary), a sub-page is skipped.
func TestCrawl_Timeout(t *testing.T) {
	release := make(chan struct{})
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	slowBody := func(w http.ResponseWriter, r *http.Request) { // headers at once, then nothing
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><p>start"))
		w.(http.Flusher).Flush()
		slow(w, r)
	}
	s := newSite(t, map[string]http.HandlerFunc{
		"/":          htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/faq">FAQ</a>`)),
		"/about":     slow,
		"/pricing":   slowBody,
		"/faq":       htmlPage(doc("FAQ", "answers")),
		"/slow-home": slow,
	})
	defer close(release)
	f := newFetcher(t, fetch.Options{PageTimeout: 200 * time.Millisecond})
	c, err := f.Crawl(context.Background(), s.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := skipped(t, c); got["/about"] != domain.CrawlUnreachable || got["/pricing"] != domain.CrawlUnreachable || len(c.Pages) != 2 {
		t.Errorf("skipped %v, pages %v", got, paths(t, c))
	}
	_, err = f.Crawl(context.Background(), s.URL+"/slow-home", 4, nil)
	if ce := crawlError(t, err, domain.CrawlUnreachable); !ce.Temporary {
		t.Errorf("%+v", ce)
	}

	// the whole crawl's budget: the home page is kept, the rest is skipped
	f = newFetcher(t, fetch.Options{PageTimeout: 5 * time.Second, CrawlTimeout: 300 * time.Millisecond})
	c, err = f.Crawl(context.Background(), s.URL, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := skipped(t, c); got["/about"] != domain.CrawlUnreachable || len(c.Pages) < 1 || c.Pages[0].Title != "Home" {
		t.Errorf("skipped %v, pages %v", got, paths(t, c))
	}
}

// An unreachable site fails as unreachable and temporary.
func TestCrawl_Unreachable(t *testing.T) {
	s := newSite(t, nil)
	u := s.URL
	s.Close() // nothing listens there any more
	_, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), u, 3, nil)
	if ce := crawlError(t, err, domain.CrawlUnreachable); !ce.Temporary {
		t.Errorf("%+v", ce)
	}
}

// robots.txt that does not answer stops the crawl before the home page
// (RFC 9309: nothing is read while it cannot be).
func TestCrawl_RobotsTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		},
		"/": htmlPage(doc("Home", "hello")),
	})
	_, err := newFetcher(t, fetch.Options{PageTimeout: 200 * time.Millisecond}).Crawl(context.Background(), s.URL, 3, nil)
	if ce := crawlError(t, err, domain.CrawlUnreachable); !ce.Temporary || !strings.Contains(ce.Message, s.URL+"/robots.txt") {
		t.Errorf("%+v", ce)
	}
	if s.requested("/") != 0 {
		t.Error("the home page was requested")
	}
}

// A certificate we cannot verify is not read, and trying again will not help.
func TestCrawl_BadCertificate(t *testing.T) {
	s := httptest.NewTLSServer(htmlPage(doc("Home", "hello")))
	defer s.Close()
	_, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 3, nil)
	if ce := crawlError(t, err, domain.CrawlUnreachable); ce.Temporary || !strings.Contains(ce.Message, "certificate") {
		t.Errorf("%+v", ce)
	}
}
