package tools

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// publicSite serves the demo data after the weekly clock's catch-up (awards
// included) as serve --demo does: the REST API and /mcp, and every page
// (listings, founders, categories, badges) beside them. It returns the
// origin and the database.
func publicSite(t *testing.T) (string, *storage.DB) {
	t.Helper()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	clock := testclock.New(e2eNow)
	// The service as serve --demo wires it (internal/wiring).
	core := wiredCore(t, fixtures.SeededFile(t, fixtures.DemoWeeks), srv.URL, clock.Now, newTestWorld(t))
	db, svc := core.DB, core.Service
	api, pages := New(svc, Options{Now: svc.Now, Idem: storage.NewIdemStore(db)}).Handler(), web.New(svc)
	h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1") || r.URL.Path == "/mcp" {
			api.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	})
	return srv.URL, db
}

// linkWalk is a walk over what the public reads publish.
type linkWalk struct {
	t      *testing.T
	origin string
	urlRE  *regexp.Regexp
	seen   map[string]bool // requested, by key
	bad    map[string]string
	// queue are the REST reads still to walk; from says where each was found.
	queue []string
	from  map[string]string
	// pending are the other URLs found, still to request (each must answer 200).
	pending []linkRef
	slugs   map[string]int // slugs checked, by kind
}

// linkWorkers is how many requests a walk has in flight: the checks do not
// depend on their order, and one GET after another left a core idle (the
// walk was the tools race tier's longest test, docs/testing.md).
const linkWorkers = 4

// visitKey is what makes two URLs one check: a badge image's style query
// (shape, mode, size) does not change whether it exists.
func visitKey(u *url.URL) string {
	if strings.HasPrefix(u.Path, "/badges/") {
		return u.Path
	}
	return u.RequestURI()
}

