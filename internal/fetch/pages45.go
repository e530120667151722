package fetch

import (
	"net/url"
	"path"
	"strings"
)

// Page choice on larger sites: a budget of ten pages is spent on the pages
// that state what a profile needs, not on copies and lists.

// archiveSegs are path segments below a blog or news index that list posts
// rather than being one (tag, category and author archives, pagination,
// feeds): they are not read as posts.
var archiveSegs = map[string]bool{"tag": true, "tags": true, "category": true, "categories": true, "author": true,
	"authors": true, "page": true, "archive": true, "archives": true, "feed": true, "topics": true, "topic": true}

// isArchive reports whether the path below an index's prefix names an
// archive of posts rather than a post.
func isArchive(rest string) bool {
	for _, s := range strings.Split(strings.Trim(strings.ToLower(rest), "/"), "/") {
		if archiveSegs[strings.TrimSuffix(s, ".html")] {
			return true
		}
	}
	return false
}

// markOldest marks the last distinct post an index lists as its oldest:
// indexes list posts newest first, and the oldest post is where a product's
// launch or founding is told. Links of out are changed in place.
func markOldest(out []link) {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Place == "post" {
			out[i].oldest = true
			return
		}
	}
}

// companyParents are the topics whose folder names a company page whatever
// the page's own name ("/company/origins", "/about/how-we-started"): the
// parent segment counts for them as a known topic, at its bare weight.
var companyParents = map[string]bool{"about": true, "team": true, "story": true}

// parentTopic scores a link by the parent segments of its path (all but the
// last) when they name one of companyParents' topics as a whole segment.
func parentTopic(l link, segs []string) (int, string) {
	for _, s := range segs[:len(segs)-1] {
		words := fold(s)
		for _, t := range topics {
			if !companyParents[t.name] {
				continue
			}
			for _, w := range t.words {
				if phrase := strings.Fields(w); len(words) == len(phrase) && hasPhrase(words, phrase) {
					return max(1, t.weight+placeBonus[l.Place]-3*(len(segs)-1)), t.name
				}
			}
		}
	}
	return 0, ""
}

// siblingsFirst is how many pages of one folder ("/solutions/retail",
// "/solutions/clinics", ...) are read before the pages of other folders and
// of the site's root: a menu of eight solution pages says eight times what
// one says, and would take the budget from the footer's company pages.
const siblingsFirst = 2

// spread moves the candidates of a folder beyond its first siblingsFirst
// after the others, keeping each group's order.
func spread(cs []candidate) []candidate {
	n := map[string]int{}
	var head, tail []candidate
	for _, c := range cs {
		dir := path.Dir(strings.TrimRight(c.URL.Path, "/"))
		if dir != "/" && dir != "." && c.Place != "post" {
			n[dir]++
			if n[dir] > siblingsFirst {
				tail = append(tail, c)
				continue
			}
		}
		head = append(head, c)
	}
	return append(head, tail...)
}

// markTranslations marks as seen the same-site pages a read page names as
// its translations (<link rel="alternate" hreflang>): a site in three
// languages is read in one, and the budget goes to other pages. A page
// without a translation (a legal notice only in German) is still read.
func markTranslations(seen map[string]bool, doc string, page *url.URL, onSite string) {
	for _, a := range alternatesOf(doc, page) {
		if siteOf(a) == onSite {
			seen[pageKey(a)] = true
		}
	}
}

// postsOf keeps the links marked as posts of an index.
func postsOf(links []link) []link {
	var out []link
	for _, l := range links {
		if l.Place == "post" {
			out = append(out, l)
		}
	}
	return out
}

// langPrefixes are the folders of the home page's translations ("/de/",
// "/fr/" for a home at "/"), from its hreflang alternates on the site; a
// translation at the site's root names no folder.
func langPrefixes(doc string, home *url.URL, onSite string) []string {
	var out []string
	for _, a := range alternatesOf(doc, home) {
		p := strings.TrimRight(a.Path, "/") + "/"
		if siteOf(a) != onSite || p == "/" || pageKey(a) == pageKey(home) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// translationKey is the page key of the page u translates: u's path without
// the language folder it is under ("/de/pricing" translates "/pricing").
func translationKey(u *url.URL, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if path := strings.TrimRight(u.Path, "/") + "/"; strings.HasPrefix(path, p) {
			o := *u
			o.Path, o.RawPath = "/"+strings.TrimPrefix(path, p), ""
			return pageKey(&o), true
		}
	}
	return "", false
}
