package fetch

import (
	"iter"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/html"
)

// canonicalOf reads the <link rel="canonical" href> of a document read from
// pageURL, resolved as a crawl would request it, or nil when it has none.
func canonicalOf(doc string, pageURL *url.URL) *url.URL {
	for _, a := range headTags(doc, "link") {
		if hasWord(a["rel"], "canonical") {
			return crawlURL(pageURL, a["href"])
		}
	}
	return nil
}

// headTags yields the name and attributes of each start tag of doc named in
// names, up to the start of its <body> (the attributes of no other tag are
// read).
func headTags(doc string, names ...string) iter.Seq2[string, map[string]string] {
	return func(yield func(string, map[string]string) bool) {
		z := html.NewTokenizer(strings.NewReader(doc))
		for {
			switch z.Next() {
			case html.ErrorToken:
				return
			case html.StartTagToken, html.SelfClosingTagToken:
				name, _ := z.TagName()
				if string(name) == "body" {
					return
				}
				for _, n := range names {
					if string(name) == n && !yield(n, tagAttrs(z)) {
						return
					}
				}
			}
		}
	}
}

// postLinks returns a page's links; when the page is a blog, news or
// changelog index (its path is one of indexSegs), its links to pages below
// it are marked as posts, which the crawl reads one level further when the
// budget has room (a post's path is under a noisy segment and would
// otherwise not be read).
func postLinks(page *url.URL, links []link) []link {
	p := strings.Trim(strings.ToLower(page.Path), "/")
	if !indexSegs[strings.TrimSuffix(path.Base("/"+p), ".html")] || strings.Contains(p, "/") {
		return links
	}
	prefix := "/" + strings.TrimSuffix(p, ".html") + "/"
	out := make([]link, len(links))
	for i, l := range links {
		out[i] = l
		if lp := strings.ToLower(l.URL.Path); strings.HasPrefix(lp, prefix) && len(lp) > len(prefix) && !isArchive(lp[len(prefix):]) {
			out[i].Place = "post"
		}
	}
	markOldest(out)
	return out
}

// alternatesOf reads the <link rel="alternate" hreflang> URLs of a document
// read from pageURL (every language but x-default), resolved as a crawl
// would request them.
func alternatesOf(doc string, pageURL *url.URL) []*url.URL {
	var out []*url.URL
	for _, a := range headTags(doc, "link") {
		hl := strings.TrimSpace(a["hreflang"])
		if hasWord(a["rel"], "alternate") && hl != "" && !strings.EqualFold(hl, "x-default") {
			if u := crawlURL(pageURL, a["href"]); u != nil {
				out = append(out, u)
			}
		}
	}
	return out
}
