package extract

import (
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Postal addresses in any language, read by their form: a "postcode City"
// part of a footer, <address> or contact line ("ul. Długa 12, 80-831
// Gdańsk", "Storgatan 5, 211 42 Malmö", "06420 Çankaya/Ankara"), and the
// city of an address in Han or Hangul, the part that ends in 市 or 시
// ("大阪府大阪市北区…" is 大阪市, "서울특별시 강남구 …" is 서울특별시).

// cjkCityRe: a city in a Japanese, Chinese or Korean address: a run of Han
// ending in its first 市 (not the 市 of a street after it, "台中市西屯區市政路") (or 東京都), or a run of Hangul ending in 시 that opens its
// part ("서울특별시", "부산광역시", not the 시 inside a district's name).
var (
	hanCityRe    = lazyMustCompile(`\p{Han}{1,8}?市|東京都`)
	hangulCityRe = lazyMustCompile(`^\p{Hangul}{1,4}(?:특별시|광역시|특별자치시|시)$`)
)

// cjkCity returns the city of an address written in Han or Hangul, "" when none.
func cjkCity(s string) string {
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '，' || r == '、' }) {
		if hangulCityRe.MatchString(part) {
			return part
		}
		if m := hanCityRe.FindString(part); m != "" {
			// the prefecture or province before it is not the city ("大阪府大阪市", "广东省深圳市")
			if i := strings.LastIndexAny(m, "省府県道"); i >= 0 && m != "東京都" {
				m = m[i+len("省"):]
			}
			m = afterSeatVerb(m)
			if m != "市" {
				return m
			}
		}
	}
	return ""
}

// addressLabelPrefix: "Adres:", "地址：", "住所：", "주소:" before an address on one line.
var addressLabelPrefix = lazyMustCompile(`(?i)^(?:address|adres|adress|adresa|adresse|anschrift|dirección|indirizzo|endereço|地址|住所|所在地|주소)\s*[:：]\s*`)

// postalLocs reads the address lines of footers, <address> elements and
// contact pages by their form (addressRowLoc), in any language.
func (s *site) postalLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindContact, kindAbout, kindHome, kindTeam) {
		lang := s.pageLang(p)
		for seg, l := range p.ownLines() {
			if !(s.imprintLine(seg, l) || l.tag == atom.Address || p.kind == kindContact || addressLabelPrefix.MatchString(l.text)) || s.otherCompany(p, l.text) {
				continue
			}
			text := addressLabelPrefix.ReplaceAllString(l.text, "")
			if hostWords.MatchString(text) {
				continue
			}
			for _, piece := range lineSepRe.Split(text, -1) {
				if lc, ok := s.worldAddressLoc(p, piece); ok {
					out = append(out, lc)
				} else if lc, ok := addressRowLoc(p, piece); ok && lc.city != "" {
					lc.cityQuote, lc.countryQuote = quoteOr(lc.cityQuote, l.text), quoteOr(lc.countryQuote, l.text)
					// The country of an address that does not name it, from its
					// postcode's form (and the site's language): the gate's own rule.
					if c, ok := domain.PostalCountry(l.text, lang); ok && lc.country == "" {
						lc.country, lc.countryQuote = c, l.text
					}
					// nor a postcode: the address's form and the site's language
					if c, ok := domain.AddressCountry(l.text, s.req.Site.Language); ok && lc.country == "" {
						lc.country, lc.countryQuote = c, l.text
					}
					out = append(out, lc)
				} else if c, ok := domain.PostalCountry(piece, lang); ok && strings.Contains(piece, ",") {
					// "21 Baker Street, London W1U 8EQ": a city before its postcode
					out = append(out, loc{p: p, country: c, countryQuote: quoteOr(piece, l.text)})
				}
			}
		}
	}
	return append(out, s.worldSeatLocs()...)
}

// quoteOr is q when set, else the line it came from.
func quoteOr(q, line string) string {
	if q == "" {
		return ""
	}
	if strings.Contains(line, q) {
		return q
	}
	return line
}
