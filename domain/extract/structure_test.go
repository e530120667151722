package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// draftPages drafts in-memory pages on https://acme.example ("path", "html"
// pairs) with the categories and stages of testdata/categories.json, and
// checks that the service's gate keeps every value.
func draftPages(t *testing.T, pages ...string) *domain.Drafted {
	t.Helper()
	var wp []domain.WebPage
	for i := 0; i+1 < len(pages); i += 2 {
		wp = append(wp, htmltext.Page("https://acme.example"+pages[i], pages[i+1]))
	}
	cats := loadCategories(t)
	req := domain.DraftRequest{Site: siteOf(wp...), Categories: cats.Categories, Stages: cats.Stages}
	dr := draft(t, req)
	if _, dropped := domain.Ground(req, dr); len(dropped) > 0 {
		t.Errorf("domain.Ground dropped %q", dropped)
	}
	return dr
}

// A private beta followed by a public launch is the stage launched; "used
// by more than 300 teams" is a launched product (from 1,000 on, growing:
// TestAnyLanguage_Stage); a changelog's
// "Public launch" entry is history and sets nothing; a plain beta stays beta.
func TestStructure_Stage(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"beta then launch", `<h1>Ride logs</h1><p>We opened a private beta in 2022, then launched publicly in March 2023.</p>`, "launched"},
		{"used by", `<h1>Ride logs</h1><p>Used by more than 300 teams.</p>`, "launched"},
		{"beta only", `<h1>Ride logs</h1><p>We are in open beta.</p>`, "beta"},
	} {
		dr := draftPages(t, "/", acmeHead+tc.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != tc.want {
			t.Errorf("%s: stage %q, want %q", tc.name, got, tc.want)
		}
	}
	dr := draftPages(t, "/", acmeHead+`<h1>Chores, fair</h1></body></html>`,
		"/changelog", acmeHead+`<h1>Changelog</h1><h2>2 November 2023</h2><p>Public launch.</p></body></html>`)
	if v, ok := dr.Fields["stage"]; ok {
		t.Errorf("a changelog entry set the stage: %q %v", v.Text, v.Evidence)
	}
}

// A free trial is not a free plan. A FAQ asking "Is there a
// free plan?" and answering no, with a trial, leaves a subscription.
func TestStructure_FreeTrialIsNotFreemium(t *testing.T) {
	dr := draftPages(t, "/", acmeHead+`<h1>Ride logs</h1><details><summary>Is there a free plan?</summary><p>No, but every plan starts with a 14-day free trial.</p></details></body></html>`,
		"/plans/", acmeHead+`<h1>Plans</h1><div class="plan"><h2>Club</h2><p class="price"><span>€3</span><span hidden>€30</span>per rider / month</p></div></body></html>`)
	if got := dr.Fields["pricing_model"].Text; got != "subscription" {
		t.Errorf("pricing_model %q (evidence %v), want subscription", got, dr.Fields["pricing_model"].Evidence)
	}
	dr = draftPages(t, "/pricing", acmeHead+`<h1>Cennik</h1><p>14 dni za darmo, bez karty.</p><div><h3>Pro</h3><p>49 zł / mies.</p></div></body></html>`)
	if got := dr.Fields["pricing_model"].Text; got != "subscription" {
		t.Errorf("Polish: pricing_model %q (evidence %v), want subscription", got, dr.Fields["pricing_model"].Evidence)
	}
}

