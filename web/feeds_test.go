package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/atom"
	"github.com/mmcdole/gofeed/rss"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// feedCase is one feed of the demo data and what its items must be.
type feedCase struct {
	path   string // without the extension
	page   string // the page the feed follows, relative to the site
	titles []string
	texts  []string // the items' plain text, when the case checks it
	ids    []string
	dates  []time.Time
}

// demoFeeds reads, through the Service, what each feed of the demo data must
// hold: its items' titles in order, ids and dates.
func demoFeeds(t *testing.T) []feedCase {
	t.Helper()
	ctx := context.Background()
	svc := demo().svc
	host := strings.TrimPrefix(demo().srv.URL, "http://")
	host = host[:strings.LastIndexByte(host, ':')]
	tag := func(s string) string { return "tag:" + host + "," + feedTagDate + ":" + s }
	var cases []feedCase

	week, err := svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "this"})
	if err != nil {
		t.Fatal(err)
	}
	c := feedCase{path: "/feeds/this-week", page: "/launches/weeks/" + week.Week}
	for _, wl := range week.Items {
		c.titles = append(c.titles, wl.Listing.Name)
		c.ids = append(c.ids, tag("launch/"+week.Week+"/"+wl.Listing.Slug))
		c.dates = append(c.dates, *wl.Listing.LaunchedAt)
	}
	cases = append(cases, c)

	up, err := svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "upcoming", Pagination: domain.Pagination{PerPage: feedLaunches}})
	if err != nil {
		t.Fatal(err)
	}
	c = feedCase{path: "/feeds/upcoming", page: "/launches?section=upcoming"}
	for _, l := range up.Items {
		c.titles = append(c.titles, l.Name)
		c.ids = append(c.ids, tag("upcoming/"+l.Slug))
		c.dates = append(c.dates, weekStart(l.LaunchWeek))
	}
	cases = append(cases, c)

	aw, err := svc.ListAwards(ctx, domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: feedAwards}})
	if err != nil {
		t.Fatal(err)
	}
	c = feedCase{path: "/feeds/awards", page: "/awards"}
	for _, a := range aw.Items {
		c.titles = append(c.titles, a.Title+", week of "+formatDay(a.Week)+": "+a.Listing.Name)
		text := strconv.Itoa(a.Votes) + " votes that week · " + a.Listing.Tagline
		if pc := a.Listing.PrimaryCategory; pc != nil {
			text += " · " + pc.Name
		}
		c.texts = append(c.texts, text+" · launched the week of "+formatDay(a.Listing.LaunchWeek))
		c.ids = append(c.ids, tag("award/"+a.Week+"/"+strconv.Itoa(a.Rank)))
		c.dates = append(c.dates, weekStart(a.Week).AddDate(0, 0, 7))
	}
	cases = append(cases, c)

	posts, err := svc.ListBlogPosts(ctx, domain.ListBlogPostsInput{Pagination: domain.Pagination{PerPage: feedPosts}})
	if err != nil {
		t.Fatal(err)
	}
	c = feedCase{path: "/feeds/blog", page: "/blog"}
	for _, p := range posts.Items {
		c.titles = append(c.titles, p.Title)
		c.texts = append(c.texts, p.Excerpt)
		c.ids = append(c.ids, tag("post/"+p.Slug))
		c.dates = append(c.dates, p.PublishedAt)
	}
	cases = append(cases, c)

	// A category with live listings: the most voted live listing's.
	top, err := svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "most-voted", Pagination: domain.Pagination{PerPage: 1}})
	if err != nil || len(top.Items) == 0 || top.Items[0].PrimaryCategory == nil {
		t.Fatalf("no live listing with a category: %v", err)
	}
	cat := top.Items[0].PrimaryCategory.Slug
	in, err := svc.SearchListings(ctx, domain.SearchListingsInput{Category: cat, Sort: "newest", Pagination: domain.Pagination{PerPage: feedLaunches}})
	if err != nil {
		t.Fatal(err)
	}
	c = feedCase{path: "/feeds/categories/" + cat, page: "/categories/" + cat}
	for _, l := range in.Items {
		c.titles = append(c.titles, l.Name)
		c.ids = append(c.ids, tag("listing/"+l.Slug))
		c.dates = append(c.dates, *l.LaunchedAt)
	}
	cases = append(cases, c)

	// A listing with updates: the one of the latest update.
	latest, err := svc.LatestUpdates(ctx, domain.Pagination{PerPage: 1})
	if err != nil || len(latest.Items) == 0 {
		t.Fatalf("no update in the demo data: %v", err)
	}
	slug := latest.Items[0].Listing.Slug
	_, ups, err := svc.ListingUpdates(ctx, slug, feedUpdates)
	if err != nil {
		t.Fatal(err)
	}
	c = feedCase{path: "/feeds/listings/" + slug, page: "/listings/" + slug}
	for _, u := range ups {
		c.titles = append(c.titles, u.Title)
		c.ids = append(c.ids, tag("update/"+itoa64(u.ID)))
		c.dates = append(c.dates, u.PostedAt)
	}
	cases = append(cases, c)

	for _, c := range cases {
		if len(c.titles) == 0 {
			t.Fatalf("%s: the demo data gives it no item; the test would prove nothing", c.path)
		}
	}
	return cases
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// TestFeeds_EveryFormat: each feed, in RSS 2.0, Atom and JSON Feed 1.1, is
// served with its Content-Type and parses with gofeed as that format, with
// the items the pages show in their order: titles, absolute links on the
// site, stable tag: ids, dates (RFC 822 in RSS, RFC 3339 in Atom and JSON).
func TestFeeds_EveryFormat(t *testing.T) {
	p := gofeed.NewParser()
	for _, c := range demoFeeds(t) {
		for _, ext := range feedExts {
			res := demo().get(t, c.path+"."+ext)
			if res.status != http.StatusOK {
				t.Fatalf("%s.%s: %d %s", c.path, ext, res.status, res.body)
			}
			if got := res.header.Get("Content-Type"); got != feedTypes[ext] {
				t.Errorf("%s.%s: Content-Type %q", c.path, ext, got)
			}
			f, err := p.ParseString(res.body)
			if err != nil {
				t.Fatalf("%s.%s: gofeed: %v\n%s", c.path, ext, err, res.body)
			}
			if f.FeedType != ext {
				t.Errorf("%s.%s: parsed as %q", c.path, ext, f.FeedType)
			}
			if !strings.HasPrefix(f.Title, "Launchdir: ") {
				t.Errorf("%s.%s: title %q", c.path, ext, f.Title)
			}
			if f.Link != demo().srv.URL+c.page {
				t.Errorf("%s.%s: link %q, want %q", c.path, ext, f.Link, demo().srv.URL+c.page)
			}
			if len(f.Items) != len(c.titles) {
				t.Fatalf("%s.%s: %d items, want %d", c.path, ext, len(f.Items), len(c.titles))
			}
			for i, it := range f.Items {
				if it.Title != c.titles[i] {
					t.Errorf("%s.%s item %d: title %q, want %q", c.path, ext, i, it.Title, c.titles[i])
				}
				// RSS and Atom hold the text HTML-escaped, JSON Feed as content_text.
				if text := html.UnescapeString(it.Description + it.Content); c.texts != nil && text != c.texts[i] {
					t.Errorf("%s.%s item %d: text %q, want %q", c.path, ext, i, text, c.texts[i])
				}
				if it.GUID != c.ids[i] {
					t.Errorf("%s.%s item %d: id %q, want %q", c.path, ext, i, it.GUID, c.ids[i])
				}
				if !strings.HasPrefix(it.Link, demo().srv.URL+"/") {
					t.Errorf("%s.%s item %d: link %q is not absolute on the site", c.path, ext, i, it.Link)
				}
				if it.PublishedParsed == nil || !it.PublishedParsed.Equal(c.dates[i].Truncate(time.Second)) {
					t.Errorf("%s.%s item %d: date %v, want %v", c.path, ext, i, it.PublishedParsed, c.dates[i])
				}
			}
			checkDateFormats(t, c.path+"."+ext, ext, res.body)
		}
	}
}

