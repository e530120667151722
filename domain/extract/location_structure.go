package extract

import (
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Places from a profile's label row whose value is "City, Country" (a
// <dl> or table of company facts: "Headquarters | Dublin, Ireland",
// "HQ: Lisbon, Portugal"), without a postcode: the country is named, and
// the part before it is the city when it reads as a place name.

// placeLabelRe: labels of a company's seat or office beside addressLabelRe's.
var placeLabelRe = lazyMustCompile(`(?i)^(?:hq|head ?quarters|headquartered in|based in|location|office|offices|main office|home base|city)\s*:?$`)

// seatCityLocs reads such rows on about, contact, team and home pages.
func (s *site) seatCityLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindAbout, kindContact, kindTeam, kindHome) {
		for _, r := range labelRows(p) {
			label := strings.TrimSpace(r.label)
			if !addressLabelRe.MatchString(label) && !placeLabelRe.MatchString(label) || postcodeTok.MatchString(r.value) || hostWords.MatchString(r.value) {
				continue
			}
			parts := strings.Split(r.value, ",")
			if len(parts) < 2 || len(parts) > 3 {
				continue
			}
			last := strings.TrimSpace(strings.TrimRight(parts[len(parts)-1], "."))
			code, ok := domain.CountryCode(last)
			if !ok || len(last) <= 2 {
				continue
			}
			l := loc{p: p, country: code, countryQuote: r.value}
			if c := cleanCity(parts[0]); c != "" {
				l.city, l.cityQuote = c, r.value
			}
			out = append(out, l)
		}
	}
	return out
}

// cityPostcodeRe: an address line that is a city and its postcode after
// it ("London EC1V 9HX", "Austin, TX 78701"): the city's words, then a
// postcode of one country's form (domain.PostalCountry says which).
var cityPostcodeRe = lazyMustCompile(`^(\p{Lu}[\p{L}'’.-]*(?:[ -]\p{Lu}[\p{L}'’.-]*){0,2}),?\s+[A-Z0-9]`)

// cityPostcodeLocs reads the lines of <address> blocks, footers and contact
// pages, piece by piece: a piece "City POSTCODE" whose postcode names the
// country gives both (the piece "Street, City, ST 12345" too, its last
// comma parts).
func (s *site) cityPostcodeLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindContact, kindAbout, kindHome, kindTeam) {
		for seg, l := range p.ownLines() {
			if !(s.imprintLine(seg, l) || l.tag == atom.Address || p.kind == kindContact) || hostWords.MatchString(l.text) || s.otherCompany(p, l.text) {
				continue
			}
			for _, piece := range lineSepRe.Split(l.text, -1) {
				piece = strings.TrimSpace(piece)
				parts := strings.Split(piece, ",")
				tail := strings.TrimSpace(parts[len(parts)-1])
				if len(parts) >= 2 && (usStateZip.MatchString(tail) || regionZip.MatchString(tail)) {
					tail = strings.TrimSpace(parts[len(parts)-2]) + ", " + tail // "Austin, TX 78701", "Toronto, ON M4Y 1X9"
				}
				m := cityPostcodeRe.FindStringSubmatch(tail)
				if m == nil || len(tail) > 60 {
					continue
				}
				code, ok := domain.PostalCountry(tail, s.req.Site.Language)
				if !ok {
					continue
				}
				if _, isCountry := domain.CountryCode(m[1]); isCountry || !personLike(m[1]) {
					continue
				}
				out = append(out, loc{p: p, country: code, countryQuote: piece, city: m[1], cityQuote: piece})
			}
		}
	}
	return out
}

// usStateZip: a US state's code and ZIP code as the last part of an address.
var usStateZip = lazyMustCompile(`^[A-Z]{2} \d{5}(?:-\d{4})?$`)

// footerMadeIn: a footer line "<participle> in City, Country" in any
// English participle ("Brewed in Bristol, England", "Designed in Porto,
// Portugal"); madeIn knows made, built, crafted. The country must be named,
// and participles of hosting, storing and customers' use are not the
// company's place.
var (
	footerMadeIn  = lazyMustCompile(`(?i)^(?:proudly )?(\p{L}{3,}ed)(?: (?:with|by) [^.,]{1,20}?)? in\s`)
	notOwnPlaceRe = lazyMustCompile(`(?i)^(?:hosted|stored|used|loved|trusted|featured|served|located|listed|registered|powered|backed|processed|based)$`)
)

func (s *site) footerMadeInLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindHome, kindAbout, kindContact, kindTeam) {
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if !l.footer || l.foreign || hostWords.MatchString(l.text) {
					continue
				}
				for _, part := range lineSepRe.Split(l.text, -1) {
					part = strings.TrimSpace(part)
					m := footerMadeIn.FindStringSubmatchIndex(part)
					if m == nil || notOwnPlaceRe.MatchString(part[m[2]:m[3]]) {
						continue
					}
					if lc, ok := placeText(p, part, part[m[1]:]); ok && lc.country != "" {
						out = append(out, lc)
					}
				}
			}
		}
	}
	return out
}