// A site whose facts are in its JSON-LD only: the
// product's featureList, its offers (one price a string, one a number) and
// its applicationCategory.
func TestStructure_JSONLDProduct(t *testing.T) {
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"SoftwareApplication","name":"Kvittra",
"applicationCategory":"FinanceApplication","featureList":"Kvittoskanning, Bankkoppling, Momsrapport",
"offers":[{"@type":"Offer","name":"Bas","price":"99","priceCurrency":"SEK"},{"@type":"Offer","name":"Plus","price":199,"priceCurrency":"SEK"}]}</script>`
	dr := draftPages(t, "/", `<html lang="sv"><head><title>Kvittra</title>`+ld+`</head><body><h1>Kvitton utan krångel</h1></body></html>`)
	if got := dr.Fields["features"].List; !slices.Equal(got, []string{"Kvittoskanning", "Bankkoppling", "Momsrapport"}) {
		t.Errorf("features %q", got)
	}
	if got := dr.Fields["pricing_summary"].Text; got != "Bas: 99 SEK; Plus: 199 SEK" {
		t.Errorf("pricing_summary %q", got)
	}
	if got := dr.Fields["categories"].List; !slices.Equal(got, []string{"Finance"}) {
		t.Errorf("categories %q", got)
	}
}

// Milestones paired by structure. A changelog named in no
// known words, whose version tags are not titles and whose patch release is
// not a milestone; a news list in Turkish with <time> elements; a Korean
// history list; one event on two language versions drafted once; a home
// page's dated blog teasers are not milestones.
func TestStructure_Milestones(t *testing.T) {
	type ms = []string // "date title"
	got := func(dr *domain.Drafted) ms {
		var out ms
		for _, m := range dr.Milestones {
			out = append(out, m.Date+" "+m.Title)
		}
		return out
	}
	home := acmeHead + `<h1>Ride logs</h1><article><h3><a href="/blog/a">Five tips</a></h3><time datetime="2024-04-02">2 April 2024</time></article>` +
		`<article><h3><a href="/blog/b">Club rides</a></h3><time datetime="2024-03-20">20 March 2024</time></article></body></html>`
	dr := draftPages(t, "/", home, "/changes", acmeHead+`<h1>What changed</h1>
<h2>v2.0 — Route library</h2><p><time datetime="2024-02-12">12 February 2024</time></p><p>Save routes.</p>
<h2>v1.4.1</h2><p><time datetime="2023-12-03">3 December 2023</time></p><p>Fixed a crash.</p>
<h2>v1.4 — Ride chat</h2><p><time datetime="2023-11-20">20 November 2023</time></p><p>Talk during a ride.</p></body></html>`,
		"/en/changes", acmeHead+`<h1>Änderungen</h1><h2>v2.0 — Routenbibliothek</h2><p><time datetime="2024-02-12">12. Februar 2024</time></p><p>Routen speichern.</p>
<h2>v1.4 — Chat</h2><p><time datetime="2023-11-20">20. November 2023</time></p><p>Chat.</p></body></html>`)
	if diff := cmp.Diff(ms{"2024-02-12 Route library", "2023-11-20 Ride chat"}, got(dr)); diff != "" {
		t.Errorf("changelog (-want +got):\n%s", diff)
	}
	dr = draftPages(t, "/", acmeHead+`<h1>Randevu</h1></body></html>`, "/duyurular", acmeHead+`<h1>Duyurular</h1>
