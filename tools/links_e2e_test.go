package tools

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/web"
)

// linkBudget bounds the pages one link check fetches.
const linkBudget = 400

// TestLinks_EveryPublishedLinkResolves crawls the service as served (the web
// pages, sign-in and account routes, REST and MCP) over the demo data plus a
// listing scheduled through a paid order with a founder typed into its draft,
// and requires every internal link it publishes to answer 2xx or 3xx: each
// href and src of a page, and each URL in the REST answers (page_url, links,
// public_urls, ...). It fetches at most linkBudget pages, taking turns
// between kinds of page (listings, founders, weeks, boards, the API, ...) so
// that every kind is reached. Under -race it skips and
// TestLinks_FirstPagesResolve crawls the first linkBudgetRace pages there.
func TestLinks_EveryPublishedLinkResolves(t *testing.T) {
	t.Parallel()
	testtier.SkipRace(t, "a crawl of linkBudget pages; TestLinks_FirstPagesResolve crawls linkBudgetRace of them, linkWorkers at a time")
	publishedLinksResolve(t, linkBudget)
}

// linkBudgetRace is the crawl of TestLinks_FirstPagesResolve: the seeds and
// the first pages of every kind they link, enough for the pages', sign-in's
// and REST handlers to serve requests in parallel under -race.
const linkBudgetRace = 60

// TestLinks_FirstPagesResolve is TestLinks_EveryPublishedLinkResolves with
// the crawl cut to linkBudgetRace pages.
func TestLinks_FirstPagesResolve(t *testing.T) {
	t.Parallel()
	publishedLinksResolve(t, linkBudgetRace)
}

// publishedLinksResolve builds the site of TestLinks_EveryPublishedLinkResolves
// and crawls budget pages of it; every link must resolve.
func publishedLinksResolve(t *testing.T, budget int) {
	t.Helper()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	withOrdering(t, env, domain.TestPayments{})
	mux := http.NewServeMux()
	env.auth.Register(mux)
	NewDiscovery(env.svc.Site, Catalog()).Register(mux) // /docs links the discovery documents, as serve routes them
	mux.Handle("/", web.New(env.svc, web.WithAccount(env.auth.SignedInUser)))
	var pages http.Handler = mux
	env.pages.Store(&pages)

	// A listing launched for a future week whose founder exists only in its draft.
	call := restCaller(env, env.apiKey(t, "founder@example.com"))
	id := ownListing(t, env, call, site.URL)
	st, drafts := call(t, "list_my_drafts", map[string]any{})
	if st != 200 || len(drafts["items"].([]any)) != 1 {
		t.Fatalf("list_my_drafts: %d %v", st, drafts)
	}
	draftID := drafts["items"].([]any)[0].(map[string]any)["id"]
	if st, d := call(t, "update_draft", map[string]any{"id": draftID,
		"founders": []any{map[string]any{"name": "Anna Schmidt", "title": "CEO"}}}); st != 200 {
		t.Fatalf("update_draft founders: %d %v", st, d)
	}
	st, o := call(t, "create_checkout", map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": id, "week": "2026-11-30"}}})
	if st != 201 {
		t.Fatalf("create_checkout: %d %v", st, o)
	}
	payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Anna Schmidt"}, "address": {"1 Main St, Austin"}, "country": {"US"}})
	fulfilledOrder(t, env, call, o["number"].(string))
	listingAfterJobs(t, env, id, "scheduled")
	st, mine := call(t, "get_my_listing", map[string]any{"listing_id": id})
	if st != 200 {
		t.Fatalf("get_my_listing: %d %v", st, mine)
	}
	slug := mine["slug"].(string)
	var public domain.Listing
	if r := catDo(t, env, "GET", "/v1/listings/"+slug, nil, nil); r.status != 200 || json.Unmarshal(r.body, &public) != nil {
		t.Fatalf("get_listing %s: %d %s", slug, r.status, r.body)
	}
	if len(public.Founders) != 1 || public.Founders[0].Name != "Anna Schmidt" || public.Founders[0].PageURL != "" {
		t.Fatalf("founders of the scheduled listing: %+v; want Anna Schmidt, without a page until the listing is live", public.Founders)
	}

	broken := linkCrawl(t, env.URL, budget, []string{
		"/", "/listings/" + slug, "/v1/listings/" + slug, "/launches/weeks/2026-11-30", "/launches?section=upcoming",
		"/leaderboards/community-weekly", "/leaderboards/billboard", "/founders", "/account", "/signin",
		"/v1/site", "/v1/listings?status=upcoming", "/v1/launches/weeks/next", "/v1/leaderboards/community-all-time",
		"/v1/founders", "/v1/categories", "/v1/blog", "/v1/awards", "/v1/products",
	})
	for _, b := range broken {
		t.Error(b)
	}
}

// linkRef is an internal link and the page that published it.
type linkRef struct{ path, from string }

var linkAttr = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)

