package htmltext

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page's own CSS, in its <style> elements, lays out rows the way utility
// classes do: ".footer-bottom{display:flex;justify-content:space-between}".
// sheet is what those elements say of each class, for layoutOf. Only rules
// whose selector is one class (".x"), a tag with one class ("div.x") or a
// list of them (".a, .b") are read: the text is read element by element,
// and these need nothing but the element to match. Rules in @media count
// when the query holds at a desktop width (mediaDesktop); other at-rules
// and nested rules are left out. No stylesheet is fetched.
type sheet struct {
	classes map[string][]rule // by lower-cased class name
}

// rule is one declaration of a class's rule: tag is the tag the selector
// names (0 for any), rank orders declarations as the cascade does (a tag
// with a class over a class alone, then the later one).
type rule struct {
	tag       atom.Atom
	prop, val string
	rank      int
}

// maxStyleBytes bounds the CSS read per page, over all its <style>
// elements in document order. A theme's or a framework's inlined CSS runs to
// tens of KiB, and the rules of a footer tend to come last, so the bound is
// wide: 128 KiB of class rules cost about 6 ms of CPU to read
// (BenchmarkPage_StyleElement), once per page. Past it, rules are left out.
const maxStyleBytes = 128 << 10

// sheetOf returns the sheet of the document n belongs to, read once per
// document: the last one read is kept, and the others by a weak reference
// to the document's root, so a sheet lives as long as its tree.
func sheetOf(n *html.Node) *sheet {
	root := n
	for root.Parent != nil {
		root = root.Parent
	}
	if last := lastSheet.Load(); last != nil && last.root == root {
		return last.s
	}
	key := weak.Make(root)
	sheetsMu.Lock()
	s, ok := sheets[key]
	sheetsMu.Unlock()
	if !ok {
		s = readSheet(root)
		sheetsMu.Lock()
		if _, dup := sheets[key]; !dup {
			sheets[key] = s
			runtime.AddCleanup(root, func(k weak.Pointer[html.Node]) {
				sheetsMu.Lock()
				delete(sheets, k)
				sheetsMu.Unlock()
			}, key)
		}
		sheetsMu.Unlock()
	}
	lastSheet.Store(&sheetEntry{root: root, s: s})
	return s
}

type sheetEntry struct {
	root *html.Node
	s    *sheet
}

var (
	lastSheet atomic.Pointer[sheetEntry]
	sheetsMu  sync.Mutex
	sheets    = map[weak.Pointer[html.Node]]*sheet{}
)

// readSheet reads the <style> elements of root's tree, in document order,
// up to maxStyleBytes. A page without one has a nil sheet.
func readSheet(root *html.Node) *sheet {
	var s *sheet
	budget, order := maxStyleBytes, 0
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if budget <= 0 || n.Type == html.ElementNode && (n.DataAtom == atom.Noscript || n.DataAtom == atom.Template || n.DataAtom == atom.Svg) {
			return
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Style {
			if !screenMedia(attr(n, "media")) {
				return
			}
			text := textOf(n)
			if len(text) > budget {
				text = text[:budget]
			}
			budget -= len(text)
			if s == nil {
				s = &sheet{classes: map[string][]rule{}}
			}
			order = s.read(text, order)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(root)
	return s
}

// screenMedia reports whether a <style> element's media attribute holds on
// a screen: none, "all", "screen" or a query that holds at a desktop width.
func screenMedia(m string) bool {
	m = strings.ToLower(strings.TrimSpace(m))
	return m == "" || m == "all" || m == "screen" || m == "only screen" || mediaDesktop(strings.Fields(m))
}

// read adds the rules of one style element's CSS, ranking them from order
// on, and returns the next rank.
func (s *sheet) read(text string, order int) int {
	p := css.NewParser(parse.NewInputString(text), false)
	// the blocks open around the parser: a ruleset's selectors that are
	// read, or nil (an at-rule, a ruleset that is not read)
	var open []*[]selector
	skipFrom := -1 // the number of open blocks from which blocks are left out
	// every grammar the parser returns consumes a token of the text: the
	// bound makes sure of the end on malformed CSS
	for range len(text) + 16 {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if !p.HasParseError() {
				return order // the end of the text (io.EOF)
			}
		case css.BeginAtRuleGrammar:
			open = append(open, nil)
			if skipFrom < 0 && (string(data) != "@media" || !mediaDesktop(tokenWords(p.Values()))) {
				skipFrom = len(open)
			}
		case css.BeginRulesetGrammar:
			nested := slices.ContainsFunc(open, func(b *[]selector) bool { return b != nil })
			var sels []selector
			if skipFrom < 0 && !nested {
				sels = parseSelectors(p.Values())
			}
			open = append(open, &sels)
			if skipFrom < 0 && sels == nil {
				skipFrom = len(open)
			}
		case css.EndAtRuleGrammar, css.EndRulesetGrammar:
			if len(open) == skipFrom {
				skipFrom = -1
			}
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case css.DeclarationGrammar:
			prop := string(data)
			if skipFrom >= 0 || len(open) == 0 || open[len(open)-1] == nil || !layoutProp(prop) {
				continue
			}
			val := declValue(p.Values())
			for _, sel := range *open[len(open)-1] {
				rank := order
				if sel.tag != 0 {
					rank += 1 << 30 // a tag and a class are more specific than a class
				}
				s.classes[sel.class] = append(s.classes[sel.class], rule{tag: sel.tag, prop: prop, val: val, rank: rank})
			}
			order++
		}
	}
	return order
}

// selector is one selector of a rule that is read: a class, with a tag or without.
type selector struct {
	tag   atom.Atom
	class string
}

// parseSelectors reads a rule's selector list; nil when none of its
// selectors is one class or a tag with one class.
func parseSelectors(toks []css.Token) []selector {
	var out []selector
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i].TokenType != css.CommaToken {
			continue
		}
		if sel, ok := oneClass(toks[start:i]); ok {
			out = append(out, sel)
		}
		start = i + 1
	}
	return out
}

