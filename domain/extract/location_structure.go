package extract

import (
	"regexp"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Places from a profile's label row whose value is "City, Country" (a
// <dl> or table of company facts: "Headquarters | Dublin, Ireland",
// "HQ: Lisbon, Portugal"), without a postcode: the country is named, and
// the part before it is the city when it reads as a place name.

// placeLabelRe: labels of a company's seat or office beside addressLabelRe's.
var placeLabelRe = regexp.MustCompile(`(?i)^(?:hq|head ?quarters|headquartered in|based in|location|office|offices|main office|home base|city)\s*:?$`)

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
