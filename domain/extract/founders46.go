package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Person cards as site builders write them:
//   - a name broken over lines for the design ("Wren<br>Castellano" in a
//     Squarespace list title): an element whose only content is one-word
//     texts between <br>s is one name, read with a space where the break is
//     (the gate reads a run of lines joined by a space);
//   - a title that goes on with a sentence ("Co-founder and CEO. Ran gates
//     at Riverbend Fest for nine summers." in an Elementor image box): the
//     first sentence is the title when it is one.

// brName returns the words of an element made only of one-word texts
// split by <br> (two or three of them), joined by spaces, and its first
// text node; "" when n is not such an element.
func brName(n *html.Node) (string, *html.Node) {
	var words []string
	var first *html.Node
	brs := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			t := strings.TrimSpace(c.Data)
			if t == "" {
				continue
			}
			if strings.ContainsFunc(t, unicode.IsSpace) || len(words) > brs {
				return "", nil // more than one word between breaks
			}
			if first == nil {
				first = c
			}
			words = append(words, t)
		case c.Type == html.ElementNode && c.DataAtom == atom.Br:
			brs++
		default:
			return "", nil
		}
	}
	if brs == 0 || len(words) < 2 || len(words) > 3 {
		return "", nil
	}
	return strings.Join(words, " "), first
}

// leadingTitle returns the first sentence of a card's text when the text
// goes on after it ("Co-founder and CEO. Ran gates ..."), "" otherwise.
func leadingTitle(t string) string {
	i := strings.Index(t, ". ")
	if i <= 0 || utf8.RuneCountInString(t[:i]) > 60 {
		return ""
	}
	rest := strings.TrimSpace(t[i+2:])
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsUpper(r) {
		return ""
	}
	return domain.NormalizeSpace(t[:i])
}
