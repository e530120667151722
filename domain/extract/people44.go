package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// Founders stated in running text and in pages that are not team grids: a
// letter or post signed by its founder, a blog byline with the author's
// role, a story that names the co-founder in passing ("Maya Chen and her
// co-founder Tom Reyes", "Elena Duarte and I started Quillstack"). Blog
// posts are read too: a founder's byline is often the only place a site
// gives the founders' titles.

// bylineRe: an author line ("By Daniel Osei, co-founder and CTO · March 4,
// 2025", "Yazan: Emre Kaya, Kurucu Ortak & CEO"); the name and the role
// after it are checked by the caller.
var bylineRe = lazyMustCompile(`^(?i:by|written by|von|par|por|di|door|av|przez|autor(?:in|ka)?|auteur|napsal\p{L}*|yazan|kirjoittaja|글|작성자|文|作者|著者|執筆|筆者)\s*:?\s+([^,·|•]{2,40}?)\s*,\s*(.{2,80}?)\s*$`)

var bylineSepRe = lazyMustCompile(`\s*[·|•]\s*`)

// bylineRole cuts a byline's role before its date ("co-founder and CTO ·
// March 4, 2025", "공동창업자 · 대표 | 2025년 3월 2일"): the pieces between
// separators up to the first that holds a digit.
func bylineRole(t string) string {
	var keep []string
	for _, piece := range bylineSepRe.Split(t, -1) {
		if strings.ContainsAny(piece, "0123456789") {
			break
		}
		keep = append(keep, piece)
	}
	return strings.Join(keep, " · ")
}

// signDash: the dash before a signature ("— Priya Natarajan", "—— 陈晓雯").
var signDash = lazyMustCompile(`^\s*[—–―-]{1,2}\s*`)

// signedFounders reads founders from signatures and bylines on every page
// the site reader fetched (blog posts included): the name, then a founder's
// title at this company after a comma or on the next line.
func (s *site) signedFounders(p *page, add func(name, title string, ev ...domain.Evidence)) {
	forEach(p.doc, false, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Footer, atom.Blockquote, atom.Nav, atom.Header:
			return n.DataAtom == atom.Header && within(n, atom.Article)
		case atom.P, atom.Div, atom.Span, atom.Cite, atom.Address, atom.Figcaption:
		default:
			return true
		}
		if hasBlockChild(n) {
			return true
		}
		if foreign(n) || underOtherHeading(n) {
			return false
		}
		var lines []string
		for _, l := range strings.Split(htmltext.Text(n), "\n") {
			if l = domain.NormalizeSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 || len(lines) > 2 || utf8.RuneCountInString(strings.Join(lines, " ")) > 120 {
			return false
		}
		name, title, ev := "", "", []domain.Evidence{p.ev(lines[0])}
		switch d := signDash.FindString(lines[0]); {
		case d != "" && len(lines) == 2:
			name, title = strings.TrimSpace(lines[0][len(d):]), lines[1]
			ev = append(ev, p.ev(lines[1]))
		case d != "":
			if m := attributionRe.FindStringSubmatch(lines[0]); m != nil {
				name, title = strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
			}
		case len(lines) == 1:
			if m := bylineRe.FindStringSubmatch(lines[0]); m != nil {
				name, title = strings.TrimSpace(m[1]), bylineRole(m[2])
			}
		}
		if name == "" || !founderWordAny.MatchString(title) || advisoryWordRe.MatchString(title) || !s.founderTitle(title) || s.otherCompanyTail(title) {
			return false
		}
		if s.isCardName(name) || worldName(name) {
			add(name, title, ev...)
			return false
		}
		// "— Sam & Lea, co-founders": first names, each the start of one
		// full name the page states (its byline or meta line).
		for _, first := range nameListSepRe.Split(name, -1) {
			if full, at := fullNameOn(p, first); full != "" {
				add(full, "", p.ev(at), ev[0])
			}
		}
		return false
	})
}

// hasBlockChild reports whether n holds a block element (its text is then
// that of several blocks, read one by one).
func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.DataAtom {
		case atom.P, atom.Div, atom.Ul, atom.Ol, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.Section, atom.Article, atom.Table, atom.Dl:
			return true
		}
	}
	return false
}

var fullNameRe = lazyMustCompile(personNamePattern)

// fullNameOn returns the one full name on p whose first word starts with
// first ("Sam" is "Samuel Ortiz"), and the line it is on; "" when there is
// none or more than one.
func fullNameOn(p *page, first string) (string, string) {
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) < 2 || strings.ContainsAny(first, " \t") || !startsUpper(first) {
		return "", ""
	}
	found, at := "", ""
	for _, seg := range p.segs {
		for _, l := range seg.lines {
			if l.foreign || !strings.Contains(l.text, first) {
				continue
			}
			for _, m := range fullNameRe.FindAllString(l.text, -1) {
				if !strings.HasPrefix(m, first) || strings.Contains(m, "\n") {
					continue
				}
				if found != "" && found != m {
					return "", ""
				}
				found, at = m, l.text
			}
		}
	}
	if !personNameRe.MatchString(found) || hasRole(found) {
		return "", ""
	}
	return found, at
}

