package extract_test

import (
	"testing"
)

// ld42 is a home page whose product's JSON-LD holds offers, with body as
// its visible content.
func ld42(lang, offers, body string) string {
	return `<html lang="` + lang + `"><head><title>Acme</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"SoftwareApplication","name":"Acme","offers":` + offers + `}</script></head><body><h1>Acme</h1>` + body + `</body></html>`
}

// TestAnyLanguage42_LDPriceAsShown: a price that only JSON-LD states as a
// plan is quoted as the page shows it when the page shows it ("99 kr", not
// "99 SEK"; "1.290 Kč" for 1290 CZK); a page that shows the amount in
// another currency, or not at all, leaves the data's own form.
func TestAnyLanguage42_LDPriceAsShown(t *testing.T) {
	for _, c := range []struct {
		name, lang, offers, body, want string
	}{
		{"kr under a button", "sv", `{"@type":"Offer","price":"99","priceCurrency":"SEK"}`,
			`<a href="/start">Prova gratis i 14 dagar</a><div class="small">Sedan 99 kr per användare. Ingen bindningstid.</div>`, "99 kr"},
		{"grouped thousands", "cs", `{"@type":"Offer","price":"1290","priceCurrency":"CZK"}`,
			`<p>Faktury bez starostí.</p><div class="note">Licence na celý rok za 1.290 Kč.</div>`, "1.290 Kč"},
		{"another currency on the page", "sv", `{"@type":"Offer","price":"99","priceCurrency":"SEK"}`,
			`<p>Kvitton utan krångel.</p><p class="note">Ett paket kostar 99 € för utländska kunder.</p>`, "99 SEK"},
		{"not shown", "sv", `{"@type":"Offer","price":"99","priceCurrency":"SEK"}`,
			`<p>Kvitton utan krångel.</p>`, "99 SEK"},
	} {
		dr := draftPages(t, "/", ld42(c.lang, c.offers, c.body))
		if got := dr.Fields["pricing_summary"].Text; got != c.want {
			t.Errorf("%s: pricing_summary %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage42_LDFreeOffer: a product whose every JSON-LD offer is
// free (price 0) is free when no page says anything of its pricing; an
// offer of zero beside a paid one says nothing of the model here
// (TestAnyLanguage40_LDBillingCodes), nor does a zero offer of a page that
// shows paid prices.
func TestAnyLanguage42_LDFreeOffer(t *testing.T) {
	for _, c := range []struct {
		name, offers, body, want string
	}{
		{"one free offer", `{"@type":"Offer","price":"0","priceCurrency":"USD"}`, `<p>SEO audits from your terminal.</p>`, "free"},
		{"free offers in a list", `[{"@type":"Offer","price":"0.00","priceCurrency":"EUR"},{"@type":"Offer","price":"0","priceCurrency":"EUR"}]`, `<p>SEO audits from your terminal.</p>`, "free"},
		{"a zero offer beside a paid one", `[{"@type":"Offer","price":"0","priceCurrency":"USD"},{"@type":"Offer","price":"9","priceCurrency":"USD"}]`, `<p>SEO audits from your terminal.</p>`, ""},
		{"no price", `{"@type":"Offer","priceCurrency":"USD"}`, `<p>SEO audits from your terminal.</p>`, ""},
	} {
		dr := draftPages(t, "/", ld42("en", c.offers, c.body))
		if got := dr.Fields["pricing_model"].Text; got != c.want {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage42_AlpineToggle: an Alpine.js monthly/yearly toggle whose
// yearly prices are hidden only by x-cloak (and the page's [x-cloak] rule)
// gives the monthly prices, never glued to the yearly ones ("₺149₺1.490/ay").
func TestAnyLanguage42_AlpineToggle(t *testing.T) {
	card := func(name, month, year string) string {
		return `<div class="flex flex-col rounded-2xl border p-8"><h3 class="text-lg">` + name + `</h3><p class="mt-6 flex items-baseline"><span x-show="!annual" class="text-4xl">` + month +
			`</span><span x-show="annual" x-cloak class="text-4xl">` + year + `</span><span class="text-sm" x-text="annual ? '/yıl' : '/ay'">/ay</span></p></div>`
	}
	dr := draftPages(t, "/", `<html lang="tr"><head><title>Acme</title><style>[x-cloak]{display:none !important}</style></head><body><h1>Acme</h1>
<section x-data="{ annual: false }"><h2>Fiyatlar</h2><button @click="annual = false">Aylık</button><button @click="annual = true">Yıllık</button>
<div class="grid gap-8 lg:grid-cols-3">`+card("Esnaf", "₺149", "₺1.490")+card("İşletme", "₺349", "₺3.490")+`</div></section></body></html>`)
	if got, want := dr.Fields["pricing_summary"].Text, "Esnaf: ₺149 /ay; İşletme: ₺349 /ay"; got != want {
		t.Errorf("pricing_summary %q, want %q", got, want)
	}
}

// TestAnyLanguage42_WixPlans: the Wix Pricing Plans widget writes the złoty
// before the amount, in a span of its own ("zł" "49" "/ mies."); its cards
// are plans, the free one with them (freemium).
func TestAnyLanguage42_WixPlans(t *testing.T) {
	card := func(name, price string) string {
		return `<div data-hook="plan-card" class="s__1mq"><div data-hook="plan-header"><span data-hook="plan-title">` + name + `</span></div><div data-hook="plan-price">` + price + `</div><div data-hook="plan-description">Opis planu.</div></div>`
	}
	paid := func(a string) string {
		return `<span data-hook="price-currency">zł</span><span data-hook="price-amount">` + a + `</span><span data-hook="price-frequency">/ mies.</span>`
	}
	dr := draftPages(t, "/", `<html lang="pl"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/cennik">Cennik</a></body></html>`,
		"/cennik", `<html lang="pl"><head><title>Cennik | Acme</title></head><body><h1>Wybierz plan</h1><div data-hook="plan-list">`+
			card("Start", `<span data-hook="price-amount">0 zł</span>`)+card("Zespół", paid("49"))+card("Firma", paid("89"))+`</div></body></html>`)
	if got, want := dr.Fields["pricing_summary"].Text, "Start: 0 zł; Zespół: zł49/ mies.; Firma: zł89/ mies."; got != want {
		t.Errorf("pricing_summary %q, want %q", got, want)
	}
	if got := dr.Fields["pricing_model"].Text; got != "freemium" {
		t.Errorf("pricing_model %q, want freemium", got)
	}
}

// TestAnyLanguage42_FeesAreNoPlans: a heading over payment or transaction
// fees, and a fee of a share plus an amount ("2,9 % + 0,25 €"), give no plan.
func TestAnyLanguage42_FeesAreNoPlans(t *testing.T) {
	for _, c := range []struct{ lang, fees string }{
		{"de", `<h2>Transaktionsgebühren</h2><p>Auf jeden Verkauf fallen 0,25 € Zahlungsgebühr an.</p>`},
		{"de", `<h2>Bei jedem Verkauf</h2><p>Pro Verkauf: 2,9 % + 0,25 €.</p>`},
		{"en", `<h2>Payment fees</h2><p>Card payments cost $0.30 each.</p>`},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/preise">Preise</a></body></html>`,
			"/preise", `<html lang="`+c.lang+`"><head><title>Preise – Acme</title></head><body><h1>Preise</h1>
<div class="fe-block"><h3>Start</h3><p>ab 19 € / Monat</p></div><div class="fe-block"><h3>Wachstum</h3><p>ab 39 € / Monat</p></div>`+c.fees+`</body></html>`)
		if got, want := dr.Fields["pricing_summary"].Text, "Start: ab 19 € / Monat; Wachstum: ab 39 € / Monat"; got != want {
			t.Errorf("%s: pricing_summary %q, want %q", c.fees, got, want)
		}
	}
}
