package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/validate"
)

// Feeds without a key (docs/feeds.md): RSS 2.0, Atom 1.0 and JSON Feed 1.1
// of this week's launches, upcoming launches, each category, the awards, the
// blog and a listing's updates. github.com/gorilla/feeds writes the three
// formats from one description.

// feedTypes are the Content-Types of the feed formats, by file extension.
var feedTypes = map[string]string{
	"rss":  "application/rss+xml; charset=utf-8",
	"atom": "application/atom+xml; charset=utf-8",
	"json": "application/feed+json; charset=utf-8",
}

// feedExts are the extensions in the order pages list them.
var feedExts = []string{"rss", "atom", "json"}

// feedNames are the format names in link titles.
var feedNames = map[string]string{"rss": "RSS", "atom": "Atom", "json": "JSON Feed"}

// Item counts of the feeds.
const (
	feedLaunches = 50
	feedAwards   = 30
	feedPosts    = 20
	feedUpdates  = 20
)

// feedTagDate is the date of the tag: URIs (RFC 4151) that identify items;
// fixed, so that an item's id never changes.
const feedTagDate = "2026"

// routeFeeds registers the feeds.
func (h *handler) routeFeeds(mux *http.ServeMux) {
	mux.HandleFunc("GET /feeds/{file}", h.siteFeed)
	mux.HandleFunc("GET /feeds/categories/{file}", h.categoryFeed)
	mux.HandleFunc("GET /feeds/listings/{file}", h.listingFeed)
}

// feedDoc is one feed before it is written in a format.
type feedDoc struct {
	Title, Description string
	Page               string // absolute URL of the page the feed follows
	Path               string // the feed's path without its extension
	Items              []feedItem
}

// feedItem is one entry; Text is plain text.
type feedItem struct {
	ID, Title, Link, Text string
	Date                  time.Time
}

// splitFeedFile splits "name.ext" with a known feed extension.
func splitFeedFile(file string) (name, ext string, ok bool) {
	i := strings.LastIndexByte(file, '.')
	if i <= 0 {
		return "", "", false
	}
	name, ext = file[:i], file[i+1:]
	_, ok = feedTypes[ext]
	return name, ext, ok
}

// feedFile reads the {file} path value: its name and format; an unknown
// format is the 404 page.
func (h *handler) feedFile(w http.ResponseWriter, r *http.Request) (name, ext string, ok bool) {
	name, ext, ok = splitFeedFile(r.PathValue("file"))
	if !ok {
		h.notFound(w, r)
	}
	return name, ext, ok
}

// feedSlug reads a category or listing slug from the feed's file name; a
// malformed one is the 404 page.
func (h *handler) feedSlug(w http.ResponseWriter, r *http.Request) (slug, ext string, ok bool) {
	slug, ext, ok = h.feedFile(w, r)
	if !ok {
		return "", "", false
	}
	if validate.Input(domain.SlugInput{Slug: slug}) != nil {
		h.notFound(w, r)
		return "", "", false
	}
	return slug, ext, true
}

