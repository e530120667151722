package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Stage in a badge that site builders put outside a <header> element: a
// Webflow or Framer nav of divs, an Elementor header template, a pill over
// the hero ("Beta", "Early access", "Tidig åtkomst", "We just launched").
// The badge is an element's whole text among the first lines of the home
// page (the header, its mobile copy, the hero's first lines), outside links
// list items and <nav> (a menu entry tagged "Beta" is a feature's or a
// programme's page).

// topBadgeLines is how many lines from the top of the home page a badge may
// stand.
const topBadgeLines = 12

// earlyAccessBadgeRe: the whole text of an early-access badge in the
// languages of earlyAccessRe ("Early access", "Tidig åtkomst").
var earlyAccessBadgeRe = lazyMustCompile(`^(?:` + earlyAccessRe.String() + `|(?i:early access))[.!]?$`)

// topBadgeStage returns the stage a badge among the home page's first lines
// states, and its evidence.
func (s *site) topBadgeStage() (string, []domain.Evidence) {
	p := s.homePage()
	if p == nil {
		return "", nil
	}
	n := 0
	for _, seg := range p.segs {
		for _, l := range append([]line{{text: seg.title, node: seg.node}}, seg.lines...) {
			if l.text == "" {
				continue
			}
			if n++; n > topBadgeLines {
				return "", nil
			}
			t := strings.TrimSpace(l.text)
			if l.foreign || l.footer || l.node == nil || inMenuEntry(l.node) || within(l.node, atom.Nav) || linkHolds(l.node, t) {
				continue
			}
			switch {
			case badgeRe.MatchString(t) || earlyAccessBadgeRe.MatchString(t):
				return "beta", []domain.Evidence{p.ev(t)}
			case launchBadgeRe.MatchString(t):
				return "launched", []domain.Evidence{p.ev(t)}
			}
		}
	}
	return "", nil
}

// linkHolds reports whether a link inside n holds the text t (a line whose
// block is a menu, its entry an inline link: "<nav><a><span>Beta</span></a>").
func linkHolds(n *html.Node, t string) bool {
	found := false
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A && strings.Contains(domain.NormalizeSpace(nodeText(c)), t) {
			found = true
		}
		return !found
	})
	return found
}

// inMenuEntry reports whether n sits in a link or a list item.
func inMenuEntry(n *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && (a.DataAtom == atom.A || a.DataAtom == atom.Li) {
			return true
		}
	}
	return false
}
