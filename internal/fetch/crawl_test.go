package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// progressLog records progress calls and fails on overlapping ones.
type progressLog struct {
	mu    sync.Mutex
	busy  bool
	calls [][2]int
	t     *testing.T
}

func (p *progressLog) fn(done, planned int) {
	p.mu.Lock()
	if p.busy {
		p.t.Error("progress called while another call was running")
	}
	p.busy = true
	p.calls = append(p.calls, [2]int{done, planned})
	p.busy = false
	p.mu.Unlock()
}

// With a budget of 6 pages the crawl reads the home page and the five links
// that matter most for a profile, once each, and none of the blog, sign-up,
// docs, careers, legal pages, assets or other sites.
func TestCrawl_PageSelection(t *testing.T) {
	s := northwind(t)
	f := newFetcher(t, fetch.Options{})
	prog := &progressLog{t: t}
	c, err := f.Crawl(context.Background(), s.URL, 6, prog.fn)
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != s.URL {
		t.Errorf("URL %q, want the submitted %q", c.URL, s.URL)
	}
	want := []string{"/", "/pricing", "/about", "/features", "/team", "/faq"}
	if diff := cmp.Diff(want, paths(t, c)); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	for _, p := range []string{"/blog/", "/blog/pricing-update", "/signup", "/docs", "/careers", "/privacy", "/terms",
		"/assets/northwind-brochure.pdf", "/contact", "/changelog", "/our-story"} {
		if n := s.requested(p); n != 0 {
			t.Errorf("%s requested %d times", p, n)
		}
	}
	for _, p := range want {
		if n := s.requested(p); n != 1 {
			t.Errorf("%s requested %d times, want once", p, n)
		}
	}
	if n := s.requested("/about/"); n != 0 {
		t.Errorf("/about/ requested although /about was: %d", n)
	}
	if len(c.Skipped) != 0 || len(c.Disallowed) != 0 {
		t.Errorf("skipped %v, disallowed %v", c.Skipped, c.Disallowed)
	}
	home := c.Pages[0]
	if home.Title != "Northwind Ledger — bookkeeping for small teams" || !strings.Contains(home.Text, "Bookkeeping that closes itself") {
		t.Errorf("home page: title %q, text %q", home.Title, home.Text)
	}
	if p := c.Page(s.URL + "/pricing"); p == nil || !strings.Contains(p.Text, "€39 per month") {
		t.Errorf("pricing page: %+v", p)
	}
	checkProgress(t, prog.calls, 6)
}

// checkProgress: done rises by one per call, planned never falls nor passes
// the budget, and the last call says all planned pages are done.
func checkProgress(t *testing.T, calls [][2]int, pages int) {
	t.Helper()
	if len(calls) != pages {
		t.Fatalf("%d progress calls, want one per page (%d): %v", len(calls), pages, calls)
	}
	for i, c := range calls {
		if c[0] != i+1 || c[1] > pages || c[0] > c[1] || (i > 0 && c[1] < calls[i-1][1]) {
			t.Errorf("progress call %d: %v (all: %v)", i, c, calls)
		}
	}
	if last := calls[len(calls)-1]; last != [2]int{pages, pages} {
		t.Errorf("last progress call %v, want [%d %d]", last, pages, pages)
	}
}

