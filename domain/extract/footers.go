package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain/htmltext"
)

// A page's footer is where a site states its own company, town, legal links
// and profiles. Sites write it as a <footer>, or as a div: named for it in
// English or the site's language ("site-bottom", "colophon", "fusszeile",
// "sidfot"), marked role="contentinfo", or only the closing block of the
// body, after the content, holding the copyright or the legal links.

// footerRoot reports whether n is a footer by its tag, role or name.
func footerRoot(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.DataAtom == atom.Footer || strings.EqualFold(strings.TrimSpace(attr(n, "role")), "contentinfo") {
		return true
	}
	return footerNamed(attr(n, "id")) || footerNamed(attr(n, "class"))
}

// footerNames are the words of a footer's class or id (beside "footer",
// which the segmenter has always read in any class or id of a line's
// ancestors): WordPress's colophon, bottom bars, and "footer" in the
// languages of the sets.
var footerNames = map[string]bool{
	"colophon": true, "site-bottom": true, "sitebottom": true, "bottom-bar": true, "bottombar": true, "page-bottom": true,
	"fuss": true, "fusszeile": true, "fussbereich": true, "pied": true, "pied-de-page": true, "piedepage": true,
	"pie-de-pagina": true, "rodape": true, "voettekst": true, "stopka": true, "sidfot": true, "sidfoten": true,
	"bunntekst": true, "bunnlinje": true, "sidefod": true, "alatunniste": true, "zapati": true, "paticka": true,
}

// footerNamed reports whether a class or id attribute names a footer: one
// of its tokens, or the first part of a BEM token ("sidfot__rad").
func footerNamed(attrVal string) bool {
	for _, tok := range strings.Fields(strings.ToLower(attrVal)) {
		head, _, _ := strings.Cut(tok, "__")
		if footerNames[tok] || footerNames[head] {
			return true
		}
	}
	return false
}

// closingBlock returns the closing block of doc's body: its last element
// with text (or the last of its one wrapper's, "#__next", "#page"), when
// there are blocks before it, it is not the content itself (main, article,
// a section with an h1 or h2) nor the header, it holds the copyright, the legal links or an address,
// and it is smaller than the rest of the page. Otherwise nil.
func closingBlock(doc *html.Node) *html.Node {
	n := findElement(doc, atom.Body)
	for n != nil {
		kids := shownChildren(n)
		if len(kids) == 1 && (kids[0].DataAtom == atom.Div || kids[0].DataAtom == atom.Section) {
			n = kids[0] // a page wrapper
			continue
		}
		if len(kids) < 2 {
			return nil
		}
		last := kids[len(kids)-1]
		switch last.DataAtom {
		case atom.Main, atom.Article, atom.Header, atom.Nav, atom.Aside, atom.Form, atom.Dialog:
			return nil
		}
		// a section under its own title ("About", a one-page site's last
		// section ending in its copyright) is content
		if findElement(last, atom.H1) != nil || findElement(last, atom.H2) != nil {
			return nil
		}
		text := htmltext.Text(last)
		if !closingWords(last, text) || 2*len(text) > shownLen(n) {
			return nil
		}
		return last
	}
	return nil
}

// shownChildren are n's element children that show text.
func shownChildren(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !htmltext.Hidden(c) && c.DataAtom != atom.Noscript && showsText(c) {
			out = append(out, c)
		}
	}
	return out
}

// showsText reports whether n holds visible text.
func showsText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return true
		case c.Type == html.ElementNode && !htmltext.Hidden(c) && showsText(c):
			return true
		}
	}
	return false
}

// shownLen is about the length of n's visible text (its text nodes
// outside hidden elements, trimmed), without building its lines.
func shownLen(n *html.Node) int {
	total := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			total += len(strings.TrimSpace(c.Data))
		case c.Type == html.ElementNode && !htmltext.Hidden(c):
			total += shownLen(c)
		}
	}
	return total
}

// closingWords reports whether a block closes a page: a copyright, a link
// to the legal pages, or an address.
func closingWords(n *html.Node, text string) bool {
	if copyrightRe.MatchString(text) || findElement(n, atom.Address) != nil {
		return true
	}
	legal := false
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A && legalLinkRe.MatchString(attr(c, "href")+" "+nodeText(c)) {
			legal = true
		}
		return !legal
	})
	return legal
}

// legalLinkRe: a link to a site's legal pages, by its path or its text.
var legalLinkRe = lazyMustCompile(`(?i)privacy|terms|imprint|impressum|datenschutz|\bagb\b|legal|mentions|cookie|` +
	`confidentialit|privacidad|privacidade|termos|t[ée]rminos|\bcgu\b|\bcgv\b|privacy|voorwaarden|personvern|vilk[aå]r|villkor|` +
	`integritet|privatliv|polityka|regulamin|podm[ií]nky|ochrana|gizlilik|kvkk|kullan[ıi]m`)

// findElement returns the first element of n's subtree (n included) with tag a.
func findElement(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findElement(c, a); f != nil {
			return f
		}
	}
	return nil
}
