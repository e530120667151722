package extract

import (
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Founding statements, places and postal addresses in the seven languages
// (docs/extract-f2.md).

// clauseAround is the sentence of text that holds text[i:], cut further at the
// separators of footer lines ("Contact: … · Founded in 2023 in Dublin, Ireland").
func clauseAround(text string, i int) string {
	sent := sentenceAround(text, i)
	j := strings.Index(sent, text[i:min(len(text), i+8)])
	if j < 0 {
		return sent
	}
	start, end := 0, len(sent)
	for _, m := range lineSepRe.FindAllStringIndex(sent, -1) {
		if m[1] <= j {
			start = m[1]
		} else if m[0] >= j && end == len(sent) {
			end = m[0]
		}
	}
	return strings.TrimSpace(sent[start:end])
}

// foundingStatement is one founding statement: the year, and the place when it says one.
type foundingStatement struct {
	p      *page
	line   string // the line the statement is on
	year   string
	clause string
	place  loc
}

// foundings reads the founding statements about the company itself, about
// and team pages first: "X was founded in 2021 in Berlin, Germany", "X wurde
// 2019 in Leipzig gegründet", "X a été fondé en 2020 à Lyon", "Fundada en
// 2018", "Gegründet 2019", "Since 2019" as a badge. Testimonials, quotes and
// copyright lines are skipped; "Founded in 2009, Globex is our oldest
// customer" is about Globex.
func (s *site) foundings() []foundingStatement {
	var out []foundingStatement
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, l := range p.ownLines() {
			out = append(out, s.foundingsIn(p, l.text)...)
		}
	}
	return out
}

func (s *site) foundingsIn(p *page, text string) []foundingStatement {
	var out []foundingStatement
	founded := foundVerbRe.FindAllStringSubmatchIndex(text, -1)
	for k, m := range append(founded, bornVerb.FindAllStringSubmatchIndex(text, -1)...) {
		clause := clauseAround(text, m[2])
		verb := text[m[2]:m[3]]
		if copyrightRe.MatchString(clause) {
			continue
		}
		y := yearNear(clause, verb)
		if y == "" || !s.aboutUs(p, clause, verb) {
			continue
		}
		// Born: only the product itself ("Pagella è nata nel 2020"), never "I"
		// or a person ("Luca è nato nel 1986").
		if i := strings.Index(clause, verb); k >= len(founded) && (i < 0 || !s.mentionsName(clause[:i])) {
			continue
		}
		f := foundingStatement{p: p, line: text, year: y, clause: clause}
		f.place, _ = placeIn(p, clause, verb, y)
		out = append(out, f)
	}
	if len(out) == 0 {
		for _, part := range lineSepRe.Split(text, -1) {
			part = strings.TrimSpace(strings.TrimRight(part, "."))
			// "Brindle · est. 2018 · © 2018–2026 Brindle ApS": the label is its
			// own part of a footer line; a copyright part beside it is not read.
			if m := sinceLabel.FindStringSubmatch(part); m != nil && !copyrightRe.MatchString(part) {
				out = append(out, foundingStatement{p: p, year: m[1], clause: part})
			}
		}
	}
	return out
}

// aboutUs: the founding statement is about the company: it names the
// product, or "we" (in any of the seven languages) is the subject, or it
// starts with the verb ("Founded in 2021 in Leeds.", "Gegründet 2019") and
// what follows the date and place is nothing, a "by …" or the company.
func (s *site) aboutUs(p *page, clause, verb string) bool {
	i := strings.Index(clause, verb)
	if i < 0 {
		return false
	}
	before, after := clause[:i], clause[i+len(verb):]
	if strings.Trim(before, " \t\"'“”‚„«»-–—:(") == "" {
		if otherPartyRe.MatchString(clause) {
			return false
		}
		rest := afterDatePlace(after)
		if rest == "" {
			return true
		}
		// "Gegründet haben wir Heftwerk 2020 zu zweit: ...": the verb first,
		// then "we" or the product as its subject
		if head := strings.Fields(after); s.selfWord(p, strings.Join(head[:min(3, len(head))], " "), clause) || s.mentionsName(strings.Join(head[:min(3, len(head))], " ")) {
			return true
		}
		first := strings.ToLower(strings.Trim(strings.Fields(rest)[0], ".,;:"))
		return byWord.MatchString(first) || s.selfWord(p, first, clause) || s.mentionsName(strings.Join(strings.Fields(rest)[:min(3, len(strings.Fields(rest)))], " "))
	}
	if s.mentionsName(clause) {
		return true
	}
	if !s.selfWord(p, before, clause) && !s.selfWord(p, verb, clause) || otherPartyRe.MatchString(clause) {
		return false
	}
	return !strings.EqualFold(verb, "started") || companyObj.MatchString(clause[i:]) || s.mentionsName(after)
}

