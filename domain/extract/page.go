package extract

import (
	"encoding/json"
	"iter"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// Page kinds, from the URL path: they decide which facts a page may give
// (prices only from pricing pages and sections, never from the blog; founders
// only from team/about pages or founding statements; ...).
const (
	kindHome      = "home"
	kindAbout     = "about"
	kindTeam      = "team"
	kindPricing   = "pricing"
	kindFAQ       = "faq"
	kindChangelog = "changelog"
	kindContact   = "contact"
	kindFeatures  = "features"
	kindBlog      = "blog"
	kindOther     = "other"
)

var kindPatterns = []struct {
	kind string
	re   *lazyRegexp
}{
	{kindBlog, lazyMustCompile(`(?i)/(blog|news|posts?|articles?|stories|press` + blogPathMore + `)(/|$)`)},
	{kindPricing, lazyMustCompile(`(?i)(pricing|prices|plans|preise|tarife|tarifs)`)},
	{kindTeam, lazyMustCompile(`(?i)(team|people|founders|leadership)|/(?:tym|nas-tym|zespol|ekip|ekibimiz|medarbetare)(?:/|$)`)},
	{kindAbout, lazyMustCompile(`(?i)(about|ueber|uber|company|story|unternehmen|a-propos` + aboutPathMore + `)`)},
	{kindFAQ, lazyMustCompile(`(?i)(faq|questions|help)`)},
	{kindChangelog, lazyMustCompile(`(?i)(changelog|releases|release-notes|timeline|history|updates)`)},
	{kindContact, lazyMustCompile(`(?i)(contact|kontakt|imprint|impressum)`)},
	{kindFeatures, lazyMustCompile(`(?i)(features|product|funktionen|tour)`)},
}

// page is one crawled page with its parsed document.
type page struct {
	wp   *domain.WebPage
	doc  *html.Node
	base *url.URL
	kind string
	meta map[string]string // lower-case name/property -> content (first one)
	ld   []map[string]any  // every JSON-LD object with an @type, nested ones included
	segs []*segment
	// closing is the closing block of the body (closingBlock), a footer
	// whatever its name; nil when the page has none.
	closing *html.Node
}

func newPage(wp *domain.WebPage, home bool) *page {
	p := &page{wp: wp, meta: map[string]string{}}
	p.doc, _ = htmltext.Parse(wp.HTML)
	if p.doc == nil {
		p.doc = &html.Node{Type: html.DocumentNode}
	}
	p.base, _ = url.Parse(wp.URL)
	if p.base == nil {
		p.base = &url.URL{}
	}
	p.kind = kindOther
	if home {
		p.kind = kindHome
	} else {
		for _, k := range kindPatterns {
			if k.re.MatchString(p.base.Path) {
				p.kind = k.kind
				break
			}
		}
	}
	forEach(p.doc, false, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Meta:
			key := strings.ToLower(attr(n, "name"))
			if key == "" {
				key = strings.ToLower(attr(n, "property"))
			}
			if _, ok := p.meta[key]; key != "" && !ok {
				p.meta[key] = domain.NormalizeSpace(attr(n, "content"))
			}
		case atom.Base:
			if u, err := p.base.Parse(attr(n, "href")); err == nil && attr(n, "href") != "" {
				p.base = u
			}
		case atom.Script:
			if strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") && n.FirstChild != nil {
				var v any
				if json.Unmarshal([]byte(n.FirstChild.Data), &v) == nil {
					collectLD(v, &p.ld)
				}
			}
		}
		return true
	})
	for _, o := range p.ld {
		if hasType(o, "BlogPosting", "Article", "NewsArticle") && !home {
			p.kind = kindBlog
		}
	}
	p.closing = closingBlock(p.doc)
	p.segs = segmentize(p.doc, p.closing)
	return p
}

func collectLD(v any, out *[]map[string]any) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			collectLD(e, out)
		}
	case map[string]any:
		if _, ok := v["@type"]; ok {
			*out = append(*out, v)
		}
		for _, e := range v {
			collectLD(e, out)
		}
	}
}

// hasType reports whether a JSON-LD object has one of the types.
func hasType(o map[string]any, types ...string) bool {
	var ts []string
	switch t := o["@type"].(type) {
	case string:
		ts = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				ts = append(ts, s)
			}
		}
	}
	for _, t := range ts {
		for _, want := range types {
			if strings.EqualFold(strings.TrimPrefix(t, "schema:"), want) {
				return true
			}
		}
	}
	return false
}

