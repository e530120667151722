package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// draftSite drafts a site of in-memory pages on https://acme.example ("path", "html" pairs).
func draftSite(t *testing.T, pages ...string) *domain.Drafted {
	t.Helper()
	var wp []domain.WebPage
	for i := 0; i+1 < len(pages); i += 2 {
		wp = append(wp, htmltext.Page("https://acme.example"+pages[i], pages[i+1]))
	}
	req := domain.DraftRequest{Site: siteOf(wp...)}
	dr := draft(t, req)
	// Every value passes the service's own grounding (verbatim, case-insensitive quotes).
	if _, dropped := domain.Ground(req, dr); len(dropped) > 0 {
		t.Errorf("domain.Ground dropped %q", dropped)
	}
	return dr
}

const acmeHead = `<html><head><title>Acme | notes for teams</title><meta property="og:site_name" content="Acme"></head><body>`

// TestSections_Features: feature sections labelled in seven languages, dl terms,
// check marks, card grids and the hero's list; testimonials, blog teasers
// and figures are not features.
func TestSections_Features(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"German label, check marks", `<h1>Notizen fürs Team</h1><h2>Funktionen</h2><ul><li>✓ Geteilte Notizen</li><li>✔ Volltextsuche</li></ul>`, []string{"Geteilte Notizen", "Volltextsuche"}},
		{"Spanish label", `<h1>Notas</h1><h2>Características</h2><ul><li>Notas compartidas</li><li>Búsqueda</li></ul>`, []string{"Notas compartidas", "Búsqueda"}},
		{"Dutch what-it-does dl", `<h1>Notities</h1><section><h2>Wat Acme voor je doet</h2><dl><dt>Gedeelde notities</dt><dd>Voor het hele team.</dd><dt>Zoeken</dt><dd>In alles.</dd></dl></section>`, []string{"Gedeelde notities", "Zoeken"}},
		{"card grid ending at the footer", `<h1>Notes for teams</h1><section><div><h3>Shared notes</h3><p>For everyone.</p></div><div><h3>Search</h3><p>Everything.</p></div><div><h3>Offline mode</h3><p>On the train.</p></div></section><footer><p>© 2025 Acme</p><p>Follow us on LinkedIn</p></footer>`, []string{"Shared notes", "Search", "Offline mode"}},
		{"hero list", `<h1>Notes for teams</h1><p>Acme keeps the notes of your whole team in one searchable place.</p><ul><li>Shared notebooks for teams</li><li>Search across every note</li><li>Works offline on the train</li></ul>`, []string{"Shared notebooks for teams", "Search across every note", "Works offline on the train"}},
		{"testimonial cards", `<h1>Notes for teams</h1><section><div><h3>Priya, Leeds</h3><blockquote>Love it.</blockquote></div><div><h3>Tom, Bristol</h3><blockquote>Great.</blockquote></div><div><h3>Ana, Cork</h3><blockquote>Superb.</blockquote></div></section>`, nil},
		{"blog teasers", `<h1>Notes for teams</h1><section><article><h3><a href="/blog/a">Five note habits</a></h3><p>Read more.</p></article><article><h3><a href="/blog/b">Meeting notes</a></h3><p>Read more.</p></article><article><h3><a href="/blog/c">Why we write</a></h3><p>Read more.</p></article></section>`, nil},
		{"figures", `<h1>Notes for teams</h1><section><div><h3>1.200</h3><p>teams</p></div><div><h3>4,8</h3><p>stars</p></div><div><h3>15%</h3><p>faster</p></div></section>`, nil},
		{"unlabelled dl", `<h1>Notes for teams</h1><dl><dt>Shared notes</dt><dd>For all.</dd><dt>Search</dt><dd>Fast.</dd><dt>Offline mode</dt><dd>Anywhere.</dd></dl>`, []string{"Shared notes", "Search", "Offline mode"}},
		{"dl of prices is not features", `<h1>Notes for teams</h1><dl><dt>Solo</dt><dd>$5 a month</dd><dt>Team</dt><dd>$9 a month</dd><dt>Business</dt><dd>$19 a month</dd></dl>`, nil},
		{"hero list with links is navigation", `<h1>Notes for teams</h1><ul><li><a href="/a">Read the docs here</a></li><li><a href="/b">See the changelog here</a></li><li><a href="/c">Talk to sales today</a></li></ul>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dr := draftSite(t, "/", acmeHead+tc.body+`</body></html>`)
			got := dr.Fields["features"].List
			if !slices.Equal(got, tc.want) {
				t.Errorf("features %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSections_FAQAnswersStopAtTheirBlock: the footer, a "follow us" or "founded in"
// line and a cookie question after the last answer are not part of it.
func TestSections_FAQAnswersStopAtTheirBlock(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"h3 + p then footer", `<h1>Acme</h1><section><h2>Questions fréquentes</h2><h3>Est-ce gratuit ?</h3><p>Oui, pour trois personnes.</p></section><footer><p>Suivez-nous : LinkedIn</p></footer>`},
		{"bare footer text", `<h1>Acme</h1><section><h2>FAQ</h2><div><h3>Est-ce gratuit ?</h3><p>Oui, pour trois personnes.</p></div></section><footer>Contact: hi@acme.example · Founded in 2023 in Galway</footer>`},
		{"no footer element", `<h1>Acme</h1><h2>Preguntas frecuentes</h2><h3>Est-ce gratuit ?</h3><p>Oui, pour trois personnes.</p><p>Fundada en 2022 en Valencia</p>`},
		{"cookie banner after", `<h1>Acme</h1><section><h2>Veelgestelde vragen</h2><h3>Est-ce gratuit ?</h3><p>Oui, pour trois personnes.</p></section><div class="melding"><p>Mogen wij cookies plaatsen?</p><button>Ja</button></div>`},
		{"answer opening with 'Contact'", `<h1>Acme</h1><section><h2>FAQ</h2><h3>Est-ce gratuit ?</h3><p>Contact us first.</p></section>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dr := draftSite(t, "/", acmeHead+tc.body+`</body></html>`)
			want := "Oui, pour trois personnes."
			if strings.Contains(tc.body, "Contact us first.") {
				want = "Contact us first."
			}
			if len(dr.FAQs) != 1 || dr.FAQs[0].Question != "Est-ce gratuit ?" || dr.FAQs[0].Answer != want {
				t.Errorf("faqs %+v, want one with its own answer", dr.FAQs)
			}
		})
	}
}

