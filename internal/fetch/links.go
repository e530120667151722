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
	// Place is where the link is shown: "nav", "header", "footer" (the
	// innermost of them), "" for the page's body, "sitemap" for a sitemap
	// entry, "post" for a link from a blog or news index to one of its posts.
	Place string
	// oldest marks the post an index lists last (its oldest), read first.
	oldest bool
}

// extractLinks lists the links of an HTML document read from pageURL, in
// document order. The link text is the anchor's text, image alt texts inside
// it, and its aria-label and title.
func extractLinks(pageURL *url.URL, doc string) []link {
	var (
		out      []link
		base     = pageURL
		baseSet  bool // a <base href> was seen: the first one counts
		cur      *link
		href     string
		text     []string
		skip     int      // depth inside script, style, template
		places   []string // open nav, header and footer elements, innermost last
		noscript bool     // the token before was <noscript>: its text is markup
	)
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.TextToken:
			if noscript {
				// The tokenizer gives a <noscript>'s content as raw text; a
				// browser without scripts (the crawler) shows it as markup: a
				// single-page app's fallback links are the site's pages.
				out = append(out, extractLinks(base, string(z.Text()))...)
				continue
			}
			if cur != nil && skip == 0 {
				text = append(text, string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			attrs := tagAttrs(z)
			noscript = string(name) == "noscript" && tt == html.StartTagToken
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
					out = appendLink(out, base, href, text, places)
				}
				cur, href, text = &link{}, attrs["href"], []string{attrs["aria-label"], attrs["title"]}
				if string(name) == "area" || tt == html.SelfClosingTagToken {
					text = append(text, attrs["alt"])
					out = appendLink(out, base, href, text, places)
					cur = nil
				}
			case "nav", "header", "footer":
				if tt == html.StartTagToken {
					places = append(places, string(name))
				}
			case "img":
				if cur != nil {
					text = append(text, attrs["alt"])
				}
			}
		case html.EndTagToken:
			noscript = false
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "template":
				if skip > 0 {
					skip--
				}
			case "nav", "header", "footer":
				for i := len(places) - 1; i >= 0; i-- {
					if places[i] == string(name) {
						places = places[:i]
						break
					}
				}
			case "a":
				if cur != nil {
					out = appendLink(out, base, href, text, places)
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

func appendLink(out []link, base *url.URL, href string, text, places []string) []link {
	u := crawlURL(base, href)
	if u == nil {
		return out
	}
	l := link{URL: u, Text: domain.NormalizeSpace(strings.Join(text, " "))}
	if len(places) > 0 {
		l.Place = places[len(places)-1]
	}
	return append(out, l)
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
	p := u.EscapedPath()
	// A directory's index file is the directory: / and /index.html, /plans/
	// and /plans/index.htm are one page, read once.
	for _, ix := range []string{"/index.html", "/index.htm", "/index.php", "/default.htm", "/default.aspx"} {
		if strings.HasSuffix(strings.ToLower(p), ix) {
			p = p[:len(p)-len(ix)]
			break
		}
	}
	p = strings.TrimRight(p, "/")
	return siteOf(u) + p + "/"
}

// A topic is a kind of page worth reading for a profile, recognised by words
// in its URL path and its link text, in English, German, French, Spanish,
// Italian, Dutch and Portuguese. Words are written folded (lower case, no
// accents, see fold); a phrase matches a run of whole words.
type topic struct {
	name   string
	weight int
	words  []string
}

// topics in rough order of what they give a draft. "story" is its own topic
// so that /about and /our-story can both be read; "imprint" is the legal
// notice that states a company's address.
var topics = []topic{
	{"about", 10, []string{"about", "about us", "aboutus", "company", "who we are", "mission",
		"uber uns", "ueber uns", "unternehmen", "a propos", "qui sommes nous", "sobre nosotros", "nosotros",
		"quienes somos", "chi siamo", "azienda", "over ons", "sobre nos", "quem somos", "empresa"}},
	{"pricing", 10, []string{"pricing", "plans", "plan", "price", "prices", "preise", "preis", "tarife",
		"tarifs", "prix", "precios", "planes", "prezzi", "prijzen", "precos", "planos"}},
	{"features", 9, []string{"features", "feature", "product", "products", "how it works", "tour",
		"funktionen", "produkt", "fonctionnalites", "produit", "funciones", "caracteristicas", "producto",
		"funzionalita", "prodotto", "functies", "funcionalidades", "recursos", "produto"}},
	{"faq", 8, []string{"faq", "faqs", "questions", "frequently asked questions", "haufige fragen",
		"haeufige fragen", "questions frequentes", "preguntas frecuentes", "domande frequenti",
		"veelgestelde vragen", "perguntas frequentes"}},
	{"team", 8, []string{"team", "our team", "founders", "people", "leadership", "equipe", "equipo",
		"squadra", "equipa"}},
	{"story", 7, []string{"story", "our story", "history", "geschichte", "histoire", "historia", "storia",
		"ons verhaal"}},
	{"imprint", 7, []string{"imprint", "impressum", "legal notice", "mentions legales", "aviso legal",
		"note legali", "colofon"}},
	{"contact", 6, []string{"contact", "contact us", "contactus", "kontakt", "contacto", "contatti", "contato"}},
	{"changelog", 5, []string{"changelog", "releases", "release notes", "whats new", "what s new",
		"anderungen", "aenderungen", "neuerungen", "versionshinweise", "was ist neu", "nouveautes",
		"notes de version", "quoi de neuf", "novedades", "notas de la version", "novita",
		"note di rilascio", "wijzigingen", "wat is er nieuw", "release opmerkingen", "novidades",
		"notas de versao"}},
	{"press", 4, []string{"press", "press kit", "presskit", "newsroom", "media", "presse", "prensa", "stampa", "imprensa"}},
	{"help", 3, []string{"help", "support", "hilfe", "aide", "ayuda", "aiuto", "ajuda"}},
}

// placeBonus is added to a topic link's score for where it is shown: the
// main navigation and the header list a site's own pages, the footer its
// legal and company pages.
var placeBonus = map[string]int{"nav": 3, "header": 2, "footer": 1}

// placeScore is the score of a link that names no topic we know the words
// of (a page named in another language, an about page under an unusual
// name): every page the site links from its navigation, header, footer or
// body is worth reading once the known topics are covered, the navigation's
// first, the footer's (where company pages sit) before the body's. A
// sitemap entry (place "sitemap") names no place and is not read on its
// path alone: a sitemap lists every page of a site.
var placeScore = map[string]int{"nav": 5, "header": 4, "footer": 4, "": 2}

// indexSegs are the last path segments of blog, news and changelog
// indexes: the index is read when the budget has room, and the dated posts
// it links to are candidates one level further (their own paths are under
// noisy segments).
var indexSegs = map[string]bool{"blog": true, "news": true, "press": true, "newsroom": true, "updates": true, "announcements": true,
	// the same indexes named in other languages, as their paths are written
	"blogi": true, "blogg": true, "bloggen": true, "uutiset": true, "ajankohtaista": true, "tiedotteet": true, "nyheder": true, "nyheter": true,
	"presse": true, "pressemeddelelser": true, "neuigkeiten": true, "aktuelles": true, "actualites": true, "noticias": true, "novedades": true,
	"notizie": true, "nieuws": true, "novidades": true, "aktualnosci": true, "nowosci": true, "novinky": true, "aktuality": true,
	"haberler": true, "duyurular": true, "hirek": true, "ujdonsagok": true, "stiri": true, "noutati": true, "berita": true, "kabar": true,
	"tin-tuc": true, "tintuc": true, "nea": true, "anakoinoseis": true, "oshirase": true, "xinwen": true, "dongtai": true, "sosik": true, "gongji": true}

// folder lower-cases and strips the accents of the letters of our seven
// languages, so "Über uns", "À propos" and "Preços" match "uber uns",
// "a propos" and "precos".
var folder = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "ç", "c", "è", "e", "é", "e", "ê", "e", "ë", "e",
	"ì", "i", "í", "i", "î", "i", "ï", "i", "ñ", "n", "ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o",
	"ù", "u", "ú", "u", "û", "u", "ü", "u", "ß", "ss", "œ", "oe", "’", "'",
)

// fold turns s into lower-case words without accents, split at anything
// that is not a letter or a digit.
func fold(s string) []string {
	return strings.FieldsFunc(folder.Replace(strings.ToLower(s)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// hasPhrase reports whether phrase (folded words) is a run of words.
func hasPhrase(words []string, phrase []string) bool {
	for i := 0; i+len(phrase) <= len(words); i++ {
		if slices.Equal(words[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
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

// score rates a link for reading: a topic word or phrase as the whole last
// path segment counts most, as part of it less, in the link text (when the
// text is short, as a menu item is) less again; a topic link in the
// navigation, header or footer gains placeBonus. Deep paths lose a little;
// noisy paths and assets score 0.
func score(l link) (int, string) {
	segs := strings.Split(strings.Trim(strings.ToLower(l.URL.Path), "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		return 0, "" // the home page
	}
	last := segs[len(segs)-1]
	if assetExt[path.Ext(last)] {
		return 0, ""
	}
	if len(segs) == 1 && noisy[strings.TrimSuffix(last, ".html")] && indexSegs[strings.TrimSuffix(last, ".html")] && l.Place != "sitemap" {
		return 1, "index"
	}
	if l.Place == "post" {
		if l.oldest {
			return 6, "post" // before every page chosen by its place alone
		}
		return 1, "post"
	}
	for _, s := range segs {
		if noisy[s] {
			return 0, ""
		}
	}
	last = strings.TrimSuffix(strings.TrimSuffix(last, ".html"), ".htm")
	if u, err := url.PathUnescape(last); err == nil {
		last = u
	}
	lastWords := fold(last)
	var textWords []string
	if len(l.Text) <= 40 {
		textWords = fold(l.Text)
	}
	best, bestTopic := 0, ""
	for _, t := range topics {
		pathScore, textScore := 0, 0
		for _, w := range t.words {
			phrase := strings.Fields(w)
			switch {
			case slices.Equal(lastWords, phrase) || strings.Join(lastWords, "") == strings.Join(phrase, ""):
				pathScore = max(pathScore, 3*t.weight)
			case hasPhrase(lastWords, phrase):
				pathScore = max(pathScore, 2*t.weight)
			}
			if hasPhrase(textWords, phrase) {
				textScore = t.weight
			}
		}
		if s := pathScore + textScore; s > best {
			best, bestTopic = s, t.name
		}
	}
	if best == 0 {
		if s, t := parentTopic(l, segs); s > 0 {
			return s, t
		}
		if base, ok := placeScore[l.Place]; ok {
			return max(1, base-(len(segs)-1)), "place:" + l.URL.Path
		}
		return 0, ""
	}
	return max(1, best+placeBonus[l.Place]-3*(len(segs)-1)), bestTopic
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
	firsts, rest, others := []candidate{}, []candidate{}, []candidate{}
	covered := map[string]bool{}
	for _, c := range cs {
		if !knownTopic(c.topic) {
			others = append(others, c) // by place, an index or a post: after the known topics
			continue
		}
		if covered[c.topic] {
			rest = append(rest, c)
			continue
		}
		covered[c.topic] = true
		firsts = append(firsts, c)
	}
	return append(append(firsts, rest...), spread(others)...)
}

// knownTopic reports whether a candidate's topic is one of topics (not a
// page chosen by its place, an index or a post).
func knownTopic(name string) bool {
	return slices.ContainsFunc(topics, func(t topic) bool { return t.name == name })
}
