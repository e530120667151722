package extract

import (
	"golang.org/x/net/html/atom"
	"regexp"
	"strings"
	"sync"

	"github.com/launchdir/launchdir/domain"
	"golang.org/x/net/html"
)

// Company facts stated about the company itself: founding year, location
// (country and city) and business stage.

// draftFounded: founded_year from JSON-LD foundingDate or a founding statement
// about the company itself ("Ledgerly was founded in 2018", "We started Cutloop
// in 2023"). A copyright line, a "since 2016" in a testimonial or a date in a
// blog post is not a founding year.
func (s *site) draftFounded() {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if d := ldString(o, "foundingDate"); d != "" {
				if y := yearRe.FindString(d); y != "" && strings.HasPrefix(d, y) {
					s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(d)}})
					return
				}
			}
		}
	}
	// Statements in the seven languages (founding.go).
	if fs := s.foundings(); len(fs) > 0 {
		s.set("founded_year", domain.DraftedValue{Text: fs[0].year, Evidence: []domain.Evidence{fs[0].p.ev(fs[0].clause)}})
		return
	}
	// A company profile's row, then a founding sentence in another language.
	if v, ok := s.profileYear(); ok {
		s.set("founded_year", v)
	} else if v, ok := s.foundingSentence(); ok {
		s.set("founded_year", v)
	}
}

// foundingMilestone: when nothing else states the founding year, a history
// entry that is the company's founding ("2016年4月 会社設立", "2022.03 법인
// 설립", "03.2019 Założenie spółki") gives it: its date's year, quoted by
// the entry.
func (s *site) foundingMilestone() {
	if _, ok := s.out.Fields["founded_year"]; ok || !s.wants("founded_year") {
		return
	}
	for _, m := range s.out.Milestones {
		if len(m.Date) < 4 || !foundingEntryRe.MatchString(strings.TrimSpace(m.Title)) && !s.foundsProduct(m.Title) {
			continue
		}
		var ev []domain.Evidence
		for _, e := range m.Evidence {
			if strings.Contains(e.Quote, m.Date[:4]) {
				ev = append(ev, e)
			}
		}
		if len(ev) > 0 {
			s.set("founded_year", domain.DraftedValue{Text: m.Date[:4], Evidence: ev})
			return
		}
	}
}

// companyObj: "started" founds only the company ("we started the company in
// 2019"), not "we started working with our first customer in 2019".
var companyObj = lazyMustCompile(`(?i)^started (the|our|this) (company|business|startup)\b`)

// loc is one statement of where the company is.
type loc struct {
	p                     *page
	country, countryQuote string
	city, cityQuote       string
}