// oneClass reads ".x" or "tag.x", whitespace around them left out.
func oneClass(toks []css.Token) (selector, bool) {
	for len(toks) > 0 && toks[0].TokenType == css.WhitespaceToken {
		toks = toks[1:]
	}
	for len(toks) > 0 && toks[len(toks)-1].TokenType == css.WhitespaceToken {
		toks = toks[:len(toks)-1]
	}
	var sel selector
	if len(toks) == 3 && toks[0].TokenType == css.IdentToken {
		sel.tag = atom.Lookup(toks[0].Data)
		if sel.tag == 0 {
			return sel, false
		}
		toks = toks[1:]
	}
	if len(toks) != 2 || toks[0].TokenType != css.DelimToken || string(toks[0].Data) != "." || toks[1].TokenType != css.IdentToken {
		return sel, false
	}
	sel.class = strings.ToLower(string(toks[1].Data))
	return sel, true
}

// layoutProp reports whether layoutOf reads prop.
func layoutProp(prop string) bool {
	switch prop {
	case "display", "gap", "column-gap", "grid-gap", "grid-column-gap", "flex-direction", "flex-flow", "justify-content",
		"margin", "margin-left", "margin-right", "margin-inline", "margin-inline-start", "margin-inline-end",
		"padding", "padding-left", "padding-right", "padding-inline", "padding-inline-start", "padding-inline-end":
		return true
	}
	return false
}

// declValue is a declaration's value as layoutOf reads an inline style's:
// lower-cased, its parts one space apart.
func declValue(toks []css.Token) string {
	return strings.Join(tokenWords(toks), " ")
}

// tokenWords are the tokens' texts, lower-cased, whitespace left out and
// "!important" dropped.
func tokenWords(toks []css.Token) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.TokenType == css.WhitespaceToken:
			continue
		case t.TokenType == css.DelimToken && string(t.Data) == "!":
			i++ // "important"
			continue
		}
		out = append(out, strings.ToLower(string(t.Data)))
	}
	return out
}

// mediaDesktop reports whether a media query's words hold on a screen
// 1024px wide and wider: "screen", "all", "only", "and" and "(min-width:
// N)" with N up to 1024px (64em). Anything else (max-width, print,
// orientation, a list of queries, "not") does not count.
func mediaDesktop(words []string) bool {
	if len(words) == 0 {
		return false
	}
	for i := 0; i < len(words); i++ {
		switch words[i] {
		case "screen", "all", "only", "and":
			continue
		case "(":
			// "(" "min-width" ":" N ")"
			if i+4 >= len(words) || words[i+1] != "min-width" || words[i+2] != ":" || words[i+4] != ")" || !desktopWidth(words[i+3]) {
				return false
			}
			i += 4
		default:
			return false
		}
	}
	return true
}

// desktopWidth reports whether a min-width is 1024px (64em) or less.
func desktopWidth(v string) bool {
	px, ok := pixels(v)
	return ok && px <= 1024
}

// declarations returns the declarations the sheet gives an element with
// tag a and the lower-cased class tokens, the winner of each property
// only, or nil.
func (s *sheet) declarations(a atom.Atom, class string) map[string]rule {
	var won map[string]rule
	for tok := range strings.FieldsSeq(class) {
		for _, r := range s.classes[tok] {
			if r.tag != 0 && r.tag != a {
				continue
			}
			if old, ok := won[r.prop]; ok && old.rank > r.rank {
				continue
			}
			if won == nil {
				won = map[string]rule{}
			}
			won[r.prop] = r
		}
	}
	return won
}