// linkCrawl fetches seeds and every internal link found from them, up to
// budget fetches, redirects not followed (a 3xx resolves; its Location is
// checked in turn), and returns a line for every link that answered neither
// 2xx nor 3xx.
func linkCrawl(t *testing.T, origin string, budget int, seeds []string) []string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	queues := map[string][]linkRef{} // by kind of page
	var kinds []string
	seen := map[string]bool{}
	add := func(raw, from string) {
		u, err := url.Parse(raw)
		if err != nil || raw == "" || strings.HasPrefix(raw, "#") {
			return
		}
		base, _ := url.Parse(origin + from)
		u = base.ResolveReference(u)
		if u.Scheme+"://"+u.Host != origin {
			return // another site
		}
		u.Fragment = ""
		p := u.RequestURI()
		if seen[p] {
			return
		}
		seen[p] = true
		kind := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 2)[0]
		if kind == "v1" {
			kind = "v1/" + strings.SplitN(strings.TrimPrefix(u.Path, "/v1/"), "/", 2)[0]
		}
		if _, ok := queues[kind]; !ok {
			kinds = append(kinds, kind)
		}
		queues[kind] = append(queues[kind], linkRef{p, from})
	}
	for _, s := range seeds {
		add(s, "/")
	}
	var broken []string
	fetched := 0
	for fetched < budget {
		// A round takes the next page of each kind (in the order the kinds
		// were found) and requests them linkWorkers at a time; the answers
		// are read in that order, which queues the next rounds' pages.
		var round []linkRef
		for _, k := range slices.Clone(kinds) {
			if len(queues[k]) == 0 || fetched >= budget {
				continue
			}
			round = append(round, queues[k][0])
			queues[k] = queues[k][1:]
			fetched++
		}
		if len(round) == 0 {
			break
		}
		for _, a := range crawlAll(client, origin, round) {
			ref, res, body := a.ref, a.res, a.body
			if a.err != nil {
				t.Fatalf("GET %s: %v", ref.path, a.err)
			}
			switch {
			case res.StatusCode >= 300 && res.StatusCode < 400:
				add(res.Header.Get("Location"), ref.path)
				continue
			case res.StatusCode >= 400:
				broken = append(broken, res.Status+": "+ref.path+" (linked from "+ref.from+")")
				continue
			}
			ct := res.Header.Get("Content-Type")
			switch {
			case strings.HasPrefix(ct, "text/html"):
				for _, m := range linkAttr.FindAllStringSubmatch(string(body), -1) {
					add(html.UnescapeString(m[1]), ref.path)
				}
			case strings.Contains(ct, "json") && ref.path != domain.OpenAPIPath:
				var v any
				if json.Unmarshal(body, &v) == nil {
					linkURLs(v, "", func(u string) { add(u, ref.path) })
				}
			}
		}
	}
	t.Logf("link check: %d pages fetched, %d links seen, %d kinds of page", fetched, len(seen), len(kinds))
	return broken
}

// crawled is the answer to one page of a crawl (its body read, closed).
type crawled struct {
	ref  linkRef
	res  *http.Response
	body []byte
	err  error
}

// crawlAll requests the pages of refs of origin with linkWorkers requests
// in flight and returns the answers in the order of refs.
func crawlAll(client *http.Client, origin string, refs []linkRef) []crawled {
	got := make([]crawled, len(refs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(linkWorkers, len(refs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				got[i].ref = refs[i]
				res, err := client.Get(origin + refs[i].path)
				if err != nil {
					got[i].err = err
					continue
				}
				got[i].res = res
				got[i].body, got[i].err = io.ReadAll(res.Body)
				res.Body.Close()
			}
		}()
	}
	for i := range refs {
		next <- i
	}
	close(next)
	wg.Wait()
	return got
}

// linkURLs calls f with every URL a JSON answer publishes as a link: the
// values of keys named url or *_url and of the links and public_urls maps.
// api_base_url and mcp_url are endpoints, not documents (/v1 is a prefix and
// /mcp answers POST), so they are left out, as is the MCP endpoint where a
// Server Card names it as its remote's url.
func linkURLs(v any, key string, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if k == "links" || k == "public_urls" {
				for _, u := range e.(map[string]any) {
					if s, ok := u.(string); ok {
						f(s)
					}
				}
				continue
			}
			linkURLs(e, k, f)
		}
	case []any:
		for _, e := range v {
			linkURLs(e, key, f)
		}
	case string:
		if (key == "url" || strings.HasSuffix(key, "_url")) && key != "api_base_url" && key != "mcp_url" && !strings.HasSuffix(v, domain.MCPPath) {
			f(v)
		}
	}
}
