package extract_test

import (
	"encoding/json"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// verbatimReading judges whether a quote is verbatim page text, independently
// of the fetcher's own text of the page (domain.WebPage.Text, which the
// grounding gate uses): it reads the page's HTML again with
// golang.org/x/net/html. A quote is verbatim when, after whitespace
// normalisation, it occurs in the page's text as written (text nodes in
// document order, joined as they stand, with a break around every block
// element and around an inline element that its layout sets apart
// (htmltext.Apart: a flex row's items with a gap, a browser shows a space or
// a new line there); crossing a break is allowed as a space, as the gate
// allows) —
// either with every element's text, hidden ones included, or with the text
// of hidden elements left out (the `hidden` attribute, an inline
// display:none, aria-hidden, a class a <style> sets to display:none), which
// is what a browser shows, without the characters it draws as nothing (soft
// hyphens, zero-width spaces) — or when it occurs in an attribute value as
// written (a relative href is not its resolved absolute URL) or in a string
// of the page's JSON-LD. A quote glued across a hidden element or across two
// blocks without a space ("€29per rider / month") is not verbatim.
type verbatimReading map[string]*pageReading

type pageReading struct {
	texts []string // all text; shown text
	data  []string // attribute values and JSON-LD strings
}

// allVerbatim reports whether every quote of ev is verbatim text of the page
// it names, and else the first that is not.
func (r verbatimReading) allVerbatim(crawl *domain.SiteCrawl, ev []domain.Evidence) (domain.Evidence, bool) {
	for _, e := range ev {
		p := crawl.Page(e.URL)
		if p == nil {
			return e, false
		}
		pr := r[p.URL]
		if pr == nil {
			pr = readPage(p.HTML)
			r[p.URL] = pr
		}
		if !pr.has(e.Quote) {
			return e, false
		}
	}
	return domain.Evidence{}, true
}

func (pr *pageReading) has(quote string) bool {
	q := domain.NormalizeSpace(quote)
	if q == "" {
		return false
	}
	for _, t := range pr.texts {
		if strings.Contains(t, q) || strings.Contains(strings.ReplaceAll(t, "\n", " "), q) {
			return true
		}
	}
	for _, d := range pr.data {
		if strings.Contains(d, q) {
			return true
		}
	}
	return false
}

var hiddenClassRE = regexp.MustCompile(`\.([A-Za-z0-9_-]+)\s*\{[^}]*display\s*:\s*none`)

var blockAtoms = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Br: true, atom.Button: true,
	atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true,
	atom.Noscript: true, atom.Ol: true, atom.Option: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Summary: true,
	atom.Table: true, atom.Tbody: true, atom.Td: true, atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Title: true,
	atom.Tr: true, atom.Ul: true, atom.Label: true, atom.Select: true, atom.Textarea: true,
}

// readPage reads a page's HTML. <noscript> is read as markup (scripting off),
// so its text counts as page text.
func readPage(src string) *pageReading {
	pr := &pageReading{}
	doc, err := html.ParseWithOptions(strings.NewReader(src), html.ParseOptionEnableScripting(false))
	if err != nil {
		return pr
	}
	hiddenClasses := map[string]bool{}
	var styles func(*html.Node)
	styles = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Style && n.FirstChild != nil {
			for _, m := range hiddenClassRE.FindAllStringSubmatch(n.FirstChild.Data, -1) {
				hiddenClasses[m[1]] = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			styles(c)
		}
	}
	styles(doc)
	hidden := func(n *html.Node) bool {
		for _, a := range n.Attr {
			switch a.Key {
			case "hidden":
				return true
			case "aria-hidden":
				if a.Val == "true" {
					return true
				}
			case "style":
				if strings.Contains(strings.ReplaceAll(strings.ToLower(a.Val), " ", ""), "display:none") {
					return true
				}
			case "class":
				for _, c := range strings.Fields(a.Val) {
					if hiddenClasses[c] {
						return true
					}
				}
			}
		}
		return false
	}
	var all, shown strings.Builder
	var walk func(n *html.Node, isHidden bool)
	walk = func(n *html.Node, isHidden bool) {
		switch n.Type {
		case html.TextNode:
			// A browser draws soft hyphens, zero-width spaces, word joiners
			// and byte-order marks as nothing: "Filial&shy;tausch" reads
			// "Filialtausch".
			s := strings.NewReplacer("\u00ad", "", "\u200b", "", "\u2060", "", "\ufeff", "").Replace(n.Data)
			all.WriteString(s)
			if !isHidden {
				shown.WriteString(s)
			}
			return
		case html.ElementNode:
			for _, a := range n.Attr {
				if v := domain.NormalizeSpace(a.Val); v != "" {
					pr.data = append(pr.data, v)
				}
			}
			switch n.DataAtom {
			case atom.Script:
				if n.FirstChild != nil && strings.Contains(strings.ToLower(attr(n, "type")), "ld+json") {
					var v any
					if json.Unmarshal([]byte(n.FirstChild.Data), &v) == nil {
						pr.data = append(pr.data, jsonStrings(v)...)
					}
				}
				return
			case atom.Style, atom.Template:
				return
			}
			isHidden = isHidden || hidden(n)
		}
		block := n.Type == html.ElementNode && (blockAtoms[n.DataAtom] || htmltext.Apart(n) != htmltext.Inline)
		if block {
			all.WriteString("\n")
			shown.WriteString("\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, isHidden)
		}
		if block {
			all.WriteString("\n")
			shown.WriteString("\n")
		}
	}
	walk(doc, false)
	for _, s := range []string{all.String(), shown.String()} {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if l = domain.NormalizeSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		pr.texts = append(pr.texts, strings.Join(lines, "\n"))
	}
	return pr
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// jsonStrings are the string and number values in a JSON document.
func jsonStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if s := domain.NormalizeSpace(x); s != "" {
			out = append(out, s)
		}
	case float64:
		b, _ := json.Marshal(x)
		out = append(out, string(b))
	case []any:
		for _, e := range x {
			out = append(out, jsonStrings(e)...)
		}
	case map[string]any:
		for _, e := range x {
			out = append(out, jsonStrings(e)...)
		}
	}
	return out
}