// afterDatePlace returns what follows the date and place of a verb-first
// statement: the first comma part after the first that is not a country
// ("Founded in 2009, Globex is …" -> "Globex is …").
func afterDatePlace(s string) string {
	parts := strings.Split(s, ",")
	for _, part := range parts[1:] {
		t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(part), "."))
		if _, isCountry := domain.CountryCode(t); t == "" || isCountry {
			continue
		}
		return t
	}
	return ""
}

func isPrep(w string) bool {
	switch strings.ToLower(w) {
	case "in", "im", "en", "em", "nel", "a", "à", "na":
		return true
	}
	return false
}

// placeIn finds the place of a founding statement: "in/à/en/a/em/te" and a
// capitalised name after the verb or the year (or before the verb, as German
// and Dutch put it: "2019 in Leipzig gegründet"), then a country after a comma
// or in brackets ("in Berlin, Germany", "em Recife, no Brasil"). A place that
// is a country gives the country only.
func placeIn(p *page, clause, verb, year string) (loc, bool) {
	start := len(clause)
	if i := strings.Index(clause, verb); i >= 0 {
		start = i
	}
	if i := strings.Index(clause, year); i >= 0 && i < start {
		start = i
	}
	region := clause[start:]
	for _, m := range placeRe.FindAllStringSubmatchIndex(region, -1) {
		if l, ok := placeFrom(p, clause, region[m[4]:m[5]], region[m[5]:]); ok {
			return l, true
		}
	}
	return loc{}, false
}

// placeFrom reads a place name and what follows it; quote is the statement.
func placeFrom(p *page, quote, place, rest string) (loc, bool) {
	hadArticle := false
	if f := strings.Fields(place); len(f) > 1 && (notPlace.MatchString(f[0]) || f[0] == "l'") {
		hadArticle = true
		place = strings.Join(f[1:], " ")
	}
	place = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(place, ".-"), "'s"), "’s")
	// Connectors may not end a place ("Frankfurt am").
	for f := strings.Fields(place); len(f) > 1 && !personLike(f[len(f)-1]); f = strings.Fields(place) {
		place = strings.Join(f[:len(f)-1], " ")
		rest = " " + f[len(f)-1] + rest
	}
	first := strings.ToLower(strings.Fields(place + " x")[0])
	if place == "" || monthWords[first] || notPlace.MatchString(place) || yearRe.MatchString(place) || regionNames[strings.ToLower(place)] {
		return loc{}, false
	}
	// What follows the place: punctuation, the end, a "by", the verb.
	next := strings.TrimSpace(rest)
	if next != "" && !strings.ContainsAny(next[:1], ",.;:()!?") {
		w := strings.ToLower(strings.Trim(strings.Fields(next)[0], ".,;:"))
		if !byWord.MatchString(w) && !yearRe.MatchString(w) {
			return loc{}, false
		}
	}
	l := loc{p: p}
	if code, ok := domain.CountryCode(place); ok {
		l.country, l.countryQuote = code, quote
		return l, true
	}
	if hadArticle {
		return loc{}, false
	}
	l.city, l.cityQuote = place, quote
	if code, ok := countryAfter(rest); ok {
		l.country, l.countryQuote = code, quote
	}
	return l, true
}