// siteFeed is GET /feeds/{name}.{ext}: this-week, upcoming, awards, blog.
func (h *handler) siteFeed(w http.ResponseWriter, r *http.Request) {
	name, ext, ok := h.feedFile(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	site := h.svc.SiteNow(ctx)
	doc := feedDoc{Path: "/feeds/" + name}
	switch name {
	case "this-week":
		out, err := h.svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "this"})
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		doc.Title = site.Name + ": this week's launches"
		doc.Description = "The launches of the week of " + formatDay(out.Week) + ", ranked by that week's community votes."
		doc.Page = site.URL("/launches/weeks/" + url.PathEscape(out.Week))
		for i, wl := range out.Items {
			if i == feedLaunches {
				break
			}
			l := wl.Listing
			doc.Items = append(doc.Items, feedItem{ID: tagURI(site, "launch/"+out.Week+"/"+l.Slug), Title: l.Name,
				Link: site.ListingPageURL(l.Slug), Text: listingText(l), Date: launchDate(l, out.StartsAt)})
		}
	case "upcoming":
		out, err := h.svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "upcoming", Pagination: domain.Pagination{PerPage: feedLaunches}})
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		doc.Title = site.Name + ": upcoming launches"
		doc.Description = "Launches scheduled for the coming weeks."
		doc.Page = site.URL("/launches?section=upcoming")
		for _, l := range out.Items {
			doc.Items = append(doc.Items, feedItem{ID: tagURI(site, "upcoming/"+l.Slug), Title: l.Name,
				Link: site.ListingPageURL(l.Slug), Text: listingText(l), Date: weekStart(l.LaunchWeek)})
		}
	case "awards":
		out, err := h.svc.ListAwards(ctx, domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: feedAwards}})
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		doc.Title = site.Name + ": Launch of the Week awards"
		doc.Description = "The Launch of the Week awards, decided each Monday from the week's counted community votes."
		doc.Page = site.URL("/awards")
		for _, a := range out.Items {
			l := a.Listing
			doc.Items = append(doc.Items, feedItem{ID: tagURI(site, fmt.Sprintf("award/%s/%d", a.Week, a.Rank)),
				Title: fmt.Sprintf("%s, week of %s: %s", a.Title, formatDay(a.Week), l.Name), Link: site.ListingPageURL(l.Slug),
				Text: plural(a.Votes, "vote", "votes") + " that week · " + listingText(l),
				Date: weekStart(a.Week).AddDate(0, 0, 7)})
		}
	case "blog":
		out, err := h.svc.ListBlogPosts(ctx, domain.ListBlogPostsInput{Pagination: domain.Pagination{PerPage: feedPosts}})
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		doc.Title = site.Name + ": blog"
		doc.Description = "Posts from the " + site.Name + " blog."
		doc.Page = site.URL("/blog")
		for _, p := range out.Items {
			doc.Items = append(doc.Items, feedItem{ID: tagURI(site, "post/"+p.Slug), Title: p.Title,
				Link: site.URL("/blog/" + url.PathEscape(p.Slug)), Text: p.Excerpt, Date: p.PublishedAt})
		}
	default:
		h.notFound(w, r)
		return
	}
	h.writeFeed(w, r, doc, ext)
}