// get requests path (or a URL of the origin) and returns the status and body.
func (w *linkWalk) get(u string) (int, []byte) {
	w.t.Helper()
	if strings.HasPrefix(u, "/") {
		u = w.origin + u
	}
	res, err := http.Get(u)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// check queues u once: to be walked when it is a REST read, else to be
// requested (it must answer 200).
func (w *linkWalk) check(raw, from string) {
	u, err := url.Parse(raw)
	if err != nil {
		w.bad[raw] = "unparsable, found in " + from
		return
	}
	key := visitKey(u)
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	if strings.HasPrefix(u.Path, "/v1/") {
		w.queue = append(w.queue, key)
		w.from[key] = from
		return
	}
	w.pending = append(w.pending, linkRef{key, from})
}

// notLinks are the keys whose URL is not a page to open: the API's root
// and the MCP endpoint (POST only; the MCP tests connect to it).
var notLinks = map[string]bool{"api_base_url": true, "mcp_url": true}

// slugPaths are the REST reads of each kind of slug.
var slugPaths = map[string]string{"listing": "/v1/listings/", "founder": "/v1/founders/", "category": "/v1/categories/", "post": "/v1/blog/"}

// pageKinds map a page_url's path to the kind of its slug.
var pageKinds = map[string]string{"/listings/": "listing", "/founders/": "founder", "/categories/": "category", "/blog/": "post"}

// slugKind is the kind of an object's slug: by its page_url when it has
// one, else by the key that holds the object ("" when neither says).
func slugKind(obj map[string]any, parent string) string {
	if p, ok := obj["page_url"].(string); ok {
		if u, err := url.Parse(p); err == nil {
			for prefix, kind := range pageKinds {
				if strings.HasPrefix(u.Path, prefix) {
					return kind
				}
			}
		}
	}
	switch parent {
	case "founders":
		return "founder"
	case "categories", "category", "parent", "subcategories", "children":
		return "category"
	case "listing", "listings", "companies", "alternatives":
		return "listing"
	}
	return ""
}

// walk finds every URL of the origin in v (also inside HTML such as a
// badge's embed code) and every slug, and checks each.
func (w *linkWalk) walk(v any, parent, from string) {
	switch x := v.(type) {
	case map[string]any:
		if slug, ok := x["slug"].(string); ok {
			if kind := slugKind(x, parent); kind != "" {
				w.slugs[kind]++
				w.check(slugPaths[kind]+url.PathEscape(slug), from+" ("+kind+" slug in "+parent+")")
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.walk(x[k], k, from)
		}
	case []any:
		for _, e := range x {
			w.walk(e, parent, from)
		}
	case string:
		if notLinks[parent] {
			return
		}
		if strings.Contains(x, "<") { // HTML (a badge's embed code): its attributes are escaped
			x = html.UnescapeString(x)
		}
		for _, u := range w.urlRE.FindAllString(x, -1) {
			w.check(strings.TrimRight(u, ".,;:"), from+" ("+parent+")")
		}
	}
}

// read walks the answer of the REST read path: every URL and slug in it,
// the further pages of a list, and each listing's badges and alternatives.
func (w *linkWalk) read(path string, st int, body []byte, listings *int) {
	origin := w.origin
	if st != http.StatusOK {
		w.bad[path] = http.StatusText(st) + ", found in " + w.from[path]
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		w.t.Fatalf("%s: %v", path, err)
	}
	if strings.HasPrefix(path, domain.OpenAPIPath) {
		return // its examples are examples (TestOpenAPI_ExamplesValid), not what the reads publish
	}
	w.walk(v, "", path)
	// Every page of a list, and each listing's badges and alternatives.
	if m, ok := v.(map[string]any); ok && m["has_more"] == true && !strings.Contains(path, "&page=") {
		total, _ := m["total"].(float64)
		for p := 2; (p-1)*100 < int(total); p++ {
			w.check(origin+path+"&page="+strconv.Itoa(p), path)
		}
	}
	if rest, ok := strings.CutPrefix(path, "/v1/listings/"); ok && !strings.Contains(rest, "/") && !strings.Contains(rest, "?") {
		*listings++
		w.check(origin+path+"/badges", path)
		w.check(origin+path+"/alternatives", path)
	}
}

// TestPublished_EveryLinkAndSlugResolves: over the demo
// data, every link and slug a public read publishes resolves. The walk
// starts at the public lists (every page), and follows every URL of the
// site in any answer (page_url, links, the badges' embed code and images)
// and every slug of a listing, founder, category or post to its own read,
// which it walks in turn. Each must answer 200. On main it failed: the
// profile of a scheduled listing named founders (by slug) whose get_founder
// is 404.
//
// The walk is about 2,700 requests in one test; under -race it skips and
// TestPublished_StartsResolve walks its first round there.
func TestPublished_EveryLinkAndSlugResolves(t *testing.T) {
	t.Parallel()
	testtier.SkipRace(t, "the walk over every published link and slug; TestPublished_StartsResolve requests its first round, linkWorkers at a time")
	walkPublished(t, 0)
}

// TestPublished_StartsResolve is the first round of
// TestPublished_EveryLinkAndSlugResolves's walk: the public lists' first
// pages, requested linkWorkers at a time (the REST reads' handlers in
// parallel under -race), each answering 200, and the scheduled listing's
// founder without a slug.
func TestPublished_StartsResolve(t *testing.T) {
	t.Parallel()
	walkPublished(t, 1)
}

// walkPublished walks what the public reads publish over the demo data:
// rounds rounds of requests (0: until nothing new is found, and the walk
// must have seen enough to mean anything).
func walkPublished(t *testing.T, rounds int) {
	t.Helper()
	origin, db := publicSite(t)
	// The demo's scheduled listings name no founders; a real one does: a
	// founder whose only listing is scheduled for a future week.
	scheduled := fixtures.IDs(t, db, "listings", fixtures.Cols{"status": domain.ListingScheduled})[0]
	founder := fixtures.Insert(t, db, "founders", fixtures.Cols{"slug": "nia-upcoming", "name": "Nia Upcoming", "created_at": e2eNow.Unix()})
	fixtures.Insert(t, db, "listing_founders", fixtures.Cols{"listing_id": scheduled, "founder_id": founder, "role": "CEO", "is_primary": 1})
	slug := fixtures.Column(t, db, "listings", scheduled, "slug")
	w := &linkWalk{t: t, origin: origin, urlRE: regexp.MustCompile(regexp.QuoteMeta(origin) + `/[^\s"'<>()\\]*`),
		seen: map[string]bool{}, bad: map[string]string{}, from: map[string]string{}, slugs: map[string]int{}}
	starts := []string{"/v1/site", "/v1/listings?per_page=100", "/v1/listings?status=upcoming&per_page=100",
		"/v1/categories", "/v1/founders?per_page=100", "/v1/blog?per_page=100", "/v1/awards?per_page=100",
		"/v1/launches/weeks/last", "/v1/launches/weeks/this", "/v1/launches/weeks/next", "/v1/interview-questions"}
	for _, s := range []string{"today", "this-week", "trending", "most-voted", "recent", "most-viewed", "most-followed", "upcoming"} {
		starts = append(starts, "/v1/launches?per_page=100&section="+s)
	}
	for _, b := range []string{"community-weekly", "community-all-time", "billboard", "domain-rating", "revenue"} {
		starts = append(starts, "/v1/leaderboards/"+b+"?per_page=100")
	}
	for _, s := range starts {
		w.check(origin+s, "the start")
	}
	// In rounds: every URL queued so far is requested, linkWorkers at a
	// time, then the answers are read in the order found, which queues the
	// next round's.
	listings := 0
	for round := 1; (rounds == 0 || round <= rounds) && (len(w.queue) > 0 || len(w.pending) > 0); round++ {
		reads, pending := w.queue, w.pending
		w.queue, w.pending = nil, nil
		refs := make([]linkRef, 0, len(reads)+len(pending))
		for _, path := range reads {
			refs = append(refs, linkRef{path, w.from[path]})
		}
		got := crawlAll(http.DefaultClient, origin, append(refs, pending...))
		for _, g := range got {
			if g.err != nil {
				t.Fatalf("GET %s: %v", g.ref.path, g.err)
			}
		}
		for _, g := range got[len(reads):] {
			if g.res.StatusCode != http.StatusOK {
				w.bad[g.ref.path] = http.StatusText(g.res.StatusCode) + ", found in " + g.ref.from
			}
		}
		for _, g := range got[:len(reads)] {
			w.read(g.ref.path, g.res.StatusCode, g.body, &listings)
		}
	}
	// The scheduled listing still names its founder, without a slug or
	// page until the founder has a public page (on a live listing).
	_, body := w.get("/v1/listings/" + slug)
	var l domain.Listing
	if err := json.Unmarshal(body, &l); err != nil || len(l.Founders) != 1 || l.Founders[0].Name != "Nia Upcoming" ||
		l.Founders[0].Slug != "" || l.Founders[0].PageURL != "" {
		t.Errorf("founders of the scheduled listing %s: %+v, want Nia Upcoming without slug or page_url (%v)", slug, l.Founders, err)
	}
	if rounds == 0 && (listings < 20 || w.slugs["founder"] < 20 || w.slugs["category"] < 10) {
		t.Fatalf("the walk saw too little to mean anything: %d listings read, slugs %v", listings, w.slugs)
	}
	t.Logf("found %d URLs: %d listings read, slugs seen %v", len(w.seen), listings, w.slugs)
	keys := make([]string, 0, len(w.bad))
	for k := range w.bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i == 20 {
			t.Errorf("... and %d more", len(keys)-20)
			break
		}
		t.Errorf("%s does not resolve: %s", k, w.bad[k])
	}
}
