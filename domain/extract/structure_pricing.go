package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Plans by the structure of a pricing grid, whatever its class names and
// words: repeated blocks of the same kind, a price written as the card's
// heading, an open-source tier beside paid ones.

// repeatedCard is the nearest ancestor of n (below main or body) that is one
// of two or more sibling elements of the same tag and class, with no heading
// inside: a card of a grid ("<div class=kort><strong>Butik</strong><p>199
// kr/mån</p></div>" beside its siblings).
func repeatedCard(n *html.Node) *html.Node {
	for a := n.Parent; a != nil && a.DataAtom != atom.Body && a.DataAtom != atom.Main; a = a.Parent {
		if a.Type != html.ElementNode || a.Parent == nil {
			continue
		}
		cls := attr(a, "class")
		if cls == "" {
			continue
		}
		same := 0
		for c := a.Parent.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == a.DataAtom && attr(c, "class") == cls {
				same++
			}
		}
		if same < 2 {
			continue
		}
		if hasHeading(a) {
			return nil
		}
		return a
	}
	return nil
}

// priceHeadingPlans reads cards whose heading is the price and whose name
// is the line above it in the same card ("<p class=plan-name>Solo</p><h3>£9</h3>
// <p>per month</p>"): the heading is a price and nothing else, the name a
// short line of the previous segment inside the heading's card, and a
// period on the next line is the price's.
func priceHeadingPlans(p *page, segs []*segment) []plan {
	var out []plan
	for i, seg := range segs {
		if i == 0 || seg.level < 2 || seg.foreign || !priceOnly(seg.title) {
			continue
		}
		prev := segs[i-1]
		if len(prev.lines) == 0 {
			continue
		}
		name := prev.lines[len(prev.lines)-1]
		if name.node == nil || name.foreign || len(strings.Fields(name.text)) > 4 || priceRe.MatchString(name.text) {
			continue
		}
		card := commonCard(name.node, seg.node)
		if card == nil {
			continue
		}
		pl := plan{p: p, name: name.text, price: seg.title, priceLine: seg.title}
		if len(seg.lines) > 0 && isInside(seg.lines[0].node, card) {
			pl = withPeriod(pl, seg.lines[0].text)
		}
		out = append(out, pl)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// priceOnly reports whether s is a price and nothing more ("£9", "$12.50", "49 zł").
func priceOnly(s string) bool {
	m := priceRe.FindString(s)
	return m != "" && strings.TrimSpace(s) == strings.TrimSpace(m)
}

// commonCard is the nearest element holding both a and b that is one of
// two or more siblings of the same tag and class (a card of a grid).
func commonCard(a, b *html.Node) *html.Node {
	for c := a.Parent; c != nil && c.DataAtom != atom.Body && c.DataAtom != atom.Main; c = c.Parent {
		if !isInside(b, c) {
			continue
		}
		cls := attr(c, "class")
		same := 0
		for s := c.Parent.FirstChild; s != nil; s = s.NextSibling {
			if s.Type == html.ElementNode && s.DataAtom == c.DataAtom && attr(s, "class") == cls {
				same++
			}
		}
		if same >= 2 {
			return c
		}
		return nil
	}
	return nil
}

// freeOpenTier is a tier's price line that says it is free because it is
// open source ("Free and open source (Apache 2.0).", "Free & open-source"):
// the plan's price is that phrase.
var freeOpenTier = lazyMustCompile(`(?i)^(?:free|gratis|kostenlos|gratuit|gratuito|darmowy|zdarma|ücretsiz)\s*(?:and|&|,|und|et|y|e|i|och|ve|a)\s*open[- ]?source\b`)

// periodToggle is the billing-period switch of a pricing page ("Monthly |
// Annually" as buttons, radio labels or tabs), when the prices themselves
// name no period: the prices shown are per that period. It is a control
// (button, label, option, role tab or radio) whose whole text is a short
// period word.
func periodToggle(pages []*page) (pline, bool) {
	for _, p := range pages {
		if !isPricingPage(p) {
			continue
		}
		var found *pline
		forEach(p.doc, false, func(n *html.Node) bool {
			if found != nil {
				return false
			}
			role := attr(n, "role")
			if n.DataAtom != atom.Button && n.DataAtom != atom.Label && n.DataAtom != atom.Option && role != "tab" && role != "radio" {
				return true
			}
			t := strings.TrimSpace(nodeText(n))
			if t != "" && len(strings.Fields(t)) <= 3 && periodRe.MatchString(t) && !priceRe.MatchString(t) {
				found = &pline{p, t}
			}
			return false
		})
		if found != nil {
			return *found, true
		}
	}
	return pline{}, false
}

// freeCardLine is a plan card's price line that says the plan is free and
// for whom or how long ("Free for up to 3 users", "Free forever", "Free —
// one project"): the whole line is the price. "Free SSL" or "Free
// trial" are not (the word after "free" must be for, forever, up to, or a
// dash or comma).
var freeCardLine = lazyMustCompile(`(?i)^(?:free|gratis|kostenlos|gratuit[eo]?|gratuita|grátis|darmowy|bezpłatny|zdarma|ücretsiz)(?:\s+(?:forever|for|up to|to use|bis|pour|para|per|voor|för|jusqu)\b.*|\s*[,–—-]\s.*)?[.!]?$`)
