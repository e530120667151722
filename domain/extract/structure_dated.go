package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Dated entries that are not the product's own events, whatever path they
// come by (changelog headings, news lists, dated table rows, timelines).

// newsy reports whether p is a news or updates page by its path or its h1.
func newsy(p *page) bool {
	return newsPathRe.MatchString(p.base.Path) || slices.ContainsFunc(p.segs, func(seg *segment) bool {
		return seg.level == 1 && newsHdr.MatchString(seg.title)
	})
}

// notice reports whether a dated entry's title is a service notice, an
// appearance in the media, or an event (a webinar, a seminar, a trade fair,
// a conference): news of a day, not a step in the product's history.
func notice(title string) bool {
	return patchTag.MatchString(title) || noticeRe.MatchString(title) || eventRe.MatchString(title)
}

// eventRe: an event to attend (a trade fair, a conference, a meetup) in the
// languages of the sets.
var eventRe = lazyMustCompile(`(?i)trade (?:fair|show)|conference|meetup|meet us at|join us at|\bmesse\b|salon professionnel|\bferia\b|\bfiera\b|\bbeurs\b|` +
	`\btarg(?:i|ach|ów|u)\b|konferencj|spotkaj(?:my)? się|mässa|mässan|konferens|veletrh|konferenc|\bfuar|konferans|messut|messer|vásár|târg|pameran|hội chợ|hội thảo|展示会|カンファレンス|展会|博览会|峰会|박람회|컨퍼런스|전시회`)

// ownEntry reports whether a dated heading on a page that is a changelog
// only by its structure names the product or a version.
func (s *site) ownEntry(title string) bool {
	return s.namedIn(title) || versionRe.MatchString(title)
}

// leadingDate reads an entry that opens with an element of its own holding
// only a year or a date ("<li><strong>2019</strong> Founded in Bristol.</li>",
// "<span class=year>2021</span>", "<time>2017</time>"): a timeline's entry,
// whatever its words. rest is the entry's text after the date.
func leadingDate(n *html.Node, text string) (date, rest string, ok bool) {
	if n == nil {
		return "", "", false
	}
	var first *html.Node
	for c := n.FirstChild; c != nil && first == nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return "", "", false
		case c.Type == html.ElementNode:
			first = c
		}
	}
	if first == nil || !dateOnlyElement[first.DataAtom] && first.DataAtom != atom.Time {
		return "", "", false
	}
	dt := domain.NormalizeSpace(nodeText(first))
	if d, _, ok := bareDate(dt); ok {
		date = d
	} else if wholeDate(dt) {
		date, _, _ = findDate(dt, false)
	}
	if date == "" || !strings.HasPrefix(text, dt) {
		return "", "", false
	}
	rest = trimDateSep(text[len(dt):])
	return date, rest, rest != ""
}

// timelineEntry is one entry of a timeline list: its date, its text after
// the date, and the entry's whole text (the quote).
type timelineEntry struct{ date, rest, quote string }

// timelineLists reads lists that are timelines by their structure, whatever
// their heading says ("Vår resa", "Our journey"): an <ol> or <ul> of three
// or more items, each opening with an element of its own that holds only a
// year or a date. Lists in the navigation, header or footer, and on blog or
// pricing pages, are not read.
func timelineLists(p *page) []timelineEntry {
	if p.kind == kindBlog || p.kind == kindPricing || blogIndex(p) {
		return nil
	}
	var out []timelineEntry
	changes := p.kind == kindChangelog || changelogPage(p) || newsy(p)
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.DataAtom == atom.Div || n.DataAtom == atom.Section {
			if changes {
				return true // a changelog's or a news page's blocks: datedBlocks reads them
			}
			// "<div class=timeline><div><div>2017</div><div>…</div></div>…": a
			// timeline of blocks, read like a list's items
			if items := divTimeline(n); len(items) >= 3 && !foreign(n) && !within(n, atom.Nav, atom.Header, atom.Footer) {
				out = append(out, items...)
				return false
			}
			return true
		}
		if n.DataAtom != atom.Ol && n.DataAtom != atom.Ul && n.DataAtom != atom.Dl {
			return true
		}
		if foreign(n) || within(n, atom.Nav, atom.Header, atom.Footer) {
			return false
		}
		if n.DataAtom == atom.Dl {
			// "<dt>2020</dt><dd>Wavelet starts as a plugin.</dd>": every term a year or a date.
			if items := dlTimeline(n); len(items) >= 3 {
				out = append(out, items...)
			}
			return false
		}
		var items []timelineEntry
		all := true
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.DataAtom != atom.Li {
				continue
			}
			text := domain.NormalizeSpace(nodeText(c))
			d, rest, ok := leadingDate(c, text)
			if !ok {
				all = false
				break
			}
			items = append(items, timelineEntry{d, rest, text})
		}
		if all && len(items) >= 3 {
			out = append(out, items...)
		}
		return false
	})
	return out
}

