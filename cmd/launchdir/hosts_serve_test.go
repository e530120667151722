//go:build e2e

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// reAbsURL is an absolute http(s) URL in a JSON text (JSON escapes of <, >
// and & end it too, as in embed_html).
var reAbsURL = regexp.MustCompile(`https?://[^\s"'<>\\]+`)

// hostURLs returns every absolute URL in text that names this server (any
// loopback name with port) but not at origin.
func hostURLs(text, port, origin string) (wrong []string, n int) {
	for _, u := range reAbsURL.FindAllString(text, -1) {
		p, err := url.Parse(u)
		if err != nil || p.Port() != port {
			continue
		}
		n++
		if p.Scheme+"://"+p.Host != origin {
			wrong = append(wrong, u)
		}
	}
	return wrong, n
}

// TestServe_EveryURLAtTheHostUsed: one serve --demo on
// 127.0.0.1, reached as http://127.0.0.1:PORT and as http://localhost:PORT
// (real name resolution, no dial override), answers every REST call and
// every MCP tool call (go-sdk client against the real /mcp) with every
// absolute URL of this server at the origin the client used: page_url,
// links.* of get_listing, badges' svg_url and embed_html, founders' and
// categories' pages, get_site_info, account_url.
func TestServe_EveryURLAtTheHostUsed(t *testing.T) {
	t.Parallel() // owns its server, data and port
	s, _, key, _ := browserServeData(t)
	def := "http://127.0.0.1:" + s.port
	// Slugs of the demo data, asked once.
	var search struct {
		Listings []struct{ Slug string } `json:"items"`
	}
	s.get(t, def+"/v1/listings?per_page=3", "", "", &search)
	var founders struct {
		Founders []struct{ Slug string } `json:"items"`
	}
	s.get(t, def+"/v1/founders?per_page=1", "", "", &founders)
	var posts struct {
		Posts []struct{ Slug string } `json:"items"`
	}
	s.get(t, def+"/v1/blog?per_page=1", "", "", &posts)
	if len(search.Listings) < 2 || len(founders.Founders) == 0 || len(posts.Posts) == 0 {
		t.Fatalf("demo data: %d listings, %d founders, %d posts", len(search.Listings), len(founders.Founders), len(posts.Posts))
	}
	a, b := search.Listings[0].Slug, search.Listings[1].Slug
	var listing struct {
		PrimaryCategory struct{ Slug string } `json:"primary_category"`
	}
	s.get(t, def+"/v1/listings/"+a, "", "", &listing)

	rest := []string{"/v1/site", "/v1/listings?per_page=5", "/v1/listings/" + a, "/v1/listings/" + a + "/alternatives",
		"/v1/compare?a=" + a + "&b=" + b, "/v1/categories", "/v1/categories/" + listing.PrimaryCategory.Slug,
		"/v1/launches/weeks/this", "/v1/launches", "/v1/leaderboards/community-all-time", "/v1/founders",
		"/v1/founders/" + founders.Founders[0].Slug, "/v1/blog", "/v1/blog/" + posts.Posts[0].Slug, "/v1/awards",
		"/v1/listings/" + a + "/badges", "/v1/products", "/v1/me"}
	tools := []struct {
		name string
		args map[string]any
	}{
		{"get_site_info", nil}, {"search_listings", map[string]any{"per_page": 5}}, {"get_listing", map[string]any{"slug": a}},
		{"get_alternatives", map[string]any{"slug": a}}, {"compare_listings", map[string]any{"a": a, "b": b}},
		{"list_categories", nil}, {"get_category", map[string]any{"slug": listing.PrimaryCategory.Slug}},
		{"get_launch_week", map[string]any{"week": "this"}}, {"list_launches", nil},
		{"get_leaderboard", map[string]any{"board": "community-all-time"}}, {"list_founders", nil},
		{"get_founder", map[string]any{"slug": founders.Founders[0].Slug}}, {"list_blog_posts", nil},
		{"get_blog_post", map[string]any{"slug": posts.Posts[0].Slug}}, {"list_awards", nil},
		{"get_badges", map[string]any{"slug": a}}, {"list_products", nil}, {"get_account", nil},
	}
	for _, origin := range []string{"http://127.0.0.1:" + s.port, "http://localhost:" + s.port} {
		t.Run(strings.TrimPrefix(origin, "http://"), func(t *testing.T) {
			hc := &http.Client{Timeout: 30 * time.Second}
			seen := 0
			for _, p := range rest {
				req, _ := http.NewRequest(http.MethodGet, origin+p, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				res, err := hc.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					t.Errorf("GET %s: %d %.200s", p, res.StatusCode, body)
					continue
				}
				wrong, n := hostURLs(string(body), s.port, origin)
				seen += n
				if len(wrong) > 0 {
					t.Errorf("GET %s%s names this server at another origin: %v", origin, p, wrong)
				}
			}
			c := mcp.NewClient(&mcp.Implementation{Name: "hosts-test", Version: "1.0.0"}, nil)
			tr := &mcp.StreamableClientTransport{Endpoint: origin + "/mcp", DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: bearer{key}}}
			cs, err := c.Connect(context.Background(), tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, tc := range tools {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				text := res.Content[0].(*mcp.TextContent).Text
				if res.IsError {
					t.Errorf("%s: %s", tc.name, text)
					continue
				}
				sc, _ := json.Marshal(res.StructuredContent)
				wrong, n := hostURLs(text+" "+string(sc), s.port, origin)
				seen += n
				if len(wrong) > 0 {
					t.Errorf("MCP %s through %s names this server at another origin: %v", tc.name, origin, wrong)
				}
			}
			if seen < 100 {
				t.Errorf("only %d URLs of this server seen: the walk is broken", seen)
			}
		})
	}
}