<article><p><time datetime="2023-05-10">10 Mayıs 2023</time></p><h2><a href="/duyurular/a">Mobil uygulama yayında</a></h2></article>
<article><p><time>1 Şubat 2022</time></p><h2><a href="/duyurular/b">SMS hatırlatmaları geldi</a></h2></article></body></html>`)
	if diff := cmp.Diff(ms{"2023-05-10 Mobil uygulama yayında", "2022-02-01 SMS hatırlatmaları geldi"}, got(dr)); diff != "" {
		t.Errorf("news list (-want +got):\n%s", diff)
	}
	dr = draftPages(t, "/", acmeHead+`<h1>회의록은 메모리에게</h1><h2>연혁</h2><ul><li>2021년 3월 법인 설립</li><li>2022년 9월 정식 출시</li></ul></body></html>`)
	if diff := cmp.Diff(ms{"2021-03-01 법인 설립", "2022-09-01 정식 출시"}, got(dr)); diff != "" {
		t.Errorf("Korean history (-want +got):\n%s", diff)
	}
}

// A company profile's rows (a table, a definition list)
// give the founding year, the founders and the seat in languages without
// sentence patterns; a customer's quote beside them gives nothing.
func TestStructure_ProfileRows(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="pl"><head><title>Fakturka｜Faktury online</title></head><body><h1>Faktury w minutę</h1></body></html>`,
		"/kim-jestesmy", `<html lang="pl"><head><title>Kim jesteśmy｜Fakturka</title></head><body><h1>Kim jesteśmy</h1><table>
<tr><th>Rok założenia</th><td>2019</td></tr><tr><th>Siedziba</th><td>ul. Prosta 12, 00-850 Warszawa, Polska</td></tr>
<tr><th>Założycielka</th><td>Anna Nowak</td></tr></table>
<blockquote>„Oszczędzam pięć godzin.” — Marta Wiśniewska, Kraków</blockquote></body></html>`)
	for f, want := range map[string]string{"name": "Fakturka", "founded_year": "2019", "city": "Warszawa", "country": "PL"} {
		if got := dr.Fields[f].Text; got != want {
			t.Errorf("%s %q, want %q", f, got, want)
		}
	}
	if len(dr.Founders) != 1 || dr.Founders[0].Name != "Anna Nowak" || dr.Founders[0].Title != "Założycielka" {
		t.Errorf("founders %+v", dr.Founders)
	}
	dr = draftPages(t, "/", `<html lang="tr"><head><title>Randevum · Online randevu</title></head><body><h1>Randevu</h1></body></html>`,
		"/biz-kimiz", `<html lang="tr"><body><h1>Biz kimiz?</h1><p>Randevum, 2021 yılında İstanbul’da kuruldu.</p>
<dl><dt>Kurucu</dt><dd>Emre Demir</dd><dt>Adres</dt><dd>Moda Cad. No: 5, 34710 Kadıköy/İstanbul, Türkiye</dd></dl></body></html>`)
	for f, want := range map[string]string{"founded_year": "2021", "city": "İstanbul", "country": "TR"} {
		if got := dr.Fields[f].Text; got != want {
			t.Errorf("Turkish: %s %q, want %q", f, got, want)
		}
	}
	if len(dr.Founders) != 1 || dr.Founders[0].Name != "Emre Demir" {
		t.Errorf("Turkish founders %+v", dr.Founders)
	}
	dr = draftPages(t, "/", `<html lang="ja"><head><title>キンタイ｜勤怠管理</title></head><body><h1>勤怠管理をもっと簡単に</h1></body></html>`,
		"/kaisha.html", `<html lang="ja"><body><h1>会社概要</h1><table><tr><th>設立</th><td>2018年4月</td></tr></table></body></html>`)
	if got := dr.Fields["founded_year"].Text; got != "2018" {
		t.Errorf("Japanese: founded_year %q", got)
	}
}

