package domain

import (
	"regexp"
	"slices"

	"golang.org/x/text/language"
)

// AddressCountry returns the country of a postal address that names neither
// the country nor a postcode, by the address's own form and the site's
// language: a Korean address with a metropolitan city or province
// ("대전광역시 유성구 대학로 99") is in Korea; a Japanese or Chinese one with a
// city and its ward ("台北市大安區忠孝東路四段100號", "大阪府大阪市北区") is
// in the country of the site's language (ja Japan; zh-TW Taiwan, zh-HK
// Hong Kong, zh or zh-CN China: CLDR's region for the tag,
// golang.org/x/text/language); an address with a street and its number in
// Hebrew, Vietnamese, Thai or Indonesian ("רחוב רוטשילד 22, תל אביב",
// "12 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh") is in that language's country.
// A language that is the first of many countries (en, es, fr, pt, ar, ...)
// names none, and a Taiwanese city on a site whose language names another
// country gives none.
func AddressCountry(text, lang string) (string, bool) {
	region := languageRegion(lang)
	switch {
	case koreanAddressRe.MatchString(text):
		return "KR", true
	case hanAddressRe.MatchString(text):
		if twCityRe.MatchString(text) {
			return "TW", region == "TW" || region == ""
		}
		if region == "JP" || region == "CN" || region == "TW" || region == "HK" || region == "MO" {
			return region, true
		}
	case streetAddressRe[region] != nil && streetAddressRe[region].MatchString(text):
		return region, true
	}
	return "", false
}

// languageRegion is the country a site's language names: the region of its
// tag (zh-TW, de-AT) or CLDR's likely region for a language that is not the
// first of many countries; "" when it names none.
func languageRegion(lang string) string {
	if lang == "" {
		return ""
	}
	tag, err := language.Parse(lang)
	if err != nil {
		return ""
	}
	r, conf := tag.Region()
	base, _ := tag.Base()
	if conf != language.Exact && slices.Contains(pluricentric, base.String()) {
		return ""
	}
	return r.String()
}

var (
	// koreanAddressRe: a metropolitan city, special city or province, then a
	// district, road or street with its number.
	koreanAddressRe = regexp.MustCompile(`\p{Hangul}{1,4}(?:특별시|광역시|특별자치시|특별자치도|도)\s+\p{Hangul}+(?:구|군|시)\s+\p{Hangul}[\p{Hangul}\d]*(?:로|길|동)\s*\d`)
	// hanAddressRe: a city (市 or 都) and a ward, district or street with a number.
	// (a space may stand before the number: "文三路 90 号").
	hanAddressRe = regexp.MustCompile(`\p{Han}{1,4}(?:市|都)\p{Han}{1,4}(?:区|區|町|村|郡)\p{Han}*[\p{Han}\d０-９-]*[ \x{3000}]?\d`)
	// twCityRe: the cities of Taiwan.
	twCityRe = regexp.MustCompile(`(?:台北|臺北|新北|桃園|台中|臺中|台南|臺南|高雄|新竹|基隆|嘉義)市`)
	// streetAddressRe: a street and its number, by the country of the
	// language whose words these are.
	streetAddressRe = map[string]*regexp.Regexp{
		"IL": regexp.MustCompile(`(?:רחוב|רח['׳]|שדרות|שד['׳])\s*\p{Hebrew}[\p{Hebrew}\s"״'׳-]*\s\d+`),
		"VN": regexp.MustCompile(`\d+[A-Z]?\s+\p{L}[\p{L} ]*,\s*(?:Quận|Phường|Huyện|Q\.)\s*[\p{L}\d ]+,\s*(?:TP\.|Tp\.|Thành phố)\s*\p{Lu}`),
		"TH": regexp.MustCompile(`\d+\s*ถนน\p{Thai}+|(?:ตำบล|แขวง)\p{Thai}+\s*(?:อำเภอ|เขต)\p{Thai}+`),
		"ID": regexp.MustCompile(`(?:Jl\.|Jalan)\s+\p{Lu}[\p{L} .]*\s(?:No\.\s?)?\d+`),
	}
)
