// Package htmltext turns an HTML document into a domain.WebPage: its title, its
// visible text in blocks, and the strings it states outside the visible text
// (meta contents, JSON-LD values, link targets, image alt texts). Both are the
// grounding corpus drafted values are checked against, so the rules here decide
// what a drafter may quote.
package htmltext

import (
	"cmp"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Page parses utf8HTML (a document already decoded to UTF-8) read from pageURL
// and fills URL, Title, HTML, Text and Data as domain.WebPage documents them.
// Malformed HTML is parsed the way browsers do; Page never fails.
func Page(pageURL, utf8HTML string) domain.WebPage {
	p := domain.WebPage{URL: pageURL, HTML: utf8HTML}
	doc, err := Parse(utf8HTML)
	if err != nil {
		// html.Parse only fails on reader errors, which a strings.Reader has none of.
		return p
	}
	base, _ := url.Parse(pageURL)
	if b := findBase(doc); b != "" && base != nil {
		if u, err := base.Parse(b); err == nil {
			base = u
		}
	}
	x := &extractor{base: base, seen: map[string]bool{}, sheet: sheetOf(doc)}
	p.Title = x.title(doc)
	if p.Title != "" {
		x.add(p.Title)
	}
	x.walk(doc, false)
	x.flush()
	p.Text = strings.Join(x.lines, "\n")
	p.Data = x.data
	return p
}

// Parse parses a document the way a browser without scripts does, which is
// how the site reader sees it: the content of <noscript> is markup (a
// single-page app's fallback text, its links), not one raw string. Every
// reader of a crawled page parses it with Parse, so that the lines a drafter
// cuts quotes from are the lines of Page's Text.
//
// The tree is normalised as a reader sees the page (normalize): invisible
// format characters are dropped, and text split into aria-hidden pieces under
// an aria-label is that label.
func Parse(utf8HTML string) (*html.Node, error) {
	doc, err := html.ParseWithOptions(strings.NewReader(utf8HTML), html.ParseOptionEnableScripting(false))
	if err == nil {
		normalize(doc)
	}
	return doc, err
}

// Text returns the visible text of the subtree at n as Page computes it for a
// whole document: blocks on their own lines, whitespace-normalised, hidden
// elements left out. A drafter that reads the parsed document quotes from it,
// and each line (or run of lines joined by a space) is then found in the page's Text.
func Text(n *html.Node) string {
	x := &extractor{seen: map[string]bool{}, sheet: sheetOf(n)}
	x.walk(n, false)
	x.flush()
	return strings.Join(x.lines, "\n")
}

// Hidden reports whether n is not rendered: the hidden attribute,
// aria-hidden="true", inline display:none or visibility:hidden, or an element
// whose content is never text (script, style, template, svg, ...).
func Hidden(n *html.Node) bool {
	return n.Type == html.ElementNode && (skipped[n.DataAtom] || isHidden(n))
}

// HiddenGap reports whether n is a hidden element (not one whose content is
// never text) with text in it: Text ends the line before it and starts a new
// one after it.
func HiddenGap(n *html.Node) bool {
	if n.Type != html.ElementNode || skipped[n.DataAtom] || !isHidden(n) {
		return false
	}
	sub := &extractor{seen: map[string]bool{}, sheet: sheetOf(n)}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sub.walk(c, false)
	}
	sub.flush()
	return len(sub.lines) > 0
}

// extractor accumulates the visible text lines and the data strings of one document.
type extractor struct {
	base  *url.URL
	cur   strings.Builder // raw text of the block being read
	lines []string
	data  []string
	seen  map[string]bool
	sheet *sheet // the CSS of the document's <style> elements (sheetOf)
}

// skipped elements never contribute visible text: code, styling, templates,
// graphics and embedded documents.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Svg: true,
	atom.Math: true, atom.Head: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true,
	atom.Select: true, atom.Datalist: true, atom.Audio: true, atom.Video: true,
}

