package extract_test

import (
	"testing"
)

// TestAnyLanguage45_FooterPlaces: a city a site states only in its footer,
// in any language: the place beside the company in a copyright line, "Made
// in" a city without its country, the city that ends a street address
// without a postcode. A link's text ("Made in Framer", "Privacy"), a
// language switcher, a country alone and "offices in" two cities give no city.
func TestAnyLanguage45_FooterPlaces(t *testing.T) {
	for _, c := range []struct {
		name, lang, footer, want string
	}{
		{"copyright, a piece after the company", "sv", `<p>© 2026 Hyllan AB · Göteborg</p>`, "Göteborg"},
		{"copyright, after the company's comma", "en", `<p class="legal">© 2026 Quillstack Oy, Helsinki</p>`, "Helsinki"},
		{"copyright in Turkish", "tr", `<p>© 2026 Acme Yazılım A.Ş. · İzmir</p>`, "İzmir"},
		{"the company, a district and a city", "tr", `<div>Acme Yazılım A.Ş. · Kadıköy, İstanbul · <a href="mailto:destek@acme.com.tr">destek@acme.com.tr</a></div>`, "İstanbul"},
		{"made in a city", "en", `<p>Made in Tallinn · © 2026 Tidepool OÜ</p>`, "Tallinn"},
		{"a street, a district, a city", "tr", `<p>Caferağa Mah. Moda Cad. No: 14, Kadıköy, İstanbul</p>`, "İstanbul"},
		{"made in a site builder", "en", `<p><a href="https://www.framer.com">Made in Framer</a> · © 2026 Acme</p>`, ""},
		{"made in a language", "en", `<p>Built in Rust · © 2026 Acme Inc.</p>`, ""},
		{"another participle without its country", "en", `<p>Roasted in Leeds</p>`, ""},
		{"links after the copyright", "en", `<p>© 2026 Acme Ltd · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></p>`, ""},
		{"a language switcher", "de", `<p>© 2026 Acme GmbH · <a href="/en/">English</a></p>`, ""},
		{"all rights reserved", "en", `<p>© 2026 Acme Ltd · All rights reserved</p>`, ""},
		{"offices in two cities", "en", `<p>Offices in Lisbon and Berlin</p>`, ""},
	} {
		home := `<!DOCTYPE html><html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme counts stock.</p><footer>` + c.footer + `</footer></body></html>`
		dr := draftPages(t, "/", home)
		if got := dr.Fields["city"].Text; got != c.want {
			t.Errorf("%s: city %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage45_CityBeforeRegion: an address whose city part is
// followed by a region with its postcode ("Yokohama, Kanagawa 222-0033",
// "Austin, Texas 78702") gives the city, not the region; a ward before the
// city ("Kohoku-ku, Yokohama 222-0033") is not the city.
func TestAnyLanguage45_CityBeforeRegion(t *testing.T) {
	for _, c := range []struct{ name, addr, city, country string }{
		{"Japan", `Harborline K.K.<br>2-5-10 Shin-Yokohama<br>Yokohama, Kanagawa 222-0033<br>Japan`, "Yokohama", "JP"},
		{"a US state spelt out", `Brightdesk, Inc.<br>901 E 6th St<br>Austin, Texas 78702<br>United States`, "Austin", "US"},
		{"a ward before the city", `Harborline K.K.<br>Kohoku-ku, Yokohama 222-0033<br>Japan`, "Yokohama", "JP"},
	} {
		home := `<!DOCTYPE html><html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme books slots.</p><footer><address>` + c.addr + `</address></footer></body></html>`
		dr := draftPages(t, "/", home)
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage45_ImprintInItsOwnLanguage: an English site whose legal
// notice is only in German: the address's postcode names the country in
// the notice's own language (Germany), as on a German site.
func TestAnyLanguage45_ImprintInItsOwnLanguage(t *testing.T) {
	home := `<!DOCTYPE html><html lang="en"><head><title>Kontorbox</title></head><body><h1>Kontorbox</h1><p>Kontorbox keeps the books of trades businesses.</p>` +
		`<footer><a href="/impressum">Impressum</a></footer></body></html>`
	imprint := `<!DOCTYPE html><html lang="de"><head><title>Impressum</title></head><body><h1>Impressum</h1><p>Kontorbox GmbH<br>Hafenstraße 12<br>28217 Bremen</p></body></html>`
	dr := draftPages(t, "/", home, "/impressum", imprint)
	if got := dr.Fields["country"].Text; got != "DE" {
		t.Errorf("country %q, want DE", got)
	}
	if got := dr.Fields["city"].Text; got != "Bremen" {
		t.Errorf("city %q, want Bremen", got)
	}
}
