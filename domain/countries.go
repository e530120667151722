package domain

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Listings store a country as an ISO 3166-1 alpha-2 code. The codes and their
// English names come from golang.org/x/text (CLDR data), so the list follows
// the standard without a table of our own to keep up to date; only aliases
// people commonly write (USA, UK, Holland, ...) are listed here.

// notISO are codes x/text accepts as countries that ISO 3166-1 does not assign:
// exceptionally reserved codes (AC, CP, DG, TA) and withdrawn ones that CLDR
// keeps without a replacement.
var notISO = map[string]bool{"AC": true, "AN": true, "CP": true, "CS": true, "DG": true, "FQ": true,
	"NT": true, "PC": true, "SU": true, "TA": true, "YU": true}

// countryAliases are names in common use that differ from CLDR's English name.
var countryAliases = map[string]string{
	// Not "us": folded to lower case it is the pronoun; "US" is accepted as a code.
	"usa": "US", "u s": "US", "u s a": "US", "united states of america": "US",
	"uk": "GB", "u k": "GB", "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB",
	"wales": "GB", "northern ireland": "GB", "united kingdom of great britain and northern ireland": "GB",
	"holland": "NL", "the netherlands": "NL", "czech republic": "CZ", "south korea": "KR",
	"republic of korea": "KR", "korea": "KR", "north korea": "KP", "russian federation": "RU",
	"turkiye": "TR", "uae": "AE", "ivory coast": "CI", "burma": "MM", "myanmar": "MM", "hong kong": "HK",
	"macau": "MO", "macao": "MO", "vatican": "VA", "vatican city": "VA", "bosnia": "BA",
	"bosnia and herzegovina": "BA", "congo": "CG", "republic of the congo": "CG",
	"democratic republic of the congo": "CD", "drc": "CD", "east timor": "TL", "swaziland": "SZ",
	"cape verde": "CV", "macedonia": "MK", "palestine": "PS", "taiwan": "TW", "the philippines": "PH",
	"saint kitts and nevis": "KN", "saint lucia": "LC", "saint vincent and the grenadines": "VC",
	"trinidad": "TT", "antigua": "AG", "the bahamas": "BS", "the gambia": "GM", "viet nam": "VN",
	"iran": "IR", "syria": "SY", "laos": "LA", "moldova": "MD", "tanzania": "TZ", "bolivia": "BO",
	"venezuela": "VE", "brunei": "BN", "micronesia": "FM", "sao tome and principe": "ST",
}

// localNames are the languages, besides English, whose country names
// CountryCode accepts: those of the sites the extractor reads (German, French,
// Spanish, Italian, Dutch, Portuguese of Brazil and of Portugal), Polish, Swedish, Czech, Turkish, Japanese, Korean and Chinese
// (simplified and traditional), Norwegian Bokmål, Finnish, Hungarian,
// Romanian, Vietnamese, Thai, Indonesian and Hebrew, from CLDR's display names.
var localNames = []string{"de", "fr", "es", "it", "nl", "pt", "pt-PT", "pl", "sv", "cs", "tr", "ja", "ko", "zh", "zh-Hant",
	"nb", "fi", "hu", "ro", "vi", "th", "id", "he"}

// localNotCountry are local names that are more often something else: a
// Spanish city (Granada, Spanish and Portuguese for Grenada), an English word
// (Island, German for Iceland) or a Spanish verb (gana, Portuguese for Ghana).
var localNotCountry = map[string]bool{"granada": true, "island": true, "gana": true,
	// Vietnamese short names that are words or parts of people's names
	// (Áo a shirt, Đức and Nga given names).
	"ao": true, "bi": true, "sip": true, "sec": true, "duc": true, "đuc": true, "nga": true, "lao": true}

// localAliases are names in those languages that differ from CLDR's.
var localAliases = map[string]string{
	"grossbritannien": "GB", "großbritannien": "GB", "england": "GB", "angleterre": "GB", "grande bretagne": "GB",
	"inglaterra": "GB", "gran bretaña": "GB", "inghilterra": "GB", "gran bretagna": "GB", "engeland": "GB",
	"groot brittannie": "GB", "grã bretanha": "GB", "usa": "US", "eeuu": "US", "ee uu": "US", "eua": "US",
	"estados unidos de america": "US", "estados unidos da america": "US", "stati uniti d america": "US",
	"etats unis d amerique": "US", "vereinigte staaten von amerika": "US", "olanda": "NL", "hollande": "NL",
	"holanda": "NL", "paises bajos": "NL", "paises baixos": "NL", "tschechien": "CZ",
	// The long forms people write beside CLDR's short ones.
	"česká republika": "CZ", "ceska republika": "CZ", "türkiye cumhuriyeti": "TR", "rzeczpospolita polska": "PL",
	"한국": "KR", "中华人民共和国": "CN", "日本国": "JP",
}