var (
	// coFounderPairRe: "Maya Chen and her co-founder Tom Reyes".
	coFounderPairRe = lazyMustCompile(`(` + personNamePattern + `)\s+(?:and|with)\s+(?:his|her|their)\s+co-?founders?\s+(` + personNamePattern + `)`)
	// coFounderOwnRe: "my co-founder Tom Reyes", "our co-founders, A and B".
	coFounderOwnRe = lazyMustCompile(`(?:\b(?:my|our)|['’]s)\s+co-?founders?,?\s+`)
	// nameAndIRe: "Elena Duarte and I started Quillstack".
	nameAndIRe = lazyMustCompile(`(` + personNamePattern + `)\s+and\s+I\s+(?:\p{Ll}+\s+)?(?:started|founded|co-founded|created|built|launched)\s`)
	// partnerWithRe: "ortağım Zeynep Arslan ile ... kurduk" (Turkish: with
	// my partner), the founding verb in the same sentence.
	partnerWithRe = lazyMustCompile(`ortağ(?:ım|ımız)\s+(` + personNamePattern + `)\s+ile\s[^.]{0,60}?kur`)
	// createdWithRe: "j'ai créé Carnetvet avec Thomas Girard", "I started
	// Acme with Tom Reyes": the founder's first person, the product, then
	// the other founder (the caller checks that the product is named).
	createdWithRe = lazyMustCompile(`(?i:\bI (?:started|founded|co-founded|created|built)|j['’]ai (?:créé|fondé|cofondé|lancé)|ich habe|he (?:creado|fundado)|ho (?:creato|fondato)|ik heb|eu (?:criei|fundei)|jag (?:startade|grundade)|założył[ae]m|založil[a]? jsem)\s+([^,.;]{2,40}?)\s+(?i:with|avec|mit|con|met|com|med|z|ze|s)\s+(` + personNamePattern + `)`)
	// authorIsRe: an author card's sentence by first name, "Jamie is a
	// co-founder and the managing director of Ferrydesk".
	authorIsRe = lazyMustCompile(`^(\p{Lu}[\p{L}'’-]+)\s+(?:is|est|ist|es|è|é|är|jest|je)\s+(?:(?:a|an|the|one of the|our|un|une|l['’]une? des|ein|eine|einer der|uno|una|um|uma|en|ett)\s+)?([^.;]{3,80})`)
	// ofProductRe: where a title's "of <Product>" begins.
	ofProductRe = lazyMustCompile(`\s+(?:of|at|de|du|chez|von|bei|der|di|del|da|van|bij|på|w|ve)\s+\S.*$`)
	// zhWithMeRe: "我和大学同学周明一起创办了小账本" (I and X together founded).
	zhWithMeRe = lazyMustCompile(`我(?:和|与|跟)([^，。、,\s]{2,14}?)(?:一起|共同)?(?:创办|创立|创建|創辦|創立)`)
)

// zhSurnames: the commonest one-character Chinese surnames, to cut a name
// from the words before it ("大学同学周明" is 周明).
const zhSurnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"

// zhTailName returns the name a run of Han characters ends with: a common
// surname and one or two characters after it.
func zhTailName(t string) string {
	r := []rune(t)
	for k := 3; k >= 2; k-- {
		if len(r) >= k && strings.ContainsRune(zhSurnames, r[len(r)-k]) {
			return string(r[len(r)-k:])
		}
	}
	return ""
}