// blocks are the elements that start and end a line of Text. Everything else
// (a, span, strong, em, code, ...) flows inline, so a sentence with a link in
// it stays one quotable line, unless its layout sets it apart (Apart).
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Body: true,
	atom.Br: true, atom.Button: true, atom.Caption: true, atom.Dd: true, atom.Details: true,
	atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Html: true, atom.Label: true, atom.Legend: true, atom.Li: true,
	atom.Main: true, atom.Nav: true, atom.Ol: true, atom.Option: true, atom.P: true, atom.Pre: true,
	atom.Section: true, atom.Summary: true, atom.Table: true, atom.Tbody: true, atom.Td: true,
	atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Tr: true, atom.Ul: true,
}

// metaNames are the meta name/property values whose content is page data.
var metaNames = map[string]bool{"description": true, "keywords": true, "author": true, "application-name": true}

// walk visits n's subtree; hidden is true inside a hidden element, where text
// is not visible but data (links, JSON-LD) still counts: a page states it.
func (x *extractor) walk(n *html.Node, hidden bool) {
	switch n.Type {
	case html.TextNode:
		if !hidden {
			x.cur.WriteString(n.Data)
		}
		return
	case html.ElementNode:
		x.element(n)
		if n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template {
			return
		}
		if skipped[n.DataAtom] || isHidden(n) {
			if !hidden && !skipped[n.DataAtom] {
				// Hidden content (the other price of a monthly/yearly toggle, a
				// closed answer) is not visible text, and it is a gap in it:
				// the text before and after stays apart ("€29" and "per rider",
				// never "€29per rider"). Its own text is page data, block by block.
				x.hiddenBlock(n)
				return
			}
			hidden = true
		}
		if blocks[n.DataAtom] && !hidden {
			x.flush()
			defer x.flush()
		} else if !hidden {
			switch apart(x.sheet, n) {
			case Line:
				x.flush()
				defer x.flush()
			case Space:
				x.cur.WriteByte(' ')
				defer x.cur.WriteByte(' ')
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		x.walk(c, hidden)
	}
}

// hiddenBlock ends the current line at a hidden element, and adds the
// element's text, each of its blocks on its own, to Data.
func (x *extractor) hiddenBlock(n *html.Node) {
	sub := &extractor{base: x.base, seen: x.seen, sheet: x.sheet}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sub.walk(c, false)
	}
	sub.flush()
	if len(sub.lines) > 0 {
		x.flush()
	}
	x.data = append(x.data, sub.data...)
	for _, l := range sub.lines {
		x.add(l)
	}
}

// element records the data an element states in its attributes or, for JSON-LD,
// its content.
func (x *extractor) element(n *html.Node) {
	// An icon with no text of its own is named by its aria-label or title
	// (a plan whose name is only an icon): the name is quotable.
	if label := cmp.Or(attr(n, "aria-label"), attr(n, "title")); label != "" && n.DataAtom != atom.A && !hasText(n) {
		x.add(label)
	}
	switch n.DataAtom {
	case atom.Meta:
		key := strings.ToLower(attr(n, "name"))
		if key == "" {
			key = strings.ToLower(attr(n, "property"))
		}
		if metaNames[key] || strings.HasPrefix(key, "og:") || strings.HasPrefix(key, "twitter:") {
			content := attr(n, "content")
			x.add(content)
			// Images and URLs in meta are often relative; the absolute form is
			// what a drafter proposes as logo_url, so it must be quotable too.
			if strings.HasSuffix(key, ":image") || strings.HasSuffix(key, ":url") || strings.HasSuffix(key, ":video") {
				x.addLink(content)
			}
		}
	case atom.Script:
		if strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") && n.FirstChild != nil {
			var v any
			if json.Unmarshal([]byte(n.FirstChild.Data), &v) == nil {
				x.jsonStrings(v)
			}
		}
	case atom.A, atom.Area:
		x.addLink(attr(n, "href"))
	case atom.Iframe, atom.Video, atom.Source, atom.Embed, atom.Audio:
		x.addLink(attr(n, "src"))
	case atom.Link:
		for _, rel := range strings.Fields(strings.ToLower(attr(n, "rel"))) {
			if rel == "icon" || rel == "apple-touch-icon" || rel == "apple-touch-icon-precomposed" {
				x.addLink(attr(n, "href"))
				x.add(attr(n, "href")) // as written too: a drafter quotes the attribute's own text
				break
			}
		}
	case atom.Img:
		x.add(attr(n, "alt"))
		// A logo's image is what a drafter proposes as logo_url, so its
		// address must be quotable: images named logo or brand, and the
		// images of the header and the navigation (where sites put their
		// logo, often named only after the product).
		if logoImage(n) {
			x.addLink(attr(n, "src"))
			// and as the page writes it: a relative logo is quoted as the
			// attribute's own text, its absolute form is the value.
			x.add(attr(n, "src"))
		}
	}
}

