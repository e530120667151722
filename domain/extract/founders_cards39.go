package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Founders from person cards, whatever the markup:
// the smallest element around a person's name that also holds a founder's
// or executive's title and no other person's name is that person's card
// (a Webflow or Framer card of divs, a WordPress "<strong>Name</strong><br>
// Role" paragraph, spans of a name and a position, a role eyebrow above the
// name). The title is the card's own, never the next card's: a title drafted
// from outside the card is replaced. Cards under headings for advisers,
// investors or customers, testimonial boxes and quoted cards are skipped; on
// the home page the title must say founder (customers' CEOs are shown there).

// cardPiece is one text of a page: a text node's trimmed words.
type cardPiece struct {
	text string
	node *html.Node // the text node
}

// cardPieces returns the page's visible text pieces outside footers,
// scripts, blockquotes and testimonial boxes.
func cardPieces(doc *html.Node) []cardPiece {
	var out []cardPiece
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if t := domain.NormalizeSpace(c.Data); t != "" {
					out = append(out, cardPiece{t, c})
				}
			case html.ElementNode:
				switch c.DataAtom {
				case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Footer, atom.Blockquote, atom.Head, atom.Svg:
					continue
				}
				if foreign(c) {
					continue
				}
				if name, first := brName(c); name != "" {
					out = append(out, cardPiece{name, first}) // founders46.go
					continue
				}
				walk(c)
			case html.DocumentNode:
				walk(c)
			}
		}
	}
	walk(doc)
	return out
}