// draftLocation: country (ISO code) and city from JSON-LD PostalAddress,
// microdata, an <address> element or a statement about the company ("We are
// based in Lisbon, Portugal"). The country's quote always holds its name or code.
func (s *site) draftLocation() {
	var locs []loc
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !hasType(o, "PostalAddress") {
				continue
			}
			var l loc
			l.p = p
			if c := ldString(o, "addressCountry"); c != "" {
				if code, ok := domain.CountryCode(c); ok {
					l.country, l.countryQuote = code, c
				}
			}
			if c := ldString(o, "addressLocality"); c != "" {
				l.city, l.cityQuote = c, c
			}
			locs = append(locs, l)
		}
	}
	for _, p := range s.content() {
		var l loc
		l.p = p
		forEach(p.doc, false, func(n *html.Node) bool {
			switch strings.ToLower(attr(n, "itemprop")) {
			case "addresscountry":
				t := nodeText(n)
				if code, ok := domain.CountryCode(t); ok && l.country == "" {
					l.country, l.countryQuote = code, t
				}
			case "addresslocality":
				if t := nodeText(n); t != "" && l.city == "" {
					l.city, l.cityQuote = t, t
				}
			}
			return true
		})
		if l.country != "" || l.city != "" {
			locs = append(locs, l)
		}
	}
	// Then, in the seven languages (founding.go): addresses on imprint and
	// contact pages, statements (founding place, "based in", a seat label),
	// addresses elsewhere (footers), and last "Made in …".
	var legal, other, weak []loc
	for _, p := range s.content() {
		if legalPage.MatchString(p.base.Path) {
			legal = append(legal, s.addressLocs(p)...)
		}
	}
	locs = append(locs, legal...)
	locs = append(locs, s.profileLocs()...) // a profile's seat row
	// a profile's "City, Country" row
	locs = append(locs, s.seatCityLocs()...)
	for _, p := range s.byKind(kindAbout, kindContact, kindTeam, kindHome) {
		strong, w := s.placeStatements(p)
		locs = append(locs, strong...)
		weak = append(weak, w...)
		if !legalPage.MatchString(p.base.Path) {
			other = append(other, s.addressLocs(p)...)
		}
	}
	for _, f := range s.foundings() {
		if f.place.city != "" || f.place.country != "" {
			locs = append(locs, f.place)
		} else if l, ok := s.makerPlace(f); ok {
			locs = append(locs, l)
		}
	}
	locs = append(append(locs, other...), weak...)
	locs = append(locs, s.postalLocs()...) // any language: an address by its form
	// "London EC1V 9HX", "Austin, TX 78701": a city before its postcode
	locs = append(locs, s.cityPostcodeLocs()...)
	// "Brewed in Bristol, England" in a footer
	locs = append(locs, s.footerMadeInLocs()...)
	// "© 2026 Hyllan AB · Göteborg", "Made in Tallinn": the city alone
	locs = append(locs, s.footerPlaceLocs()...)
	var chosen *loc
	for i := range locs {
		if locs[i].country != "" {
			chosen = &locs[i]
			break
		}
	}
	if chosen != nil {
		s.set("country", domain.DraftedValue{Text: chosen.country, Evidence: []domain.Evidence{chosen.p.ev(chosen.countryQuote)}})
	}
	for _, l := range locs {
		if l.city != "" && (chosen == nil || l.country == "" || l.country == chosen.country) {
			if c := cjkCity(l.city); c != "" && c != l.city && strings.Contains(l.cityQuote, c) {
				l.city = c // "서울특별시 강남구 테헤란로": the city is 서울특별시
			}
			s.set("city", domain.DraftedValue{Text: l.city, Evidence: []domain.Evidence{l.p.ev(l.cityQuote)}})
			break
		}
	}
}

// addressLoc reads a postal address, line by line: the country is a line or
// comma part that names one; the city is the part before it without postcodes.
// The pieces a separator sets apart on one line ("Pollen Ltd · Leeds, United
// Kingdom · hello@…") are read apart: the city is looked for in the country's
// own piece (and, for a line's first piece, the line before), never in the
// company's name; the quote stays the whole line.
func addressLoc(p *page, lines []string) (loc, bool) {
	for i, ln := range lines {
		for pi, piece := range lineSepRe.Split(ln, -1) {
			parts := strings.Split(piece, ",")
			for j, part := range parts {
				code, ok := domain.CountryCode(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), ".")))
				if !ok {
					continue
				}
				l := loc{p: p, country: code, countryQuote: ln}
				var before []string
				for k := j - 1; k >= 0; k-- {
					before = append(before, parts[k])
				}
				if i > 0 && pi == 0 {
					prev := strings.Split(lines[i-1], ",")
					for k := len(prev) - 1; k >= 0; k-- {
						before = append(before, prev[k])
					}
				}
				for k, b := range before {
					if c := cleanCity(b); c != "" {
						if r := regionCity(before, k, j); r != "" {
							c, k = r, k+1 // "Yokohama, Kanagawa 222-0033": the city before the region
						}
						l.city = c
						l.cityQuote = ln
						if k >= j {
							l.cityQuote = lines[i-1]
						}
						break
					}
				}
				return l, true
			}
		}
	}
	return loc{}, false
}

var postcodeTok = lazyMustCompile(`\d`)

// cleanCity strips postcodes and state codes from an address part and
// returns it when what is left looks like a place name.
func cleanCity(part string) string {
	var keep []string
	for _, f := range strings.Fields(part) {
		if postcodeTok.MatchString(f) || (len(f) == 2 && strings.ToUpper(f) == f) {
			continue
		}
		keep = append(keep, f)
	}
	c := strings.Join(keep, " ")
	if c == "" || len(keep) > 3 || !personLike(c) {
		return ""
	}
	if _, isCountry := domain.CountryCode(c); isCountry {
		return ""
	}
	return c
}

// personLike: every word starts with a capital letter.
func personLike(s string) bool {
	for _, w := range strings.Fields(s) {
		r := []rune(w)
		if len(r) == 0 || !(r[0] >= 'A' && r[0] <= 'Z' || r[0] > 127 && strings.ToUpper(string(r[0])) == string(r[0])) {
			return false
		}
	}
	return true
}

