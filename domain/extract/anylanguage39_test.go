package extract_test

import "testing"

// TestAnyLanguage39_PlacesInImprintLines: the company's place from the line
// that names it, however the site marks it up: the pieces a separator sets
// apart on one line are read apart ("Pollen Learning Ltd · Leeds, United
// Kingdom · hello@…"), "UK" after a city is a country (no US state has that
// code), "Tallow is made in Lisbon, Portugal" (the product or "we" as the
// subject), and a line naming a legal form is the company's imprint even
// outside a <footer> (sites built with page builders mark none): a US state
// and ZIP, a Korean road address after 주식회사. Not: a company's name taken
// for its city, a hosting line, a customer's place.
func TestAnyLanguage39_PlacesInImprintLines(t *testing.T) {
	home := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div><div class="hero"><div>Shift handovers for care homes</div><div>Acme keeps notes in one place.</div></div>` + body + `</body></html>`
	}
	for _, c := range []struct {
		name, lang, body, city, country string
	}{
		{"pieces of a line", "en", `<div class="css-1dbjc4n"><div dir="auto">Acme Learning Ltd · Leeds, United Kingdom · <a href="mailto:hi@acme.example">hi@acme.example</a></div></div>`, "Leeds", "GB"},
		{"Eircode and a postal district", "en", `<div class="footer_bottom">Acme Software Ltd, 5 Hanover Quay, Dublin 2, D02 VY79, Ireland · <a href="mailto:hi@acme.example">hi@acme.example</a></div>`, "Dublin", "IE"},
		{"UK after the city", "en", `<div class="x"><p>© 2025 Acme Ltd · Bristol, UK · <a href="mailto:hi@acme.example">hi@acme.example</a></p></div>`, "Bristol", "GB"},
		{"the product made in", "en", `<footer><p>Acme is made in Lisbon, Portugal · <a href="mailto:hi@acme.example">hi@acme.example</a></p></footer>`, "Lisbon", "PT"},
		{"a legal form beside a US address", "en", `<div class="foot">Acme LLC · 1120 NW Couch St, Portland, OR 97209 · <a href="mailto:hi@acme.example">hi@acme.example</a></div>`, "Portland", "US"},
		{"주식회사 beside a road address", "ko", `<div class="ft"><p>주식회사 에이크미 | 부산광역시 해운대구 센텀중앙로 79 | 이메일 hi@acme.example</p></div>`, "부산광역시", "KR"},
		{"the name is no city", "en", `<div class="foot">Acme Learning Ltd · United Kingdom</div>`, "", "GB"},
		{"hosting", "en", `<div class="foot">Acme Ltd · Hosted in Frankfurt, Germany</div>`, "", ""},
		{"a host's legal form", "en", `<h2>Hosting</h2><p>Aruba S.p.A., Via San Clemente 53, 24036 Ponte San Pietro (BG), Italia</p>`, "", ""},
		{"someone else made in", "en", `<footer><p>Photos are made in Porto, Portugal by Rui Lima</p></footer>`, "", ""},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang, c.body))
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}
