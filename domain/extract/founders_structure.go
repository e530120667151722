package extract

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Founders by the structure of about and team pages, whatever the words
// around them: the attribution of a founder's own quote ("— Tom Reyes,
// co-founder and CEO" under a blockquote), a role in apposition inside a
// founding sentence ("Priya Nair, our CEO, started ...", "avec Hugo Petit,
// aujourd'hui directeur technique,"), and people listed under a Founders
// heading as a name element and a role element ("<strong>Ruth
// Adeyemi</strong> <span>Chief Executive</span>"). Customers' quotes name
// no founder's title, advisers' and investors' titles are never a founder's
// (roleIn, worldNotRole).

// founderWordAny: a founder's word in the languages of the sets; the
// attribution of a quote names a founder only with one.
var founderWordAny = regexp.MustCompile(`(?i)founder|gründer|fondat|fundador|oprichter|założyciel|zakladatel|grundare|grunnlegger|kurucu|perustaja|alapító|pendiri|sáng lập|` +
	`創業|创始|創始|創辦|创办|창업|מייס|ผู้ก่อตั้ง`)

// attributionRe: "— Name, role" (an em dash, en dash, horizontal bar or
// hyphen before the name).
var attributionRe = regexp.MustCompile(`^\s*[—–―-]\s*([^,]{2,40}?)\s*,\s*(.{2,80}?)\s*$`)

// structureFounders adds the founders those structures name to the ones
// found so far (each name once, at most six; a founder found without a
// title gets the one the structure gives).
func (s *site) structureFounders() {
	if !s.wants(onlyFounders) {
		return
	}
	idx := map[string]int{}
	for i, f := range s.out.Founders {
		idx[nameKey(f.Name)] = i
	}
	add := func(name, title string, ev ...domain.Evidence) {
		name = domain.NormalizeSpace(name)
		k := nameKey(name)
		if k == "" || k == nameKey(s.name) || notAName.MatchString(name) {
			return
		}
		if i, ok := idx[k]; ok {
			if f := &s.out.Founders[i]; f.Title == "" && title != "" {
				f.Title = title
				f.Evidence = append(f.Evidence, ev...)
			}
			return
		}
		if len(s.out.Founders) >= 6 {
			return
		}
		idx[k] = len(s.out.Founders)
		s.out.Founders = append(s.out.Founders, domain.DraftedFounder{Name: name, Title: title, Evidence: ev})
	}
	for _, p := range s.content() {
		about := isTeamPage(p) || worldAboutPath.MatchString(p.base.Path)
		if about {
			s.quoteAttributions(p, add)
			s.foundersHeadingItems(p, add)
		}
		s.appositionFounders(p, about, add)
	}
}

// founderTitle reports whether t is a title at this company (not an
// adviser's, investor's or another company's).
func (s *site) founderTitle(t string) bool {
	return s.roleIn(t) != "" || worldTitle(t) && !s.atOtherCompany(t)
}

// quoteAttributions: an attribution line that opens with a dash and names a
// person with a founder's title, outside testimonial and review sections.
func (s *site) quoteAttributions(p *page, add func(name, title string, ev ...domain.Evidence)) {
	forEach(p.doc, false, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Footer:
			return false
		case atom.Figcaption, atom.Cite, atom.P, atom.Div, atom.Span:
		default:
			return true
		}
		t := domain.NormalizeSpace(nodeText(n))
		m := attributionRe.FindStringSubmatch(t)
		if m == nil || utf8.RuneCountInString(t) > 120 {
			return true
		}
		name, title := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if !(s.isCardName(name) || worldName(name)) || !founderWordAny.MatchString(title) || !s.founderTitle(title) || underOtherHeading(n) {
			return false
		}
		add(name, title, p.ev(t))
		return false
	})
}

// underOtherHeading reports whether n is in a section about other people:
// the nearest heading before it (in document order) names investors,
// advisers, customers, testimonials or reviews.
func underOtherHeading(n *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		for b := a.PrevSibling; b != nil; b = b.PrevSibling {
			if b.Type != html.ElementNode {
				continue
			}
			if headingLevel[b.DataAtom] > 0 {
				t := nodeText(b)
				return otherHeading.MatchString(t) && !teamHeading.MatchString(t)
			}
		}
	}
	return false
}