// TestSections_FAQPage: an FAQ page named in Portuguese, questions as h2 in per-entry wrappers.
func TestSections_FAQPage(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notas</h1></body></html>`,
		"/perguntas-frequentes", `<html><head><title>Perguntas frequentes | Acme</title></head><body><main><h1>Dúvidas</h1>
		<div><h2>Preciso instalar?</h2><p>Não.</p></div><div><h2>Posso cancelar?</h2><p>Sim, quando quiser.</p></div></main><footer>Siga a gente</footer></body></html>`)
	var got []string
	for _, f := range dr.FAQs {
		got = append(got, f.Question+"="+f.Answer)
	}
	if want := []string{"Preciso instalar?=Não.", "Posso cancelar?=Sim, quando quiser."}; !slices.Equal(got, want) {
		t.Errorf("faqs %q, want %q", got, want)
	}
}

// TestSections_Milestones: dates in seven languages on changelog pages named in
// those languages, as written; a blog post's date is not a milestone.
func TestSections_Milestones(t *testing.T) {
	for _, tc := range []struct{ path, entry, want string }{
		{"/changelog", "<h2>March 12, 2024</h2><p>Tags.</p>", "2024-03-12"},
		{"/aenderungen", "<h2>3. März 2024</h2><p>Tags.</p>", "2024-03-03"},
		{"/nouveautes", "<ul><li>1er février 2024 : tags</li></ul>", "2024-02-01"},
		{"/novedades", "<h2>12 de marzo de 2024 — Etiquetas</h2>", "2024-03-12"},
		{"/novita", "<ul><li>12 marzo 2024 — Etichette</li></ul>", "2024-03-12"},
		{"/wijzigingen", "<h3>12 maart 2024</h3><p>Labels.</p>", "2024-03-12"},
		{"/novidades", "<h2>12 de março de 2024</h2><p>Etiquetas.</p>", "2024-03-12"},
		{"/sobre", "<h2>Marcos</h2><ul><li>setembro de 2021: primeira versão</li></ul>", "2021-09-01"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			dr := draftSite(t, "/", acmeHead+`<h1>Notes</h1></body></html>`,
				tc.path, `<html><head><title>Acme</title></head><body><h1>Acme</h1>`+tc.entry+`</body></html>`,
				"/blog/launch", `<html><head><title>Post | Acme</title></head><body><article><h1>Changelog</h1><h2>5 mai 2023</h2><p>Un article.</p></article></body></html>`)
			var got []string
			for _, m := range dr.Milestones {
				got = append(got, m.Date)
				if !strings.Contains(m.Evidence[0].Quote, "20") {
					t.Errorf("milestone quote %q does not hold the date as written", m.Evidence[0].Quote)
				}
			}
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("milestones %v, want [%s]", got, tc.want)
			}
		})
	}
}

// TestSections_ThinHome: a home page with only a picture leaves the tagline and the
// summary to the product page; a title that is only the name gives neither.
func TestSections_ThinHome(t *testing.T) {
	dr := draftSite(t, "/", `<html><head><title>Acme</title></head><body><img src="/shot.png" alt="Acme"><a href="/signup">Start</a></body></html>`,
		"/prodotto", `<html><head><title>Prodotto · Acme</title><meta name="description" content="Acme raccoglie gli appunti del team in un unico posto."></head><body>
		<h1>Gli appunti del team, in ordine</h1><p>Acme raccoglie gli appunti di tutto il team e li rende ricercabili in un attimo.</p></body></html>`)
	if got := dr.Fields["tagline"].Text; got != "Gli appunti del team, in ordine" {
		t.Errorf("tagline %q", got)
	}
	if got := dr.Fields["short_description"].Text; !strings.Contains(got, "appunti del team in un unico posto") {
		t.Errorf("short_description %q", got)
	}
}

// TestSections_TaglineSentenceCase: a lower-case hero becomes sentence case; the quote stays verbatim;
// a hero that opens with the name gives what follows it.
func TestSections_TaglineSentenceCase(t *testing.T) {
	if got := draftSite(t, "/", acmeHead+`<h1>Acme: notes that link themselves</h1></body></html>`).Fields["tagline"].Text; got != "Notes that link themselves" {
		t.Errorf("tagline %q", got)
	}
	dr := draftSite(t, "/", `<html><head><title>acme | notes</title></head><body><h1>notes that link themselves</h1></body></html>`)
	v := dr.Fields["tagline"]
	if v.Text != "Notes that link themselves" || len(v.Evidence) != 1 || v.Evidence[0].Quote != "notes that link themselves" {
		t.Errorf("tagline %q evidence %v", v.Text, v.Evidence)
	}
}

// TestSections_USPs: "why" sections in other languages are reasons (usps), not features.
func TestSections_USPs(t *testing.T) {
	for _, title := range []string{"Warum Acme?", "Pourquoi Acme ?", "¿Por qué Acme?", "Perché scegliere Acme", "Waarom Acme?", "Vantagens"} {
		dr := draftSite(t, "/", acmeHead+`<h1>Notes for teams</h1><h2>`+title+`</h2><ul><li>Made in Europe</li><li>No lock-in</li></ul></body></html>`)
		if got := dr.Fields["usps"].List; !slices.Equal(got, []string{"Made in Europe", "No lock-in"}) {
			t.Errorf("%s: usps %q", title, got)
		}
		if got := dr.Fields["features"].List; len(got) > 0 {
			t.Errorf("%s: features %q", title, got)
		}
	}
}

// TestSections_ChangelogDateUnderHeading: a changelog entry titled by its heading and dated by a <time> line.
func TestSections_ChangelogDateUnderHeading(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notes</h1></body></html>`,
		"/changelog", `<html><head><title>Changelog | Acme</title></head><body><h1>Changelog</h1>
		<article><h2>Shared tags</h2><time datetime="2024-01-08">8 janvier 2024</time><p>Tags for the whole team.</p></article>
		<article><h2>Dark mode</h2><p>Easier on the eyes.</p></article></body></html>`)
	if len(dr.Milestones) != 1 || dr.Milestones[0].Date != "2024-01-08" || dr.Milestones[0].Title != "Shared tags" || dr.Milestones[0].Description != "Tags for the whole team." {
		t.Errorf("milestones %+v", dr.Milestones)
	}
}

