package extract

import (
	"strings"
	"unicode"

	"github.com/launchdir/launchdir/domain"
)

// Addresses in the languages the address rules had no words or forms for
// (Norwegian, Finnish, Hungarian, Romanian, Vietnamese, Thai, Indonesian,
// Hebrew): the city before its postcode ("Bandung 40111", "เชียงใหม่
// 50200"), the city that ends an address without a postcode ("רחוב רוטשילד
// 22, תל אביב", "12 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh"), and a profile's
// seat row labelled in those languages ("Székhely | 1052 Budapest, Váci
// utca 8."). The country is the one the postcode's form or the address's
// form names in the site's language (domain.PostalCountry,
// domain.AddressCountry), as the gate checks. Only for sites in those
// languages: the others' addresses are read by the rules before.

// cityBeforePostcode: "Bandung 40111", "Cluj-Napoca 400114", "เชียงใหม่ 50200".
var cityBeforePostcode = lazyMustCompile(`(?:^|[\s,])(\p{Lu}[\p{L}'’.-]*(?:[ -]\p{Lu}[\p{L}'’.-]*){0,2}|\p{Thai}+)\s+\d{4,7}$`)

// cityPrefix: the word for "city" before a city's name ("TP. Hồ Chí Minh",
// "Thành phố Hà Nội", "Kota Bandung").
var cityPrefix = lazyMustCompile(`^(?:TP\.|Tp\.|Thành phố|Kota)\s*`)

// worldSeatLabel: a seat or address row's label in those languages.
var worldSeatLabel = lazyMustCompile(`(?i)^(?:székhely|cím|adresse|besøksadresse|osoite|kotipaikka|sediu(?:l)?(?: social)?|adresă|adresa|địa chỉ|trụ sở|ที่อยู่|ที่ตั้ง|alamat|kantor pusat|כתובת|משרדים)\s*:?$`)

// worldAddressLoc reads one part of an address line of a site in those
// languages, by its form.
func (s *site) worldAddressLoc(p *page, piece string) (loc, bool) {
	lang := s.req.Site.Language
	if coveredLanguage(lang) {
		return loc{}, false
	}
	piece = strings.TrimSpace(piece)
	if m := cityBeforePostcode.FindStringSubmatch(piece); m != nil {
		if c, ok := domain.PostalCountry(piece, lang); ok {
			if _, isCountry := domain.CountryCode(m[1]); !isCountry {
				return loc{p: p, city: m[1], cityQuote: piece, country: c, countryQuote: piece}, true
			}
		}
	}
	if c, ok := domain.AddressCountry(piece, lang); ok {
		parts := strings.Split(piece, ",")
		city := cityPrefix.ReplaceAllString(strings.TrimSpace(parts[len(parts)-1]), "")
		if len(parts) > 1 && cityName(city) {
			return loc{p: p, city: city, cityQuote: piece, country: c, countryQuote: piece}, true
		}
	}
	return loc{}, false
}

// cityName: one to three words of letters, not a country's name.
func cityName(t string) bool {
	ws := strings.Fields(t)
	if len(ws) == 0 || len(ws) > 3 {
		return false
	}
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) && r != ' ' && r != '-' && r != '\'' {
			return false
		}
	}
	_, isCountry := domain.CountryCode(t)
	return !isCountry
}

// worldSeatLocs: a profile's seat row labelled in those languages.
func (s *site) worldSeatLocs() []loc {
	lang := s.req.Site.Language
	if coveredLanguage(lang) {
		return nil
	}
	var out []loc
	for _, p := range s.byKind(kindAbout, kindContact, kindTeam, kindHome) {
		for _, r := range labelRows(p) {
			if !worldSeatLabel.MatchString(strings.TrimSpace(r.label)) || hostWords.MatchString(r.value) {
				continue
			}
			l, ok := addressRowLoc(p, r.value)
			if !ok {
				l, ok = s.worldAddressLoc(p, r.value)
			}
			if !ok {
				continue
			}
			if c, ok := domain.PostalCountry(r.value, lang); ok && l.country == "" {
				l.country, l.countryQuote = c, r.value
			}
			out = append(out, l)
		}
	}
	return out
}
