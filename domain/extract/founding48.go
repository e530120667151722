package extract

import (
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Founding years said without a founding verb, the way makers write them:
// "Oddly began in 2021 as a spreadsheet", "Ledgerlark has been around since
// 2019", "Carnet Bleu existe depuis 2019", "Ruttplan startade 2022", "the
// first line of code went in during March 2020, when I ...", and a passive
// founding verb whose year ends a long "by ..." ("X was started by two
// friends, A and B, over a kitchen table in 2021").

// startVerbRe: a start or an existence since a date, in the languages of the
// sets; group 1 is the phrase.
var startVerbRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(began|begun|got (?:its|our|my) start|came to life|started (?:out|life)|began life|` +
	`(?:has|have) been around since|(?:has|have) existed since|exists since|dates back to|` +
	`entstand|entstanden|gibt es (?:schon |bereits )?seit|existiert (?:schon |bereits )?seit|begann|startete|` +
	`existe depuis|a commencé|a débuté|a vu le jour|` +
	`existe desde|comenzó|empezó|arrancó|esiste dal|esiste da|è partit[ao]|bestaat (?:al )?sinds|begon|começou|` +
	`startade|började|finns sedan|har funnits sedan|startet|startede|begynte|begyndte|` +
	`istnieje od|działa od|wystartował\p{L}*|existuje od|začal\p{L}*|začala|` +
	`first line of code|first commit)(?:[^\p{L}]|$)`)

// codeStartRe: the phrases that name the work's start, not the product's
// subject ("The first line of code went in ...").
var codeStartRe = lazyMustCompile(`(?i)^first (?:line of code|commit)$`)

// selfWordMoreRe: "we" and "our" in the languages without word lists whose
// start verbs startVerbRe knows.
var selfWordMoreRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(vi|vår|vårt|våra|vores|vår|my|nasz\p{L}*|jsme|náš|naše|našeho)(?:[^\p{L}]|$)`)

// startGapRe: what may stand between a start verb and its year: a few
// words, none a verb's -ing form or an infinitive's "to" ("began in", "went
// in during March", "startade"), never "began offering SSO in 2023".
var startGapRe = lazyMustCompile(`(?i)\b(?:to|\p{L}+ing)\b`)

// passiveByRe: a founding verb in the passive with its makers ("was started
// by", "wurde von ... gegründet" is not this form).
var passiveByRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:was|were|is|got) (founded|co-founded|started|created|built) by\s`)

// clauseOpenerRe: words that open another clause, whose year is not the
// founding's ("founded by Jane, who had run support since 2012").
var clauseOpenerRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(who|whom|whose|which|that|where|when|after|before|until|since|while)(?:[^\p{L}]|$)`)

// startFounded sets the founding year from a start statement about the
// product or the speaker when no other rule set one.
func (s *site) startFounded() {
	if _, ok := s.out.Fields["founded_year"]; ok || !s.wants("founded_year") {
		return
	}
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, l := range p.ownLines() {
			if !yearRe.MatchString(l.text) {
				continue
			}
			if y, sent := s.startYear(p, l.text); y != "" {
				s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(sent)}})
				return
			}
		}
	}
}

// startYear: the year and the clause of a start statement in text, or "".
func (s *site) startYear(p *page, text string) (string, string) {
	for _, m := range startVerbRe.FindAllStringSubmatchIndex(text, -1) {
		sent := clauseAround(text, m[2])
		verb := text[m[2]:m[3]]
		i := strings.Index(sent, verb)
		if i < 0 || copyrightRe.MatchString(sent) || otherPartyRe.MatchString(s.withoutName(sent)) {
			continue
		}
		subject := sent[:i]
		if codeStartRe.MatchString(verb) {
			subject = sent
		}
		if !s.mentionsName(subject) && !s.selfWord(p, subject, sent) && !selfWordMoreRe.MatchString(subject) {
			continue
		}
		after := sent[i+len(verb):]
		ym := yearRe.FindStringIndex(after)
		if ym == nil || ym[0] > 30 {
			continue
		}
		gap := after[:ym[0]]
		if strings.ContainsAny(gap, ",;") || startGapRe.MatchString(strings.NewReplacer("during", "", "spring", "").Replace(strings.ToLower(gap))) {
			continue
		}
		return after[ym[0]:ym[1]], sent
	}
	for _, m := range passiveByRe.FindAllStringIndex(text, -1) {
		sent := clauseAround(text, m[0]+1)
		j := strings.Index(sent, strings.TrimSpace(text[m[0]:m[1]]))
		if j < 0 || copyrightRe.MatchString(sent) || !s.mentionsName(sent[:j]) && !s.selfWord(p, sent[:j], sent) {
			continue
		}
		after := sent[j:]
		years := yearRe.FindAllStringIndex(after, -1)
		if len(years) != 1 || clauseOpenerRe.MatchString(after[:years[0][0]]) || !strings.HasSuffix(strings.ToLower(strings.TrimSpace(after[:years[0][0]])), " in") {
			continue
		}
		return after[years[0][0]:years[0][1]], sent
	}
	return "", ""
}

// foundsVerbs: a founding verb whose object follows it ("Aoife Brennan ...
// founds Quillfeather", "gründet Acme", "fonde Acme").
var foundsVerbs = []string{"founds", "founded", "co-founds", "co-founded", "starts", "started", "gründet", "gründen", "gründeten", "fonde", "fondent", "fonda",
	"funda", "fundan", "fundó", "fondano", "fondò", "richt", "fundou", "grundar", "grundade", "zakłada", "założył", "założyła", "założyli", "zakládá", "založil", "založila", "kurar", "kurdu"}

// foundsProduct reports whether a timeline entry says someone founds the
// product ("2017 — Aoife Brennan leaves private practice and founds
// Quillfeather in a Dublin co-working space").
func (s *site) foundsProduct(title string) bool {
	if s.name == "" {
		return false
	}
	lt, name := strings.ToLower(title), strings.ToLower(s.name)
	for _, v := range foundsVerbs {
		if i := strings.Index(lt, v+" "+name); i >= 0 && (i == 0 || lt[i-1] == ' ') {
			return true
		}
	}
	return false
}