// stagePatterns in the seven languages; weak ones ("in beta", "en bêta")
// count only said of the company itself (its name, "we", or a short banner),
// since "Dark mode is in beta" is about a feature.
var stagePatterns = []struct {
	slug string
	re   *lazyRegexp
	weak bool
	min  int // a traction count must be at least this
}{
	{"acquired", lazyMustCompile(`(?i)\b(was|has been|have been|were|we've been|we’ve been) acquired by\b|\bis now (a )?part of\b|` +
		`\b(wurde|wurden) von \S+ (übernommen|gekauft)|a été (racheté|rachetée|acquise?) par|(fue|ha sido) (adquirid[ao]|comprad[ao]) por|` +
		`è stat[ao] (acquisit[ao]|acquistat[ao]) da|is overgenomen door|(foi|fomos) (adquirid[ao]|comprad[ao]) pel[ao]`), false, 0},
	// The highest stage stated wins: acquired, profitable, growing,
	// launched, beta, pre-launch.
	{"profitable", lazyMustCompile(`(?i)\b(we are|we're|we’re|bootstrapped and) profitable\b|\bwir sind profitabel|` +
		`nous sommes rentables|somos rentables|siamo redditizi|wij zijn winstgevend|somos lucrativos`), false, 0},
	// Traction: a count of users or customers from 1,000 on is growing
	// ("used by more than 2,000 teams", "ponad 1 200 firm"); a smaller one
	// is a launched product.
	{"growing", tractionRe, false, 1000},
	// A public launch stated by the company ("then launched publicly in
	// March 2023", "out of beta since", "since we launched in 2021") is the
	// stage launched, and it wins over the beta that came before it in the
	// same story.
	{"launched", tractionRe, false, 1},
	{"launched", launchedMore, false, 0},
	{"launched", lazyMustCompile(`(?i)\blaunched (publicly|to the public|to everyone|for everyone|in (19|20)\d\d|in (january|february|march|april|may|june|july|august|september|october|november|december))\b|` +
		`\b(public|official) launch\b|\bout of beta\b|\bsince (we|it) (first )?launched\b|\bwent live\b|\bgenerally available\b`), true, 0},
	// "We launched Tallybird in 2022", "Ferrytask 3 is out now": said of
	// the product (its name or "we"), a launch or a major version out.
	{"launched", lazyMustCompile(`\blaunched (?:\p{Lu}[\p{L}\d]*\s){1,2}(?:in (?:19|20)\d\d\b|to the public\b|publicly\b|to everyone\b)|(?:^|\s)v?\d{1,2}(?:\.0)? (?:is|are) (?:out|here|available|live)(?: now| today)?\b`), true, 0},
	{"beta", betaMore, false, 0},
	{"beta", lazyMustCompile(`(?i)\b(open|public|private|closed) beta\b|\bjoin the beta\b|` +
		`(öffentlichen?|offenen?|geschlossenen?|privaten?) beta|(?:^|[^\p{L}])bêta (publique|ouverte|privée|fermée)|` +
		`beta (pública|abierta|privada|cerrada|aberta|fechada)|beta (pubblica|aperta|privata|chiusa)|` +
		`(publieke|open|besloten) (bèta|beta)`), false, 0},
	{"beta", lazyMustCompile(`(?i)\b(now|currently|still|is|are) in beta\b|\b(ist|sind|noch|derzeit|aktuell) in der beta|` +
		`\bin der beta-phase|(est|sommes|actuellement|encore) en bêta|(está|estamos|están|actualmente|todavía) en beta|` +
		`(è|siamo|ancora|attualmente) in beta|(is|zijn|nog|momenteel) in (bèta|beta)|(está|estamos|ainda|atualmente) em beta`), true, 0},
	{"pre-launch", lazyMustCompile(`(?i)\bjoin (the|our) waitlist\b|\blaunching soon\b|\bpre-launch\b|` +
		`(auf|in) die warteliste|warteliste beitreten|zur warteliste|(rejoindre|rejoignez|inscri\p{L}*)( sur| à)? la liste d['’]attente|` +
		`(únete|apúntate|unirse|inscríbete|entra|entre|junte-se|inscreva-se|entrar)( a| à| na| en)? (la |a )?lista de espera|` +
		`(iscriviti|entra|unisciti)( al?la| nella) lista d['’]attesa|(meld je aan|schrijf je in)( voor| op)? de wachtlijst|op de wachtlijst`), false, 0},
}