// countryAfter reads a country right after a place: ", Germany", " (France)",
// ", no Brasil", ", in Deutschland".
func countryAfter(rest string) (string, bool) {
	rest = strings.TrimSpace(rest)
	// Up to two parts: "in Austin, Texas, USA" names a state before the country.
	for k := 0; k < 2; k++ {
		if rest == "" || (rest[0] != ',' && rest[0] != '(') {
			return "", false
		}
		rest = strings.TrimSpace(rest[1:])
		part := rest
		if i := strings.IndexAny(rest, ",.;:()!?"); i >= 0 {
			part, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		f := strings.Fields(part)
		for len(f) > 1 && (isPrep(f[0]) || notPlace.MatchString(f[0]) || strings.EqualFold(f[0], "no") || strings.EqualFold(f[0], "nos")) {
			f = f[1:]
		}
		for n := len(f); n > 0 && personLike(f[0]); n-- {
			if code, ok := domain.CountryCode(strings.Join(f[:n], " ")); ok {
				return code, true
			}
		}
		if len(f) == 0 || len(f) > 3 || !personLike(strings.Join(f, " ")) {
			return "", false
		}
		rest = strings.TrimLeft(rest, ")")
		rest = strings.TrimSpace(rest)
	}
	return "", false
}

// basedInLoc reads "We are based in Lisbon, Portugal", "X mit Sitz in Leipzig",
// "basée à Lyon", "con sede en Valencia", "con sede a Torino", "gevestigd in
// Utrecht", "sediada em Lisboa" when the subject is the company itself (its
// name, "we", its team) and no customer, partner or server.
func (s *site) basedInLoc(p *page, text string) (loc, bool) {
	m := basedInLoc.FindStringSubmatchIndex(text)
	if m == nil {
		return loc{}, false
	}
	clause := clauseAround(text, m[2])
	i := strings.Index(clause, text[m[2]:m[3]])
	if i < 0 {
		return loc{}, false
	}
	subject := clause[:i]
	// "Based in Edinburgh, Scotland" standing alone (a footer badge) has no subject.
	bare := strings.Trim(subject, " \t\"'“”:(-–—") == ""
	if !(bare || s.selfWord(p, subject, clause) || s.mentionsName(subject) || teamWordRe.MatchString(subject) ||
		teamWordRe.MatchString(text[m[2]:m[3]])) || otherPartyRe.MatchString(clause) || hostWords.MatchString(clause) {
		return loc{}, false
	}
	rest := clause[i+len(text[m[2]:m[3]]):]
	return placeText(p, clause, rest)
}

// placeText reads "City[, Country]" or "Country" at the start of rest.
func placeText(p *page, quote, rest string) (loc, bool) {
	m := placeRe.FindStringSubmatchIndex("in " + strings.TrimSpace(rest))
	if m == nil || m[0] != 0 {
		return loc{}, false
	}
	r := "in " + strings.TrimSpace(rest)
	return placeFrom(p, quote, r[m[4]:m[5]], r[m[5]:])
}

// placeStatements are the places stated in sentences and labels on a page:
// founding statements, "based in", a seat label ("Sitz der Gesellschaft:
// Leipzig"), and — weakest, returned separately — "Made in Leipzig".
func (s *site) placeStatements(p *page) (strong, weak []loc) {
	for _, seg := range p.segs {
		if seg.foreign || hostWords.MatchString(seg.title) {
			continue
		}
		for _, ln := range seg.lines {
			if ln.foreign {
				continue
			}
			if l, ok := s.basedInLoc(p, ln.text); ok {
				strong = append(strong, l)
			}
			for _, part := range lineSepRe.Split(ln.text, -1) {
				part = strings.TrimSpace(part)
				if m := seatLabelRe.FindStringIndex(part); m != nil {
					if l, ok := placeText(p, part, part[m[1]:]); ok {
						strong = append(strong, l)
					}
				}
				if own := s.withoutOwnSubject(part); own != part && madeIn.MatchString(own) {
					part = own // "Tallow is made in Lisbon, Portugal"
				}
				if m := madeIn.FindStringIndex(part); m != nil && !hostWords.MatchString(part) {
					// "Made in Webflow", "Built in Rust": a bare "made in" names a
					// city only with its country or with "with love/avec soin … in".
					if l, ok := placeText(p, part, part[m[1]:]); ok && (l.country != "" || madeWith.MatchString(part[:m[1]])) {
						weak = append(weak, l)
					}
				}
			}
		}
	}
	return strong, weak
}

// addressLocs reads postal addresses: the lines of one block (a paragraph
// with line breaks, an <address>, a footer line split at " · ") holding a
// "postcode city" part, with a street, a legal form or a country beside it
// (or on an imprint or contact page). The country is only taken when a part
// names it ("Deutschland", "Italia", "France"), never from the postcode's
// shape. A block under a hosting heading or naming a host, data centre,
// court or registrar is someone else's address.
func (s *site) addressLocs(p *page) []loc {
	var out []loc
	legal := legalPage.MatchString(p.base.Path)
	for _, seg := range p.segs {
		if seg.foreign || hostWords.MatchString(seg.title) {
			continue
		}
		for i := 0; i < len(seg.lines); {
			j := i + 1
			for j < len(seg.lines) && seg.lines[j].node != nil && seg.lines[j].node == seg.lines[i].node {
				j++
			}
			block := seg.lines[i:j]
			i = j
			if block[0].foreign || legal && s.otherCompany(p, blockText(block)) {
				continue
			}
			if l, ok := addressBlock(p, block, legal); ok {
				out = append(out, l)
			} else if within(block[0].node, atom.Address) || legalForm.MatchString(block[0].text) {
				// No "postcode city" part (Irish, British addresses): a part
				// naming a country, and the city before it.
				var lines []string
				for _, ln := range block {
					lines = append(lines, ln.text)
				}
				if l, ok := addressLoc(p, lines); ok && !hostWords.MatchString(strings.Join(lines, " ")) {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

type addressPart struct {
	text string
	line string // the line it is on, the quote
}

func addressBlock(p *page, block []line, legal bool) (loc, bool) {
	var parts []addressPart
	var text strings.Builder
	marked := legal
	for _, ln := range block {
		text.WriteString(ln.text + "\n")
		for _, chunk := range lineSepRe.Split(ln.text, -1) {
			marked = marked || legalForm.MatchString(chunk) || (streetRe.MatchString(chunk) && postcodeTok.MatchString(chunk))
			for _, part := range strings.Split(chunk, ",") {
				if t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(part), ".")); t != "" {
					parts = append(parts, addressPart{t, ln.text})
				}
			}
		}
	}
	if hostWords.MatchString(text.String()) {
		return loc{}, false
	}
	city := -1
	var name string
	for k, part := range parts {
		if m := postcodeRe.FindStringSubmatch(part.text); m != nil && !streetName(m[1]) {
			city, name = k, m[1] // not "1120 NW Couch St", a US street read as "1120 NW" and a town
			break
		}
		if m := cityPostcode.FindStringSubmatch(part.text); m != nil {
			city, name = k, m[1]
			break
		}
		if m := cityRegionZip.FindStringSubmatch(part.text); m != nil && marked && !streetName(m[1]) {
			city, name = k, m[1] // "Sydney NSW 2000"
			break
		}
		if k > 0 && (uSZip.MatchString(part.text) || regionZip.MatchString(part.text) && marked || usStateRe.MatchString(part.text) && marked) && cleanCity(parts[k-1].text) != "" {
			city, name = k-1, parts[k-1].text
			break
		}
		if m := cityState.FindStringSubmatch(part.text); m != nil && marked {
			city, name = k, m[1]
			break
		}
	}
	if city < 0 {
		return loc{}, false
	}
	// "20124 Milano MI": the province is not part of the name.
	if f := strings.Fields(name); len(f) > 1 && (usStateRe.MatchString(f[len(f)-1]) || strings.EqualFold(f[len(f)-1], "cedex")) {
		name = strings.Join(f[:len(f)-1], " ")
	}
	if _, isCountry := domain.CountryCode(name); isCountry || monthWords[strings.ToLower(name)] || !personLike(name) {
		return loc{}, false
	}
	l := loc{p: p, city: name, cityQuote: parts[city].line}
	for _, part := range parts[city+1:] {
		t := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(part.text, "("), ")"))
		if code, ok := domain.CountryCode(t); ok && (len(t) > 2 || t == "UK") { // "UK" is no US state
			l.country, l.countryQuote = code, part.line
			break
		}
	}
	return l, marked || l.country != ""
}

// makerPlace: a solo maker's founding statement ("I started Palettely in
// 2022") next to their introduction ("Hi, I'm Noa, a designer in Tel Aviv")
// places the company where its maker is. A place the maker worked, studied or
// was born in is not where they are.
func (s *site) makerPlace(f foundingStatement) (loc, bool) {
	i := strings.Index(f.clause, f.year)
	if i < 0 || !singularRe.MatchString(f.clause[:i]) || !s.mentionsName(f.clause) {
		return loc{}, false
	}
	m := makerIntro.FindStringSubmatchIndex(f.line)
	if m == nil {
		return loc{}, false
	}
	sent := clauseAround(f.line, m[2])
	j := strings.Index(sent, f.line[m[2]:m[3]])
	if j < 0 || pastPlace.MatchString(sent) || otherPartyRe.MatchString(sent) {
		return loc{}, false
	}
	after := sent[j:]
	for _, pm := range placeRe.FindAllStringSubmatchIndex(after, -1) {
		if l, ok := placeFrom(f.p, sent, after[pm[4]:pm[5]], after[pm[5]:]); ok {
			return l, true
		}
	}
	return loc{}, false
}

// yearNear returns the founding year of a statement: the nearest year after
// the verb within 40 characters with no comma or semicolon between them
// ("founded Harborly in 2018"), else the nearest one before it likewise
// ("2019 in Leipzig gegründet"), else the nearest within 40 characters.
// "The idea came up at a hackathon in 2016 and we founded X in 2018" is 2018.
func yearNear(sent, verb string) string {
	i := strings.Index(sent, verb)
	if i < 0 {
		return ""
	}
	end := i + len(verb)
	best, bestD, bestRank := "", 41, 3
	for _, m := range yearRe.FindAllStringIndex(sent, -1) {
		var d, rank int
		var between string
		if m[0] >= end {
			d, between, rank = m[0]-end, sent[end:m[0]], 0
		} else if m[1] <= i {
			d, between, rank = i-m[1], sent[m[1]:i], 1
		} else {
			continue
		}
		if d > 40 {
			continue
		}
		if strings.ContainsAny(between, ",;") {
			rank = 2
		}
		// A year before the verb in another clause ("I was born in 1986 in
		// Porto and founded …") is not the founding's.
		if rank != 0 && m[1] <= i && (strings.ContainsAny(between, ",;") || coord.MatchString(between)) {
			continue
		}
		if rank < bestRank || rank == bestRank && d < bestD {
			best, bestD, bestRank = sent[m[0]:m[1]], d, rank
		}
	}
	return best
}
