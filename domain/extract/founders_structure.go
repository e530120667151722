package extract

import (
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
var founderWordAny = lazyMustCompile(`(?i)founder|gründer|fondat|fundador|oprichter|założyciel|zakladatel|grundare|grunnlegger|kurucu|perustaja|alapító|pendiri|sáng lập|` +
	`創業|创始|創始|創辦|创办|창업|מייס|ผู้ก่อตั้ง`)

// attributionRe: "— Name, role" (an em dash, en dash, horizontal bar or
// hyphen before the name).
var attributionRe = lazyMustCompile(`^\s*[—–―-]\s*([^,]{2,40}?)\s*,\s*(.{2,80}?)\s*$`)

// founderAdder returns add(name, title, ev...), which adds a founder to the
// draft (each name once, at most six; never the product's own name or a
// phrase that is not a name) or gives one found without a title the title.
func (s *site) founderAdder() func(name, title string, ev ...domain.Evidence) {
	idx := map[string]int{}
	for i, f := range s.out.Founders {
		idx[nameKey(f.Name)] = i
	}
	return func(name, title string, ev ...domain.Evidence) {
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
}

// structureFounders adds the founders those structures name to the ones
// found so far (each name once, at most six; a founder found without a
// title gets the one the structure gives).
func (s *site) structureFounders() {
	if !s.wants(onlyFounders) {
		return
	}
	add := s.founderAdder()
	for _, p := range s.content() {
		about := isTeamPage(p) || worldAboutPath.MatchString(p.base.Path)
		s.personFounders(p, about, add)
		if about {
			s.quoteAttributions(p, add)
			s.foundersHeadingItems(p, add)
			s.headingRoleFounders(p, add)
			s.founderSentences(p, add)
		}
		s.appositionFounders(p, about, add)
		if about {
			s.titlesByFirstName(p)
		}
	}
	// signatures, bylines and stories on every page read, blog posts too
	for _, p := range s.pages {
		about := isTeamPage(p) || worldAboutPath.MatchString(p.base.Path)
		n := len(s.out.Founders)
		s.signedFounders(p, add)
		s.proseFounders(p, about, add)
		if len(s.out.Founders) > n && !about {
			s.titlesByFirstName(p)
			s.titlesByFirstNameIs(p)
		}
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
var apposRoleRe = lazyMustCompile(`(` + personNamePattern + `),\s+([^,.;:()!?]{2,50}?),`)

// appositionFounders: in a founding sentence of an about page, every name
// followed by a title in apposition ("Priya Nair, our CEO, started
// Ledgerbird", "She co-founded it with Tom Becker, now our CTO, who ...").
// The apposition starts lower-case (a role, not the next name of a list).
// Off the about pages the sentence must name the product too.
func (s *site) appositionFounders(p *page, about bool, add func(name, title string, ev ...domain.Evidence)) {
	for _, l := range p.ownLines() {
		if l.footer || !hasUpper2(l.text) || !hasAnyWord(strings.ToLower(l.text), verbHints) {
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

// headingRoleFounders: a name heading holding the role in an element of
// its own ("<h3>Eleanor Voss <small>Founder &amp; CEO</small></h3>").
func (s *site) headingRoleFounders(p *page, add func(name, title string, ev ...domain.Evidence)) {
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.DataAtom == atom.Footer || n.DataAtom == atom.Blockquote {
			return false
		}
		if lv := headingLevel[n.DataAtom]; lv < 2 || underOtherHeading(n) {
			return true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c == n.FirstChild {
				continue
			}
			switch c.DataAtom {
			case atom.Small, atom.Span, atom.Em, atom.I, atom.Sub:
			default:
				continue
			}
			role := strings.TrimSpace(nodeText(c))
			full := domain.NormalizeSpace(nodeText(n))
			name := strings.TrimSpace(strings.TrimSuffix(full, role))
			name = strings.TrimRight(name, " ,–—-|·")
			if role == "" || name == full || !strings.HasSuffix(full, role) || !s.isCardName(name) || !s.founderTitle(role) {
				continue
			}
			add(name, role, p.ev(name), p.ev(role))
		}
		return false
	})
}

// byPhrase: after "started in 2019 by", a few lower-case words and a comma
// before the names ("by two neighbours, A and B", "by three friends, A, B
// and C").
var byPhrase = lazyMustCompile(`^(?:\p{Ll}[\p{L}'’-]*\s+){0,3}\p{Ll}[\p{L}'’-]*,\s+`)

// pluralFounders: "Our founders, A and B," (names after the plural).
var pluralFounders = lazyMustCompile(`(?i:\b(?:our|unsere|nos|nuestros|i nostri|onze|nossos|våra|nasi)\s+(?:co-?founders|founders|gründer(?:innen)?|fondateurs|fundadores|fondatori|oprichters|grundare|założyciele)),?\s+`)

// asRole: "Rosa runs the company as CEO": a founder's title said later,
// by the first name, in a clause of its own.
var asRole = lazyMustCompile(`(?:^|[.;]\s+|\s)(\p{Lu}[\p{L}'’-]+)\s[^.;]{0,50}?\s(?:as|als|en tant que|como|come|jako|som)\s+(?:our\s+|the\s+|its\s+)?([^.;,()]{2,40})`)

// founderSentences reads the founders of those sentences on an about page
// and gives founders found without a title the one a later clause states.
func (s *site) founderSentences(p *page, add func(name, title string, ev ...domain.Evidence)) {
	for _, l := range p.ownLines() {
		if l.footer || !hasUpper2(l.text) {
			continue
		}
		t := l.text
		var people []listedPerson
		for _, m := range byVerb.FindAllStringSubmatchIndex(t, -1) {
			rest := t[m[1]:]
			if b := byPhrase.FindString(rest); b != "" {
				ps, _ := s.nameList(rest[len(b):], t[m[2]:m[3]])
				people = append(people, ps...)
			}
		}
		for _, m := range pluralFounders.FindAllStringIndex(t, -1) {
			ps, _ := s.nameList(t[m[1]:], "*")
			if len(ps) >= 2 {
				people = append(people, ps...)
			}
		}
		for _, x := range people {
			add(x.name, x.role, p.ev(sentenceAround(t, strings.Index(t, x.name))))
		}
	}
}

// titlesByFirstName fills the title of founders drafted without one from
// "Rosa runs the company as CEO; Ben leads engineering as CTO" on the page.
func (s *site) titlesByFirstName(p *page) {
	for i := range s.out.Founders {
		f := &s.out.Founders[i]
		if f.Title != "" {
			continue
		}
		first := strings.Fields(f.Name)
		if len(first) < 2 {
			continue
		}
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if l.foreign || l.footer || !strings.Contains(l.text, first[0]) {
					continue
				}
				for _, m := range asRole.FindAllStringSubmatch(l.text, -1) {
					if m[1] != first[0] && m[1] != f.Name {
						continue
					}
					role := strings.TrimSpace(m[2])
					if r := roleRe.FindStringIndex(role); r != nil && s.roleIn(role) != "" {
						f.Title = strings.TrimSpace(strings.Trim(role[r[0]:r[1]], " ,;.()"))
						f.Evidence = append(f.Evidence, p.ev(sentenceAround(l.text, strings.Index(l.text, m[0]))))
					}
				}
			}
		}
	}
}

// personFounders: a Schema.org Person, in JSON-LD or microdata, whose
// jobTitle is a founder's or executive's at this company: its worksFor
// names the product, or (on an about or team page, with no worksFor) the
// title says founder. A Person working for another company is not one.
func (s *site) personFounders(p *page, about bool, add func(name, title string, ev ...domain.Evidence)) {
	for _, o := range p.ld {
		if !hasType(o, "Person") {
			continue
		}
		name, title := ldString(o, "name"), ldString(o, "jobTitle")
		if name == "" || title == "" || s.roleIn(title) == "" {
			continue
		}
		var employer []string
		for _, w := range ldObjects(o, "worksFor") {
			employer = append(employer, ldString(w, "name"))
		}
		employer = append(employer, ldStrings(o, "worksFor")...)
		own := false
		for _, e := range employer {
			own = own || e != "" && (s.mentionsName(e) || nameKey(e) == nameKey(s.name))
		}
		if own || len(employer) == 0 && about && founderWordAny.MatchString(title) {
			add(name, title, p.ev(name), p.ev(title))
		}
	}
	if !about {
		return
	}
	forEach(p.doc, false, func(n *html.Node) bool {
		if attr(n, "itemscope") == "" && !hasAttr(n, "itemscope") || !strings.Contains(strings.ToLower(attr(n, "itemtype")), "schema.org/person") {
			return true
		}
		if underOtherHeading(n) || foreign(n) {
			return false
		}
		var name, title string
		forEach(n, false, func(c *html.Node) bool {
			if hasAttr(c, "itemscope") {
				return false // another item's properties
			}
			switch strings.ToLower(attr(c, "itemprop")) {
			case "name":
				if name == "" {
					name = strings.TrimSpace(nodeText(c))
				}
			case "jobtitle":
				if title == "" {
					title = strings.TrimSpace(nodeText(c))
				}
			}
			return true
		})
		if name != "" && title != "" && s.isCardName(name) && s.founderTitle(title) && (founderWordAny.MatchString(title) || s.roleIn(title) != "") {
			add(name, title, p.ev(name), p.ev(title))
		}
		return false
	})
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

// departmentRe: the area a founder leads, written after the title with a
// comma ("Co-founder, Engineering", "Mitgründerin, Technik", "Medeoprichter,
// techniek"): a department, not another company, so the title stays.
var departmentRe = lazyMustCompile(`(?i)^(?:engineering|product|design|technology|tech|operations|ops|growth|marketing|sales|finance|research|data|content|customer success|people|product & design|product and design|` +
	`technik|entwicklung|produkt|vertrieb|finanzen|technique|produit|tecnología|tecnologia|producto|prodotto|techniek|product|technika|teknik|produkt|teknoloji|ürün)$`)