// divTimeline reads a block whose element children are all entries that
// open with an element holding only a year or a date (three or more), or nil.
func divTimeline(n *html.Node) []timelineEntry {
	var items []timelineEntry
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return nil
		case c.Type != html.ElementNode:
			continue
		case c.DataAtom != atom.Div && c.DataAtom != atom.Article:
			return nil
		}
		text := domain.NormalizeSpace(nodeText(c))
		d, rest, ok := leadingDate(c, text)
		if !ok {
			return nil
		}
		items = append(items, timelineEntry{d, rest, text})
	}
	return items
}

// datedBlocks reads the rows of a changelog or news page built of blocks
// rather than a table or a list: a <dl> of a date term and its entry
// ("<dt>2025.04.15</dt><dd>…をリリースしました</dd>"), and an element whose
// child blocks are a date, the entry's text and perhaps its version
// ("<div class=row><div>v3.0</div><div>2025-04-08</div><div>Streaming
// replication …</div></div>"). A patch release, a notice or an event is
// none; keep, when given, must accept the title.
func datedBlocks(p *page) []timelineEntry {
	if !changelogPage(p) && !newsy(p) {
		return nil
	}
	var out []timelineEntry
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.Type != html.ElementNode || foreign(n) || within(n, atom.Nav, atom.Header, atom.Footer) {
			return n.Type == html.DocumentNode
		}
		if n.DataAtom == atom.Dl {
			var dt string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				switch c.DataAtom {
				case atom.Dt:
					dt = domain.NormalizeSpace(nodeText(c))
				case atom.Dd:
					title := domain.NormalizeSpace(nodeText(c))
					if wholeDate(dt) && title != "" && !notice(title) {
						if d, _, ok := findDate(dt, false); ok && strings.Contains(dt, d[:4]) {
							out = append(out, timelineEntry{d, title, dt})
						}
					}
					dt = ""
				}
			}
			return false
		}
		if n.DataAtom != atom.Div && n.DataAtom != atom.Li && n.DataAtom != atom.Article {
			return true
		}
		var blocks []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
				return true
			case c.Type == html.ElementNode:
				if c.DataAtom != atom.Div && c.DataAtom != atom.Span && c.DataAtom != atom.P || hasElementChild(c, atom.Div, atom.P, atom.Ul, atom.Ol) {
					return true
				}
				blocks = append(blocks, domain.NormalizeSpace(nodeText(c)))
			}
		}
		if len(blocks) < 2 || len(blocks) > 3 {
			return true
		}
		var date, dateText, title string
		for _, b := range blocks {
			switch {
			case wholeDate(b) && date == "":
				date, _, _ = findDate(b, false)
				dateText = b
			case versionOnly(b):
				if patchTag.MatchString(b) {
					return false
				}
			case title == "":
				title = b
			default:
				return true
			}
		}
		if date != "" && title != "" && !notice(title) && strings.Contains(dateText, date[:4]) {
			out = append(out, timelineEntry{date, title, dateText})
		}
		return false
	})
	if len(out) < 2 {
		return nil
	}
	return out
}

// hasElementChild reports whether n has a child element of one of the kinds.
func hasElementChild(n *html.Node, kinds ...atom.Atom) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && slices.Contains(kinds, c.DataAtom) {
			return true
		}
	}
	return false
}

// dlTimeline reads a definition list whose every term is a year or a date
// and whose descriptions are the entries; nil when a term is anything else.
func dlTimeline(n *html.Node) []timelineEntry {
	var out []timelineEntry
	dt := ""
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.DataAtom {
		case atom.Dt:
			dt = domain.NormalizeSpace(nodeText(c))
			if _, _, ok := bareDate(dt); !ok && !wholeDate(dt) {
				return nil
			}
		case atom.Dd:
			text := domain.NormalizeSpace(nodeText(c))
			d, _, ok := bareDate(dt)
			if !ok {
				d, _, ok = findDate(dt, false)
			}
			if ok && text != "" {
				out = append(out, timelineEntry{d, text, dt})
			}
			dt = ""
		}
	}
	return out
}
