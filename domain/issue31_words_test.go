package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// Issue 31 item 3: country names in the languages without word lists, from
// CLDR (and the long forms people write), found in addresses written without
// spaces; and the grounding gate takes a monthly price or a free plan as they
// are written in those languages.
func TestCountries_WordlessLanguages(t *testing.T) {
	for name, want := range map[string]string{"Polska": "PL", "Sverige": "SE", "Česká republika": "CZ", "Česko": "CZ",
		"Türkiye": "TR", "日本": "JP", "대한민국": "KR", "中国": "CN", "台灣": "TW"} {
		if got, ok := domain.CountryCode(name); !ok || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %s", name, got, ok, want)
		}
	}
	for code, text := range map[string]string{"CN": "上海市浦东新区张江路88号，中国", "KR": "서울특별시 강남구 테헤란로 123, 대한민국",
		"PL": "ul. Prosta 12, 00-850 Warszawa, Polska", "TR": "Moda Cad. No: 5, 34710 Kadıköy/İstanbul, Türkiye"} {
		if !domain.CountryNamed(code, text) {
			t.Errorf("CountryNamed(%s, %q) = false", code, text)
		}
	}
	if domain.CountryNamed("CN", "Chinatown Deli") || domain.CountryNamed("JP", "Japanese lessons") {
		t.Error("a country named inside a Latin word")
	}
}

func TestGround_PricingWordlessLanguages(t *testing.T) {
	site := &domain.SiteCrawl{Pages: []domain.WebPage{{URL: "https://x.test/", Text: "Pro 49 zł / mies.\n¥0，每月100条提交\n프로: 월 9,900원\n₺199 / ay"}}}
	req := domain.DraftRequest{Site: site}
	for _, c := range []struct{ model, quote string }{
		{"subscription", "Pro 49 zł / mies."}, {"freemium", "¥0，每月100条提交"}, {"subscription", "프로: 월 9,900원"}, {"subscription", "₺199 / ay"},
	} {
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{"pricing_model": {Text: c.model, Evidence: []domain.Evidence{{Quote: c.quote, URL: "https://x.test/"}}}}}
		if kept, dropped := domain.Ground(req, d); kept.Fields["pricing_model"].Text != c.model {
			t.Errorf("%s from %q dropped: %v", c.model, c.quote, dropped)
		}
	}
}

// A relative logo is quoted as the page writes it; the gate resolves the
// quote against the page's URL to the value, and refuses another address.
func TestGround_RelativeLogoQuote(t *testing.T) {
	site := &domain.SiteCrawl{Pages: []domain.WebPage{{URL: "https://x.test/pl/", Data: []string{"img/logo.png", "Fakturka"}}}}
	logo := func(value, quote string) string {
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{"logo_url": {Text: value, Evidence: []domain.Evidence{{Quote: quote, URL: "https://x.test/pl/"}, {Quote: "Fakturka", URL: "https://x.test/pl/"}}}}}
		kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
		return kept.Fields["logo_url"].Text
	}
	if got := logo("https://x.test/pl/img/logo.png", "img/logo.png"); got != "https://x.test/pl/img/logo.png" {
		t.Errorf("relative logo quote: kept %q", got)
	}
	if got := logo("https://x.test/img/other.png", "img/logo.png"); got != "" {
		t.Errorf("a value the quote does not resolve to was kept: %q", got)
	}
}

// Japan's postal mark before a postcode names Japan; the mark alone, or
// another country with it, does not.
func TestGround_JapanesePostalMark(t *testing.T) {
	site := &domain.SiteCrawl{Pages: []domain.WebPage{{URL: "https://x.test/", Text: "〒150-0002 東京都渋谷区渋谷2-1-1\n〒 マーク"}}}
	country := func(code, quote string) string {
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{"country": {Text: code, Evidence: []domain.Evidence{{Quote: quote, URL: "https://x.test/"}}}}}
		kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
		return kept.Fields["country"].Text
	}
	if got := country("JP", "〒150-0002 東京都渋谷区渋谷2-1-1"); got != "JP" {
		t.Errorf("JP from a 〒 postcode: kept %q", got)
	}
	if got := country("JP", "〒 マーク"); got != "" {
		t.Errorf("JP from the mark alone: kept %q", got)
	}
	if got := country("KR", "〒150-0002 東京都渋谷区渋谷2-1-1"); got != "" {
		t.Errorf("KR from a Japanese postcode: kept %q", got)
	}
}
