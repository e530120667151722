package fetch

import (
	"context"
	"net/http"
	"strings"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.PageFetcher = (*Fetcher)(nil)

// FetchPage reads the one page at rawURL (see domain.PageFetcher) within
// PageTimeout, through the SSRF guard and the size limit of Crawl. Redirects
// stay on the site (www. and the apex, http and https), or with
// opts.SameHost on rawURL's very host. robots.txt is not consulted: the owner
// asked for this page to be read (a badge check, a claim). It fails with a
// *domain.CrawlError whose Message says what went wrong, and with the
// context's error when ctx ends first.
func (f *Fetcher) FetchPage(ctx context.Context, rawURL string, opts domain.FetchPageOptions) (*domain.FetchedPage, error) {
	start, cerr := startURL(rawURL)
	if cerr != nil {
		return nil, cerr
	}
	c := &crawl{f: f, parent: ctx, ctx: ctx}
	c.client = &http.Client{Transport: f.transport, CheckRedirect: c.checkRedirect}
	pol := policy{site: siteOf(start), anyType: opts.AnyType}
	if opts.SameHost {
		pol = policy{host: strings.ToLower(start.Host), anyType: opts.AnyType}
	}
	got, fail := c.get(start, pol)
	if fail != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, &domain.CrawlError{Reason: fail.Reason, Message: fail.Message, Temporary: fail.Temporary, HTTPStatus: fail.status}
	}
	page := &domain.FetchedPage{URL: got.final.String(), Status: got.status, ContentType: got.contentType, Body: got.doc,
		Links: []string{}, Meta: map[string][]string{}}
	for _, l := range got.links {
		page.Links = append(page.Links, l.URL.String())
	}
	if isHTML(got.contentType) || got.contentType == "" {
		page.Meta = headMeta(got.doc)
	}
	return page, nil
}

// headMeta collects the <meta name content> tags of a document's head: every
// one before the <body> starts (a head without tags still counts), names in
// lower case.
func headMeta(doc string) map[string][]string {
	out := map[string][]string{}
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return out
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "body":
				return out
			case "meta":
				a := tagAttrs(z)
				if n := strings.ToLower(strings.TrimSpace(a["name"])); n != "" {
					out[n] = append(out[n], a["content"])
				}
			}
		}
	}
}
