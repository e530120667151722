package fetch

import (
	"cmp"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

// link is an <a href> (or <area href>) of a page, resolved against the page
// (or its <base href>), and the words it is shown with.
type link struct {
	URL  *url.URL
	Text string
}

// extractLinks lists the links of an HTML document read from pageURL, in
// document order. The link text is the anchor's text, image alt texts inside
// it, and its aria-label and title.
func extractLinks(pageURL *url.URL, doc string) []link {
	var (
		out     []link
		base    = pageURL
		baseSet bool // a <base href> was seen: the first one counts
		cur     *link
		href    string
		text    []string
		skip    int // depth inside script, style, template
	)
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.TextToken:
			if cur != nil && skip == 0 {
				text = append(text, string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			attrs := tagAttrs(z)
			switch string(name) {
			case "script", "style", "template":
				if tt == html.StartTagToken {
					skip++
				}
			case "base":
				if !baseSet && attrs["href"] != "" {
					if b, err := pageURL.Parse(strings.TrimSpace(attrs["href"])); err == nil {
						base, baseSet = b, true
					}
				}
			case "a", "area":
				if cur != nil { // an unclosed anchor ends where the next begins
					out = appendLink(out, base, href, text)
				}
				cur, href, text = &link{}, attrs["href"], []string{attrs["aria-label"], attrs["title"]}
				if string(name) == "area" || tt == html.SelfClosingTagToken {
					text = append(text, attrs["alt"])
					out = appendLink(out, base, href, text)
					cur = nil
				}
			case "img":
				if cur != nil {
					text = append(text, attrs["alt"])
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "template":
				if skip > 0 {
					skip--
				}
			case "a":
				if cur != nil {
					out = appendLink(out, base, href, text)
					cur = nil
				}
			}
		}
	}
}

// tagAttrs returns the current tag's attributes by lower-case name (the first
// of a repeated name wins, as in browsers).
func tagAttrs(z *html.Tokenizer) map[string]string {
	m := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if _, dup := m[string(k)]; !dup && len(k) > 0 {
			m[string(k)] = string(v)
		}
		if !more {
			return m
		}
	}
}

func appendLink(out []link, base *url.URL, href string, text []string) []link {
	u := crawlURL(base, href)
	if u == nil {
		return out
	}
	return append(out, link{URL: u, Text: domain.NormalizeSpace(strings.Join(text, " "))})
}

// crawlURL resolves href against base and returns the URL a crawl would
// request, or nil when it is not one: only http and https, no userinfo. The
// fragment and the query are dropped: a fragment names a part of the same
// page, and following queries would let a calendar or a filter page turn
// into endless URLs of one page.
func crawlURL(base *url.URL, href string) *url.URL {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return nil
	}
	ref, err := url.Parse(href)
	if err != nil {
		return nil
	}
	u := base.ResolveReference(ref)
	u.Scheme = strings.ToLower(u.Scheme)
	if (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Host == "" || u.Opaque != "" {
		return nil
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery, u.ForceQuery = "", false
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	return u
}

// siteOf names the site a URL belongs to: its host name without "www." (so
// www.example.com and example.com are one site) and its port unless it is the
// scheme's default. Scheme does not count: http and https of one host are one
// site.
func siteOf(u *url.URL) string {
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	h = strings.TrimPrefix(h, "www.")
	p := u.Port()
	if p == "" || (p == "80" && u.Scheme == "http") || (p == "443" && u.Scheme == "https") {
		return h
	}
	return net.JoinHostPort(h, p)
}

// pageKey names a page of a site for de-duplication: /about and /about/ on
// www. and on the apex are one page.
func pageKey(u *url.URL) string {
	p := strings.TrimRight(u.EscapedPath(), "/")
	return siteOf(u) + p + "/"
}

// A topic is a kind of page worth reading for a profile, recognised by words
// in its URL path and its link text.
type topic struct {
	name   string
	weight int
	words  []string
}

// topics in rough order of what they give a draft. "story" is its own topic
// so that /about and /our-story can both be read.
var topics = []topic{
	{"about", 10, []string{"about", "about-us", "aboutus", "company", "who-we-are", "mission"}},
	{"pricing", 10, []string{"pricing", "plans", "plan", "price", "prices"}},
	{"features", 9, []string{"features", "feature", "product", "products", "how-it-works", "tour"}},
	{"faq", 8, []string{"faq", "faqs", "questions", "frequently-asked-questions"}},
	{"team", 8, []string{"team", "our-team", "founders", "people", "leadership"}},
	{"story", 7, []string{"story", "our-story", "history"}},
	{"contact", 6, []string{"contact", "contact-us", "contactus"}},
	{"changelog", 5, []string{"changelog", "releases", "release-notes", "whats-new", "what's-new"}},
	{"press", 4, []string{"press", "press-kit", "presskit", "newsroom", "media"}},
	{"help", 3, []string{"help", "support"}},
}

// noisy path segments mark pages that state things about something other
// than the product itself (a price in a blog post, a tag listing), or that
// are not content at all (sign-in, cart, admin).
var noisy = map[string]bool{
	"blog": true, "news": true, "post": true, "posts": true, "article": true, "articles": true,
	"tag": true, "tags": true, "category": true, "categories": true, "author": true, "authors": true,
	"login": true, "log-in": true, "signin": true, "sign-in": true, "signup": true, "sign-up": true,
	"register": true, "logout": true, "log-out": true, "auth": true, "oauth": true, "account": true,
	"cart": true, "checkout": true, "admin": true, "wp-admin": true, "wp-login.php": true,
	"cdn-cgi": true, "feed": true, "search": true,
}

// assetExt are file extensions of links that are not pages.
var assetExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true, ".avif": true,
	".ico": true, ".css": true, ".js": true, ".mjs": true, ".map": true, ".json": true, ".xml": true,
	".rss": true, ".atom": true, ".txt": true, ".pdf": true, ".zip": true, ".gz": true, ".tgz": true,
	".dmg": true, ".exe": true, ".msi": true, ".pkg": true, ".deb": true, ".rpm": true, ".apk": true,
	".mp3": true, ".mp4": true, ".webm": true, ".mov": true, ".avi": true, ".wav": true, ".ogg": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true, ".csv": true,
}

// candidate is a same-site link scored for reading.
type candidate struct {
	link
	score int
	topic string
	order int // position among the links found, for stable ties
}

// score rates a link for reading: a topic word as a whole path segment counts
// most, as part of one less, in the link text (when the text is short, as a
// menu item is) less again. Deep paths lose a little; noisy paths and assets
// score 0.
func score(l link) (int, string) {
	segs := strings.Split(strings.Trim(strings.ToLower(l.URL.Path), "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		return 0, "" // the home page
	}
	for _, s := range segs {
		if noisy[s] {
			return 0, ""
		}
	}
	last := segs[len(segs)-1]
	if assetExt[path.Ext(last)] {
		return 0, ""
	}
	last = strings.TrimSuffix(strings.TrimSuffix(last, ".html"), ".htm")
	lastWords := strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	text := strings.ToLower(l.Text)
	textWords := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'')
	})
	best, bestTopic := 0, ""
	for _, t := range topics {
		pathScore, textScore := 0, 0
		for _, w := range t.words {
			switch {
			case last == w:
				pathScore = max(pathScore, 3*t.weight)
			case slices.Contains(lastWords, w):
				pathScore = max(pathScore, 2*t.weight)
			}
			if len(text) <= 40 && slices.Contains(textWords, w) {
				textScore = t.weight
			}
		}
		if s := pathScore + textScore; s > best {
			best, bestTopic = s, t.name
		}
	}
	if best == 0 {
		return 0, ""
	}
	return max(1, best-3*(len(segs)-1)), bestTopic
}

// rank scores links, keeps those worth reading, best first: the best link of
// each topic, then the others by score, so that a budget of a few pages
// covers pricing, about and FAQ before a third features page.
func rank(links []link) []candidate {
	var cs []candidate
	for i, l := range links {
		if s, t := score(l); s > 0 {
			cs = append(cs, candidate{link: l, score: s, topic: t, order: i})
		}
	}
	slices.SortStableFunc(cs, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.order, b.order))
	})
	firsts, rest := []candidate{}, []candidate{}
	covered := map[string]bool{}
	for _, c := range cs {
		if covered[c.topic] {
			rest = append(rest, c)
			continue
		}
		covered[c.topic] = true
		firsts = append(firsts, c)
	}
	return append(firsts, rest...)
}
