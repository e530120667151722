package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// site is a real web site on loopback that records what was requested.
type site struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string
}

// newSite serves handlers by exact path; any other path is 404.
func newSite(t testing.TB, handlers map[string]http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, r.URL.Path)
		s.mu.Unlock()
		if h, ok := handlers[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// requested reports whether path was requested, and how many times.
func (s *site) requested(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, h := range s.hits {
		if h == path {
			n++
		}
	}
	return n
}

func (s *site) allHits() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hits)
}

// htmlPage serves body as an HTML page in UTF-8.
func htmlPage(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}
}

// doc is a small HTML document around body.
func doc(title, body string) string {
	return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>" + body + "</body></html>"
}

// text serves body as text/plain (robots.txt).
func text(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

// redirect answers 302 to target.
func redirect(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target, http.StatusFound) }
}

// northwind serves testdata/northwind: /x is x.html, /dir/ is dir/index.html.
func northwind(t testing.TB) *site {
	t.Helper()
	root := filepath.Join("testdata", "northwind")
	handlers := map[string]http.HandlerFunc{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel := "/" + filepath.ToSlash(strings.TrimSuffix(strings.TrimPrefix(p, root+string(filepath.Separator)), ".html"))
		switch {
		case rel == "/index":
			rel = "/"
		case strings.HasSuffix(rel, "/index"):
			rel = strings.TrimSuffix(rel, "index")
		}
		handlers[rel] = htmlPage(string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return newSite(t, handlers)
}

// newFetcher is a Fetcher for loopback test sites with short limits.
func newFetcher(t testing.TB, o fetch.Options) *fetch.Fetcher {
	t.Helper()
	o.AllowLoopback = true
	if o.PageTimeout == 0 {
		o.PageTimeout = 5 * time.Second
	}
	f := fetch.New(o)
	t.Cleanup(f.Close)
	return f
}

// crawlError asserts err is a *domain.CrawlError with reason and returns it.
func crawlError(t *testing.T, err error, reason string) *domain.CrawlError {
	t.Helper()
	var ce *domain.CrawlError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want a *domain.CrawlError %s", err, err, reason)
	}
	if ce.Reason != reason {
		t.Fatalf("reason %q (%s), want %q", ce.Reason, ce.Message, reason)
	}
	return ce
}

// paths returns the URL paths of the crawled pages, in order.
func paths(t *testing.T, c *domain.SiteCrawl) []string {
	t.Helper()
	var out []string
	for _, p := range c.Pages {
		out = append(out, mustPath(t, p.URL))
	}
	return out
}

func mustPath(t *testing.T, raw string) string {
	t.Helper()
	i := strings.Index(raw, "://")
	rest := raw[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j:]
	}
	return "/"
}

// skipped maps each skipped URL's path to its reason.
func skipped(t *testing.T, c *domain.SiteCrawl) map[string]string {
	m := map[string]string{}
	for _, s := range c.Skipped {
		m[mustPath(t, s.URL)] = s.Reason
	}
	return m
}

// resolveAll maps every name to addr, as a DNS server (or an attacker's one) could.
func resolveAll(addr string) func(context.Context, string, string) ([]netip.Addr, error) {
	return func(_ context.Context, _, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr(addr)}, nil
	}
}

// portOf is the port of a test server's URL.
func portOf(s *site) string {
	_, p, _ := net.SplitHostPort(s.Listener.Addr().String())
	return p
}