// proseFounders reads co-founders named in passing in a story, a letter or
// a post: the sentence must name the product or be on a page about the
// company, a letter or a post.
func (s *site) proseFounders(p *page, about bool, add func(name, title string, ev ...domain.Evidence)) {
	for seg, l := range p.ownLines() {
		t := l.text
		if l.footer {
			continue
		}
		s.authorCard(p, seg, l, add)
		for _, m := range findAll(s.mentionsName(t), createdWithRe, t) {
			if name := t[m[4]:m[5]]; s.isPersonName(name) && s.mentionsName(t[m[2]:m[3]]) {
				add(name, "", p.ev(sentenceAround(t, m[0])))
			}
		}
		if !strings.Contains(t, "founder") && !strings.Contains(t, " and I ") && !strings.Contains(t, "ortağ") && !strings.Contains(t, "我") {
			continue
		}
		ok := func(at int) (string, bool) {
			sent := sentenceAround(t, at)
			return sent, about || p.kind == kindBlog || s.mentionsName(sent)
		}
		for _, m := range coFounderPairRe.FindAllStringSubmatchIndex(t, -1) {
			if sent, yes := ok(m[0]); yes {
				for _, g := range [][2]int{{m[2], m[3]}, {m[4], m[5]}} {
					if name := t[g[0]:g[1]]; s.isPersonName(name) {
						add(name, "", p.ev(sent))
					}
				}
			}
		}
		for _, m := range coFounderOwnRe.FindAllStringIndex(t, -1) {
			before := strings.TrimSpace(t[:m[0]])
			own := strings.HasPrefix(strings.TrimSpace(t[m[0]:m[1]]), "my") || strings.HasPrefix(strings.TrimSpace(t[m[0]:m[1]]), "our")
			if !own && (s.name == "" || !strings.HasSuffix(strings.ToLower(before), strings.ToLower(s.name))) {
				continue // "Acme's co-founders": another company's
			}
			sent, yes := ok(m[0])
			if !yes {
				continue
			}
			people, _ := s.nameList(t[m[1]:], "*")
			for _, x := range people {
				add(x.name, x.role, p.ev(sent))
			}
		}
		for _, m := range nameAndIRe.FindAllStringSubmatchIndex(t, -1) {
			sent := sentenceAround(t, m[0])
			if name := t[m[2]:m[3]]; s.isPersonName(name) && s.mentionsName(sent) {
				add(name, "", p.ev(sent))
			}
		}
		for _, m := range partnerWithRe.FindAllStringSubmatchIndex(t, -1) {
			sent := sentenceAround(t, m[0])
			if name := t[m[2]:m[3]]; s.isPersonName(name) && s.mentionsName(sent) {
				add(name, "", p.ev(sent))
			}
		}
		for _, m := range zhWithMeRe.FindAllStringSubmatchIndex(t, -1) {
			sent := sentenceAround(t, m[0])
			if name := zhTailName(t[m[2]:m[3]]); name != "" && s.mentionsName(t[m[1]:]) {
				add(name, "", p.ev(sent))
			}
		}
	}
}

// nameWithTitle splits a profile value's item "Ruth Adeyemi (CEO)" or
// "山本 健太（代表取締役CEO）" into the name and the title in parentheses.
var nameWithTitleRe = lazyMustCompile(`^(.+?)\s*[(（]([^()（）]{1,30})[)）]$`)

func nameWithTitle(item string) (name, title string) {
	if m := nameWithTitleRe.FindStringSubmatch(strings.TrimSpace(item)); m != nil {
		return strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	}
	return strings.TrimSpace(item), ""
}

// pressKitPath: a press kit or fact sheet ("/press", "/presse/",
// "/press-kit", "/media-kit", "/fact-sheet"), which the page kinds count
// as news but which states the company's profile like an about page.
var pressKitPath = lazyMustCompile(`(?i)/(?:press|presse|prensa|stampa|pers|prasa|tisk|basin)(?:[-_]?kit)?(?:\.html?)?/?$|/(?:media|press)[-_]?kit|/fact[-_]?sheet`)

// profilePages is byKind(kinds...) and then the site's press kits.
func (s *site) profilePages(kinds ...string) []*page {
	out := s.byKind(kinds...)
	for _, p := range s.pages {
		if p.kind == kindBlog && pressKitPath.MatchString(p.base.Path) {
			out = append(out, p)
		}
	}
	return out
}

// authorCard: a card headed by a person's full name whose sentence says,
// by first name, that they founded the product ("Jamie Lowe" / "Jamie is a
// co-founder and the managing director of Ferrydesk"): the title is the
// phrase without "of <Product>".
func (s *site) authorCard(p *page, seg *segment, l line, add func(name, title string, ev ...domain.Evidence)) {
	if !s.isPersonName(seg.title) || !founderWordAny.MatchString(l.text) {
		return
	}
	m := authorIsRe.FindStringSubmatch(l.text)
	if m == nil || m[1] != strings.Fields(seg.title)[0] || !founderWordAny.MatchString(m[2]) {
		return
	}
	title := m[2]
	if loc := ofProductRe.FindStringIndex(title); loc != nil {
		if !s.mentionsName(title[loc[0]:]) {
			return // a founder of another company
		}
		title = title[:loc[0]]
	}
	if advisoryWordRe.MatchString(title) {
		return
	}
	add(seg.title, strings.TrimSpace(title), p.ev(seg.title), p.ev(sentenceAround(l.text, 0)))
}

// authorBlock reports whether a blog post's card is an author block: the
// name is the whole text of an element that is not a heading, and the
// title is a title, not the rest of a byline's line (", co-founder and CTO
// ·") or an author card's sentence ("Jamie is a co-founder and ...").
func authorBlock(nameNode *html.Node, name, title string) bool {
	el := nameNode.Parent
	if el == nil || domain.NormalizeSpace(nodeText(el)) != name || within(el, atom.H1, atom.H2) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(title)
	return unicode.IsLetter(r) && !strings.ContainsAny(title, "|·•") && !strings.HasSuffix(title, ".") && textWords(title) <= 8
}

// otherCompanyTail reports whether a title ends with a company after a
// comma that is not this product ("Founder, Bloom": a customer's
// attribution).
func (s *site) otherCompanyTail(title string) bool {
	i := strings.LastIndex(title, ",")
	if i < 0 {
		return false
	}
	tail := strings.TrimSpace(title[i+1:])
	return startsUpper(tail) && !hasRole(tail) && !founderWordAny.MatchString(tail) && !s.mentionsName(tail)
}