// apposRoleRe: "Name, a phrase of one to five words," right after a name.
var apposRoleRe = regexp.MustCompile(`(` + personNamePattern + `),\s+([^,.;:()!?]{2,50}?),`)

// appositionFounders: in a founding sentence of an about page, every name
// followed by a title in apposition ("Priya Nair, our CEO, started
// Ledgerbird", "She co-founded it with Tom Becker, now our CTO, who ...").
// The apposition starts lower-case (a role, not the next name of a list).
// Off the about pages the sentence must name the product too.
func (s *site) appositionFounders(p *page, about bool, add func(name, title string, ev ...domain.Evidence)) {
	for _, seg := range p.segs {
		if seg.foreign {
			continue
		}
		for _, l := range seg.lines {
			if l.foreign || l.footer || !hasUpper2(l.text) || !hasAnyWord(strings.ToLower(l.text), verbHints) {
				continue
			}
			for _, m := range apposRoleRe.FindAllStringSubmatchIndex(l.text, -1) {
				name, appos := l.text[m[2]:m[3]], strings.TrimSpace(l.text[m[4]:m[5]])
				if startsUpper(appos) || !s.isPersonName(name) || s.roleIn(appos) == "" {
					continue
				}
				sent := sentenceAround(l.text, m[0])
				if !hasAnyWord(strings.ToLower(sent), verbHints) || !strongFoundVerbRe.MatchString(sent) && !s.mentionsName(sent) ||
					!about && !(strongFoundVerbRe.MatchString(sent) && s.mentionsName(sent)) {
					continue // the sentence must say the founding (of this product, off the about pages)
				}
				title := appos
				if r := roleRe.FindStringIndex(appos); r != nil {
					title = strings.TrimLeft(appos[r[0]:], " ,'’")
				}
				add(name, title, p.ev(sent))
			}
		}
	}
}

// foundersHeadingItems: under a heading that introduces the founders, a
// list item or card whose first element is a name and whose rest is the
// title ("<li><strong>Ruth Adeyemi</strong> <span>Chief Executive</span></li>").
func (s *site) foundersHeadingItems(p *page, add func(name, title string, ev ...domain.Evidence)) {
	level := 0
	for _, seg := range p.segs {
		if seg.level > 0 && seg.level <= level {
			level = 0
		}
		if seg.level > 0 && foundersHeading.MatchString(seg.title) {
			level = seg.level
		}
		if level == 0 || seg.foreign {
			continue
		}
		for _, l := range seg.lines {
			if l.foreign || l.footer || l.node == nil {
				continue
			}
			if name, title, ok := s.nameThenTitle(l); ok {
				add(name, title, p.ev(l.text))
			}
		}
	}
}

// nameThenTitle splits a line whose first element child holds a name from
// the title after it.
func (s *site) nameThenTitle(l line) (name, title string, ok bool) {
	first := l.node.FirstChild
	for first != nil && (first.Type != html.ElementNode && strings.TrimSpace(first.Data) == "") {
		first = first.NextSibling
	}
	if first == nil || first.Type != html.ElementNode {
		return "", "", false
	}
	name = strings.TrimSpace(nodeText(first))
	if name == "" || !strings.HasPrefix(l.text, name) || !s.isCardName(name) {
		return "", "", false
	}
	title = strings.TrimLeft(strings.TrimSpace(l.text[len(name):]), "–—-|,: ")
	if title == "" || utf8.RuneCountInString(title) > 60 || notRole.MatchString(title) || worldNotRole.MatchString(title) || s.atOtherCompany(title) {
		return "", "", false
	}
	return name, title, true
}

// isSplitName reports whether t is a line the founders-heading rule reads
// as a name and a title (so the whole line is not taken for a name).
func (s *site) isSplitName(l line) bool {
	if l.node == nil {
		return false
	}
	_, _, ok := s.nameThenTitle(l)
	return ok
}