// With budget to spare the crawl reads every page that matters on the home
// page, then goes one level deeper (/our-story is linked from /about only),
// and no further.
func TestCrawl_SecondLevel(t *testing.T) {
	s := northwind(t)
	f := newFetcher(t, fetch.Options{})
	prog := &progressLog{t: t}
	c, err := f.Crawl(context.Background(), s.URL+"/", 0, prog.fn) // 0: the default budget of 10
	if err != nil {
		t.Fatal(err)
	}
	got := paths(t, c)
	want := []string{"/", "/pricing", "/about", "/features", "/team", "/faq", "/contact", "/changelog", "/press", "/our-story"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	checkProgress(t, prog.calls, 10)

	// the third level is not read, whatever the budget
	deep := newSite(t, map[string]http.HandlerFunc{
		"/":      htmlPage(doc("Home", `<a href="/about">About</a>`)),
		"/about": htmlPage(doc("About", `<a href="/team">Team</a>`)),
		"/team":  htmlPage(doc("Team", `<a href="/pricing">Pricing</a>`)),
	})
	c, err = f.Crawl(context.Background(), deep.URL, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/about", "/team"}, paths(t, c)); diff != "" || deep.requested("/pricing") != 0 {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

// www. and the apex are one site; other hosts are not. Names resolve
// through the test hook, all to the loopback server.
func TestCrawl_SameSite(t *testing.T) {
	var s *site
	s = newSite(t, map[string]http.HandlerFunc{
		"/": func(w http.ResponseWriter, r *http.Request) {
			if r.Host != "www.shop.example:"+portOf(s) {
				http.Redirect(w, r, "http://www.shop.example:"+portOf(s)+"/", http.StatusMovedPermanently)
				return
			}
			htmlPage(doc("Shop", `<a href="http://shop.example:`+portOf(s)+`/pricing">Pricing</a>
				<a href="http://other.example:`+portOf(s)+`/about">About</a>
				<a href="http://shop.example:1/features">Features</a>`))(w, r)
		},
		"/pricing": htmlPage(doc("Pricing", "From $5")),
		"/about":   htmlPage(doc("About other", "Not this site")),
	})
	f := newFetcher(t, fetch.Options{LookupNetIP: resolveAll("127.0.0.1")})
	start := "http://shop.example:" + portOf(s)
	c, err := f.Crawl(context.Background(), start, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != start || c.Pages[0].URL != "http://www.shop.example:"+portOf(s)+"/" {
		t.Errorf("URL %q, home %q", c.URL, c.Pages[0].URL)
	}
	if diff := cmp.Diff([]string{"/", "/pricing"}, paths(t, c)); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if s.requested("/about") != 0 {
		t.Error("another site's page was read")
	}
}

// The group for launchdirbot applies rather than "*"; the pages it forbids
// are listed and never requested; robots.txt is read once.
func TestCrawl_RobotsSubPage(t *testing.T) {
	s := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": text(200, "User-agent: *\nDisallow: /\n\nUser-agent: LaunchdirBot\nDisallow: /pricing\nAllow: /\n"),
		"/":           htmlPage(doc("Home", `<a href="/pricing">Pricing</a> <a href="/about">About</a> <a href="/faq">FAQ</a>`)),
		"/pricing":    htmlPage(doc("Pricing", "secret")),
		"/about":      htmlPage(doc("About", "about us")),
		"/faq":        redirect("/pricing/faq"),
	})
	c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/about"}, paths(t, c)); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{s.URL + "/pricing", s.URL + "/pricing/faq"}, c.Disallowed); diff != "" {
		t.Errorf("disallowed (-want +got):\n%s", diff)
	}
	if s.requested("/pricing") != 0 || s.requested("/pricing/faq") != 0 {
		t.Errorf("a disallowed page was requested: %v", s.allHits())
	}
	if n := s.requested("/robots.txt"); n != 1 {
		t.Errorf("robots.txt read %d times", n)
	}

	// without a launchdirbot group, "*" applies
	s2 := newSite(t, map[string]http.HandlerFunc{
		"/robots.txt": text(200, "User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /faq\n"),
		"/":           htmlPage(doc("Home", `<a href="/faq">FAQ</a> <a href="/about">About</a>`)),
		"/about":      htmlPage(doc("About", "about us")),
	})
	c, err = newFetcher(t, fetch.Options{}).Crawl(context.Background(), s2.URL, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/about"}, paths(t, c)); diff != "" || !slices.Equal(c.Disallowed, []string{s2.URL + "/faq"}) {
		t.Errorf("pages (-want +got):\n%s\ndisallowed %v", diff, c.Disallowed)
	}
}

// robots.txt decides about the home page too: forbidden means no crawl, and
// the home page is never requested.
func TestCrawl_RobotsHome(t *testing.T) {
	for _, tc := range []struct {
		name      string
		robots    http.HandlerFunc
		wantErr   bool
		temporary bool
	}{
		{"DisallowAll", text(200, "User-agent: *\nDisallow: /\n"), true, false},
		{"DisallowOurAgent", text(200, "User-agent: launchdirbot\nDisallow: /\n"), true, false},
		{"Status500", text(500, "oops"), true, true},
		{"Status503", text(503, ""), true, true},
		{"Status429", text(429, ""), true, true},
		{"Status404", text(404, "not found"), false, false},
		{"Status403", text(403, "forbidden"), false, false},
		{"Empty", text(200, ""), false, false},
		{"OtherAgentOnly", text(200, "User-agent: otherbot\nDisallow: /\n"), false, false},
		{"RuleBeforeAgent", text(200, "Disallow: /\nUser-agent: *\nDisallow: /private\n"), false, false},
		{"RuleBeforeAgentThenDisallow", text(200, "Disallow: /x\nUser-agent: *\nDisallow: /\n"), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, map[string]http.HandlerFunc{"/robots.txt": tc.robots, "/": htmlPage(doc("Home", "hello"))})
			c, err := newFetcher(t, fetch.Options{}).Crawl(context.Background(), s.URL, 3, nil)
			if !tc.wantErr {
				if err != nil || len(c.Pages) != 1 {
					t.Fatalf("%v %+v", err, c)
				}
				return
			}
			ce := crawlError(t, err, domain.CrawlRobots)
			if ce.Temporary != tc.temporary || !strings.Contains(ce.Message, s.URL+"/robots.txt") {
				t.Errorf("%+v", ce)
			}
			if s.requested("/") != 0 {
				t.Error("the home page was requested")
			}
		})
	}
}

// A crawl the caller cancels ends with the context's error, not a CrawlError
// (a job should try again, not tell the user the site is broken).
func TestCrawl_Canceled(t *testing.T) {
	s := northwind(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newFetcher(t, fetch.Options{}).Crawl(ctx, s.URL, 3, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
}

// Only http and https URLs with a host and without userinfo are read.
func TestCrawl_BadURL(t *testing.T) {
	f := newFetcher(t, fetch.Options{})
	for _, u := range []string{"", "ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "http://", "https://user:pw@example.com/",
		"example.com", "http:example.com"} {
		_, err := f.Crawl(context.Background(), u, 3, nil)
		var ce *domain.CrawlError
		if !errors.As(err, &ce) || ce.Reason != domain.CrawlRefused || ce.Message == "" {
			t.Errorf("%q: %v", u, err)
		}
	}
}
