package extract

import (
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// The founding year in the languages the founding rules had no words for
// (Norwegian, Finnish, Hungarian, Romanian, Vietnamese, Thai, Indonesian,
// Hebrew), when nothing else stated it: a founding verb and a year in one
// sentence of an about, team or home page ("ble grunnlagt i Oslo i 2021",
// "Yrityksen perustivat vuonna 2019", "a fost fondată în 2022", "được thành
// lập năm 2021", "didirikan pada tahun 2020", "הוקמה בשנת 2019"), or a
// profile row labelled so ("Alapítás éve | 2020", "ก่อตั้ง | พ.ศ. 2563 (ค.ศ.
// 2020)": the year of the common era, never the Buddhist one); and a Korean
// sentence in which the founders with their titles founded the company
// ("2021년 김서연 대표와 박준호 CTO가 함께 창업한"). Copyright lines and
// other people's words are not read.

// foundVerbWorldRe: founding verbs of those languages.
var foundVerbWorldRe = lazyMustCompile(`(?i)grunnlagt|grunnla|etablert|perustivat|perustettiin|perustettu|perusti|alapította|alapították|alapítva|alapították|fondată|fondat[ăa]?|înființat[ăa]?|thành lập|ก่อตั้ง|didirikan|berdiri sejak|הוקמה|הוקם|נוסדה|נוסד`)

// foundedLabelWorld: a profile's founding row in those languages.
var foundedLabelWorld = lazyMustCompile(`(?i)^(?:alapítás(?: éve)?|alapítva|grunnlagt|etablert|perustettu|perustamisvuosi|înființare|fondat[ăa]?|năm thành lập|thành lập|ก่อตั้ง|ปีที่ก่อตั้ง|didirikan|tahun berdiri|שנת הקמה|נוסדה)\s*:?$`)

// otherPartyWorld: a customer, partner or investor in those languages (and
// in Korean): a sentence about them is not the product's founding.
var otherPartyWorld = lazyMustCompile(`(?i)kunde|asiakas|ügyfél|ügyfel|client|khách hàng|ลูกค้า|pelanggan|לקוח|partner|investor|sijoittaja|befektető|고객|투자`)

// worldFounded sets the founding year from those statements when no other
// rule did.
func (s *site) worldFounded() {
	if _, ok := s.out.Fields["founded_year"]; ok || !s.wants("founded_year") {
		return
	}
	covered := coveredLanguage(s.req.Site.Language)
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		about := p.kind == kindAbout || p.kind == kindTeam || worldAboutPath.MatchString(p.base.Path)
		if !covered {
			for _, r := range labelRows(p) {
				if !foundedLabelWorld.MatchString(strings.TrimSpace(r.label)) {
					continue
				}
				if y := yearRe.FindString(r.value); y != "" {
					s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(r.label), p.ev(r.value)}})
					return
				}
			}
		}
		if p.kind != kindHome && !about {
			continue
		}
		for _, l := range p.ownLines() {
			if l.footer || copyrightRe.MatchString(l.text) {
				continue
			}
			if m := foundVerbWorldRe.FindStringIndex(l.text); !covered && m != nil {
				sent := sentenceAround(l.text, m[0])
				if y := yearRe.FindString(sent); y != "" && !otherPartyRe.MatchString(sent) && !otherPartyWorld.MatchString(s.withoutName(sent)) {
					s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(sent)}})
					return
				}
			}
			// Korean: the founders, each with a title, founded it
			if m := koreanFoundRe.FindStringIndex(l.text); m != nil && about {
				sent := sentenceAround(l.text, m[0])
				if y := yearRe.FindString(sent); y != "" && len(koreanPersonRe.FindAllString(sent+" ", -1)) > 0 && !otherPartyWorld.MatchString(s.withoutName(sent)) {
					s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(sent)}})
					return
				}
			}
		}
	}
}
