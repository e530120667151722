package extract_test

import (
	"slices"
	"testing"
)

// TestAnyLanguage40_PricingGrids: plans read from pricing grids as site
// builders write them, whatever the cards' classes: a featured card whose
// class differs from its siblings' (a combo class, other utility classes), a
// card one level below its grid's column (col > card), the name at the same
// place in every card while a badge sits in one card only, a price split
// across elements ("$" "19" "/seat/mo"; an integer, its cents and the
// period), a struck-through old price left out, a row of extras introduced
// as add-ons never taken for plans, a comparison table's heading never a
// plan's name.
func TestAnyLanguage40_PricingGrids(t *testing.T) {
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"combo class, badge, split price, add-ons", "en", `<h1>Pricing</h1>
<div class="grid">
<div class="card"><div class="card-top"><div class="t-large">Basic</div><div class="wrap"><div class="cur">$</div><div class="amt">0</div><div class="per">/mo</div></div><div class="t-small">Free forever</div></div></div>
<div class="card is-featured"><div class="badge">Most popular</div><div class="card-top"><div class="t-large">Team</div><div class="wrap"><div class="cur">$</div><div class="amt">19</div><div class="per">/seat/mo</div></div></div></div>
</div>
<div class="extras"><div class="label">Add-ons</div><div class="row"><div>Phone numbers</div><div>$15/mo</div></div><div class="row"><div>Extra storage</div><div>$9/mo</div></div></div>`,
			"Basic: $0 /mo; Team: $19 /seat/mo"},
		{"utility classes differ, badge after the name", "en", `<h1>Pricing</h1>
<div class="grid gap-8">
<div class="ring-1 ring-gray-200 p-8"><h3 class="text-gray-900">Hobby</h3><p class="mt-4">For side projects.</p><p class="mt-6"><span class="text-4xl">$0</span></p></div>
<div class="ring-2 ring-indigo-600 p-8"><h3 class="text-indigo-600">Startup</h3><p class="badge">Most popular</p><p class="mt-4">For teams.</p><p class="mt-6"><span class="text-4xl">$15</span><span class="text-sm">/month</span></p></div>
</div>
<h2>Compare plans</h2><table><tr><th></th><th>Hobby</th><th>Startup</th></tr><tr><th>Overage</th><td>—</td><td>$1 per 1,000 runs</td></tr></table>`,
			"Hobby: $0; Startup: $15/month"},
		{"col > card, h4 name over an h1 price", "en", `<h1>Pricing</h1>
<div class="row">
<div class="col"><div class="card"><div class="card-header"><h4>Free</h4></div><div class="card-body"><h1>£0<small>/mo</small></h1><ul><li>10 users</li></ul></div></div></div>
<div class="col"><div class="card"><div class="card-header"><h4>Pro</h4></div><div class="card-body"><h1>£15<small>/mo</small></h1><ul><li>20 users</li></ul></div></div></div>
</div>`,
			"Free: £0/mo; Pro: £15/mo"},
		{"struck-through price, a tag beside the name", "en", `<h1>Plans</h1>
<div class="plans">
<article class="plan"><header><span class="nm">Solo</span><span class="tag">Launch offer</span></header><div class="price"><s>$12</s> <span>$8</span><span>/month</span></div></article>
<article class="plan"><header><span class="nm">Studio</span></header><div class="price"><span>$24</span><span>/month</span></div><p>$6 per extra user.</p></article>
</div>`,
			"Solo: $8/month; Studio: $24/month"},
		{"integer, cents and period in parts, an old price by its class", "de", `<h1>Preise</h1>
<div class="tables">
<div class="col"><div class="pt"><h3>Mini</h3><div class="price"><span class="c">€</span><span class="i">29</span><div class="after"><span class="f">00</span></div><span class="p">pro Monat</span></div></div></div>
<div class="col"><div class="pt"><h3>Maxi</h3><div class="price"><div class="original-price">€59</div><span class="c">€</span><span class="i">49</span><div class="after"><span class="f">00</span></div><span class="p">pro Monat</span></div></div></div>
</div>`,
			"Mini: €29 pro Monat; Maxi: €49 pro Monat"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">?</a></body></html>`,
			"/pricing", `<html lang="`+c.lang+`"><head><title>Pricing - Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_summary"].Text; got != c.want {
			t.Errorf("%s: pricing_summary %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage40_HeadlessFeatureCards: features read from feature grids
// built without headings, as site builders write them: cards of an icon, a
// title in a div or <p> of its own and a description; list items of an
// icon, a <strong> title and a span; accordion rows whose title is the
// button and whose panel is closed; a tab set's panels beside its tab
// buttons; Tailwind's <dl> whose terms and descriptions sit in a div each.
// A grid of people's names, a grid of figures and one of dated posts give
// none.
func TestAnyLanguage40_HeadlessFeatureCards(t *testing.T) {
	for _, c := range []struct {
		name, lang, body string
		want             []string
	}{
		{"div titles", "en", `<div class="grid"><div class="item"><svg></svg><div class="title">Shared inbox</div><p>Every address lands in one queue.</p></div>
<div class="item"><svg></svg><div class="title">Collision alerts</div><p>See when a teammate is replying.</p></div>
<div class="item"><svg></svg><div class="title">Canned answers</div><p>Save the replies you write every day.</p></div></div>`,
			[]string{"Shared inbox", "Collision alerts", "Canned answers"}},
		{"strong and span in list items", "ko", `<ul class="list"><li><img src="a.svg" alt=""><strong>회비 자동 정산</strong><span>누가 냈는지 한눈에 보여요.</span></li>
<li><img src="b.svg" alt=""><strong>출석 체크</strong><span>QR 코드로 출석을 기록해요.</span></li>
<li><img src="c.svg" alt=""><strong>일정 투표</strong><span>다음 모임 날짜를 투표로 정해요.</span></li></ul>`,
			[]string{"회비 자동 정산", "출석 체크", "일정 투표"}},
		{"accordion rows", "en", `<div class="acc"><div class="row"><button aria-expanded="true"><p>Visual editor</p></button><div><p>Click any block and change it.</p></div></div>
<div class="row"><button aria-expanded="false"><p>Localization</p></button><div hidden><p>Translate every entry side by side.</p></div></div>
<div class="row"><button aria-expanded="false"><p>Version history</p></button><div hidden><p>Roll any page back to last week.</p></div></div></div>`,
			[]string{"Visual editor", "Localization", "Version history"}},
		{"tab panels beside their buttons", "en", `<div class="tabs"><div role="tablist"><button role="tab">Draft</button><button role="tab">Sign</button><button role="tab">Track</button></div>
<div role="tabpanel"><h3>Clause library</h3><p>Pick from lawyer-checked clauses.</p></div>
<div role="tabpanel" hidden><h3>E-signatures</h3><p>Clients sign on their phone.</p></div>
<div role="tabpanel" hidden><h3>Signing reminders</h3><p>Nudges after two days.</p></div></div>`,
			[]string{"Clause library", "E-signatures", "Signing reminders"}},
		{"Tailwind dl", "en", `<dl class="grid"><div class="relative"><dt><svg></svg>Automatic retries</dt><dd>Failed jobs retry with backoff.</dd></div>
<div class="relative"><dt><svg></svg>Cron schedules</dt><dd>Run a job every weekday at nine.</dd></div>
<div class="relative"><dt><svg></svg>Run dashboard</dt><dd>Every run and its logs, searchable.</dd></div></dl>`,
			[]string{"Automatic retries", "Cron schedules", "Run dashboard"}},
		{"people", "en", `<div class="grid"><div class="m"><img src="a.jpg" alt=""><div class="n">Anna Berg</div><p>Anna runs our support team from Oslo.</p></div>
<div class="m"><img src="b.jpg" alt=""><div class="n">Tom Reed</div><p>Tom writes the backend and the docs.</p></div>
<div class="m"><img src="c.jpg" alt=""><div class="n">Mia Holm</div><p>Mia designs everything you click on.</p></div></div>`, nil},
		{"figures", "en", `<div class="stats"><div class="s"><div class="v">10,000+</div><p>teams use it every single day</p></div>
<div class="s"><div class="v">99.9%</div><p>uptime over the last twelve months</p></div>
<div class="s"><div class="v">4.8</div><p>average rating in the app stores</p></div></div>`, nil},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme helps small teams.</p>`+c.body+`</body></html>`)
		if got := dr.Fields["features"].List; !slices.Equal(got, c.want) {
			t.Errorf("%s: features %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage40_DateAboveHeading: a changelog of div entries whose date
// sits above the entry's heading inside the entry, as page builders lay
// them out: each date goes with its own entry's heading, never with the
// heading before it, and a patch release's entry gives none.
func TestAnyLanguage40_DateAboveHeading(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/changelog">Changelog</a></body></html>`,
		"/changelog", `<html lang="en"><head><title>Changelog - Acme</title></head><body><h1>Changelog</h1><div class="entries">
<div class="e1"><div><p class="d">Apr 29, 2025</p></div><div><h3>Scheduled publishing</h3><p>Pick a time for any entry to go live.</p></div></div>
<div class="e1"><div><p class="d">Apr 3, 2025</p></div><div><h3>v2.4.1</h3><p>Fixes a crash when pasting tables.</p></div></div>
<div class="e1"><div><p class="d">Feb 12, 2025</p></div><div><h3>Localization for every plan</h3><p>Translate entries on every plan.</p></div></div>
</div></body></html>`)
	if got, want := milestoneList(dr), []string{"2025-04-29 Scheduled publishing", "2025-02-12 Localization for every plan"}; !slices.Equal(got, want) {
		t.Errorf("milestones %q, want %q", got, want)
	}
}

// TestAnyLanguage40_PlansBesideExtras: a plan table under an options or
// add-ons heading is extras, never plans (a one-time setup fee there is no
// plan); the lira after its amount ("0 ₺") is a price, so a free card of a
// Turkish grid is read; a feature card opening with an emoji icon takes
// the title after it.
func TestAnyLanguage40_PlansBesideExtras(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="ja"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/ryokin">料金</a></body></html>`,
		"/ryokin", `<html lang="ja"><head><title>料金 | Acme</title></head><body><h1>料金プラン</h1>
<table><tr><th></th><th>ライト</th><th>プロ</th></tr><tr><th>月額</th><td>2,200円</td><td>8,800円</td></tr></table>
<h2>オプション</h2><table><tr><th>給与計算連携</th><td>1,100円／月</td></tr><tr><th>導入サポート</th><td>33,000円（初回のみ）</td></tr></table></body></html>`)
	if got, want := dr.Fields["pricing_summary"].Text, "ライト: 2,200円; プロ: 8,800円"; got != want {
		t.Errorf("options table: pricing_summary %q, want %q", got, want)
	}
	dr = draftPages(t, "/", `<html lang="tr"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/fiyatlar">Fiyatlar</a></body></html>`,
		"/fiyatlar", `<html lang="tr"><head><title>Fiyatlar – Acme</title></head><body><h1>Fiyatlar</h1><div class="p">
<div class="k"><span class="a">Ücretsiz</span><div class="f"><span>0 ₺</span></div></div>
<div class="k x"><span class="r">Popüler</span><span class="a">Klinik</span><div class="f"><span>₺499</span><span>/ay</span></div></div></div></body></html>`)
	if got, want := dr.Fields["pricing_summary"].Text, "Ücretsiz: 0 ₺; Klinik: ₺499/ay"; got != want {
		t.Errorf("lira after the amount: pricing_summary %q, want %q", got, want)
	}
	dr = draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme plans rotas.</p><div class="g">
<div class="b"><span>🩺</span><span>Skill-based shifts</span><span>Only trained staff get medication rounds.</span></div>
<div class="b"><span>⏱</span><span>Rest-break checks</span><span>Warns before a rota breaks the 11-hour rule.</span></div>
<div class="b"><span>📱</span><span>Shift swaps</span><span>Staff swap shifts in one tap.</span></div></div></body></html>`)
	if got, want := dr.Fields["features"].List, []string{"Skill-based shifts", "Rest-break checks", "Shift swaps"}; !slices.Equal(got, want) {
		t.Errorf("emoji icons: features %q, want %q", got, want)
	}
}

// TestAnyLanguage40_LDBillingCodes: a product whose only prices are its
// JSON-LD offers with a recurring price specification (unitCode MON,
// billingDuration P1Y) is a subscription, quoted by the code, and the gate
// keeps it; an offer of zero beside them drafts no model from the data.
func TestAnyLanguage40_LDBillingCodes(t *testing.T) {
	ld := func(offers string) string {
		return `<html lang="sv"><head><title>Acme</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"SoftwareApplication","name":"Acme","offers":[` + offers + `]}</script></head><body><h1>Acme</h1><p>Kvitton utan krångel.</p></body></html>`
	}
	dr := draftPages(t, "/", ld(`{"@type":"Offer","name":"Bas","price":"99","priceCurrency":"SEK","priceSpecification":{"@type":"UnitPriceSpecification","price":"99","priceCurrency":"SEK","unitCode":"MON"}},
{"@type":"Offer","name":"Plus","price":990,"priceCurrency":"SEK","priceSpecification":{"@type":"UnitPriceSpecification","price":990,"priceCurrency":"SEK","billingDuration":"P1Y"}}`))
	if got := dr.Fields["pricing_model"].Text; got != "subscription" {
		t.Errorf("unit codes: pricing_model %q, want subscription", got)
	}
	dr = draftPages(t, "/", ld(`{"@type":"Offer","name":"Gratis","price":"0","priceCurrency":"SEK"},
{"@type":"Offer","name":"Plus","price":"99","priceCurrency":"SEK","priceSpecification":{"@type":"UnitPriceSpecification","price":"99","priceCurrency":"SEK","unitCode":"MON"}}`))
	if got := dr.Fields["pricing_model"].Text; got != "" {
		t.Errorf("a zero offer beside: pricing_model %q, want none", got)
	}
}
