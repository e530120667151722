package extract_test

import (
	"strings"
	"testing"
)

// TestAnyLanguage46_InvisibleCharacters: text as a browser draws it. Soft
// hyphens and zero-width spaces inside words (Tilda's and Carrd's
// "Filial&shy;tausch", a logo "kvitt<span>&#8203;</span>ot") are no part of
// the drafted words, and a heading split letter by letter into aria-hidden
// pieces for an animation (GSAP SplitText) reads as its aria-label.
func TestAnyLanguage46_InvisibleCharacters(t *testing.T) {
	split := func(s string) string {
		var b strings.Builder
		for _, w := range strings.Fields(s) {
			b.WriteString(`<div class="split-word" aria-hidden="true">`)
			for _, r := range w {
				b.WriteString(`<div class="split-char">` + string(r) + `</div>`)
			}
			b.WriteString(`</div> `)
		}
		return b.String()
	}
	home := `<html lang="de"><head><title>Zeitfuchs</title></head><body><div class="nav"><a href="/"><div class="brand">Zeit&#8203;fuchs</div></a></div>
<h1 class="hero-heading" aria-label="Schichtpläne ohne Radiergummi">` + split("Schichtpläne ohne Radiergummi") + `</h1>
<div class="t-descr">Zeitfuchs plant die Schichten in Bäckereien mit mehreren Filialen: Back&shy;stube, Verkauf und Aus&shy;lieferung in einem Plan.</div>
<div class="t490"><div class="t-item"><div class="t-name">Backstube zuerst</div><div class="t-descr">Die Nachtschicht wird um die Ofenzeiten herum geplant.</div></div>
<div class="t-item"><div class="t-name">Filial&shy;tausch</div><div class="t-descr">Fällt jemand aus, schlägt Zeitfuchs Kolleginnen aus der Nähe vor.</div></div>
<div class="t-item"><div class="t-name">Ruhezeiten&#8203;-Wächter</div><div class="t-descr">Elf Stunden Ruhe zwischen zwei Schichten, automatisch geprüft.</div></div></div>
</body></html>`
	dr := draftLang(t, "de", "/", home)
	if got := dr.Fields["tagline"].Text; got != "Schichtpläne ohne Radiergummi" {
		t.Errorf("tagline %q, want the heading's aria-label", got)
	}
	feats := strings.Join(dr.Fields["features"].List, "|")
	for _, want := range []string{"Filialtausch", "Ruhezeiten-Wächter"} {
		if !strings.Contains(feats, want) {
			t.Errorf("features %q, want %q", feats, want)
		}
	}
	if strings.ContainsAny(feats+dr.Fields["description"].Text, "\u00ad\u200b") {
		t.Errorf("an invisible character drafted: %q %q", feats, dr.Fields["description"].Text)
	}
	for _, l := range dr.Fields["features"].List {
		if len([]rune(l)) < 3 {
			t.Errorf("feature %q: a letter of the split heading", l)
		}
	}
}
