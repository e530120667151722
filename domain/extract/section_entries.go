package extract

// Dated entries and FAQ markup of changelogs, timelines and FAQ pages
// (moved from section_rules.go unchanged).

import (
	"regexp"
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
	for a := n; a != nil && !isUnder(h, a); a = a.Parent {
		if a.DataAtom == atom.Article || a.DataAtom == atom.Li || a.DataAtom == atom.Section {
			return true
		}
	}
	return false
}

var bareYearRe = regexp.MustCompile(`^((?:19|20)\d\d)\.?$`)

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