// Plans listed as "name: price" items in a pricing section named in
// Czech, and a features list under a Turkish heading.
func TestStructure_PlansAndFeaturesWordless(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="cs"><head><title>Rozvrhář – rozvrhy</title></head><body><h1>Rozvrhy pro školy</h1>
<h2>Ceník</h2><ul><li>Základ: 149 Kč měsíčně</li><li>Škola: 990 Kč měsíčně</li></ul></body></html>`)
	if got := dr.Fields["pricing_summary"].Text; got != "Základ: 149 Kč měsíčně; Škola: 990 Kč měsíčně" {
		t.Errorf("pricing_summary %q", got)
	}
	if got := dr.Fields["pricing_model"].Text; got != "subscription" {
		t.Errorf("pricing_model %q", got)
	}
	dr = draftPages(t, "/", `<html lang="tr"><head><title>Randevum · Online randevu</title></head><body><h1>Randevu</h1></body></html>`,
		"/ozellikler", `<html lang="tr"><body><h1>Özellikler</h1><ul><li>Online randevu sayfası</li><li>SMS hatırlatmaları</li></ul></body></html>`)
	if got := dr.Fields["features"].List; !slices.Equal(got, []string{"Online randevu sayfası", "SMS hatırlatmaları"}) {
		t.Errorf("features %q", got)
	}
}

// A testimonial card with no
// class name saying so (a whole quotation, then its author) is someone
// else's words: not the description, not a price, its author not a founder.
func TestStructure_TestimonialCards(t *testing.T) {
	dr := draftPages(t, "/", acmeHead+`<h1>Ride logs</h1><p>Ridelog keeps every club ride, route and rider in one shared log for the whole club.</p>
<section><h2>Clubs say</h2><div><p>“I was paying €40 a month for three tools, and now one app at €12 does everything our club needs each week.”</p><p>— Ines Duarte, Lisbon Riders</p><p>Founder</p></div></section></body></html>`)
	if d := dr.Fields["description"].Text; strings.Contains(d, "€40") || strings.Contains(d, "three tools") {
		t.Errorf("description took the testimonial: %q", d)
	}
	if v, ok := dr.Fields["pricing_summary"]; ok {
		t.Errorf("pricing_summary from a testimonial: %q", v.Text)
	}
	if len(dr.Founders) > 0 {
		t.Errorf("founders from a testimonial: %+v", dr.Founders)
	}
}

// A touch icon taken as the logo is quoted as its href is written, not in
// the resolved form the page never shows (quotes are verbatim).
func TestStructure_TouchIconQuotedAsWritten(t *testing.T) {
	dr := draftPages(t, "/", `<html><head><title>Acme</title><link rel="apple-touch-icon" href="/touch.png"></head><body><h1>Notes for teams</h1></body></html>`)
	v := dr.Fields["logo_url"]
	if v.Text != "https://acme.example/touch.png" || len(v.Evidence) == 0 || v.Evidence[0].Quote != "/touch.png" {
		t.Errorf("logo_url %q, evidence %v", v.Text, v.Evidence)
	}
}

// A single-page app with no meta description and only a short hero lead in
// its <noscript> fallback: the lead's first sentence, which names the
// product, is the short description; the line asking for JavaScript is not.
func TestStructure_ShortDescriptionFromHeroLead(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="cs"><head><title>Rozvrhář – rozvrhy pro školy</title></head><body><div id="app"></div>
<noscript><p>Pro plné zobrazení aplikace zapněte JavaScript.</p><h1>Rozvrhy pro školy bez tabulek</h1>
<p>Rozvrhář sestaví rozvrh hodin za jedno odpoledne. Bez tabulek.</p></noscript></body></html>`)
	if got := dr.Fields["short_description"].Text; got != "Rozvrhář sestaví rozvrh hodin za jedno odpoledne." {
		t.Errorf("short_description %q", got)
	}
	if got := dr.Fields["tagline"].Text; got != "Rozvrhy pro školy bez tabulek" {
		t.Errorf("tagline %q", got)
	}
}

// The primary category from the site's own words in
// languages without word lists, matched inside text written without spaces.
func TestStructure_CategoriesWordless(t *testing.T) {
	for _, tc := range []struct{ title, body, want string }{
		{"キンタイ｜勤怠管理をもっと簡単に", "<p>キンタイは小さな会社のためのクラウド勤怠管理サービスです。</p>", "Time Tracking"},
		{"메모리 - 팀을 위한 자동 회의록", "<p>메모리는 회의를 녹음하고 자동으로 회의록을 만들어 줍니다.</p>", "Transcription & Meetings"},
		{"Fakturka｜Faktury online", "<p>Fakturka wystawia faktury VAT w minutę.</p>", "Invoicing"},
		{"Randevum · Online randevu", "<p>Randevum, kuaförler için online randevu sistemidir.</p>", "Calendar & Scheduling"},
	} {
		dr := draftPages(t, "/", `<html><head><title>`+tc.title+`</title></head><body><h1>x y z</h1>`+tc.body+`</body></html>`)
		if got := dr.Fields["categories"].List; len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: categories %q, want %s first", tc.title, got, tc.want)
		}
	}
}