// ldString returns a JSON-LD string value as Data holds it (normalised), or
// the "url"/"name" of an object value.
func ldString(o map[string]any, key string) string {
	switch v := o[key].(type) {
	case string:
		return domain.NormalizeSpace(v)
	case float64:
		return ""
	case map[string]any:
		if s := ldString(v, "url"); s != "" {
			return s
		}
		return ldString(v, "name")
	case []any:
		if len(v) > 0 {
			return ldString(map[string]any{key: v[0]}, key)
		}
	}
	return ""
}

// ldObjects returns the values of key that are objects.
func ldObjects(o map[string]any, key string) []map[string]any {
	switch v := o[key].(type) {
	case map[string]any:
		return []map[string]any{v}
	case []any:
		var out []map[string]any
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// ldStrings returns the string values of key (a string or a list of strings).
func ldStrings(o map[string]any, key string) []string {
	switch v := o[key].(type) {
	case string:
		return []string{domain.NormalizeSpace(v)}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, domain.NormalizeSpace(s))
			}
		}
		return out
	}
	return nil
}

// ---- visible text, in segments under headings ----

// line is one line of the page's Text, with where it came from.
type line struct {
	text    string
	tag     atom.Atom  // innermost block element: li, p, td, dt, ...
	node    *html.Node // that element
	foreign bool       // in a testimonial, quote, logo wall or newsletter box: about someone else
	footer  bool       // in the page footer (copyright lines, legal links)
}

// segment is a heading and the lines up to the next heading. The lines before
// the first heading form a segment of level 0.
type segment struct {
	level   int
	title   string
	node    *html.Node // the heading element
	hint    string     // class and id of the heading's ancestors, lower case
	foreign bool
	lines   []line
}

// ownLines yields the lines in which the site speaks for itself, each with
// its segment, in page order: the lines of segments and lines that are not
// foreign (a testimonial, quote, logo wall or newsletter box). Footer lines
// are among them; the rules that read no footer skip them.
func (p *page) ownLines() iter.Seq2[*segment, line] {
	return func(yield func(*segment, line) bool) {
		for _, seg := range p.segs {
			if seg.foreign {
				continue
			}
			for _, l := range seg.lines {
				if !l.foreign && !yield(seg, l) {
					return
				}
			}
		}
	}
}

var headingLevel = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

// segmentize splits the visible text into segments, line by line as htmltext
// does, so that every line (and every run of lines joined by a space) is on the page.
// Lines in a footer (footerRoot, or the closing block) are marked footer.
func segmentize(doc, closing *html.Node) []*segment {
	s := &segmenter{segs: []*segment{{}}, closing: closing}
	s.walk(doc)
	s.flush()
	return s.segs
}

type segmenter struct {
	segs    []*segment
	cur     strings.Builder
	block   []*html.Node
	closing *html.Node
	footer  int // footers open around the walk
}

func (s *segmenter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		s.cur.WriteString(n.Data)
		return
	case html.ElementNode:
		if htmltext.Hidden(n) {
			if htmltext.HiddenGap(n) {
				s.flush() // Text ends its line at hidden content (never "€29per rider")
			}
			return
		}
		if n == s.closing || footerRoot(n) {
			s.flush()
			s.footer++
			defer func() { s.flush(); s.footer-- }()
		}
		if lvl := headingLevel[n.DataAtom]; lvl > 0 {
			s.flush()
			s.segs = append(s.segs, &segment{level: lvl, title: nodeText(n), node: n, hint: hint(n), foreign: foreign(n)})
			return
		}
		gap := htmltext.Inline
		if !blockTags[n.DataAtom] {
			gap = htmltext.Apart(n)
		}
		if blockTags[n.DataAtom] || gap == htmltext.Line {
			s.flush()
			s.block = append(s.block, n)
			defer func() { s.flush(); s.block = s.block[:len(s.block)-1] }()
		} else if gap == htmltext.Space {
			s.cur.WriteByte(' ')
			defer s.cur.WriteByte(' ')
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.walk(c)
	}
}

func (s *segmenter) flush() {
	if s.cur.Len() == 0 {
		return
	}
	t := domain.NormalizeSpace(s.cur.String())
	s.cur.Reset()
	if t == "" {
		return
	}
	l := line{text: t}
	if len(s.block) > 0 {
		l.node = s.block[len(s.block)-1]
		l.tag = l.node.DataAtom
		// A <noscript> line asking for JavaScript speaks of the browser, not the product.
		l.foreign = foreign(l.node) || within(l.node, atom.Noscript) && strings.Contains(strings.ToLower(t), "javascript") ||
			isQuotation(t) || quotedCard(l.node) // a testimonial without a class name: someone else's words
		l.footer = s.footer > 0 || strings.Contains(hint(l.node), "footer")
	}
	seg := s.segs[len(s.segs)-1]
	seg.lines = append(seg.lines, l)
}