// checkDateFormats reads the raw dates of a feed: RFC 822 (RFC 1123Z) in RSS,
// RFC 3339 in Atom and JSON Feed; and the JSON Feed version.
func checkDateFormats(t *testing.T, name, ext, body string) {
	t.Helper()
	switch ext {
	case "rss":
		f, err := (&rss.Parser{}).Parse(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Version != "2.0" {
			t.Errorf("%s: RSS version %q", name, f.Version)
		}
		for _, it := range f.Items {
			if _, err := time.Parse(time.RFC1123Z, it.PubDate); err != nil {
				t.Errorf("%s: pubDate %q is not RFC 822: %v", name, it.PubDate, err)
			}
			if it.GUID == nil || it.GUID.IsPermalink != "false" {
				t.Errorf("%s: guid %+v is not marked isPermaLink=false", name, it.GUID)
			}
		}
	case "atom":
		f, err := (&atom.Parser{}).Parse(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := time.Parse(time.RFC3339, f.Updated); err != nil {
			t.Errorf("%s: feed updated %q: %v", name, f.Updated, err)
		}
		if len(f.Authors) == 0 || f.Authors[0].Name != "Launchdir" || f.ID == "" {
			t.Errorf("%s: Atom needs the feed's author and id: %+v %q", name, f.Authors, f.ID)
		}
		for _, e := range f.Entries {
			if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
				t.Errorf("%s: entry updated %q: %v", name, e.Updated, err)
			}
		}
	case "json":
		var f struct {
			Version string `json:"version"`
			FeedURL string `json:"feed_url"`
			Items   []struct {
				Date        string `json:"date_published"`
				ContentText string `json:"content_text"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(body), &f); err != nil {
			t.Fatal(err)
		}
		if f.Version != "https://jsonfeed.org/version/1.1" || f.FeedURL != demo().srv.URL+name {
			t.Errorf("%s: version %q feed_url %q", name, f.Version, f.FeedURL)
		}
		for _, it := range f.Items {
			if _, err := time.Parse(time.RFC3339, it.Date); err != nil || it.ContentText == "" {
				t.Errorf("%s: date_published %q (%v), content_text %q", name, it.Date, err, it.ContentText)
			}
		}
	}
}

// TestFeeds_ConditionalGet: a feed carries a strong ETag and Last-Modified;
// If-None-Match with the ETag and If-Modified-Since with the date answer 304
// without a body; another ETag or an older date gets the feed.
func TestFeeds_ConditionalGet(t *testing.T) {
	for _, path := range []string{"/feeds/this-week.rss", "/feeds/blog.atom", "/feeds/awards.json"} {
		res := demo().get(t, path)
		etag, mod := res.header.Get("ETag"), res.header.Get("Last-Modified")
		if res.status != http.StatusOK || !strings.HasPrefix(etag, `"`) || mod == "" {
			t.Fatalf("%s: %d ETag %q Last-Modified %q", path, res.status, etag, mod)
		}
		if cc := res.header.Get("Cache-Control"); cc != "public, max-age=300" {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		if m, err := http.ParseTime(mod); err != nil || m.After(testNow) {
			t.Errorf("%s: Last-Modified %q (%v) is later than now", path, mod, err)
		}
		if again := demo().get(t, path); again.header.Get("ETag") != etag {
			t.Errorf("%s: the ETag changed between two requests: %q, %q", path, etag, again.header.Get("ETag"))
		}
		for _, hdr := range [][2]string{{"If-None-Match", etag}, {"If-Modified-Since", mod}} {
			r := demo().get(t, path, hdr[0], hdr[1])
			if r.status != http.StatusNotModified || r.body != "" {
				t.Errorf("%s with %s: %d, %d bytes; want 304 and none", path, hdr[0], r.status, len(r.body))
			}
		}
		if r := demo().get(t, path, "If-None-Match", `"other"`); r.status != http.StatusOK {
			t.Errorf("%s with another ETag: %d", path, r.status)
		}
		if r := demo().get(t, path, "If-Modified-Since", "Mon, 02 Jan 2006 15:04:05 GMT"); r.status != http.StatusOK {
			t.Errorf("%s modified since 2006: %d", path, r.status)
		}
	}
}

// TestFeeds_NotFound: an unknown category or listing, a malformed slug, an
// unknown feed or format is the 404 page.
func TestFeeds_NotFound(t *testing.T) {
	for _, path := range []string{"/feeds/categories/no-such-category.rss", "/feeds/listings/no-such-listing.atom",
		"/feeds/listings/Bad_Slug.json", "/feeds/nothing.rss", "/feeds/this-week.xml", "/feeds/this-week", "/feeds/.rss"} {
		if res := demo().get(t, path); res.status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, res.status)
		}
	}
}

// TestFeeds_Discovery: the pages link their feeds with <link
// rel="alternate"> in the three formats, and every link answers a feed.
func TestFeeds_Discovery(t *testing.T) {
	cases := demoFeeds(t)
	byPath := map[string]string{}
	for _, c := range cases {
		byPath[c.path] = c.page
	}
	week := strings.TrimPrefix(byPath["/feeds/this-week"], "/launches/weeks/")
	var post string
	if out, err := demo().svc.ListBlogPosts(context.Background(), domain.ListBlogPostsInput{}); err == nil && len(out.Items) > 0 {
		post = "/blog/" + out.Items[0].Slug
	}
	pages := map[string][]string{
		"/":                          {"/feeds/this-week", "/feeds/upcoming"},
		"/launches":                  {"/feeds/this-week", "/feeds/upcoming"},
		"/launches?section=upcoming": {"/feeds/upcoming"},
		"/launches/weeks/" + week:    {"/feeds/this-week"},
		"/awards":                    {"/feeds/awards"},
		"/blog":                      {"/feeds/blog"},
		post:                         {"/feeds/blog"},
	}
	for _, c := range cases {
		if strings.HasPrefix(c.path, "/feeds/categories/") || strings.HasPrefix(c.path, "/feeds/listings/") {
			pages[c.page] = []string{c.path}
		}
	}
	for page, feeds := range pages {
		res := demo().get(t, page)
		if res.status != http.StatusOK {
			t.Fatalf("%s: %d", page, res.status)
		}
		head, _, _ := strings.Cut(res.body, "</head>")
		if n := strings.Count(head, `rel="alternate"`); n != 3*len(feeds) {
			t.Errorf("%s: %d alternate links, want %d", page, n, 3*len(feeds))
		}
		for _, f := range feeds {
			for _, ext := range feedExts {
				typ := strings.TrimSuffix(feedTypes[ext], "; charset=utf-8")
				want := `<link rel="alternate" type="` + typ + `" title="`
				if !strings.Contains(head, want) || !strings.Contains(head, `href="`+f+"."+ext+`"`) {
					t.Errorf("%s: no %s link to %s.%s in:\n%s", page, typ, f, ext, head)
				}
				if r := demo().get(t, f+"."+ext); r.status != http.StatusOK {
					t.Errorf("%s links %s.%s: %d", page, f, ext, r.status)
				}
			}
		}
	}
	// A page without a feed has no alternate link.
	if res := demo().get(t, "/leaderboards"); strings.Contains(res.body, `rel="alternate"`) {
		t.Errorf("/leaderboards has an alternate link")
	}
}

// TestFeeds_LinksOnClientOrigin: a feed's links are on the origin the client
// used (domain.WithOrigin, as auth.WithOrigins sets it from a loopback Host),
// not on the configured default.
func TestFeeds_LinksOnClientOrigin(t *testing.T) {
	h := New(demo().svc)
	const origin = "http://localhost:8123"
	for _, ext := range feedExts {
		req := httptest.NewRequest("GET", "/feeds/this-week."+ext, nil)
		req = req.WithContext(domain.WithOrigin(req.Context(), origin))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		f, err := gofeed.NewParser().ParseString(rec.Body.String())
		if err != nil || rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %v", ext, rec.Code, err)
		}
		if !strings.HasPrefix(f.Link, origin+"/") || len(f.Items) == 0 {
			t.Fatalf("%s: feed link %q, %d items", ext, f.Link, len(f.Items))
		}
		for _, it := range f.Items {
			if !strings.HasPrefix(it.Link, origin+"/listings/") || !strings.HasPrefix(it.GUID, "tag:localhost,") {
				t.Errorf("%s: item link %q id %q not on %s", ext, it.Link, it.GUID, origin)
			}
		}
		if strings.Contains(rec.Body.String(), demo().srv.URL) {
			t.Errorf("%s: the feed names the default origin %s", ext, demo().srv.URL)
		}
	}
}

