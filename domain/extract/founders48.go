package extract

import (
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Founders the way small teams sign and list them:
//   - a signature: a line of names and, on the next line of the same block,
//     only the founders' word ("Mateo Ruiz & Hana Sato<br>Founders" under a
//     founders' letter);
//   - a founders' label in the languages without sentence patterns
//     ("Założyciele: A (prezes zarządu) i B (CTO)", "Grundare: A och B");
//   - an executive is no founder when the site names its founders: in a
//     leadership list where one card says "Founder & Chief Executive", a
//     "Chief Operating Officer" whose evidence says nothing of a founding
//     is an employee.

// founderWordAnyRe: a founder's word in the languages of the sets.
var founderWordAnyRe = lazyMustCompile(`(?i)founder|gründer|fondat|fundador|oprichter|oprichtst|założyciel|grundare|grundat|zakladatel|kurucu|perustaja|alapító|grunnlegger|stifter|創業|創立|创始|創辦|창업|설립`)

// coFounderWordRe: a co-founder's word, which says there are other founders.
var coFounderWordRe = lazyMustCompile(`(?i)co-?founder|cofounder|mitgründer|co-?fondat|co-?fundador|mede-?oprichter|współzałożyciel|medgrundare|spoluzakladatel|kurucu ortak|共同|联合|공동`)

// signatureLabelRe: a line that is only the founders' word.
var signatureLabelRe = lazyMustCompile(`(?i)^(?:the |our |die |les |los |i |de |os )?(?:co-?founders?|founders?|(?:mit)?gründer(?:in|innen)?|(?:co-?)?fondat(?:eur|rice|ore|ori)s?|(?:co-?)?fundador(?:a|es|as)?|(?:mede-?)?oprichters?|(?:współ)?założyciel\p{L}*|(?:med)?grundare|(?:spolu)?zakladatel\p{L}*|kurucu(?:lar)?)[.,]?$`)

// worldFounderLabelRe: "Założyciele: ...", "Grundare: ...", "Zakladatelé: ...", "Kurucular: ...".
var worldFounderLabelRe = lazyMustCompile(`^(?i:((?:współ)?założyciel\p{L}*|(?:med)?grundare|(?:spolu)?zakladatel\p{L}*|kurucu(?:lar)?|kurucu ortaklar))\s*:\s*`)

// founders48 runs after the other founder rules.
func (s *site) founders48() {
	if !s.wants("founders") {
		return
	}
	s.signatureFounders()
	s.worldLabelFounders()
	s.dropUnfoundedExecs()
	// "Omar Haddad – co-founder & CTO": the title without the dash before it
	for i := range s.out.Founders {
		s.out.Founders[i].Title = strings.TrimLeft(s.out.Founders[i].Title, "–—-:|·, ")
	}
}

// addFounder48 adds a founder the other rules did not draft.
func (s *site) addFounder48(name, title string, ev []domain.Evidence) {
	for _, f := range s.out.Founders {
		if nameKey(f.Name) == nameKey(name) {
			return
		}
	}
	if len(s.out.Founders) >= 6 {
		return
	}
	s.out.Founders = append(s.out.Founders, domain.DraftedFounder{Name: name, Title: title, Evidence: ev})
}

// signatureFounders reads a names line over a founders' word line in one
// block, on any page: a founders' letter is often a blog post, and the
// label alone (no other company after it) is the site's own founders.
func (s *site) signatureFounders() {
	for _, p := range s.pages {
		for _, seg := range p.segs {
			if seg.foreign {
				continue
			}
			for i := 1; i < len(seg.lines); i++ {
				l, prev := seg.lines[i], seg.lines[i-1]
				if l.foreign || prev.foreign || l.node == nil || l.node != prev.node || !signatureLabelRe.MatchString(l.text) {
					continue
				}
				people, end := s.nameList(prev.text, "*")
				if len(people) == 0 || end != len(prev.text) {
					continue
				}
				title := ""
				if len(people) == 1 {
					title = l.text
				}
				for _, x := range people {
					s.addFounder48(x.name, title, []domain.Evidence{p.ev(prev.text), p.ev(l.text)})
				}
			}
		}
	}
}

// worldLabelFounders reads "Założyciele: A (prezes zarządu) i B (CTO)" on the
// company's pages, the names joined by the language's conjunction.
func (s *site) worldLabelFounders() {
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		agent := "*"
		switch base, _, _ := strings.Cut(strings.ToLower(s.pageLang(p)), "-"); base {
		case "pl", "cs", "sv":
			agent = base
		}
		for _, l := range p.ownLines() {
			if l.footer {
				continue
			}
			m := worldFounderLabelRe.FindStringSubmatch(l.text)
			if m == nil {
				continue
			}
			people, _ := s.nameList(l.text[len(m[0]):], agent)
			for _, x := range people {
				title := x.role
				if title == "" && len(people) == 1 {
					title = m[1]
				}
				s.addFounder48(x.name, title, []domain.Evidence{p.ev(sentenceAround(l.text, 0))})
			}
		}
	}
}

// dropUnfoundedExecs: when a drafted founder's title says founder (and no
// title says co-founder: then the others may be the co-founders), another
// whose title is only an executive's and whose name is in no founding
// statement or founder's title is an employee.
func (s *site) dropUnfoundedExecs() {
	named := false
	for _, f := range s.out.Founders {
		if coFounderWordRe.MatchString(f.Title) {
			return // "Co-founder & CTO": another founder is there, maybe the CEO
		}
		named = named || founderWordAnyRe.MatchString(f.Title)
	}
	if !named {
		return
	}
	keep := s.out.Founders[:0]
	for _, f := range s.out.Founders {
		if f.Title != "" && !founderWordAnyRe.MatchString(f.Title) && !saysFounding(f.Evidence) && !s.namedInFounding(f.Name) {
			continue
		}
		keep = append(keep, f)
	}
	s.out.Founders = keep
}

// namedInFounding reports whether a line of the company's pages names the
// person and speaks of a founder or a founding ("started by two friends, A
// and B").
func (s *site) namedInFounding(name string) bool {
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if !l.foreign && strings.Contains(l.text, name) && saysFounding([]domain.Evidence{{Quote: l.text}}) {
					return true
				}
			}
		}
	}
	return false
}

// saysFounding reports whether a quote speaks of a founder or a founding.
func saysFounding(ev []domain.Evidence) bool {
	for _, e := range ev {
		if founderWordAnyRe.MatchString(e.Quote) || foundVerbRe.MatchString(e.Quote) || byVerb.MatchString(e.Quote) {
			return true
		}
	}
	return false
}