// blockTags mirrors htmltext's block elements (headings are segment breaks);
// an inline element its layout sets on a line of its own (htmltext.Apart) is
// a block too.
var blockTags = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Body: true,
	atom.Br: true, atom.Button: true, atom.Caption: true, atom.Dd: true, atom.Details: true,
	atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Html: true, atom.Label: true, atom.Legend: true, atom.Li: true,
	atom.Main: true, atom.Nav: true, atom.Ol: true, atom.Option: true, atom.P: true, atom.Pre: true,
	atom.Section: true, atom.Summary: true, atom.Table: true, atom.Tbody: true, atom.Td: true,
	atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Tr: true, atom.Ul: true,
}

// section returns segment i and the segments below it (higher levels) that follow.
func section(segs []*segment, i int) []*segment {
	out := []*segment{segs[i]}
	for _, s := range segs[i+1:] {
		if s.level <= segs[i].level {
			break
		}
		out = append(out, s)
	}
	return out
}

// ---- DOM helpers ----

// forEach calls fn for every element below n in document order; fn returning
// false skips the element's children. Hidden elements are skipped unless all is set.
func forEach(n *html.Node, all bool, fn func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			if c.Type == html.DocumentNode {
				forEach(c, all, fn)
			}
			continue
		}
		if !all && htmltext.Hidden(c) && c.DataAtom != atom.Script && c.DataAtom != atom.Head && c.DataAtom != atom.Iframe && c.DataAtom != atom.Video {
			continue
		}
		if fn(c) {
			forEach(c, all, fn)
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// nodeText is the visible text of n as one quotable string (its lines joined by a space).
func nodeText(n *html.Node) string {
	return strings.ReplaceAll(htmltext.Text(n), "\n", " ")
}

// hint returns the class and id of n and its ancestors, lower case.
func hint(n *html.Node) string {
	var b strings.Builder
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode {
			b.WriteString(strings.ToLower(attr(a, "class") + " " + attr(a, "id") + " "))
		}
	}
	return b.String()
}

func within(n *html.Node, tags ...atom.Atom) bool {
	for a := n; a != nil; a = a.Parent {
		for _, t := range tags {
			if a.DataAtom == t {
				return true
			}
		}
	}
	return false
}

// foreignHints are the class or id words of testimonials, quotes, logo
// walls and newsletter boxes.
var foreignHints = []string{"testimonial", "review", "quote", "logos", "customers", "clients", "trusted", "newsletter", "subscribe", "press", "cookie", "partners"}

// hasForeignHint reports whether s (a lower-cased class or id) holds one of
// foreignHints. A plain search per word: this runs on every ancestor of
// most lines, where a pattern costs several times more.
func hasForeignHint(s string) bool {
	for _, w := range foreignHints {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// foreign reports whether n speaks about someone else: testimonials, quotes,
// customer logo walls, newsletter boxes.
func foreign(n *html.Node) bool {
	if within(n, atom.Blockquote, atom.Q, atom.Cite) || quoteCaption(n) {
		return true
	}
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && (hasForeignHint(strings.ToLower(attr(a, "class"))) || hasForeignHint(strings.ToLower(attr(a, "id")))) {
			return true
		}
	}
	return false
}

// resolve returns the absolute form of a link target as htmltext puts it in Data.
func (p *page) resolve(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	return p.base.ResolveReference(u).String()
}

// ev is one evidence quote from p.
func (p *page) ev(quote string) domain.Evidence {
	return domain.Evidence{Quote: domain.NormalizeSpace(quote), URL: p.wp.URL}
}

var sentenceEnd = lazyMustCompile(`[.!?](\s|$)`)

// sentenceAround cuts the sentence of s that holds s[i:]: quotes stay short
// and still say what the value rests on.
func sentenceAround(s string, i int) string {
	start := 0
	for _, m := range sentenceEnd.FindAllStringIndex(s[:i], -1) {
		start = m[1]
	}
	end := len(s)
	if m := sentenceEnd.FindStringIndex(s[i:]); m != nil {
		end = i + m[0] + 1
	}
	return strings.TrimSpace(s[start:end])
}