// TestSections_ChangelogPatchUnderHeading: a patch release's heading over a
// <time> line is no milestone, and drafting goes on (it used to index the
// milestone before it, or panic when it came first).
func TestSections_ChangelogPatchUnderHeading(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notes</h1></body></html>`,
		"/changelog", `<html><head><title>Changelog | Acme</title></head><body><h1>Changelog</h1>
		<section><h2>v4.2.1</h2><p><time datetime="2024-05-20">May 20, 2024</time></p><p>Fixed a crash when exporting tags.</p></section>
		<section><h2>Shared tags</h2><p><time datetime="2024-01-08">January 8, 2024</time></p><p>Tags for the whole team.</p></section>
		<section><h2>v3.0.1</h2><p><time datetime="2023-12-01">December 1, 2023</time></p><p>Fixed the login page.</p></section></body></html>`)
	if len(dr.Milestones) != 1 || dr.Milestones[0].Date != "2024-01-08" || dr.Milestones[0].Title != "Shared tags" {
		t.Fatalf("milestones %+v", dr.Milestones)
	}
	for _, ev := range dr.Milestones[0].Evidence {
		if strings.Contains(ev.Quote, "v3.0.1") || strings.Contains(ev.Quote, "December") {
			t.Errorf("the patch release's quote %q went to another milestone", ev.Quote)
		}
	}
}

// TestSections_WelcomeIsNoTagline: a greeting h1 leaves the tagline to the title.
func TestSections_WelcomeIsNoTagline(t *testing.T) {
	for _, h1 := range []string{"Welcome to Acme", "Willkommen bei Acme", "Bienvenue sur Acme", "Benvenuti su Acme", "Welkom bij Acme", "Bem-vindo ao Acme"} {
		dr := draftSite(t, "/", `<html><head><title>Acme | Notes for teams</title></head><body><h1>`+h1+`</h1></body></html>`)
		if got := dr.Fields["tagline"].Text; got != "Notes for teams" {
			t.Errorf("%s: tagline %q", h1, got)
		}
	}
}

// TestSections_USPCards: a "why" section of headed cards gives the card titles as usps.
func TestSections_USPCards(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notes for teams</h1><section><h2>Waarom Acme?</h2><div><h3>Gemaakt in Europa</h3><p>Servers in Amsterdam.</p></div><div><h3>Geen lock-in</h3><p>Exporteer alles.</p></div></section></body></html>`)
	if got := dr.Fields["usps"].List; !slices.Equal(got, []string{"Gemaakt in Europa", "Geen lock-in"}) {
		t.Errorf("usps %q", got)
	}
}

