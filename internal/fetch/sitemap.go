package fetch

import (
	"encoding/xml"
	"net/url"
	"strings"
)

// Sitemap limits: the files read per crawl (robots.txt's Sitemap: lines,
// /sitemap.xml, and the sitemaps a sitemap index names) and the page URLs
// kept from them. Sitemap files are not pages: they do not use the budget.
const (
	maxSitemaps    = 3
	maxSitemapURLs = 500
)

// sitemapLinks lists the same-site page URLs of the site's sitemaps, as
// links without text, for rank to score by their path like any other link.
// A sitemap is read only where robots.txt allows it.
func (c *crawl) sitemapLinks(home *url.URL, onSite string) []link {
	var queue []string
	if r := c.robots.rulesFor(home); r.data != nil {
		queue = append(queue, r.data.Sitemaps...)
	}
	queue = append(queue, (&url.URL{Scheme: home.Scheme, Host: home.Host, Path: "/sitemap.xml"}).String())
	var out []link
	tried := map[string]bool{}
	for len(queue) > 0 && len(tried) < maxSitemaps && c.ctx.Err() == nil {
		u := crawlURL(home, queue[0])
		queue = queue[1:]
		if u == nil || siteOf(u) != onSite || tried[u.String()] {
			continue
		}
		tried[u.String()] = true
		if r := c.robots.rulesFor(u); r.fail != nil || !r.allows(u) {
			continue
		}
		f, fail := c.get(u, policy{robots: true, site: onSite, anyType: true})
		if fail != nil {
			continue
		}
		index, locs := parseSitemap(f.doc)
		if index {
			queue = append(queue, locs...)
			continue
		}
		for _, loc := range locs {
			if len(out) >= maxSitemapURLs {
				break
			}
			if p := crawlURL(home, loc); p != nil {
				out = append(out, link{URL: p, Place: "sitemap"})
			}
		}
	}
	return out
}

// parseSitemap reads the <loc> values of a sitemap (index reports a
// sitemap index, whose locs are sitemaps). What cannot be parsed is ignored.
func parseSitemap(doc string) (index bool, locs []string) {
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = false
	inLoc, root := false, true
	for len(locs) < maxSitemapURLs {
		tok, err := d.Token()
		if err != nil {
			return index, locs
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root {
				index, root = t.Name.Local == "sitemapindex", false
			}
			inLoc = t.Name.Local == "loc"
		case xml.EndElement:
			inLoc = false
		case xml.CharData:
			if inLoc {
				if s := strings.TrimSpace(string(t)); s != "" {
					locs = append(locs, s)
				}
			}
		}
	}
	return index, locs
}

// homeLanguage reads a home page's <html lang> (lower case) and the URL of
// its English alternate (<link rel="alternate" hreflang="en...">), if any.
func homeLanguage(doc string) (lang, english string) {
	for name, a := range headTags(doc, "html", "link") {
		if name == "html" {
			lang = strings.ToLower(strings.TrimSpace(a["lang"]))
			continue
		}
		hl := strings.ToLower(strings.TrimSpace(a["hreflang"]))
		if english == "" && hasWord(a["rel"], "alternate") && (hl == "en" || strings.HasPrefix(hl, "en-")) {
			english = strings.TrimSpace(a["href"])
		}
	}
	return lang, english
}

// hasWord reports whether the space-separated list s has w (any case).
func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, w) {
			return true
		}
	}
	return false
}
