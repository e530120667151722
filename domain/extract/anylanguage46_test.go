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

// TestAnyLanguage46_BuilderCards: team cards as site builders write them.
// A name broken over lines by <br> (a Squarespace list title) is one name;
// a title that goes on with a sentence (an Elementor image box's
// description) is its first sentence; "Head of Design" after the founder's
// word is a department, not another company ("Founder of Globex" still is).
func TestAnyLanguage46_BuilderCards(t *testing.T) {
	home := `<html lang="en"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a><a href="/about">About</a></div><h1>Acme</h1><p>Acme runs a farm's CSA.</p></body></html>`
	about := func(body string) string {
		return `<html lang="en"><head><title>About Acme</title></head><body><div class="nav"><a href="/">Acme</a></div><main><h1>About us</h1><p>Acme started in 2022.</p>` + body + `</main></body></html>`
	}
	for _, c := range []struct{ name, body, want string }{
		{"names broken by <br> on a long home page", `<ul class="user-items-list-simple"><li class="list-item"><img src="w.jpg" alt=""><div class="list-item-content"><h2 class="list-item-content__title">Wren<br>Castellano</h2><div class="list-item-content__description"><p>Co-Founder + CEO</p></div></div></li>
<li class="list-item"><img src="j.jpg" alt=""><div class="list-item-content"><h2 class="list-item-content__title">Jonah<br>Pike</h2><div class="list-item-content__description"><p>Co-Founder + Software</p></div></div></li>
<li class="list-item"><div class="list-item-content"><h2 class="list-item-content__title">Ada<br>Nwosu</h2><div class="list-item-content__description"><p>Farm onboarding</p></div></div></li></ul>`, "Wren Castellano [Co-Founder + CEO]; Jonah Pike [Co-Founder + Software]"},
		{"a title that goes on with a sentence", `<div class="e-grid"><div class="elementor-widget-image-box"><figure><img src="m.jpg" alt=""></figure><div class="elementor-image-box-content"><h3 class="elementor-image-box-title">Marcus Oyelaran</h3><p class="elementor-image-box-description">Co-founder and CEO. Ran gates at Riverbend Fest for nine summers.</p></div></div>
<div class="elementor-widget-image-box"><figure><img src="k.jpg" alt=""></figure><div class="elementor-image-box-content"><h3 class="elementor-image-box-title">Kofi Mensah</h3><p class="elementor-image-box-description">Lead engineer. Joined in 2022.</p></div></div></div>`, "Marcus Oyelaran [Co-founder and CEO]"},
		{"Founder & Head of Design", `<div class="cols"><div class="col"><img src="a.jpg" alt=""><div><p><span>Maren</span><span> Holt</span></p><p><span>Founder &amp; Head of Design</span></p></div></div></div>`, "Maren Holt [Founder & Head of Design]"},
		{"a founder of another company", `<div class="cols"><div class="col"><img src="a.jpg" alt=""><div><p>Jane Doe</p><p>Founder of Globex</p></div></div></div>`, ""},
	} {
		dr := draftLang(t, "en", "/", home, "/about", about(c.body))
		if strings.HasSuffix(c.name, "home page") {
			dr = draftLang(t, "en", "/", strings.Replace(home, "</body>", "<h2>Our story</h2><p>Acme started in 2022.</p>"+c.body+"</body>", 1))
		}
		if got := founderLine(dr); got != c.want {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage46_StyledMainHeading: a home page without <h1> whose main
// heading is a div or paragraph styled as one (Webflow's heading-style-h1
// over word-by-word spans, Tailwind's text-5xl, role=heading aria-level=1)
// gives the tagline; a page whose structure starts with a real heading, or
// whose styled line is a sentence, keeps the title's tagline.
func TestAnyLanguage46_StyledMainHeading(t *testing.T) {
	home := func(hero string) string {
		return `<html lang="en"><head><title>Acme | Rota planning for clinics</title></head><body><div class="navbar"><a href="/"><div class="logo">Acme</div></a><a href="/about">About</a></div>
<div class="hero">` + hero + `<p class="text-size-medium">Acme builds the weekly rota for physiotherapy clinics from each therapist's hours and rooms.</p></div></body></html>`
	}
	for _, c := range []struct{ name, hero, want string }{
		{"Webflow word spans", `<div class="heading-style-h1"><span class="word">Rotas</span> <span class="word">that</span> <span class="word">fit</span> <span class="word">every</span> <span class="word">week</span></div>`, "Rotas that fit every week"},
		{"Tailwind text-5xl", `<p class="mx-auto mt-6 max-w-3xl text-5xl font-semibold">Know what every shift costs, <span class="bg-clip-text">every&nbsp;morning</span></p>`, "Know what every shift costs, every morning"},
		{"role=heading", `<div role="heading" aria-level="1" class="css-901oao">Rotas without the spreadsheet</div>`, "Rotas without the spreadsheet"},
		{"a real heading first", `<h2>Why clinics switch</h2><div class="heading-style-h1">Rotas that fit every week</div>`, "Rota planning for clinics"},
		{"a styled sentence", `<div class="heading-xl">We plan rotas.</div>`, "Rota planning for clinics"},
	} {
		dr := draftLang(t, "en", "/", home(c.hero))
		if got := dr.Fields["tagline"].Text; got != c.want {
			t.Errorf("%s: tagline %q, want %q", c.name, got, c.want)
		}
	}
}
