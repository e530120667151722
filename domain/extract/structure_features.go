package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Features by the structure of the pages that show them: the panels of a
// tab set (all but one hidden until a tab is chosen) and feature pages
// linked one by one below a features path.

// tabFeatures adds to feat the headings of a tab set's panels when one of
// them is already a feature: a hidden panel is shown by its tab, so its
// heading is a feature as much as the visible one's ("Live bank feeds"
// visible, "Receipt capture" and "MTD VAT returns" behind their tabs).
func tabFeatures(p *page, feat *domain.DraftedValue) {
	var heads []string
	forEach(p.doc, true, func(n *html.Node) bool {
		if attr(n, "role") != "tabpanel" || foreign(n) {
			return true
		}
		forEach(n, true, func(h *html.Node) bool {
			if headingLevel[h.DataAtom] > 0 {
				heads = append(heads, domain.NormalizeSpace(nodeText(h)))
				return false
			}
			return true
		})
		return false
	})
	if len(heads) < 2 || !slices.ContainsFunc(heads, func(h string) bool { return slices.Contains(feat.List, h) }) {
		return
	}
	for _, h := range heads {
		if h != "" && !slices.Contains(feat.List, h) && len(strings.Fields(h)) <= 8 {
			feat.List = append(feat.List, h)
			feat.Evidence = append(feat.Evidence, p.ev(h))
		}
	}
}

// featurePages are the h1 headings of two or more pages one level below
// a features page's path ("/features/routing", "/features/analytics"): each
// page is one feature.
func (s *site) featurePages() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		if p.kind != kindFeatures {
			continue
		}
		parts := strings.Split(strings.Trim(p.base.Path, "/"), "/")
		if len(parts) != 2 || !kindPath(kindFeatures, parts[0]) {
			continue
		}
		for _, seg := range p.segs {
			if seg.level == 1 && !seg.foreign && seg.title != "" && len(strings.Fields(seg.title)) <= 6 && !slices.Contains(v.List, seg.title) {
				v.List = append(v.List, seg.title)
				v.Evidence = append(v.Evidence, p.ev(seg.title))
				break
			}
		}
	}
	if len(v.List) < 2 {
		return domain.DraftedValue{}
	}
	return v
}

// kindPath reports whether a path segment names a page of the kind.
func kindPath(kind, seg string) bool {
	for _, k := range kindPatterns {
		if k.kind == kind {
			return k.re.MatchString(seg)
		}
	}
	return false
}

// boldFeatures reads features from a home or features page that names them
// in no words we know, by the structure of a feature list: three or more
// list items, or three or more sibling blocks of one tag and class, each
// opening with a short <strong> or <b> title followed by its description
// ("<li><strong>Inbox rules</strong> — route returns …</li>",
// "<div class=tile><strong>Noise cleanup</strong><p>…</p></div>"). Items
// with a price are plans, not features; testimonials, navigation and
// footers are not read.
func (s *site) boldFeatures() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		if p.kind != kindHome && p.kind != kindFeatures || isPricingPage(p) {
			continue
		}
		forEach(p.doc, false, func(n *html.Node) bool {
			if foreign(n) || within(n, atom.Nav, atom.Header, atom.Footer) {
				return false
			}
			var items []*html.Node
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type != html.ElementNode {
					continue
				}
				if (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && c.DataAtom == atom.Li ||
					c.DataAtom == atom.Div && attr(c, "class") != "" && sameKindSiblings(c) >= 3 {
					items = append(items, c)
				}
			}
			if len(items) < 3 {
				return true
			}
			var titles []string
			for _, it := range items {
				b := firstBold(it)
				if b == nil {
					return true
				}
				title := strings.TrimRight(domain.NormalizeSpace(nodeText(b)), ":–—- ")
				all := domain.NormalizeSpace(nodeText(it))
				if title == "" || len(strings.Fields(title)) > 6 || len(all) <= len(title)+3 || priceRe.MatchString(all) {
					return true
				}
				titles = append(titles, title)
			}
			for _, t := range titles {
				if !slices.Contains(v.List, t) {
					v.List = append(v.List, t)
					v.Evidence = append(v.Evidence, p.ev(t))
				}
			}
			return false
		})
		if len(v.List) > 0 {
			return v
		}
	}
	return v
}

// sameKindSiblings counts n's siblings (n included) of its tag and class.
func sameKindSiblings(n *html.Node) int {
	k := 0
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == n.DataAtom && attr(c, "class") == attr(n, "class") {
			k++
		}
	}
	return k
}

// headlessCard returns the title of a feature card built without a heading,
// as site builders write one: an icon, then a short title in an element of
// its own (a div or <p> styled as a heading, a <strong>, the button of an
// accordion row), then a description ("<div class=item><svg/><div
// class=title>Shared inbox</div><p>Every address … one queue.</p></div>").
// The title is no sentence, no question, no figure, no price, no date and
// person (cardGrid: most titles of the grid are no person's name; "Eksport
// JPK" reads like one alone); the description is longer than the title (an accordion's
// hidden panel counts) and the card holds at most 40 words.
func headlessCard(c *html.Node) (string, bool) {
	lines := cardLines(c, true)
	// An icon written as text (an emoji, a tick) is no title.
	for len(lines) > 0 && !strings.ContainsFunc(lines[0].text, unicode.IsLetter) {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return "", false
	}
	title := lines[0].text
	all := allText(c)
	at := strings.Index(all, title)
	if at < 0 {
		return "", false
	}
	rest := strings.TrimSpace(all[at+len(title):])
	tw, rw := len(strings.Fields(title)), utf8.RuneCountInString(title)
	if tw < 1 || tw > 8 || rw > 40 || strings.ContainsAny(title[len(title)-1:], ".!?:") || strings.HasSuffix(title, "。") ||
		figureRe.MatchString(title) || priceRe.MatchString(allText(c)) {
		return "", false
	}
	if _, _, dated := findDate(allText(c), false); dated {
		return "", false
	}
	rr := utf8.RuneCountInString(rest)
	if rr <= rw || len(strings.Fields(rest)) < 3 && rr < 10 || len(strings.Fields(rest))+tw > 40 {
		return "", false
	}
	return title, true
}

// allText is every text of n, hidden parts included (an accordion's closed
// panel), without scripts and styles.
func allText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data + " ")
			case c.Type == html.ElementNode && c.DataAtom != atom.Script && c.DataAtom != atom.Style && c.DataAtom != atom.Svg:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
