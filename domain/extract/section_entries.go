package extract

// Dated entries and FAQ markup of changelogs, timelines and FAQ pages
// (moved from section_rules.go unchanged).

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dateUnderHeading: a changelog entry whose heading is its title and whose
// first or second line is only its date (a <time> or a dateline); the line
// after the date is the description.
func dateUnderHeading(seg *segment) (date, dateLine, desc string, ok bool) {
	if seg.title == "" || len(strings.Fields(seg.title)) > 12 {
		return "", "", "", false
	}
	for i, l := range seg.lines {
		if i == 2 {
			break
		}
		d, rest, found := findDate(l.text, true)
		if !found || l.foreign || l.footer || len(strings.Fields(rest)) > 2 {
			continue
		}
		if otherEntry(l.node, seg.node) {
			break // the next entry's date, above its own heading
		}
		if i+1 < len(seg.lines) && !seg.lines[i+1].footer {
			desc = seg.lines[i+1].text
		}
		return d, l.text, desc, true
	}
	return "", "", "", false
}

// otherEntry reports whether n lies in an entry (article, list item,
// section) that does not hold the heading h: "<article><h2>A</h2></article>
// <article><p>date</p><h2>B</h2></article>" gives B's date, never A's.
func otherEntry(n, h *html.Node) bool {
	if n == nil || h == nil {
		return false
	}
	var top *html.Node // n's ancestor just below the element holding both
	for a := n; a != nil && !isUnder(h, a); a = a.Parent {
		if a.DataAtom == atom.Article || a.DataAtom == atom.Li || a.DataAtom == atom.Section {
			return true
		}
		top = a
	}
	// Entries of divs, as site builders write them ("<div class=entry><p>date</p>
	// <h3>B</h3></div>" after A's): the date's branch is a sibling of the
	// heading's of the same tag, with a heading of its own.
	if top != nil && top.Parent != nil {
		for b := h; b != nil; b = b.Parent {
			if b.Parent == top.Parent {
				return b.Type == html.ElementNode && b.DataAtom == top.DataAtom && hasHeading(top)
			}
		}
	}
	return false
}

var bareYearRe = lazyMustCompile(`^((?:19|20)\d\d)\.?$`)

// bareDate reads a timeline term that is only a year ("2019") or a month
// and year; the event is the description that follows it.
func bareDate(s string) (date, rest string, ok bool) {
	if m := bareYearRe.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		return m[1] + "-01-01", "", true
	}
	return "", "", false
}

// microdataFAQs reads schema.org Question items in microdata
// (itemtype …/Question, itemprop name, acceptedAnswer → text): pairs of
// question and answer, as the page shows them.
func microdataFAQs(p *page) [][2]string {
	var out [][2]string
	forEach(p.doc, false, func(n *html.Node) bool {
		if !strings.HasSuffix(strings.TrimRight(attr(n, "itemtype"), "/"), "/Question") {
			return true
		}
		var q, a string
		forEach(n, false, func(c *html.Node) bool {
			props := strings.Fields(attr(c, "itemprop"))
			switch {
			case q == "" && slices.Contains(props, "name"):
				q = nodeText(c)
				return false
			case a == "" && slices.Contains(props, "acceptedAnswer"):
				forEach(c, false, func(t *html.Node) bool {
					if a == "" && slices.Contains(strings.Fields(attr(t, "itemprop")), "text") {
						a = nodeText(t)
					}
					return a == ""
				})
				if a == "" {
					a = nodeText(c)
				}
				return false
			}
			return true
		})
		if q != "" && a != "" {
			out = append(out, [2]string{q, a})
		}
		return false
	})
	return out
}

// dateAboveHeading reads an entry whose date is written above its heading
// inside the entry ("<div class=entry><p>Apr 29, 2025</p><h3>Scheduled
// publishing</h3><p>…</p></div>", as page builders lay out changelogs): the
// last line of the previous segment is only a date, and the element holding
// it and the heading is one of two or more sibling entries of its tag.
func dateAboveHeading(prev, seg *segment) (date, dateLine, desc string, ok bool) {
	if prev == nil || len(prev.lines) == 0 || seg.node == nil || seg.title == "" || len(strings.Fields(seg.title)) > 12 {
		return "", "", "", false
	}
	l := prev.lines[len(prev.lines)-1]
	if l.node == nil || l.foreign || l.footer || !wholeDate(l.text) {
		return "", "", "", false
	}
	d, _, found := findDate(l.text, false)
	if !found {
		return "", "", "", false
	}
	entry := l.node
	for entry != nil && !isUnder(seg.node, entry) {
		entry = entry.Parent
	}
	if entry == nil || entry.Parent == nil || entry.DataAtom == atom.Body || entry.DataAtom == atom.Main {
		return "", "", "", false
	}
	same := 0
	for c := entry.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == entry.DataAtom && hasHeading(c) {
			same++
		}
	}
	if same < 2 {
		return "", "", "", false
	}
	if len(seg.lines) > 0 && !seg.lines[0].footer && isUnder(seg.lines[0].node, entry) {
		desc = seg.lines[0].text
	}
	return d, l.text, desc, true
}
