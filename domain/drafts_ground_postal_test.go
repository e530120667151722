package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestGround_CountryFromPostalAddress: the gate takes a country from an
// address that does not name it when the postcode's form is that country's
// alone, or is shared but the site's language is that country's; a wrong
// country, or a shared form on a site whose language says nothing (English),
// is refused. A US address names its country by a state's code and a ZIP
// code ("Austin, TX 78701", "NY 10001-2345") on a site in any language; five
// digits without a state's code, or after a word that is no state, name
// none. A Chinese address whose street number stands after a space
// ("浙江省杭州市西湖区文三路 90 号") names the country of the site's zh-CN
// tag, as one without the space does.
func TestGround_CountryFromPostalAddress(t *testing.T) {
	cases := []struct {
		lang, country, quote string
		keep                 bool
	}{
		{"pl", "PL", "ul. Długa 5/2, 31-147 Kraków", true},
		{"en", "PL", "ul. Długa 5/2, 31-147 Kraków", true}, // the form is Poland's alone
		{"pl", "DE", "ul. Długa 5/2, 31-147 Kraków", false},
		{"en", "GB", "Tallyho Analytics Ltd, 21 Baker Street, London W1U 8EQ", true},
		{"en", "US", "Tallyho Analytics Ltd, 21 Baker Street, London W1U 8EQ", false},
		{"sv", "SE", "Fakturera AB, Drottninggatan 5, 411 14 Göteborg", true},
		{"sv", "CZ", "Fakturera AB, Drottninggatan 5, 411 14 Göteborg", false},
		{"cs", "CZ", "Vinohradská 12, 120 00 Praha 2", true},
		{"en", "CZ", "Vinohradská 12, 120 00 Praha 2", false}, // SE, CZ, SK and GR write "NNN NN"
		{"tr", "TR", "Kızılay Mah. Atatürk Blv. No:12, 06420 Çankaya/Ankara", true},
		{"ko", "KR", "서울특별시 마포구 월드컵북로 396, 03925", true},
		{"zh", "CN", "上海市徐汇区漕溪北路88号 邮编 200030", true},
		{"en", "DE", "Torstraße 1, 10119 Berlin", false},    // five digits: many countries
		{"de", "DE", "Torstraße 1, 10119 Berlin", true},     // German's first country writes five
		{"de", "AT", "Stephansplatz 1, 1010 Wien", false},   // a bare "de" says nothing of Austria
		{"de-at", "AT", "Stephansplatz 1, 1010 Wien", true}, // the tag names the region
		{"sv", "SE", "Ring 08-123 45 67", false},            // a phone number is no address
		{"pl", "PL", "Founded 2019, 40 people", false},
		{"en", "US", "401 Congress Avenue, Austin, TX 78701", true}, // a state's code and a ZIP code
		{"de", "US", "Acme Inc., 350 Fifth Avenue, New York, NY 10118-0110", true},
		{"en", "GB", "401 Congress Avenue, Austin, TX 78701", false},
		{"en", "US", "Torstraße 1, 10119 Berlin", false},
		{"en", "US", "Plan XL 10000 contacts", false},       // no state's code before the five digits
		{"zh-CN", "CN", "公司地址：浙江省杭州市西湖区文三路 90 号 5 楼", true}, // a street number after a space
		{"zh-CN", "CN", "浙江省杭州市西湖区文三路90号", true},
		{"en", "CN", "公司地址：浙江省杭州市西湖区文三路 90 号 5 楼", false},
	}
	for _, c := range cases {
		if ok := groundsCountry(c.lang, c.country, c.quote); ok != c.keep {
			t.Errorf("lang %s, %s from %q: kept %v, want %v", c.lang, c.country, c.quote, ok, c.keep)
		}
	}
}

// groundsCountry says whether the gate keeps a drafted country whose only
// evidence is quote, the text of a one-page site in lang.
func groundsCountry(lang, country, quote string) bool {
	site := &domain.SiteCrawl{URL: "https://x.test/", Language: lang,
		Pages: []domain.WebPage{{URL: "https://x.test/", Text: quote}}}
	d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
		"country": {Text: country, Evidence: []domain.Evidence{{Quote: quote, URL: "https://x.test/"}}},
	}}
	kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
	_, ok := kept.Fields["country"]
	return ok
}