// pastEntry reports whether line l of seg is an entry of a history or news
// list, which tells the past, not the stage.
func pastEntry(seg *segment, l line) bool {
	entry := l.tag == atom.Li || l.tag == atom.Dt || l.tag == atom.Dd || l.tag == atom.Td || l.tag == atom.Th
	if entry {
		if _, _, dated := findDate(l.text, true); dated {
			return true // a dated entry
		}
		if seg.level >= 2 && historyHdr.MatchString(seg.title) {
			return true // an entry of a history list ("2020年9月 | β版を公開"), dated in the cell before it
		}
	}
	// a news item dated by an element beside it (a date div, then the title)
	return l.node != nil && datedBySibling(l.node)
}

// anyStage matches a text that one of stagePatterns matches: one pass over
// a line that none matches (most lines) instead of one per pattern.
var anyStage = sync.OnceValue(func() *regexp.Regexp {
	var alt []string
	seen := map[*lazyRegexp]bool{}
	for _, st := range stagePatterns {
		if !seen[st.re] {
			seen[st.re] = true
			alt = append(alt, "(?:"+st.re.String()+")")
		}
	}
	return regexp.MustCompile(strings.Join(alt, "|"))
})

// draftStage: stage only when the site says it ("now in open beta", "was
// acquired by"), as one of the request's stage slugs. "Beta features" is not a stage.
func (s *site) draftStage() {
	// skip holds, per line, whether it is an entry of a history or news list
	// or no stage pattern matches it (the same for every pattern, so worked
	// out once).
	type lineAt struct {
		seg *segment
		at  int
	}
	skip := map[lineAt]bool{}
	stats := false
	for _, st := range stagePatterns {
		allowed := len(s.req.Stages) == 0
		for _, v := range s.req.Stages {
			allowed = allowed || v == st.slug
		}
		if !allowed {
			continue
		}
		// a stats row's count of users (stage41.go), after the sentences of
		// traction and before those of a launch
		if st.slug == "launched" && !stats {
			stats = true
			if slug, ev := s.statStage(); slug != "" && s.stageAllowed(slug) {
				s.set("stage", domain.DraftedValue{Text: slug, Evidence: ev})
				return
			}
		}
		for _, p := range s.byKind(kindHome, kindAbout, kindPricing) {
			if st.slug != "growing" && st.slug != "acquired" && st.slug != "profitable" && (p.kind == kindChangelog || changelogPage(p) || newsPathRe.MatchString(p.base.Path)) {
				continue // a changelog's "Public launch" or "Public beta opens" entry is history, not what the company says it is now
			}
			for _, seg := range p.segs {
				for i, l := range append([]line{{text: seg.title, foreign: seg.foreign}}, seg.lines...) {
					if l.foreign || seg.foreign || l.text == "" {
						continue
					}
					no, known := skip[lineAt{seg, i}]
					if !known {
						no = pastEntry(seg, l) || !anyStage().MatchString(l.text)
						skip[lineAt{seg, i}] = no
					}
					if no {
						continue
					}
					if m := st.re.FindStringIndex(l.text); m != nil && !(st.slug == "beta" && pastBeta(l.text)) {
						if st.min > 0 && (p.kind == kindPricing || tractionCount(l.text[m[0]:m[1]]) < st.min || limitBefore(l.text[:m[0]])) {
							continue // "for more than 100 users": a plan's limit, not traction
						}
						sent := sentenceAround(l.text, m[0])
						if otherProduct(seg.title, sent) {
							continue // a competitor's stage (stage44.go)
						}
						self := s.selfWord(p, sent, sent) || selfWordMoreRe.MatchString(sent) || s.mentionsName(sent)
						// A weak "in beta" with no subject of its own is a banner ("Now in
						// beta"); with one, the subject must be the company ("Dark mode is in beta").
						// "Generally available since May 2023 — no waitlist": a banner's
						// status, then a dash and more words.
						head, _, _ := strings.Cut(sent, " — ")
						head, _, _ = strings.Cut(head, " – ")
						banner := len(strings.Fields(head)) <= 6 && strings.HasPrefix(sent, strings.TrimSpace(l.text[m[0]:m[1]])) ||
							statusBanner(sent, strings.Index(sent, strings.TrimSpace(l.text[m[0]:m[1]])))
						if (st.slug == "acquired" || st.weak && !banner) && !self || l.foreign {
							continue
						}
						s.set("stage", domain.DraftedValue{Text: st.slug, Evidence: []domain.Evidence{p.ev(sent)}})
						return
					}
				}
			}
		}
	}
}
