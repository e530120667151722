package extract

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

var emailRe = lazyMustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)

// draftContact: contact_email from mailto links, JSON-LD email and addresses
// written in the text, only on the product's own domain and never from a
// newsletter box or a testimonial. The contact page wins.
func (s *site) draftContact() {
	for _, p := range s.byKind(kindContact, kindHome, kindAbout, kindFAQ) {
		var found domain.DraftedValue
		forEach(p.doc, false, func(n *html.Node) bool {
			if found.Text != "" {
				return false
			}
			if foreign(n) {
				return false
			}
			if n.DataAtom == atom.A {
				href := p.resolve(attr(n, "href"))
				if addr, ok := strings.CutPrefix(href, "mailto:"); ok {
					addr, _, _ = strings.Cut(addr, "?")
					if s.ownEmail(addr) {
						found = domain.DraftedValue{Text: addr, Evidence: []domain.Evidence{p.ev(href)}}
					}
				}
			}
			return true
		})
		if found.Text == "" {
			for _, o := range p.ld {
				if e := ldString(o, "email"); e != "" && s.ownEmail(strings.TrimPrefix(e, "mailto:")) {
					found = domain.DraftedValue{Text: strings.TrimPrefix(e, "mailto:"), Evidence: []domain.Evidence{p.ev(e)}}
					break
				}
			}
		}
		if found.Text == "" {
		lines:
			for _, l := range p.ownLines() {
				for _, m := range emailRe.FindAllStringIndex(l.text, -1) {
					addr := strings.TrimRight(l.text[m[0]:m[1]], ".")
					if s.ownEmail(addr) {
						found = domain.DraftedValue{Text: addr, Evidence: []domain.Evidence{p.ev(sentenceAround(l.text, m[0]))}}
						break lines
					}
				}
			}
		}
		if found.Text != "" {
			s.set("contact_email", found)
			return
		}
	}
}

func (s *site) ownEmail(addr string) bool {
	_, domainPart, ok := strings.Cut(addr, "@")
	return ok && emailRe.MatchString(addr) && s.ownDomain(domainPart)
}

var videoRe = lazyMustCompile(`(?i)^https?://(www\.)?(youtube\.com/embed/|youtube-nocookie\.com/embed/|youtube\.com/watch\?v=|youtu\.be/|player\.vimeo\.com/video/|vimeo\.com/\d+|loom\.com/(embed|share)/|fast\.wistia\.(net|com)/embed/|[a-z0-9-]+\.wistia\.com/medias/)`)
var demoText = lazyMustCompile(`(?i)demo|tour|watch|video|see it|in action`)

// draftMedia: demo_video_url from an embedded player (YouTube, Vimeo, Loom,
// Wistia) or a link to a video whose text says it is a demo.
func (s *site) draftMedia() {
	for _, p := range s.byKind(kindHome, kindFeatures) {
		var found string
		forEach(p.doc, true, func(n *html.Node) bool {
			if found != "" || foreign(n) {
				return false
			}
			var u string
			switch n.DataAtom {
			case atom.Iframe, atom.Video, atom.Source, atom.Embed:
				u = p.resolve(attr(n, "src"))
			case atom.A:
				if demoText.MatchString(nodeText(n)) {
					u = p.resolve(attr(n, "href"))
				}
			}
			if u != "" && videoRe.MatchString(u) {
				found = u
			}
			return true
		})
		if found != "" {
			s.set("demo_video_url", domain.DraftedValue{Text: found, Evidence: []domain.Evidence{p.ev(found)}})
			return
		}
	}
}

// xReserved are x.com paths that are not handles.
var xReserved = map[string]bool{"intent": true, "share": true, "home": true, "hashtag": true, "search": true, "i": true, "explore": true}

// platformOf maps a profile link to its platform. Company pages and handles
// only unless person is set (then linkedin.com/in/ counts too); share
// buttons, tweets, embeds and searches are not profiles.
func platformOf(raw string, person bool) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	host = strings.TrimPrefix(host, "m.")
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	first := ""
	if len(segs) > 0 {
		first = strings.ToLower(segs[0])
	}
	one := len(segs) == 1
	switch {
	case host == "linkedin.com":
		if first == "company" || first == "school" || first == "showcase" || (person && first == "in") {
			return "linkedin", len(segs) >= 2
		}
	case host == "x.com" || host == "twitter.com":
		return "x", one && !xReserved[first]
	case host == "facebook.com":
		return "facebook", one && !strings.Contains(first, "sharer") && first != "share" && first != "dialog"
	case host == "instagram.com":
		return "instagram", one && first != "p" && first != "reel"
	case host == "tiktok.com":
		return "tiktok", one && strings.HasPrefix(first, "@")
	case host == "threads.net" || host == "threads.com":
		return "threads", one && strings.HasPrefix(first, "@")
	case host == "pinterest.com" || strings.HasSuffix(host, ".pinterest.com"):
		return "pinterest", one && first != "pin"
	case host == "youtube.com":
		return "youtube", (one && strings.HasPrefix(first, "@")) || (len(segs) == 2 && (first == "channel" || first == "c" || first == "user"))
	case host == "github.com":
		return "github", len(segs) == 1 || len(segs) == 2
	case host == "reddit.com":
		return "reddit", len(segs) == 2 && (first == "r" || first == "user" || first == "u")
	case host == "producthunt.com":
		return "producthunt", len(segs) == 2 && (first == "products" || first == "posts") || one && strings.HasPrefix(first, "@")
	case host == "medium.com":
		return "medium", one
	case strings.HasSuffix(host, ".medium.com"):
		return "medium", true
	case host == "bsky.app":
		// Bluesky and Mastodon have no platform key: a profile there is the
		// one custom link (docs/drafts.md, "Bluesky and Mastodon")
		return "custom", len(segs) == 2 && first == "profile"
	case mastodonHost(host):
		return "custom", one && len(first) > 1 && first[0] == '@'
	}
	return "", false
}

