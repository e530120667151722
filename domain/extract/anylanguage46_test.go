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

// TestAnyLanguage46_StageBadges: stage as site builders show it. A badge
// whose whole text is "Beta", "Early access" or "Tidig åtkomst" among the
// first lines of the home page, in a nav or header made of divs (no
// <header> element), says beta; one inside a menu link is a feature's. A
// major version "is live", a beta "after a season" and a "Request beta
// access" button are read as the sentences and buttons they are.
func TestAnyLanguage46_StageBadges(t *testing.T) {
	home := func(lang, top, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="navbar"><a href="/"><div class="logo">Acme</div></a><div class="links"><a href="/about">About</a>` + top + `</div></div>
<div class="hero"><div class="heading-xl">Rotas for clinics</div><p>Acme plans the week of a physiotherapy clinic.</p>` + body + `</div>
<div class="features"><div class="card"><div class="title">Room-aware shifts</div><p>Two therapists never share a room.</p></div></div></body></html>`
	}
	for _, c := range []struct {
		name, lang, top, body, want string
	}{
		{"a Beta badge beside the logo in a div header", "en", `<div class="elementor-widget-container"><span class="badge">Beta</span></div>`, ``, "beta"},
		{"an Early access badge in a Framer nav", "en", `<div data-framer-name="Badge"><p class="framer-text">Early access</p></div>`, ``, "beta"},
		{"a Swedish pill over the hero", "sv", ``, `<div class="pill"><div class="pill-text">Tidig åtkomst</div></div>`, "beta"},
		{"a menu entry tagged Beta", "en", `<a href="/ai-notes"><div>AI notes</div><div class="tag">Beta</div></a>`, ``, ""},
		{"a major version is live", "en", ``, `<p class="announcement"><span>Acme 2 is live</span> — charts for every size.</p>`, "launched"},
		{"open to everyone after a season in private beta", "en", ``, `<p>After a season in private beta with nine farms, we opened Acme to everyone in March 2025.</p>`, "launched"},
		{"a Request beta access button", "en", ``, `<a class="elementor-button" href="/beta"><span class="elementor-button-text">Request beta access</span></a>`, "beta"},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang, c.top, c.body))
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
}
