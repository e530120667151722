package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

const nameRe = `\p{Lu}[\p{L}'’-]+(?:[ \t]\p{Lu}[\p{L}'’-]+){1,2}`

var (
	foundVerb  = regexp.MustCompile(`(?i)\b(founded|established|incorporated|started|gegründet|fondée?|fundad[ao]|opgericht|grundades)\b`)
	yearRe     = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)\b`)
	selfRe     = regexp.MustCompile(`(?i)\b(we|our|us|i|my|wir|unser|nous)\b`)
	copyrightR = regexp.MustCompile(`(?i)©|\(c\)|copyright|all rights reserved`)

	personRe   = regexp.MustCompile(`^` + nameRe + `$`)
	foundedBy  = regexp.MustCompile(`(?i:founded|started|established|created|built)(?:\s+in\s+\d{4})?(?:\s+in\s+\p{Lu}\p{L}+)?\s+by\s+(` + nameRe + `(?:(?:,\s*|\s+and\s+|\s*&\s*)` + nameRe + `)*)`)
	vonGegr    = regexp.MustCompile(`von\s+(` + nameRe + `(?:\s+und\s+` + nameRe + `)*)\s+gegründet`)
	firstPers  = regexp.MustCompile(`(?:I'm|I am|I’m|Hi, I'm|Hi, I’m)\s+(` + nameRe + `),?\s+(?:the\s+|a\s+)?(?i:co-?founder|founder|maker|creator|developer behind)`)
	nameRole   = regexp.MustCompile(`^(` + nameRe + `),\s+(?:the\s+|our\s+)?((?i:co-?founder|founder|ceo|cto|coo|cpo|cfo|chief)[^,.;:]{0,60})`)
	nameSplit  = regexp.MustCompile(`,\s*|\s+and\s+|\s*&\s*|\s+und\s+`)
	founderTtl = regexp.MustCompile(`(?i)\b(co-?founder|founder|ceo|cto|coo|cpo|cfo|chief [a-z]+ officer|president|owner|gründer(in)?|geschäftsführer(in)?|fondateur|fondatrice)\b`)
	notFounder = regexp.MustCompile(`(?i)invest|advis|board|angel|backer|non-executive|partner at|venture|mentor|founder of|founders of`)
	notAName   = regexp.MustCompile(`(?i)^(our|the|meet|about|why|what|how|team|get|see|join|contact|pricing|why|built|made|frequently)\b`)
	basedIn    = regexp.MustCompile(`(?i)\b(based|headquartered|located)\s+in\s+`)
	otherParty = regexp.MustCompile(`(?i)customer|client|partner|investor|data cent(er|re)|server`)
)

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
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if l.foreign || seg.foreign || copyrightR.MatchString(l.text) {
					continue
				}
				for _, loc := range foundVerb.FindAllStringIndex(l.text, -1) {
					sent := sentenceAround(l.text, loc[0])
					verb := l.text[loc[0]:loc[1]]
					y := yearNear(sent, verb)
					if y == "" || !s.aboutUs(sent, verb) {
						continue
					}
					s.set("founded_year", domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(sent)}})
					return
				}
			}
		}
	}
}

// aboutUs reports whether a founding statement is about the company itself:
// it names the product, or "we"/"I" is the subject of the verb ("We founded
// the company in 2019"); "started" needs the name or the company as object,
// since "we started working with our first customer in 2019" is no founding.
// "Founded in 2009, Globex is our oldest customer" is about Globex.
func (s *site) aboutUs(sent, verb string) bool {
	if s.mentionsName(sent) {
		return true
	}
	i := strings.Index(sent, verb)
	if i < 0 || !selfRe.MatchString(sent[:i]) || otherParty.MatchString(sent) {
		return false
	}
	return !strings.EqualFold(verb, "started") || companyObj.MatchString(sent[i:])
}

var companyObj = regexp.MustCompile(`(?i)^started (the|our|this) (company|business|startup)\b`)

// yearNear returns the year within 40 characters of the founding verb in sent.
func yearNear(sent, verb string) string {
	i := strings.Index(sent, verb)
	if i < 0 {
		return ""
	}
	for _, m := range yearRe.FindAllStringIndex(sent, -1) {
		d := m[0] - (i + len(verb))
		if m[1] <= i {
			d = i - m[1]
		}
		if d <= 40 {
			return sent[m[0]:m[1]]
		}
	}
	return ""
}

func (s *site) mentionsName(t string) bool {
	return s.name != "" && strings.Contains(strings.ToLower(t), strings.ToLower(s.name))
}

// draftFounders: people from JSON-LD founder, founding statements ("founded in
// 2019 by A and B", "I'm A, the maker of X") and team cards whose title is a
// founder's or an executive's. Investors, advisors and board members are
// not founders; people quoted in testimonials are not looked at.
func (s *site) draftFounders() {
	var out []domain.DraftedFounder
	idx := map[string]int{}
	add := func(name, title, bio string, ev []domain.Evidence, socials domain.Socials, card bool) {
		name = domain.NormalizeSpace(name)
		key := compact(name)
		if key == "" || key == s.brand || notAName.MatchString(name) {
			return
		}
		i, ok := idx[key]
		if !ok {
			if len(out) == 6 {
				return
			}
			idx[key] = len(out)
			out = append(out, domain.DraftedFounder{Name: name})
			i = len(out) - 1
		}
		f := &out[i]
		if title != "" && (f.Title == "" || card) {
			f.Title = title
		}
		if bio != "" && f.Bio == "" {
			f.Bio = bio
		}
		for k, v := range socials {
			if f.Socials == nil {
				f.Socials = domain.Socials{}
			}
			f.Socials[k] = v
		}
		f.Evidence = append(f.Evidence, ev...)
	}
	for _, p := range s.content() {
		for _, o := range p.ld {
			for _, f := range ldObjects(o, "founder") {
				name := ldString(f, "name")
				if name == "" {
					continue
				}
				ev := []domain.Evidence{p.ev(name)}
				title := ldString(f, "jobTitle")
				if title != "" {
					ev = append(ev, p.ev(title))
				}
				add(name, title, "", ev, nil, false)
			}
		}
	}
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, seg := range p.segs {
			texts := []string{seg.title}
			for _, l := range seg.lines {
				if !l.foreign && !l.footer {
					texts = append(texts, l.text)
				}
			}
			if seg.foreign {
				continue
			}
			for _, t := range texts {
				for _, re := range []*regexp.Regexp{foundedBy, vonGegr, firstPers} {
					for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
						sent := sentenceAround(t, m[0])
						if !strings.Contains(sent, t[m[2]:m[3]]) {
							sent = t
						}
						for _, name := range nameSplit.Split(t[m[2]:m[3]], -1) {
							add(name, "", "", []domain.Evidence{p.ev(sent)}, nil, false)
						}
					}
				}
			}
		}
	}
	for _, p := range s.byKind(kindTeam, kindAbout) {
		if p.kind != kindTeam && p.kind != kindAbout {
			break
		}
		// "Maria González, co-founder and CEO, ran three restaurants ..."
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if m := nameRole.FindStringSubmatch(l.text); m != nil && !l.foreign && !seg.foreign && !notFounder.MatchString(m[2]) {
					role := strings.TrimSpace(m[2])
					add(m[1], role, "", []domain.Evidence{p.ev(sentenceAround(l.text, 0))}, nil, false)
				}
			}
		}
		for _, seg := range p.segs {
			if seg.level < 2 || seg.foreign || len(seg.lines) == 0 || !personRe.MatchString(seg.title) || notAName.MatchString(seg.title) {
				continue
			}
			title := seg.lines[0].text
			if len(title) > 80 || !founderTtl.MatchString(title) || notFounder.MatchString(title) {
				continue
			}
			ev := []domain.Evidence{p.ev(seg.title), p.ev(title)}
			bio := ""
			if len(seg.lines) > 1 && len(strings.Fields(seg.lines[1].text)) >= 5 {
				bio = seg.lines[1].text
				ev = append(ev, p.ev(bio))
			}
			add(seg.title, title, bio, ev, s.personLinks(p, seg.node), true)
		}
	}
	s.out.Founders = out
}

// personLinks returns the social links in a person's card: the heading's
// closest ancestor that holds links and no other person.
func (s *site) personLinks(p *page, heading *html.Node) domain.Socials {
	for card := heading.Parent; card != nil && card.DataAtom != atom.Body; card = card.Parent {
		headings := 0
		var links []string
		forEach(card, false, func(n *html.Node) bool {
			if headingLevel[n.DataAtom] > 0 {
				headings++
			}
			if n.DataAtom == atom.A {
				links = append(links, p.resolve(attr(n, "href")))
			}
			return true
		})
		if headings > 1 {
			return nil
		}
		if len(links) > 0 {
			out := domain.Socials{}
			for _, l := range links {
				if pl, ok := platformOf(l, true); ok {
					out[pl] = l
				}
			}
			if len(out) == 0 {
				return nil
			}
			return out
		}
	}
	return nil
}

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
	for _, p := range s.byKind(kindContact, kindAbout, kindHome) {
		forEach(p.doc, false, func(n *html.Node) bool {
			if n.DataAtom == atom.Address && !foreign(n) {
				if l, ok := addressLoc(p, strings.Split(htmltext.Text(n), "\n")); ok {
					locs = append(locs, l)
				}
				return false
			}
			return true
		})
	}
	for _, p := range s.byKind(kindAbout, kindContact, kindTeam, kindHome) {
		for _, seg := range p.segs {
			for _, ln := range seg.lines {
				if ln.foreign || seg.foreign {
					continue
				}
				if l, ok := s.basedInLoc(p, ln.text); ok {
					locs = append(locs, l)
				}
			}
		}
	}
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
			s.set("city", domain.DraftedValue{Text: l.city, Evidence: []domain.Evidence{l.p.ev(l.cityQuote)}})
			break
		}
	}
}

// addressLoc reads a postal address, line by line: the country is a line or
// comma part that names one; the city is the part before it without postcodes.
func addressLoc(p *page, lines []string) (loc, bool) {
	for i, ln := range lines {
		parts := strings.Split(ln, ",")
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
			if i > 0 {
				prev := strings.Split(lines[i-1], ",")
				for k := len(prev) - 1; k >= 0; k-- {
					before = append(before, prev[k])
				}
			}
			for k, b := range before {
				if c := cleanCity(b); c != "" {
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
	return loc{}, false
}

var postcodeTok = regexp.MustCompile(`\d`)

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

// basedInLoc reads "We are based in Lisbon, Portugal" and "X is headquartered
// in Melbourne, Australia" when the subject is the company itself.
func (s *site) basedInLoc(p *page, text string) (loc, bool) {
	m := basedIn.FindStringIndex(text)
	if m == nil {
		return loc{}, false
	}
	sent := sentenceAround(text, m[0])
	i := strings.Index(sent, text[m[0]:m[1]])
	if i < 0 {
		return loc{}, false
	}
	subject := sent[:i]
	if !(selfRe.MatchString(subject) || s.mentionsName(subject) || strings.Contains(strings.ToLower(subject), "team")) || otherParty.MatchString(subject) {
		return loc{}, false
	}
	rest := strings.TrimRight(sent[i+len(text[m[0]:m[1]]):], ".")
	l := loc{p: p}
	var places []string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if part == "" || !personLike(part) || len(strings.Fields(part)) > 3 {
			break
		}
		places = append(places, part)
	}
	for k, part := range places {
		if code, ok := domain.CountryCode(part); ok {
			l.country, l.countryQuote = code, sent
			if k > 0 {
				l.city, l.cityQuote = places[0], sent
			}
			return l, true
		}
	}
	if len(places) > 0 {
		l.city, l.cityQuote = places[0], sent
		return l, true
	}
	return loc{}, false
}