// TestFeeds_MovedAndPrivate: the feed of an old category slug and of a
// merged listing answers 301 to the feed at the current slug, in the same
// format; a listing that is not public (a draft, one waiting in the free
// queue) has no feed.
func TestFeeds_MovedAndPrivate(t *testing.T) {
	t.Parallel()
	e := newOpenDataEnv(t, "sqlite")
	site := fixtures.First(t, e.db, "sites")
	cat := fixtures.First(t, e.db, "categories")
	catSlug := fixtures.Column(t, e.db, "categories", cat, "slug")
	fixtures.Insert(t, e.db, "category_redirects", fixtures.Cols{"site_id": site, "slug": "old-name", "category_id": cat, "created_at": testNow.Unix()})
	live := fixtures.ID(t, e.db, "listings", fixtures.Cols{"slug": "hueforge"})
	fixtures.Listing(t, e.db, "", fixtures.Cols{"slug": "hueforge-dup", "status": "merged", "merged_into": live})
	fixtures.Listing(t, e.db, "", fixtures.Cols{"slug": "secret-draft", "status": "draft"})
	fixtures.Listing(t, e.db, "", fixtures.Cols{"slug": "waiting-badge", "status": "awaiting_badge", "launch_week": "2027-01-04"})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for from, to := range map[string]string{
		"/feeds/categories/old-name.atom":   "/feeds/categories/" + catSlug + ".atom",
		"/feeds/listings/hueforge-dup.json": "/feeds/listings/hueforge.json",
	} {
		res, err := client.Get(e.srv.URL + from)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != to {
			t.Errorf("%s: %d to %q, want 301 to %q", from, res.StatusCode, res.Header.Get("Location"), to)
		}
		if r := e.get(t, to); r.status != http.StatusOK {
			t.Errorf("%s: %d", to, r.status)
		}
	}
	for _, path := range []string{"/feeds/listings/secret-draft.rss", "/feeds/listings/waiting-badge.rss"} {
		if r := e.get(t, path); r.status != http.StatusNotFound || strings.Contains(r.body, "<rss") {
			t.Errorf("%s: %d, want 404", path, r.status)
		}
	}
}

