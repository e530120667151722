package extract

import (
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Founding sentences as other authors write them:
//   - a descriptor between "by" and the names: "founded in 2018 by
//     husband-and-wife team Rachel Ames and Elliot Vance", "by former
//     teachers A and B";
//   - the names in apposition before the verb: "In 2020 two former
//     teachers, Amara Singh and Jonas Weber, started Pollen";
//   - Korean "A과 B가 (공동) 설립/창업", each name a Korean surname and a
//     given name of two syllables, whatever the descriptors before them
//     ("세무사 출신 김도윤과 개발자 오세린이 2024년에 공동 설립한");
//   - a founder's title said later by the first name with "is" ("Jonas …
//     is our chief technology officer") or "as chief executive".
// As everywhere, the sentence must say the founding of this product (its
// name, "we", "the company"), or stand on an about page.

// byDescriptor: after "by", one to four lower-case words before the names.
var byDescriptor = lazyMustCompile(`^(?:\p{Ll}[\p{L}'’-]*\s+){1,4}`)

// apposedFounders: ", A and B, started/founded …" (the names set off by commas).
var apposedStart = lazyMustCompile(`,\s+`)

// relativeRe: a relative clause after the names ("A and B, who founded
// Globex"): the names are its subject, not the sentence's.
var relativeRe = lazyMustCompile(`(?i)^\s*(?:who|which|that|die|der|qui|que|che|som|który|która|kteří)\b`)

// koreanPairRe: "김도윤과 … 오세린이 … 설립" (the first name before 과/와,
// the second before 이/가, a founding word after them in the sentence).
var koreanPairRe = lazyMustCompile(`(?:^|\s)(\p{Hangul}{3})(?:과|와)\s+(?:\S+\s+){0,2}?(\p{Hangul}{3})(?:이|가)\s[^.]{0,40}?(?:설립|창업)`)

// koreanSurnames: the family names of nearly every Korean (one syllable).
const koreanSurnames = "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부"

func koreanName(n string) bool {
	r := []rune(n)
	return len(r) == 3 && strings.ContainsRune(koreanSurnames, r[0])
}

// firstNameRole: "<First> … is our <title>", "<First> … as <title>",
// "<First> is our <title>".
var firstNameRole = lazyMustCompile(`(?:^|[.;]\s+|\s)(\p{Lu}[\p{L}'’-]+)(?:\s[^.;]{0,60}?)?\s(?:is|as|is now)\s+(?:our\s+|the\s+|its\s+)?([^.;,()]{2,40})`)

// chiefExecRe: "chief executive" without "officer" (a title the role words lack).
var chiefExecRe = lazyMustCompile(`(?i)^chief executive\b`)

// sentenceFounders39 adds the founders of those sentences (each name once,
// at most six) and fills titles said by first name.
func (s *site) sentenceFounders39() {
	if !s.wants(onlyFounders) {
		return
	}
	addAll := s.founderAdder() // founders_structure.go
	add := func(name, title string, ev domain.Evidence) { addAll(name, title, ev) }
	s.pressFounders(add)
	isForeign := foreignMemo()
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		about := isTeamPage(p) || worldAboutPath.MatchString(p.base.Path)
		for _, seg := range p.segs {
			if seg.foreign || otherHeading.MatchString(seg.title) && !teamHeading.MatchString(seg.title) {
				continue
			}
			for _, l := range seg.lines {
				if l.foreign || l.footer || (l.node != nil && isForeign(l.node)) || isQuotedLine(l.text) {
					continue
				}
				t := l.text
				// the sentence says the founding of this product, or stands on an about page
				own := func(sent string) bool {
					return s.mentionsName(sent) || weWordRe.MatchString(sent) || about && strongFoundVerbRe.MatchString(sent)
				}
				if hasUpper2(t) && hasAnyWord(strings.ToLower(t), verbHints) {
					for _, m := range byVerb.FindAllStringSubmatchIndex(t, -1) {
						rest := t[m[1]:]
						d := byDescriptor.FindString(rest)
						if d == "" || strings.Contains(d, ",") {
							continue
						}
						people, _ := s.nameList(rest[len(d):], t[m[2]:m[3]])
						sent := sentenceAround(t, m[0])
						if len(people) == 0 || !own(sent) {
							continue
						}
						for _, x := range people {
							if strings.Contains(sent, x.name) {
								add(x.name, x.role, p.ev(sent))
							}
						}
					}
					for _, m := range apposedStart.FindAllStringIndex(t, -1) {
						people, end := s.nameList(t[m[1]:], "*")
						if len(people) < 2 {
							continue
						}
						rest := strings.TrimPrefix(t[m[1]+end:], ",")
						v := subjVerb.FindStringIndex(rest)
						if v == nil || !strings.HasPrefix(t[m[1]+end:], ",") {
							continue
						}
						tail := rest[v[1]:]
						if len(tail) > 40 {
							tail = tail[:40]
						}
						sent := sentenceAround(t, m[1])
						if relativeRe.MatchString(rest) || !s.mentionsName(tail) && !weWordRe.MatchString(tail) {
							continue // "A and B, who founded OtherCo, advise us"
						}
						for _, x := range people {
							if strings.Contains(sent, x.name) {
								add(x.name, x.role, p.ev(sent))
							}
						}
					}
				}
				for _, m := range koreanPairRe.FindAllStringSubmatchIndex(t, -1) {
					a, b := t[m[2]:m[3]], t[m[4]:m[5]]
					sent := sentenceAround(t, m[2])
					if !koreanName(a) || !koreanName(b) || !(about || s.mentionsName(sent)) || !strings.Contains(sent, a) || !strings.Contains(sent, b) {
						continue
					}
					add(a, "", p.ev(sent))
					add(b, "", p.ev(sent))
				}
			}
		}
		if about {
			s.titlesByFirstNameIs(p)
		}
	}
}