// bearer sends an API key with every request.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServe_BannerNamesOnlyWhatListens: serve on
// 127.0.0.1 does not listen on [::1], so its banner does not say [::1]
// works; every URL the banner prints answers, reached by its own name.
func TestServe_BannerNamesOnlyWhatListens(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	s := startServe(t)
	if strings.Contains(s.banner, "::1") {
		t.Errorf("the banner names [::1], where a listener on 127.0.0.1 does not answer:\n%s", s.banner)
	}
	urls := reAbsURL.FindAllString(s.banner, -1)
	if len(urls) < 5 {
		t.Fatalf("banner has %d URLs:\n%s", len(urls), s.banner)
	}
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, u := range urls {
		res, err := hc.Get(strings.TrimRight(u, ".,;:)"))
		if err != nil {
			t.Errorf("the banner names %s, which does not answer: %v", u, err)
			continue
		}
		res.Body.Close()
	}
}

// TestLoopbackOrigins: the loopback names a listener answers at.
func TestLoopbackOrigins(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	v4 := func(string) ([]string, error) { return []string{"127.0.0.1"}, nil }
	both := func(string) ([]string, error) { return []string{"::1", "127.0.0.1"}, nil }
	for _, c := range []struct {
		addr   string
		lookup func(string) ([]string, error)
		want   string
	}{
		{"127.0.0.1:8080", v4, "http://localhost:8080 http://127.0.0.1:8080"},
		{"127.0.0.1:8080", both, "http://localhost:8080 http://127.0.0.1:8080"},
		{"[::1]:8080", v4, "http://[::1]:8080"}, // localhost is 127.0.0.1 only here: not served
		{"[::1]:8080", both, "http://localhost:8080 http://[::1]:8080"},
		{"[::]:8080", v4, "http://localhost:8080 http://127.0.0.1:8080 http://[::1]:8080"},
		{"0.0.0.0:8080", both, "http://localhost:8080 http://127.0.0.1:8080"},
		{"192.0.2.7:8080", both, ""},
		{"127.0.0.2:8080", v4, ""},
	} {
		if got := strings.Join(loopbackOrigins(c.addr, c.lookup), " "); got != c.want {
			t.Errorf("loopbackOrigins(%s) = %q, want %q", c.addr, got, c.want)
		}
	}
	if got := hostsOf([]string{"http://localhost:1", "http://127.0.0.1:1", "http://[::1]:1"}); got != "localhost, 127.0.0.1 and [::1]" {
		t.Errorf("hostsOf = %q", got)
	}
}