// TestFeeds_EmptySite: on a site with nothing yet, every site feed is a valid
// empty feed (JSON Feed's items present and empty), dated the start of this
// week; the export has no listing, week votes or award.
func TestFeeds_EmptySite(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.close)
	for _, name := range []string{"this-week", "upcoming", "awards", "blog"} {
		for _, ext := range feedExts {
			res := e.get(t, "/feeds/"+name+"."+ext)
			f, err := gofeed.NewParser().ParseString(res.body)
			if res.status != http.StatusOK || err != nil || len(f.Items) != 0 {
				t.Fatalf("%s.%s: %d %v\n%s", name, ext, res.status, err, res.body)
			}
			if got := res.header.Get("Last-Modified"); got != "Mon, 16 Nov 2026 00:00:00 GMT" {
				t.Errorf("%s.%s: Last-Modified %q", name, ext, got)
			}
			if ext == "json" && !strings.Contains(res.body, `"items":[]`) {
				t.Errorf("%s.json has no empty items array: %s", name, res.body)
			}
		}
	}
	var doc domain.OpenData
	if res := e.get(t, "/open-data/export.json"); res.status != http.StatusOK || json.Unmarshal([]byte(res.body), &doc) != nil {
		t.Fatalf("/open-data/export.json: %d %s", res.status, res.body)
	}
	if len(doc.Listings) != 0 || len(doc.Awards) != 0 || len(doc.Weeks) != 1 || doc.Weeks[0] != (domain.OpenWeek{Week: "2026-11-16"}) {
		t.Errorf("empty export: %+v", doc)
	}
}