// categoryFeed is GET /feeds/categories/{slug}.{ext}: the category's live
// listings, newest launch first.
func (h *handler) categoryFeed(w http.ResponseWriter, r *http.Request) {
	slug, ext, ok := h.feedSlug(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	c, err := h.svc.GetCategory(ctx, domain.GetCategoryInput{Slug: slug, Pagination: domain.Pagination{PerPage: 1}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	if c.Category.Slug != slug { // an old slug: the feed at the current one
		http.Redirect(w, r, "/feeds/categories/"+url.PathEscape(c.Category.Slug)+"."+ext, statusMoved)
		return
	}
	out, err := h.svc.SearchListings(ctx, domain.SearchListingsInput{Category: slug, Sort: "newest",
		Pagination: domain.Pagination{PerPage: feedLaunches}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	site := h.svc.SiteNow(ctx)
	doc := feedDoc{Title: site.Name + ": " + c.Category.Name, Path: "/feeds/categories/" + slug,
		Description: "New launches in " + c.Category.Name + ".", Page: site.CategoryPageURL(slug)}
	for _, l := range out.Summaries() {
		doc.Items = append(doc.Items, feedItem{ID: tagURI(site, "listing/"+l.Slug), Title: l.Name,
			Link: site.ListingPageURL(l.Slug), Text: listingText(l), Date: launchDate(l, weekStart(l.LaunchWeek))})
	}
	h.writeFeed(w, r, doc, ext)
}

// listingFeed is GET /feeds/listings/{slug}.{ext}: the updates its team
// posted, newest first.
func (h *handler) listingFeed(w http.ResponseWriter, r *http.Request) {
	slug, ext, ok := h.feedSlug(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if to, err := h.svc.MergedSlug(ctx, slug); err != nil {
		h.serviceError(w, r, err)
		return
	} else if to != "" {
		http.Redirect(w, r, "/feeds/listings/"+url.PathEscape(to)+"."+ext, statusMoved)
		return
	}
	l, ups, err := h.svc.ListingUpdates(ctx, slug, feedUpdates)
	if nf := (*domain.ListingNotFound)(nil); errors.As(err, &nf) {
		h.errorPage(w, r, errorPage{Status: pageStatus(domain.ENotFound), Heading: heading(pageStatus(domain.ENotFound)),
			Message: fmt.Sprintf("No listing %q exists.", slug), Suggest: nf.Meant})
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	site := h.svc.SiteNow(ctx)
	doc := feedDoc{Title: site.Name + ": " + l.Name + " updates", Path: "/feeds/listings/" + slug,
		Description: "Updates posted by the team of " + l.Name + ": " + l.Tagline, Page: site.ListingPageURL(slug)}
	for _, u := range ups {
		doc.Items = append(doc.Items, feedItem{ID: tagURI(site, fmt.Sprintf("update/%d", u.ID)), Title: u.Title,
			Link: site.ListingPageURL(slug), Text: u.Body, Date: u.PostedAt})
	}
	h.writeFeed(w, r, doc, ext)
}

// listingText is a listing's item text: tagline, primary category and
// launch week, as a launch row's meta line ("... · Databases · launches the
// week of Nov 23, 2026").
func listingText(l domain.ListingSummary) string {
	parts := []string{l.Tagline}
	if l.PrimaryCategory != nil {
		parts = append(parts, l.PrimaryCategory.Name)
	}
	if l.LaunchWeek != "" {
		if l.Status == domain.StatusScheduled {
			parts = append(parts, "launches the week of "+formatDay(l.LaunchWeek))
		} else {
			parts = append(parts, "launched the week of "+formatDay(l.LaunchWeek))
		}
	}
	return strings.Join(parts, " · ")
}

// launchDate is when l went live, else fallback.
func launchDate(l domain.ListingSummary, fallback time.Time) time.Time {
	if l.LaunchedAt != nil {
		return l.LaunchedAt.UTC()
	}
	return fallback
}

// weekStart is the Monday 00:00 UTC of week (YYYY-MM-DD); zero when malformed.
func weekStart(week string) time.Time {
	t, err := time.Parse(domain.DateLayout, week)
	if err != nil {
		return time.Time{}
	}
	return t
}

// tagURI is the stable id of an item (RFC 4151) on the site's host.
func tagURI(site domain.Site, specific string) string {
	host := "localhost"
	if u, err := url.Parse(site.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "tag:" + host + "," + feedTagDate + ":" + specific
}

// writeFeed writes doc in format ext with the feed caching rules.
func (h *handler) writeFeed(w http.ResponseWriter, r *http.Request, doc feedDoc, ext string) {
	now := h.svc.Now().UTC()
	site := h.svc.SiteNow(r.Context())
	self := site.URL(doc.Path + "." + ext)
	// The feed's date: its newest item's, never later than now; the start
	// of this week when it has none.
	var updated time.Time
	for _, it := range doc.Items {
		if it.Date.After(updated) {
			updated = it.Date
		}
	}
	if updated.IsZero() {
		updated = domain.Monday(now)
	}
	if updated.After(now) {
		updated = now
	}
	updated = updated.Truncate(time.Second)
	f := &feeds.Feed{Title: doc.Title, Link: &feeds.Link{Href: doc.Page}, Description: doc.Description, Updated: updated}
	for _, it := range doc.Items {
		f.Items = append(f.Items, &feeds.Item{Id: it.ID, IsPermaLink: "false", Title: it.Title, Link: &feeds.Link{Href: it.Link},
			Description: html.EscapeString(it.Text), Created: it.Date.UTC()})
	}
	var buf bytes.Buffer
	var err error
	switch ext {
	case "rss":
		err = feeds.WriteXML(&feeds.Rss{Feed: f}, &buf)
	case "atom":
		a := (&feeds.Atom{Feed: f}).AtomFeed()
		a.Id = tagURI(site, "feed"+doc.Path)
		a.Author = &feeds.AtomAuthor{AtomPerson: feeds.AtomPerson{Name: site.Name, Uri: site.URL("/")}}
		err = feeds.WriteXML(a, &buf)
	case "json":
		j := (&feeds.JSON{Feed: f}).JSONFeed()
		j.FeedUrl = self
		items := make([]*feeds.JSONItem, len(j.Items))
		for i, it := range j.Items {
			// JSON Feed's summary and content_text are plain text.
			it.Summary, it.ContentHTML, it.ContentText = "", "", doc.Items[i].Text
			items[i] = it
		}
		// items is required, even when empty (gorilla/feeds omits an empty one).
		err = json.NewEncoder(&buf).Encode(struct {
			*feeds.JSONFeed
			Items []*feeds.JSONItem `json:"items"`
		}{j, items})
	}
	if err != nil {
		h.log.Error("web: write feed", "path", r.URL.Path, "err", err)
		h.fail(w, r, domain.EInternal, "Internal error.")
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	serveBody(w, r, feedTypes[ext], updated, buf.Bytes())
}

// serveBody answers body with a strong ETag (a hash of the bytes) and
// Last-Modified mod; http.ServeContent answers 304 to a conditional GET
// whose If-None-Match (checked first) or If-Modified-Since still matches,
// and HEAD.
func serveBody(w http.ResponseWriter, r *http.Request, ctype string, mod time.Time, body []byte) {
	sum := sha256.Sum256(body)
	w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", mod, bytes.NewReader(body))
}

// feedLink is a <link rel="alternate"> of a page's feed.
type feedLink struct{ Type, Title, Href string }

// Tag writes the link element. html/template would write the "+" of the
// media types as "&#43;" (valid, but lost on the simple discoverers that
// match the text), so the element is written here, every value escaped.
func (l feedLink) Tag() template.HTML {
	return template.HTML(`<link rel="alternate" type="` + html.EscapeString(l.Type) + `" title="` + html.EscapeString(l.Title) + //nolint:gosec // every value is escaped
		`" href="` + html.EscapeString(l.Href) + `">`)
}

// feedLinksOf returns the alternate links of the feeds that follow page
// (a template name) at r.
func feedLinksOf(r *http.Request, page string) []template.HTML {
	type feed struct{ path, title string }
	var fs []feed
	thisWeek := feed{"/feeds/this-week", "This week's launches"}
	upcoming := feed{"/feeds/upcoming", "Upcoming launches"}
	switch page {
	case "home":
		fs = []feed{thisWeek, upcoming}
	case "launches":
		switch r.URL.Query().Get("section") {
		case "upcoming":
			fs = []feed{upcoming}
		case "":
			fs = []feed{thisWeek, upcoming}
		}
	case "week":
		fs = []feed{thisWeek}
	case "category":
		fs = []feed{{"/feeds/categories/" + url.PathEscape(r.PathValue("slug")), "New in this category"}}
	case "awards":
		fs = []feed{{"/feeds/awards", "Launch of the Week awards"}}
	case "blog", "post":
		fs = []feed{{"/feeds/blog", "Blog"}}
	case "listing":
		fs = []feed{{"/feeds/listings/" + url.PathEscape(r.PathValue("slug")), "Updates of this listing"}}
	}
	var out []template.HTML
	for _, f := range fs {
		for _, ext := range feedExts {
			out = append(out, feedLink{Type: strings.TrimSuffix(feedTypes[ext], "; charset=utf-8"),
				Title: f.title + " (" + feedNames[ext] + ")", Href: f.path + "." + ext}.Tag())
		}
	}
	return out
}
