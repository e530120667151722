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

// TestAnyLanguage50_DivFooters: a footer is read as one (its "© 2026
// Hyllan AB · Göteborg" gives the city, its profile links are the site's)
// when it is a div marked role="contentinfo", named "site-bottom",
// "colophon", "bottom-bar" or "footer" in the site's language, or only the
// closing block of the body (or of its one page wrapper) with the
// copyright or the legal links. The last section of a one-page site, under
// its own heading, is content.
func TestAnyLanguage50_DivFooters(t *testing.T) {
	const closing = `<p>© 2026 Hyllan AB · Göteborg</p><p><a href="/villkor">Villkor</a> <a href="https://www.instagram.com/hyl.app">Instagram</a></p>`
	for _, c := range []struct {
		name, body string
		footer     bool
	}{
		{"role contentinfo", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått.</p></div><div role="contentinfo">` + closing + `</div><div class="x"><p>Chatta med oss</p></div>`, true},
		{"site-bottom", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått.</p></div><div class="site-bottom">` + closing + `</div><div class="x"><p>Chatta med oss</p></div>`, true},
		{"colophon", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått.</p></div><div id="colophon">` + closing + `</div><div><p>Chatta med oss</p></div>`, true},
		{"bottom-bar", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått.</p></div><div class="bottom-bar">` + closing + `</div><div><p>Chatta med oss</p></div>`, true},
		{"sidfot BEM", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått.</p></div><div class="sidfot__rad">` + closing + `</div><div><p>Chatta med oss</p></div>`, true},
		{"closing block", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått, från ritning till leverans, för kök och förråd.</p></div><div class="nedre">` + closing + `</div>`, true},
		{"closing block of a wrapper", `<div id="app"><div class="x"><h1>Hyllan</h1><p>Hyllor på mått, från ritning till leverans, för kök och förråd.</p></div><div class="nedre">` + closing + `</div></div>`, true},
		{"a last section under its heading", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått, från ritning till leverans, för kök och förråd.</p></div><section class="om"><h2>Om oss</h2>` + closing + `</section>`, false},
		{"no closing words", `<div class="x"><h1>Hyllan</h1><p>Hyllor på mått, från ritning till leverans, för kök och förråd.</p></div><div class="nedre"><p>Hyllan AB · Göteborg</p></div>`, false},
	} {
		kept := draftLang(t, "sv", "/", `<html lang="sv"><head><title>Hyllan</title></head><body>`+c.body+`</body></html>`)
		city, social := kept.Fields["city"].Text, kept.Socials["instagram"].URL
		if got := city == "Göteborg"; got != c.footer {
			t.Errorf("%s: city %q, want a footer's Göteborg: %v", c.name, city, c.footer)
		}
		if c.footer && social != "https://www.instagram.com/hyl.app" {
			t.Errorf("%s: instagram %q, want the footer's", c.name, social)
		}
	}
}

// TestAnyLanguage50_BlueskyMastodon: a site's own Bluesky or Mastodon
// profile is its custom link (the spec's platforms have no key for them,
// and custom holds one link): the first in the page's order when it has
// both. A share link, a post, a customer's profile in a testimonial and a
// "/@name" address on a server that is not known as Mastodon and not
// marked rel="me" are not.
func TestAnyLanguage50_BlueskyMastodon(t *testing.T) {
	page := func(body string) string {
		return `<html lang="en"><head><title>Inkpot</title></head><body><h1>Inkpot</h1><p>Notes for writers.</p>` +
			`<div class="testimonial"><p>"Love it" – <a href="https://bsky.app/profile/jane.writer">Jane</a></p></div>` + body + `</body></html>`
	}
	for _, c := range []struct{ name, footer, custom string }{
		{"bluesky", `<footer><a href="https://bsky.app/profile/inkpot.app">Bluesky</a> <a href="https://x.com/inkpotapp">X</a></footer>`, "https://bsky.app/profile/inkpot.app"},
		{"mastodon.social", `<footer><a href="https://mastodon.social/@inkpot">Mastodon</a></footer>`, "https://mastodon.social/@inkpot"},
		{"the first of both", `<footer><a href="https://fosstodon.org/@inkpot">Mastodon</a> <a href="https://bsky.app/profile/inkpot.app">Bluesky</a></footer>`, "https://fosstodon.org/@inkpot"},
		{"rel=me on another server", `<footer><a rel="me" href="https://writing.exchange/@inkpot">Mastodon</a></footer>`, "https://writing.exchange/@inkpot"},
		{"an unknown server without rel=me", `<footer><a href="https://writing.exchange/@inkpot">Mastodon</a></footer>`, ""},
		{"a share link and a post", `<footer><a href="https://bsky.app/intent/compose?text=Inkpot">Share</a> <a href="https://bsky.app/profile/inkpot.app/post/3k2">Post</a></footer>`, ""},
	} {
		kept := draftLang(t, "en", "/", page(c.footer))
		if got := kept.Socials["custom"].URL; got != c.custom {
			t.Errorf("%s: custom %q, want %q", c.name, got, c.custom)
		}
	}
}

// TestAnyLanguage50_FooterRowPieces: a footer row of spans laid out apart
// (Bootstrap's d-flex justify-content-between) gives the city and country
// of its piece "Nantes, France", and its address is not glued to them; the
// same piece as a link (an event's page), or outside a footer, gives none.
func TestAnyLanguage50_FooterRowPieces(t *testing.T) {
	page := func(body string) string {
		return `<html lang="fr"><head><title>Pelote</title></head><body><nav><a href="/">Pelote</a></nav><main><h1>Pelote</h1><p>La caisse des merceries.</p></main>` + body + `</body></html>`
	}
	for _, c := range []struct{ name, body, city, country, email string }{
		{"footer row", `<div id="colophon"><div class="d-flex justify-content-between"><span>© 2025 Pelote SAS</span><span>Nantes, France</span><span>bonjour@pelote.fr</span></div></div>`, "Nantes", "FR", "bonjour@pelote.fr"},
		{"a link", `<div id="colophon"><div class="d-flex justify-content-between"><span>© 2025 Pelote SAS</span><a href="/salon-paris">Paris, France</a></div></div>`, "", "", ""},
		{"not a footer", `<section><div class="d-flex justify-content-between"><span>Prochain salon</span><span>Lyon, France</span></div></section>`, "", "", ""},
	} {
		kept := draftLang(t, "fr", "/", page(c.body))
		if got := kept.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := kept.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
		if got := kept.Fields["contact_email"].Text; got != c.email {
			t.Errorf("%s: contact_email %q, want %q", c.name, got, c.email)
		}
	}
}
