package extract

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Places a site states only in its footer, in any language, read by the
// footer's form: a copyright line's place beside the company ("© 2026
// Hyllan AB · Göteborg", "© 2026 Quillstack Oy, Helsinki"), "Made in
// Tallinn" without a country (made, built, crafted: madeIn), and the last part of a street address without
// a postcode ("Moda Cad. No: 14, Kadıköy, İstanbul"). These are the weakest
// statements of a place: they fill the city only when nothing else did.

// notPlaceWord: words of footer pieces that are no place (site builders in
// "Made in Framer", languages in "Built in Go", rights and registrations).
var notPlaceWord = lazyMustCompile(`(?i)^(?:framer|webflow|wix|figma|notion|carrd|squarespace|wordpress|bubble|go|rust|python|elixir|ruby|java|swift|kotlin|react|vue|svelte|rights|reserved|registered|version|beta|status|english|deutsch|français|español)$`)

// footerPlaceLocs reads the footer lines of the home page and the company's
// pages.
func (s *site) footerPlaceLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindHome, kindAbout, kindContact, kindTeam) {
		for _, l := range p.ownLines() {
			if !l.footer || hostWords.MatchString(l.text) {
				continue
			}
			if c, q := s.footerPlace(l); c != "" {
				out = append(out, loc{p: p, city: c, cityQuote: q})
			} else if lc, ok := s.footerCityCountry(p, l); ok {
				out = append(out, lc)
			}
		}
	}
	return out
}

// footerCityCountry: a footer line that is only a place and its country
// ("Nantes, France"), as a footer row laid out in pieces shows it on a line
// of its own (htmltext.Apart); not a link.
func (s *site) footerCityCountry(p *page, l line) (loc, bool) {
	parts := strings.Split(l.text, ",")
	if len(parts) != 2 || linkTexts(l.node)[l.text] || within(l.node, atom.A) {
		return loc{}, false
	}
	country := strings.TrimRight(strings.TrimSpace(parts[1]), ".")
	if _, ok := domain.CountryCode(country); !ok || len(country) <= 2 || !s.placeName(strings.TrimSpace(parts[0])) {
		return loc{}, false
	}
	return placeText(p, l.text, l.text)
}

// footerPlace returns the city a footer line states and the text quoted for it.
func (s *site) footerPlace(l line) (city, quote string) {
	links := linkTexts(l.node)
	pieces := lineSepRe.Split(l.text, -1)
	for _, piece := range pieces {
		piece = strings.TrimSpace(piece)
		// "Made in Tallinn", "Hecho en Sevilla": made, built or crafted in a
		// city (another participle, "Roasted in Leeds", needs its country:
		// footerMadeInLocs)
		end := 0
		if m := madeIn.FindStringIndex(piece); m != nil {
			end = m[1]
		}
		if c := strings.TrimRight(strings.TrimSpace(piece[end:]), "."); end > 0 && !links[piece] && s.placeName(c) {
			return c, piece
		}
	}
	company := func(t string) bool { return legalForm.MatchString(t) || s.mentionsName(t) }
	if len(pieces) <= 4 && (copyrightRe.MatchString(l.text) || company(pieces[0])) {
		// "© 2026 Hyllan AB · Göteborg", "© 2026 Quillstack Oy, Helsinki",
		// "KasaPro Yazılım A.Ş. · Kadıköy, İstanbul": the piece after the
		// company that is a place's name (or a district's and a city's) and no link.
		for i, piece := range pieces {
			piece = strings.TrimSpace(piece)
			parts := strings.Split(piece, ",")
			last := s.pairCity(parts)
			switch {
			case copyrightRe.MatchString(piece):
				if len(parts) == 2 && company(parts[0]) && s.placeName(last) && !links[last] {
					return last, piece
				}
			case i > 0 && company(pieces[i-1]) && len(parts) <= 2 && !links[piece] && !links[last] &&
				s.placeName(last) && (len(parts) == 1 || s.placeName(strings.TrimSpace(parts[0]))):
				return last, piece
			}
		}
	}
	// "Caferağa Mah. Moda Cad. No: 14, Kadıköy, İstanbul": a street with its
	// number, then the district and the city, no postcode.
	for _, piece := range pieces {
		parts := strings.Split(strings.TrimSpace(piece), ",")
		if len(parts) < 3 || !strings.ContainsAny(parts[0], "0123456789") || copyrightRe.MatchString(piece) {
			continue
		}
		last := s.pairCity(parts)
		if s.placeName(last) && len(strings.Fields(last)) <= 2 && !links[last] {
			return last, strings.TrimSpace(piece)
		}
	}
	return "", ""
}

// pairCity is the last comma part of a footer piece, or the part before it
// when the last names a state or region ("Portland, Oregon", "512 Congress
// Ave, Austin, Texas": the city is Portland, Austin).
func (s *site) pairCity(parts []string) string {
	last := strings.TrimRight(strings.TrimSpace(parts[len(parts)-1]), ".")
	if n := len(parts); n >= 2 && regionNames[strings.ToLower(last)] {
		if c := strings.TrimSpace(parts[n-2]); s.placeName(c) {
			return c
		}
	}
	return last
}

// placeName: one or two capitalised words of letters that name no country,
// no language or tool, not the product nor a legal form.
func (s *site) placeName(t string) bool {
	ws := strings.Fields(t)
	if len(ws) == 0 || len(ws) > 2 || !personLike(t) || !cityName(t) || s.mentionsName(t) || legalForm.MatchString(t) {
		return false
	}
	for _, w := range ws {
		r := []rune(w)
		if len(r) < 3 || notPlaceWord.MatchString(w) || strings.ToUpper(w) == w || !unicode.IsLetter(r[len(r)-1]) {
			return false
		}
	}
	return true
}

// linkTexts are the texts of the links inside n: a footer's piece that is a
// link ("Privacy", "Made in Framer") is a menu item or a badge, no place.
func linkTexts(n *html.Node) map[string]bool {
	out := map[string]bool{}
	if n == nil {
		return out
	}
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A {
			out[strings.TrimSpace(nodeText(c))] = true
		}
		return true
	})
	return out
}

// regionPostcode: a region and a postcode of digits in one part of an
// address ("Kanagawa 222-0033", "Texas 78702"), after the city's part.
var regionPostcode = lazyMustCompile(`^\p{Lu}[\p{L}-]+(?: \p{Lu}[\p{L}-]+)?\s+\d{3}-?\d{4}$|^\p{Lu}[\p{L}-]+(?: \p{Lu}[\p{L}-]+)?\s+\d{5}$`)

// wardRe: a Japanese ward, town or city written with its suffix
// ("Kohoku-ku"): a part of an address before the city, never the city.
var wardRe = lazyMustCompile(`(?i)-(?:ku|shi|cho|machi|gun)$`)

// regionCity returns the city of an address whose part before[k] is a
// region with its postcode, when the part before it (before[k+1], on the
// same line: parts k < j are of the country's line) is a place's name.
func regionCity(before []string, k, j int) string {
	if !regionPostcode.MatchString(strings.TrimSpace(before[k])) || k+1 >= len(before) || (k < j) != (k+1 < j) {
		return ""
	}
	if c := cleanCity(before[k+1]); c != "" && !wardRe.MatchString(c) {
		return c
	}
	return ""
}

// pageLang is the language a page's addresses are read in: its own <html
// lang> (an English site's legal notice only in German), else the site's.
func (s *site) pageLang(p *page) string {
	if l := domain.PageLanguage(s.req.Site, p.wp.URL); l != "" {
		return l
	}
	return s.req.Site.Language
}
