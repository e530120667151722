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

// TestAnyLanguage42_OnRequestTiers: a tier whose price says it is given on
// request, in languages without word lists, is a plan of the summary: a
// Bootstrap card's h1 "Pris på forespørsel", an Element Plus card's 联系销售.
func TestAnyLanguage42_OnRequestTiers(t *testing.T) {
	bs := func(name, price string) string {
		return `<div class="col"><div class="card mb-4"><div class="card-header py-3"><h4 class="my-0 fw-normal">` + name + `</h4></div><div class="card-body"><h1 class="card-title pricing-card-title">` + price + `</h1><ul class="list-unstyled"><li>Vaktplan</li></ul></div></div></div>`
	}
	el := func(name, price string) string {
		return `<div class="el-col el-col-8"><div class="el-card plan"><div class="el-card__header"><div class="plan-name">` + name + `</div></div><div class="el-card__body"><div class="plan-price">` + price + `</div><p class="plan-tip">说明</p></div></div></div>`
	}
	for _, c := range []struct{ lang, body, want string }{
		{"nb", `<h1>Priser</h1><div class="row">` + bs("Gratis", `0 kr<small>/mnd</small>`) + bs("Lag", `39 kr<small>/mnd per ansatt</small>`) + bs("Kjede", "Pris på forespørsel") + `</div>`, "Gratis: 0 kr/mnd; Lag: 39 kr/mnd per ansatt; Kjede: Pris på forespørsel"},
		{"zh", `<h1>价格</h1><div class="el-row">` + el("免费版", `<span class="num">0</span><span class="unit">元</span>`) + el("专业版", `<span class="num">15</span><span class="unit">元/人/月</span>`) + el("企业版", `<span class="num">联系销售</span>`) + `</div>`, "免费版: 0元; 专业版: 15元/人/月; 企业版: 联系销售"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">?</a></body></html>`,
			"/pricing", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_summary"].Text; got != c.want {
			t.Errorf("%s: pricing_summary %q, want %q", c.lang, got, c.want)
		}
	}
}

// TestAnyLanguage42_RotaCategory: a product that says it plans staff rotas
// in a Nordic language is in Calendar & Scheduling.
func TestAnyLanguage42_RotaCategory(t *testing.T) {
	for _, c := range []struct{ lang, text string }{
		{"nb", "Acme er et verktøy for turnusplanlegging: lag vaktplanen og send timelistene til lønn."},
		{"sv", "Acme är ett verktyg för schemaläggning av personal i butiker."},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title><meta name="description" content="`+c.text+`"></head><body><h1>Acme</h1><p>`+c.text+`</p></body></html>`)
		if got := dr.Fields["categories"].List; len(got) == 0 || got[0] != "Calendar & Scheduling" {
			t.Errorf("%s: categories %q, want Calendar & Scheduling first", c.lang, got)
		}
	}
}

// TestAnyLanguage42_ChargeInComparisonTable: a per-SMS charge in a plan
// comparison table's cell, beside a free plan and a monthly one, leaves the
// model freemium (it was read as usage-based, which the gate then dropped).
func TestAnyLanguage42_ChargeInComparisonTable(t *testing.T) {
	card := func(name, price string) string {
		return `<div class="col"><div class="card"><div class="card-header"><h4>` + name + `</h4></div><div class="card-body"><h1 class="card-title pricing-card-title">` + price + `</h1></div></div></div>`
	}
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">Pricing</a></body></html>`,
		"/pricing", `<html lang="en"><head><title>Pricing - Acme</title></head><body><h1>Pricing</h1><div class="row">`+card("Free", `$0<small>/mo</small>`)+card("Team", `$4<small>/mo per user</small>`)+`</div>
<h2>Compare plans</h2><table class="table"><thead><tr><th></th><th>Free</th><th>Team</th></tr></thead><tbody>
<tr><th scope="row">Rota</th><td>✓</td><td>✓</td></tr><tr><th scope="row">SMS alerts</th><td></td><td>$0.06 per SMS</td></tr></tbody></table></body></html>`)
	if got := dr.Fields["pricing_model"].Text; got != "freemium" {
		t.Errorf("pricing_model %q, want freemium", got)
	}
}