// titlesByFirstNameIs fills the title of founders drafted without one from
// "Jonas … is our chief technology officer", "Amara leads the company as
// chief executive" on an about page.
func (s *site) titlesByFirstNameIs(p *page) {
	for i := range s.out.Founders {
		f := &s.out.Founders[i]
		first := strings.Fields(f.Name)
		if f.Title != "" || len(first) < 2 {
			continue
		}
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if f.Title != "" || l.foreign || l.footer || !strings.Contains(l.text, first[0]) {
					continue
				}
				for _, m := range firstNameRole.FindAllStringSubmatch(l.text, -1) {
					if m[1] != first[0] {
						continue
					}
					role := strings.TrimSpace(m[2])
					title := ""
					if r := roleRe.FindStringIndex(role); r != nil && s.roleIn(role) != "" {
						title = strings.TrimSpace(strings.Trim(role[r[0]:r[1]], " ,;.()"))
					} else if c := chiefExecRe.FindString(role); c != "" {
						title = c
					}
					if title != "" {
						f.Title = title
						f.Evidence = append(f.Evidence, p.ev(sentenceAround(l.text, strings.Index(l.text, m[0]))))
						break
					}
				}
			}
		}
	}
}

// saidRe: a press release's attribution, "said Maya Lindqvist, CEO and
// co-founder of Quillstack", "säger Elin Sjöberg, vd och medgrundare".
var saidRe = lazyMustCompile(`(?:^|[\s,”"»])(?:said|says|adds|added|explains|explained|säger|sagt|sagte|erklärt|déclare|explique|ajoute|dice|afirma|explica|dichiara|zegt|mówi|říká|diz|siger|sier|sanoo)\s+(` + personNamePattern + `),\s+([^.;”"«»]{2,80})`)

// founderPostRe: a blog post's title that introduces the founders ("Meet
// the founders: a conversation with A and B", "An interview with our
// co-founders A and B").
var founderPostRe = lazyMustCompile(`(?i)\b(?:co-?)?founders\b[^:]{0,20}?(?::\s+(?:a\s+)?(?:conversation|interview|chat|q&a)\s+with\s+|\s+)`)

// pressFounders reads the company's own words on its press pages and the
// founders a post of its blog introduces: founding sentences naming the
// product ("About Quillstack … Founded in 2021 by A and B, the company …"),
// attributions with a founder's title at this company; a post whose title
// introduces the founders (not another company's).
func (s *site) pressFounders(add func(name, title string, ev domain.Evidence)) {
	for _, p := range s.pages {
		if p.kind != kindBlog {
			continue
		}
		if pressPage(p) {
			for _, seg := range p.segs {
				for _, l := range seg.lines {
					t := l.text
					if !hasUpper2(t) {
						continue
					}
					for _, m := range saidRe.FindAllStringSubmatchIndex(t, -1) {
						name, rest := t[m[2]:m[3]], t[m[4]:m[5]]
						title := s.roleIn(rest)
						if title == "" || !founderWordAny.MatchString(title) || !s.isPersonName(name) {
							continue
						}
						if o := otherCo.FindStringSubmatchIndex(title); o != nil && s.mentionsName(title[o[2]:o[3]]) {
							title = strings.TrimSpace(title[:o[0]]) // "CEO and co-founder of Quillstack"
						}
						add(name, title, p.ev(sentenceAround(t, m[2])))
					}
					for _, m := range findAll(!isQuotedLine(t), byVerb, t) {
						sent := sentenceAround(t, m[0])
						if !s.mentionsName(sent) && !strings.Contains(strings.ToLower(sent), "the company") {
							continue
						}
						rest := t[m[1]:]
						rest = rest[len(byDescriptor.FindString(rest)):]
						people, _ := s.nameList(rest, t[m[2]:m[3]])
						for _, x := range people {
							if strings.Contains(sent, x.name) {
								add(x.name, x.role, p.ev(sent))
							}
						}
					}
				}
			}
			continue
		}
		// a post of the site's blog introducing its founders
		for _, seg := range p.segs {
			if seg.level != 1 {
				continue
			}
			m := founderPostRe.FindStringIndex(seg.title)
			if m == nil {
				continue
			}
			if o := otherCo.FindStringSubmatch(seg.title[m[0]:]); o != nil && !s.mentionsName(o[1]) {
				continue // "Meet the founders of Padaria Aurora"
			}
			people, _ := s.nameList(seg.title[m[1]:], "*")
			for _, x := range people {
				add(x.name, "", p.ev(seg.title))
			}
		}
	}
}