// TestSections_ForeignInOtherLanguages: testimonial boxes named in other languages are not features.
func TestSections_ForeignInOtherLanguages(t *testing.T) {
	for _, cls := range []string{"temoignages", "kundenstimmen", "testimonios", "depoimentos"} {
		dr := draftSite(t, "/", acmeHead+`<h1>Notes for teams</h1><p>Acme keeps the notes of your whole team in one place.</p><ul class="`+cls+`"><li>Great app for our team</li><li>We love it every day</li><li>Best notes tool ever made</li></ul></body></html>`)
		if got := dr.Fields["features"].List; len(got) > 0 {
			t.Errorf("%s: features %q", cls, got)
		}
	}
}

// TestSections_FAQPageHeader: a question in an FAQ page's header or navigation is no FAQ.
func TestSections_FAQPageHeader(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notes</h1></body></html>`,
		"/faq", `<html><head><title>FAQ | Acme</title></head><body><header><p>Need help?</p><nav><a href="/contact">Contact</a></nav></header>
		<main><h1>FAQ</h1><h2>Is it free?</h2><p>Yes.</p></main></body></html>`)
	if len(dr.FAQs) != 1 || dr.FAQs[0].Question != "Is it free?" {
		t.Errorf("faqs %+v", dr.FAQs)
	}
}

// TestSections_MicrodataFAQ: schema.org Question microdata, even without a question mark.
func TestSections_MicrodataFAQ(t *testing.T) {
	dr := draftSite(t, "/", acmeHead+`<h1>Notes for teams</h1><div itemscope itemtype="https://schema.org/FAQPage">
		<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">Wie lange dauert die Einrichtung</h3>
		<div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><p itemprop="text">Etwa zehn Minuten.</p></div></div></div>
		<footer>Folgen Sie uns</footer></body></html>`)
	if len(dr.FAQs) != 1 || dr.FAQs[0].Question != "Wie lange dauert die Einrichtung" || dr.FAQs[0].Answer != "Etwa zehn Minuten." {
		t.Errorf("faqs %+v", dr.FAQs)
	}
}
