package domain

import (
	"regexp"
	"strings"
)

// htmlLangRe: the lang attribute of a document's <html> start tag.
var htmlLangRe = regexp.MustCompile(`(?i)<html\b[^>]*?\slang\s*=\s*["']?([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)`)

// PageLanguage is the <html lang> of the crawled page at url, "" when the
// page is not in the crawl or names no language. A site read in one
// language may hold pages in another (an English site's legal notice only in
// German): an address there is read in its page's language.
func PageLanguage(site *SiteCrawl, url string) string {
	if site == nil {
		return ""
	}
	for _, p := range site.Pages {
		if p.URL != url {
			continue
		}
		head := p.HTML[:min(len(p.HTML), 4096)]
		if m := htmlLangRe.FindStringSubmatch(head); m != nil {
			return strings.ToLower(m[1])
		}
		return ""
	}
	return ""
}
