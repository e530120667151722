package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestGround_CountryFromUSStateAndZIP: a US address names its country by a
// state's code and a ZIP code ("Austin, TX 78701", "NY 10001-2345"), on a
// site in any language; five digits without a state's code, or after a
// word that is no state, name none.
func TestGround_CountryFromUSStateAndZIP(t *testing.T) {
	for _, c := range []struct {
		lang, country, quote string
		keep                 bool
	}{
		{"en", "US", "401 Congress Avenue, Austin, TX 78701", true},
		{"de", "US", "Acme Inc., 350 Fifth Avenue, New York, NY 10118-0110", true},
		{"en", "GB", "401 Congress Avenue, Austin, TX 78701", false},
		{"en", "US", "Torstraße 1, 10119 Berlin", false},
		{"en", "US", "Plan XL 10000 contacts", false},
	} {
		site := &domain.SiteCrawl{URL: "https://x.test/", Language: c.lang,
			Pages: []domain.WebPage{{URL: "https://x.test/", Text: c.quote}}}
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"country": {Text: c.country, Evidence: []domain.Evidence{{Quote: c.quote, URL: "https://x.test/"}}},
		}}
		kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
		if _, ok := kept.Fields["country"]; ok != c.keep {
			t.Errorf("lang %s, %s from %q: kept %v, want %v", c.lang, c.country, c.quote, ok, c.keep)
		}
	}
}

// TestGround_CountryFromHanAddressWithSpace: a Chinese address whose street
// number stands after a space ("浙江省杭州市西湖区文三路 90 号") names the
// country of the site's zh-CN tag, as one without the space does.
func TestGround_CountryFromHanAddressWithSpace(t *testing.T) {
	for _, c := range []struct {
		lang, country, quote string
		keep                 bool
	}{
		{"zh-CN", "CN", "公司地址：浙江省杭州市西湖区文三路 90 号 5 楼", true},
		{"zh-CN", "CN", "浙江省杭州市西湖区文三路90号", true},
		{"en", "CN", "公司地址：浙江省杭州市西湖区文三路 90 号 5 楼", false},
	} {
		site := &domain.SiteCrawl{URL: "https://x.test/", Language: c.lang,
			Pages: []domain.WebPage{{URL: "https://x.test/", Text: c.quote}}}
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"country": {Text: c.country, Evidence: []domain.Evidence{{Quote: c.quote, URL: "https://x.test/"}}},
		}}
		kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
		if _, ok := kept.Fields["country"]; ok != c.keep {
			t.Errorf("lang %s, %s from %q: kept %v, want %v", c.lang, c.country, c.quote, ok, c.keep)
		}
	}
}