var countries struct {
	once   sync.Once
	codes  []string            // sorted
	names  map[string]string   // code -> English name
	byName map[string]string   // normalised name or alias -> code
	keys   map[string][]string // code -> every normalised name it is known by (English, aliases, localNames languages)
}

func loadCountries() {
	c := &countries
	c.names = map[string]string{}
	c.byName = map[string]string{}
	namer := display.English.Regions()
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			code := string([]rune{a, b})
			r, err := language.ParseRegion(code)
			// Deprecated codes canonicalise to their successor (BU -> MM) and
			// groupings (EU, UN, EZ) and private-use codes have no ISO alpha-3.
			if err != nil || !r.IsCountry() || r.String() != code || r.Canonicalize() != r || notISO[code] {
				continue
			}
			if iso3 := r.ISO3(); len(iso3) != 3 || iso3 == "ZZZ" || iso3[0] == 'X' {
				continue
			}
			name := namer.Name(r)
			if name == "" {
				continue
			}
			c.codes = append(c.codes, code)
			c.names[code] = name
			c.byName[countryKey(name)] = code
			// CLDR qualifies some names ("Myanmar (Burma)", "Congo - Kinshasa",
			// "Hong Kong SAR China"); people write the part before the qualifier.
			if i := strings.IndexAny(name, "(-"); i > 0 {
				short := countryKey(name[:i])
				if _, taken := c.byName[short]; !taken {
					c.byName[short] = code
				}
			}
		}
	}
	for alias, code := range countryAliases {
		c.byName[countryKey(alias)] = code
	}
	// Names in the other languages sites are read in (CLDR display names), and
	// aliases in those languages. English names and aliases win a clash.
	for _, tag := range localNames {
		namer := display.Regions(language.MustParse(tag))
		for _, code := range c.codes {
			if key := countryKey(namer.Name(language.MustParseRegion(code))); key != "" && !localNotCountry[key] {
				if _, taken := c.byName[key]; !taken {
					c.byName[key] = code
				}
			}
		}
	}
	for alias, code := range localAliases {
		if key := countryKey(alias); c.byName[key] == "" {
			c.byName[key] = code
		}
	}
	c.keys = map[string][]string{}
	for key, code := range c.byName {
		c.keys[code] = append(c.keys[code], key)
	}
	slices.Sort(c.codes)
}

// countryKey folds a name for lookup: lower case, no accents, "&" as "and",
// punctuation as space, single spaces, no leading "the".
var accents = runes.Remove(runes.In(unicode.Mn))

func countryKey(s string) string {
	s, _, _ = transform.String(transform.Chain(norm.NFD, accents, norm.NFC), s)
	s = strings.ToLower(strings.ReplaceAll(s, "&", " and "))
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		if r == '\'' || r == '’' {
			return -1
		}
		return ' '
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimPrefix(s, "the ")
}

// CountryNamed reports whether text names the country code by one of its
// names in English or a language of localNames ("Deutschland", "Italia",
// "Royaume-Uni", "UK"), as whole words, ignoring case and accents.
func CountryNamed(code, text string) bool {
	countries.once.Do(loadCountries)
	t := " " + countryKey(text) + " "
	for _, key := range countries.keys[strings.ToUpper(strings.TrimSpace(code))] {
		// Chinese, Japanese and Korean names need no spaces around them
		// ("上海市，中国", "東京都, 日本国").
		if strings.Contains(t, " "+key+" ") || unspaced(key) && strings.Contains(t, key) {
			return true
		}
	}
	return false
}

// unspaced reports whether a name is written in a script that does not
// separate words with spaces (Han, Hiragana, Katakana) or is Hangul, whose
// names are followed by particles: it is found inside longer runs of letters.
func unspaced(key string) bool {
	for _, r := range key {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// CountryCodes returns every ISO 3166-1 alpha-2 code, sorted.
func CountryCodes() []string {
	countries.once.Do(loadCountries)
	return slices.Clone(countries.codes)
}

// CountryName returns the English name of an ISO 3166-1 alpha-2 code (any
// case), or "" when code is not one.
func CountryName(code string) string {
	countries.once.Do(loadCountries)
	return countries.names[strings.ToUpper(strings.TrimSpace(code))]
}

// CountryCode returns the ISO 3166-1 alpha-2 code of a country named in English
// ("Germany", "united states of america", "Côte d'Ivoire", "UK") or in one of
// the languages of localNames ("Deutschland", "España", "Paesi Bassi"), ignoring case,
// accents and punctuation. A two-letter upper-case code is accepted as itself
// ("DE"), except where it is also a common alias (UK -> GB); lower case is not,
// so that words such as "in" or "by" are never taken for a country.
func CountryCode(name string) (string, bool) {
	countries.once.Do(loadCountries)
	key := countryKey(name)
	if code, ok := countries.byName[key]; ok {
		return code, true
	}
	if code := strings.TrimSpace(name); len(code) == 2 && countries.names[code] != "" {
		return code, true
	}
	return "", false
}