// mastodonInstances are large Mastodon servers whose names do not say so.
var mastodonInstances = map[string]bool{
	"fosstodon.org": true, "hachyderm.io": true, "infosec.exchange": true, "mas.to": true, "techhub.social": true,
	"indieweb.social": true, "chaos.social": true, "social.vivaldi.net": true, "troet.cafe": true, "det.social": true,
	"norden.social": true, "hostux.social": true, "piaille.fr": true, "masto.ai": true, "universeodon.com": true,
}

// mastodonHost reports whether host is a Mastodon server: one named so
// ("mastodon.social", "mstdn.jp", "toot.community"), a ".social" server, or
// one of mastodonInstances.
func mastodonHost(host string) bool {
	for _, w := range []string{"mastodon", "mstdn", "toot"} {
		if strings.Contains(host, w) {
			return true
		}
	}
	return strings.HasSuffix(host, ".social") || mastodonInstances[host]
}

// draftSocials: the company's profile links, from every page but the blog.
// A link in a person's card is that person's; a handle that does not carry
// the brand counts only when several pages link it (the site's own footer).
func (s *site) draftSocials() {
	type cand struct {
		p      *page
		url    string
		pages  int
		brand  bool
		chrome bool // in the page's header, navigation or footer: the site's own links
	}
	// every profile link of a platform, in the order first seen: a customer's
	// handle in a testimonial above the footer does not hide the footer's own
	found := map[string][]*cand{}
	var order []string
	personal := map[string]bool{}
	for _, f := range s.out.Founders {
		for _, u := range f.Socials {
			personal[u] = true
		}
	}
	get := func(pl, u string, p *page) *cand {
		for _, c := range found[pl] {
			if c.url == u {
				return c
			}
		}
		if found[pl] == nil {
			order = append(order, pl)
		}
		c := &cand{p: p, url: u, brand: s.brand != "" && strings.Contains(compact(u), s.brand)}
		found[pl] = append(found[pl], c)
		return c
	}
	for _, p := range s.content() {
		seen := map[string]bool{}
		forEach(p.doc, false, func(n *html.Node) bool {
			if foreign(n) {
				return false
			}
			if n.DataAtom != atom.A {
				return true
			}
			u := p.resolve(attr(n, "href"))
			pl, ok := platformOf(u, false)
			if !ok && relMe(n) && mastodonPath(u) {
				pl, ok = "custom", true // a Mastodon profile on any server, verified by rel="me"
			}
			if !ok || personal[u] || seen[u] || s.inPersonCard(n) || s.builderAccount(u) {
				return true
			}
			seen[u] = true
			c := get(pl, u, p)
			c.pages++
			c.chrome = c.chrome || inChrome(n) || p.closing != nil && isUnder(n, p.closing)
			return true
		})
	}
	// The organisation's sameAs links in JSON-LD are its own profiles by definition.
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !hasType(o, "Organization", "Corporation", "LocalBusiness", "SoftwareApplication", "Product") {
				continue
			}
			for _, u := range ldStrings(o, "sameAs") {
				if pl, ok := platformOf(u, false); ok {
					get(pl, u, p).brand = true
				}
			}
		}
	}
	for _, pl := range order {
		i := slices.IndexFunc(found[pl], func(c *cand) bool { return c.brand || c.pages >= 2 || c.chrome })
		if i < 0 {
			continue
		}
		c := found[pl][i]
		// a repository in the navigation ("github.com/acme/acme") beside the
		// organisation's own link: the organisation is the profile
		if o := slices.IndexFunc(found[pl], func(x *cand) bool { return pl == "github" && githubOwner(x.url, c.url) }); o >= 0 {
			c = found[pl][o]
		}
		if s.out.Socials == nil {
			s.out.Socials = map[string]domain.DraftedLink{}
		}
		s.out.Socials[pl] = domain.DraftedLink{URL: c.url, Evidence: []domain.Evidence{c.p.ev(c.url)}}
	}
}

// relMe reports whether link n says it is the site's own profile
// (rel="me", which Mastodon verifies).
func relMe(n *html.Node) bool {
	return slices.Contains(strings.Fields(strings.ToLower(attr(n, "rel"))), "me")
}

// mastodonPath reports whether u is a profile address as Mastodon writes
// it: https://server/@name.
func mastodonPath(u string) bool {
	x, err := url.Parse(u)
	if err != nil || x.Scheme != "https" {
		return false
	}
	p := strings.Trim(x.Path, "/")
	return strings.HasPrefix(p, "@") && len(p) > 1 && !strings.Contains(p, "/")
}

// inChrome reports whether n sits in the page's header, navigation or
// footer (the elements, or a div a builder names so), where a site links its own profiles (a name in Han or Hangul
// cannot be matched against the profile's address).
func inChrome(n *html.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		switch a.DataAtom {
		case atom.Footer, atom.Header, atom.Nav:
			return true
		}
		if chromeBlock(a) || footerRoot(a) {
			return true
		}
	}
	return false
}

// inPersonCard reports whether a link sits in a card that names one of the founders.
func (s *site) inPersonCard(a *html.Node) bool {
	for card := a.Parent; card != nil && card.DataAtom != atom.Body; card = card.Parent {
		// A builder's footer div names the representative beside the site's own
		// profiles ("(주)달빛랩 | 대표 김민준"): it is no person's card.
		if chromeBlock(card) {
			return false
		}
		t := nodeText(card)
		if len(t) > 600 {
			return false
		}
		for _, f := range s.out.Founders {
			if strings.Contains(t, f.Name) {
				return true
			}
		}
	}
	return false
}