// inside reports whether n is a descendant of a.
func inside(n, a *html.Node) bool {
	for x := n; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// cardFounders reads the person cards of about and team pages (and the home
// page's and blog posts' cards whose title says founder).
func (s *site) cardFounders() {
	if !s.wants(onlyFounders) {
		return
	}
	add := s.founderAdder() // founders_structure.go
	// blog posts too: a post's author block ("Ana Ruiz" over "Co-founder &
	// CEO") is read like the home page's cards, with a founder's word
	for _, p := range s.pages {
		about := isTeamPage(p) || worldAboutPath.MatchString(p.base.Path)
		if !about && p.kind != kindHome && p.kind != kindBlog {
			continue
		}
		pieces := cardPieces(p.doc)
		names := map[int]bool{}
		for i, pc := range pieces {
			if utf8.RuneCountInString(pc.text) <= 40 && (s.isCardName(pc.text) || s.initialsName(pc.text)) {
				names[i] = true
			}
		}
		if about {
			s.roleNamePieces(p, pieces, add)
		}
		for i := range pieces {
			if !names[i] {
				continue
			}
			name := pieces[i].text
			isTitle := s.cardTitle
			if f := s.drafted(name); f != nil && f.Title == "" {
				isTitle = s.knownFounderTitle // people41.go
			}
			card, title := s.personCard(pieces, names, i, isTitle)
			if card == nil || (!about && !founderWordAny.MatchString(title)) {
				continue
			}
			if p.kind == kindBlog && !authorBlock(pieces[i].node, name, title) {
				continue // people44.go
			}
			ev := []domain.Evidence{p.ev(name), p.ev(title)}
			// a title from outside the card (the next card's) gives way
			// and so does a title the card's holds ("代表取締役" in "代表取締役CEO／共同創業者")
			if f := s.drafted(name); f != nil && f.Title != "" && (!strings.Contains(domain.NormalizeSpace(nodeText(card)), f.Title) || len(title) > len(f.Title) && strings.Contains(title, f.Title)) {
				f.Title, f.Evidence = title, ev
				continue
			}
			add(name, title, ev...)
		}
	}
}

// drafted returns the founder drafted so far under name's key, nil when
// there is none.
func (s *site) drafted(name string) *domain.DraftedFounder {
	k := nameKey(name)
	for i := range s.out.Founders {
		if nameKey(s.out.Founders[i].Name) == k {
			return &s.out.Founders[i]
		}
	}
	return nil
}

// personCard returns the card of the name at pieces[i] and its title: the
// nearest ancestor (up to five levels) holding a title piece, as long as it
// holds no other person's name, at most six pieces and no quotation. A title
// piece is one isTitle accepts.
func (s *site) personCard(pieces []cardPiece, names map[int]bool, i int, isTitle func(string) bool) (*html.Node, string) {
	a := pieces[i].node.Parent
	for depth := 0; a != nil && depth < 5 && a.DataAtom != atom.Body && a.DataAtom != atom.Main; depth, a = depth+1, a.Parent {
		var in []int
		for j := range pieces {
			if inside(pieces[j].node, a) {
				in = append(in, j)
			}
		}
		if len(in) > 6 {
			return nil, ""
		}
		title := ""
		for _, j := range in {
			t := pieces[j].text
			if names[j] && j != i && nameKey(t) != nameKey(pieces[i].text) && !romanised(pieces, i, j) {
				return nil, "" // another person's name: a list of cards, not one
			}
			if isQuotedLine(t) {
				return nil, "" // a testimonial's card
			}
			if title == "" && j != i && utf8.RuneCountInString(t) <= 60 && isTitle(t) {
				title = t
			} else if lead := leadingTitle(t); title == "" && j != i && lead != "" && isTitle(lead) {
				title = lead // founders46.go
			}
		}
		if title != "" {
			if underOtherHeading(a) || foreign(a) || forHeading.MatchString(anyHeadingBefore(a)) {
				return nil, ""
			}
			return a, title
		}
	}
	return nil, ""
}

// cardTitle reports whether a card's text is a founder's or executive's
// title at this company: "Founder, Fenland Birders" is someone else's (a
// customer's, in a "Loved by founders of …" section); the titles of the
// languages without word lists count on their sites.
func (s *site) cardTitle(t string) bool {
	return s.roleIn(t) != "" || !coveredLanguage(s.req.Site.Language) && worldTitle(t) && !s.atOtherCompany(t)
}

// anyHeadingBefore returns the text of the nearest heading before n in
// document order ("" when there is none).
func anyHeadingBefore(n *html.Node) string {
	for a := n; a != nil; a = a.Parent {
		for b := a.PrevSibling; b != nil; b = b.PrevSibling {
			if b.Type == html.ElementNode && headingLevel[b.DataAtom] > 0 {
				return nodeText(b)
			}
		}
	}
	return ""
}

// initialsRe: a name with a middle initial or a title before it ("Jane A.
// Doe", "Dr. Helen Marsh"), as team pages write them.
var initialsRe = lazyMustCompile(`^(?:(?:Dr|Prof)\.?\s+)?\p{Lu}[\p{L}'’-]+\s+\p{Lu}\.\s+\p{Lu}[\p{L}'’-]+$|^(?:Dr|Prof)\.?\s+\p{Lu}[\p{L}'’-]+\s+\p{Lu}[\p{L}'’-]+$`)

// initialsName reports whether t is such a name.
func (s *site) initialsName(t string) bool {
	return initialsRe.MatchString(t) && !hasRole(t) && !s.mentionsName(t)
}

// cjkRoleNameRe: a Japanese, Chinese or Korean title and a name in one
// text ("代表取締役CEO 田中美咲", "创始人兼CEO 陈晓东", "대표 김도윤", "创始人：陈晓东",
// "CEO 田中美咲"), or the
// name first with the title in brackets ("田中 美咲（代表取締役）").
var (
	cjkRoleNameRe = lazyMustCompile(`^([^\s（(：:]{2,20}?)(?:[\s　]*[：:|｜][\s　]*|[\s　]+)([\p{Han}\p{Hangul}]{1,4}(?:[ 　][\p{Han}\p{Hangul}]{1,3})?)$`)
	cjkNameRoleRe = lazyMustCompile(`^([\p{Han}\p{Hangul}]{1,4}(?:[ 　][\p{Han}\p{Hangul}]{1,3})?)\s*[（(]([^（()）]{2,20})[)）]$`)
)

// roleNamePieces reads, on an about or team page, the texts that hold a
// founder's or executive's title and a name in Han or Hangul together.
func (s *site) roleNamePieces(p *page, pieces []cardPiece, add func(name, title string, ev ...domain.Evidence)) {
	for _, pc := range pieces {
		if utf8.RuneCountInString(pc.text) > 30 {
			continue
		}
		var role, name string
		if m := cjkRoleNameRe.FindStringSubmatch(pc.text); m != nil {
			role, name = m[1], m[2]
		} else if m := cjkNameRoleRe.FindStringSubmatch(pc.text); m != nil {
			name, role = m[1], m[2]
		} else {
			continue
		}
		if !unspacedName(name) || !hasRole(role) && !cjkExecRe.MatchString(role) || worldNotRole.MatchString(role) || notRole.MatchString(role) {
			continue
		}
		if a := pc.node.Parent; a == nil || underOtherHeading(a) || foreign(a) {
			continue
		}
		add(name, role, p.ev(pc.text))
	}
}
