package htmltext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// invisibleChars are format characters a browser draws as nothing: the soft
// hyphen (a hyphenation hint, "Schicht&shy;planung"), the zero-width space
// (a line-break hint, and the "wixGuard" of empty paragraphs), the word
// joiner and the byte-order mark. A reader sees "Schichtplanung", so the
// text drafted and quoted is that word, not two pieces and not a word with a
// hidden character in it. Zero-width joiners and non-joiners are kept: they
// change how letters join in some scripts.
const invisibleChars = "\u00ad\u200b\u2060\ufeff"

// normalize rewrites a parsed document as a reader sees it, before any text
// is taken from it: invisible format characters are dropped from text, and an
// element whose every letter sits in aria-hidden pieces (a heading split
// letter by letter or word by word for an animation, the sentence kept whole
// in its aria-label) holds its label as its one text.
func normalize(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.ContainsAny(c.Data, invisibleChars) {
				c.Data = strings.Map(dropInvisible, c.Data)
			}
		case html.ElementNode:
			if labelled(c) {
				for g := c.FirstChild; g != nil; g = c.FirstChild {
					c.RemoveChild(g)
				}
				c.AppendChild(&html.Node{Type: html.TextNode, Data: attr(c, "aria-label")})
				continue
			}
			normalize(c)
		}
	}
}

func dropInvisible(r rune) rune {
	if strings.ContainsRune(invisibleChars, r) {
		return -1
	}
	return r
}

// splitTextHosts are the elements whose aria-label may stand for their split
// text: headings, paragraphs and plain containers, never a link, a button or
// a landmark (whose aria-label names the control or the region, not its text).
var splitTextHosts = map[atom.Atom]bool{
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.P: true, atom.Div: true, atom.Span: true,
}

// labelled reports whether n is an element with an aria-label whose text is
// all inside aria-hidden descendants (and there is some).
func labelled(n *html.Node) bool {
	if !splitTextHosts[n.DataAtom] || strings.TrimSpace(attr(n, "aria-label")) == "" || isHidden(n) {
		return false
	}
	hiddenText := false
	var visible func(*html.Node) bool
	visible = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
				return true
			case c.Type == html.ElementNode && strings.EqualFold(attr(c, "aria-hidden"), "true"):
				hiddenText = hiddenText || hasText(c)
			case c.Type == html.ElementNode && !skipped[c.DataAtom] && visible(c):
				return true
			}
		}
		return false
	}
	return !visible(n) && hiddenText
}
