package extract_test

import (
	"testing"
)

// TestAnyLanguage50_ScandinavianI: Danish, Norwegian and Swedish "i" is
// "in", never the company's "I": a customer's founding written "I Lund
// grundades Cykelverkstaden 2009" or "Bageriet i Aarhus startede i 2015"
// is not the company's. English "I" still is, on an English page and in an
// English sentence of a page in another language or in none.
func TestAnyLanguage50_ScandinavianI(t *testing.T) {
	page := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Lagerkoll</title></head><body><h1>Lagerkoll</h1>` + body + `</body></html>`
	}
	for _, c := range []struct {
		name, lang, about, year string
	}{
		{"sv customer first", "sv", `<p>I Lund grundades Cykelverkstaden 2009. I dag skickar de 300 paket i veckan.</p><p>Lagerkoll grundades 2018 av två lagerchefer.</p>`, "2018"},
		{"sv customer only", "sv", `<p>I Lund grundades Cykelverkstaden 2009. I dag skickar de 300 paket i veckan med Lagerkoll.</p>`, ""},
		{"da customer", "da", `<p>Bageriet i Aarhus startede i 2015 og bruger nu Lagerkoll til hele lageret.</p>`, ""},
		{"en I", "en", `<p>I started Lagerkoll in 2018, after ten years as a warehouse manager.</p>`, "2018"},
		{"en I, no language", "", `<p>I started Lagerkoll in 2018, after ten years as a warehouse manager.</p>`, "2018"},
		{"en sentence on a sv page", "sv", `<p>I founded Lagerkoll in 2018 after ten years in warehouses.</p>`, "2018"},
	} {
		kept := draftLang(t, c.lang, "/", page(c.lang, `<p>Lagerstyrning för e-handlare.</p>`), "/om", page(c.lang, c.about))
		if got := kept.Fields["founded_year"].Text; got != c.year {
			t.Errorf("%s: founded_year %q (%v), want %q", c.name, got, kept.Fields["founded_year"].Evidence, c.year)
		}
	}
}