// logoImage reports whether img n is probably the site's logo.
func logoImage(n *html.Node) bool {
	hint := strings.ToLower(attr(n, "alt") + " " + attr(n, "src") + " " + attr(n, "class") + " " + attr(n, "id"))
	if strings.Contains(hint, "logo") || strings.Contains(hint, "brand") {
		return true
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.DataAtom == atom.Header || p.DataAtom == atom.Nav) {
			return true
		}
	}
	return false
}

// jsonStrings adds every string value of a JSON-LD document, recursively.
// URL-valued strings are kept as written (and resolved when relative).
func (x *extractor) jsonStrings(v any) {
	switch v := v.(type) {
	case string:
		x.add(v)
		if strings.HasPrefix(v, "/") {
			x.addLink(v)
		}
	case []any:
		for _, e := range v {
			x.jsonStrings(e)
		}
	case map[string]any:
		for k, e := range v {
			// A price may be a number ("price": 199); it is page data as written.
			if n, ok := e.(float64); ok && priceKeys[k] {
				x.add(strconv.FormatFloat(n, 'f', -1, 64))
				continue
			}
			x.jsonStrings(e)
		}
	}
}

// priceKeys are the Schema.org properties whose numbers are prices.
var priceKeys = map[string]bool{"price": true, "lowPrice": true, "highPrice": true, "minPrice": true, "maxPrice": true}

// addLink adds the absolute form of a link target; fragments-only, javascript:
// and data: targets say nothing about the product and are left out.
func (x *extractor) addLink(ref string) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") {
		return
	}
	u, err := url.Parse(ref)
	if err != nil {
		return
	}
	if x.base != nil {
		u = x.base.ResolveReference(u)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto", "tel":
		x.add(u.String())
	}
}

// add appends s, whitespace-normalised, to Data once.
func (x *extractor) add(s string) {
	s = domain.NormalizeSpace(s)
	if s == "" || x.seen[s] {
		return
	}
	x.seen[s] = true
	x.data = append(x.data, s)
}

// flush ends the current block: its text becomes one line when not blank.
func (x *extractor) flush() {
	if x.cur.Len() == 0 {
		return
	}
	if s := domain.NormalizeSpace(x.cur.String()); s != "" {
		x.lines = append(x.lines, s)
	}
	x.cur.Reset()
}

// title returns the document's <title>, outside svg (whose <title> is a tooltip).
func (x *extractor) title(doc *html.Node) string {
	var found string
	var visit func(*html.Node) bool
	visit = func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.Svg {
			return false
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Title {
			found = domain.NormalizeSpace(textOf(n))
			return true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if visit(c) {
				return true
			}
		}
		return false
	}
	visit(doc)
	return found
}

// findBase returns the href of the document's first <base>, or "".
func findBase(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.Base {
		if h := attr(n, "href"); h != "" {
			return h
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if h := findBase(c); h != "" {
			return h
		}
	}
	return ""
}

// isHidden reports whether an element is not rendered: the hidden attribute,
// aria-hidden="true", an inline display:none / visibility:hidden, or
// Alpine.js's x-cloak (hidden by the page's [x-cloak] rule until a script
// shows it: the other side of a monthly/yearly toggle).
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden", "x-cloak":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			s := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		case "type":
			if n.DataAtom == atom.Input && strings.EqualFold(a.Val, "hidden") {
				return true
			}
		}
	}
	return false
}

// hasText reports whether n holds a text node that is not blank.
func hasText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" || c.Type == html.ElementNode && hasText(c) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(n)
	return b.String()
}
