package fetch_test

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// Without AllowLoopback a site on loopback is refused at dial time: the
// server sees no request at all, not even for robots.txt.
func TestGuard_LoopbackRefused(t *testing.T) {
	s := northwind(t)
	f := fetch.New(fetch.Options{})
	defer f.Close()
	for _, u := range []string{s.URL, strings.Replace(s.URL, "127.0.0.1", "localhost", 1), strings.Replace(s.URL, "127.0.0.1", "[::ffff:127.0.0.1]", 1)} {
		_, err := f.Crawl(context.Background(), u, 3, nil)
		ce := crawlError(t, err, domain.CrawlRefused)
		if ce.Temporary || !strings.Contains(ce.Message, "loopback") {
			t.Errorf("%s: %+v", u, ce)
		}
	}
	if hits := s.allHits(); len(hits) != 0 {
		t.Errorf("requests reached the server: %v", hits)
	}
}

// DNS rebinding: a public-looking name that resolves to loopback is refused
// on the address actually dialled. With loopback allowed the same name is
// read, which shows the hook is what resolved it.
func TestGuard_DNSRebinding(t *testing.T) {
	s := newSite(t, map[string]http.HandlerFunc{"/": htmlPage(doc("Home", "hello"))})
	u := "http://public.example:" + portOf(s) + "/"
	f := fetch.New(fetch.Options{LookupNetIP: resolveAll("127.0.0.1")})
	defer f.Close()
	_, err := f.Crawl(context.Background(), u, 3, nil)
	if ce := crawlError(t, err, domain.CrawlRefused); !strings.Contains(ce.Message, "127.0.0.1") {
		t.Errorf("%+v", ce)
	}
	if hits := s.allHits(); len(hits) != 0 {
		t.Errorf("requests reached the server: %v", hits)
	}
	c, err := newFetcher(t, fetch.Options{LookupNetIP: resolveAll("127.0.0.1")}).Crawl(context.Background(), u, 3, nil)
	if err != nil || c.Pages[0].URL != u {
		t.Fatalf("with loopback allowed: %v", err)
	}
}

// AllowLoopback opens loopback only: redirects to private and link-local
// addresses (cloud metadata) are refused when dialled, for the home page
// (the crawl fails) and for a sub-page (it is skipped).
func TestGuard_RedirectToPrivate(t *testing.T) {
	for _, target := range []string{"http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/", "http://[fd00::1]/", "http://192.168.1.1:8080/admin"} {
		s := newSite(t, map[string]http.HandlerFunc{"/": redirect(target)})
		_, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 3, nil)
		host := strings.Trim(strings.Split(strings.TrimPrefix(target, "http://"), "/")[0], "[]")
		host = strings.TrimSuffix(host, ":8080")
		if ce := crawlError(t, err, domain.CrawlRefused); !strings.Contains(ce.Message, host) {
			t.Errorf("%s: %+v", target, ce)
		}
	}

	// a sub-page redirects within the site (www.) to a name that resolves to a
	// private address
	h := map[string]http.HandlerFunc{
		"/":      htmlPage(doc("Home", `<a href="/about">About</a> <a href="/pricing">Pricing</a>`)),
		"/about": htmlPage(doc("About", "us")),
	}
	s := newSite(t, h)
	h["/pricing"] = redirect("http://www.shop.example:" + portOf(s) + "/pricing")
	f := newFetcher(t, fetch.Options{LookupNetIP: func(ctx context.Context, network, host string) ([]netip.Addr, error) {
		if host == "www.shop.example" {
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}})
	c, err := f.Crawl(context.Background(), "http://shop.example:"+portOf(s), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := skipped(t, c); got["/pricing"] != domain.CrawlRefused || len(c.Pages) != 2 {
		t.Errorf("skipped %v, pages %v", got, paths(t, c))
	}
}
