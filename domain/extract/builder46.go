package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// The main heading of a home page built without <h1>: site builders style
// a div or a paragraph as the heading ("heading-style-h1" in Webflow's
// Client-First, "heading-xl", "text-5xl" in Tailwind, "hero__title",
// "display-1", an Elementor heading widget rendered as a div with
// "elementor-size-xxl", role="heading" aria-level="1"). The first such line
// among the home page's first lines is its main heading.

// styledH1Re: a class token that styles an element as a page's main heading.
var styledH1Re = lazyMustCompile(`(?i)^(?:h1|heading-style-h1|heading-h1|heading-xl|heading-xxl|heading-large|heading-1|display-?[1-3]|text-display|hero-?_*(?:title|heading|headline)|text-[5-9]xl|elementor-size-(?:xl|xxl))$`)

// styledHeadingLines is how many lines from the top of the home page the
// styled heading may stand (below the header and its mobile copy).
const styledHeadingLines = 15

// styledHeading returns the home page's first line that an element styled
// as a main heading holds, "" when there is none.
func styledHeading(home *page) string {
	n := 0
	for _, seg := range home.segs {
		if seg.level > 0 {
			return "" // a real heading comes first: the page has its structure
		}
		for _, l := range seg.lines {
			if n++; n > styledHeadingLines {
				return ""
			}
			if l.foreign || l.footer || l.node == nil || !styledH1(l.node) {
				continue
			}
			if w := textWords(l.text); w >= 2 && w <= 16 && !strings.HasSuffix(l.text, ".") {
				return l.text
			}
		}
	}
	return ""
}

// styledH1 reports whether n is styled as a page's main heading.
func styledH1(n *html.Node) bool {
	if strings.EqualFold(attr(n, "role"), "heading") && attr(n, "aria-level") == "1" {
		return true
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if styledH1Re.MatchString(c) {
			return true
		}
	}
	return false
}
