package extract_test

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// page43 is a page of Acme with body as its content.
func page43(lang, title, body string) string {
	return `<html lang="` + lang + `"><head><title>` + title + `</title></head><body><header><a href="/">Acme</a></header><main>` + body + `</main></body></html>`
}

// checkSummary43 checks that a drafted pricing summary holds every want and
// no not.
func checkSummary43(t *testing.T, name, got string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: pricing_summary %q lacks %q", name, got, w)
		}
	}
	for _, n := range not {
		if strings.Contains(got, n) {
			t.Errorf("%s: pricing_summary %q holds %q", name, got, n)
		}
	}
}

// checkPricing checks a draft's pricing model and that its pricing summary
// holds every want and no not; name says which case.
func checkPricing(t *testing.T, name string, dr *domain.Drafted, model string, want, not []string) {
	t.Helper()
	if got := dr.Fields["pricing_model"].Text; got != model {
		t.Errorf("%s: pricing_model %q, want %q", name, got, model)
	}
	checkSummary43(t, name, dr.Fields["pricing_summary"].Text, want, not)
}

// pricingSite is a site of Acme in lang whose page at path has body (its
// <head> content, title included, and its body): with a home page that links
// to it, or the home page itself when path is "/".
func pricingSite(lang, path, body string) []string {
	page := `<html lang="` + lang + `"><head>` + body + `</body></html>`
	if path == "/" {
		return []string{"/", page}
	}
	home := `<html lang="` + lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme helps.</p><a href="` + path + `">?</a></body></html>`
	return []string{"/", home, path, page}
}

// TestAnyLanguage43_SeveralPlansInOneSentence: a sentence or list item that
// names several plans, each before its price, gives every plan and price,
// in any language; a later price with no plan of its own (an overage, the
// yearly form of the same price) is no plan.
func TestAnyLanguage43_SeveralPlansInOneSentence(t *testing.T) {
	for _, c := range []struct {
		name, lang, body string
		want, not        []string
	}{
		{"English sentence", "en", `<h2>What it costs</h2><p>Basic is $15 per month for one shop, Plus is $39 per month for three shops, and Chain is $89 per month for any number. Extra messages are $0.02 each.</p>`,
			[]string{"Basic: $15 per month", "Plus: $39 per month", "Chain: $89 per month"}, []string{"$0.02"}},
		{"Swedish list item", "sv", `<h2>Vad kostar det?</h2><ul><li>Mini 79 kr/mån, Mellan 189 kr/mån och Stor 389 kr/mån – moms tillkommer.</li></ul>`,
			[]string{"Mini: 79 kr/mån", "Mellan: 189 kr/mån", "Stor: 389 kr/mån"}, []string{"moms", " och"}},
		{"a yearly form is the same plan", "en", `<h2>Cost</h2><p>Pro is $12 per month or $120 per year.</p>`,
			[]string{"Pro: $12 per month or $120 per year"}, []string{";"}},
		{"Japanese FAQ answer", "ja", `<h1>よくある質問</h1><dl><dt>費用はどのくらいですか？</dt><dd>ミニプランは月額1,480円、ビジネスプランは月額4,980円です（税込）。</dd></dl>`,
			[]string{"ミニプラン: 1,480円", "ビジネスプラン: 4,980円"}, []string{"です"}},
		{"a name that is also a filler word", "en", `<h2>Cost</h2><p>Solo is £9 a month, and Studio is £29 a month.</p>`,
			[]string{"Solo: £9 a month", "Studio: £29 a month"}, nil},
	} {
		dr := draftPages(t, "/", page43(c.lang, "Acme", c.body))
		checkSummary43(t, c.name, dr.Fields["pricing_summary"].Text, c.want, c.not)
	}
}

// TestAnyLanguage43_FreeUpToALimit: free use up to a limit stated in a
// feature list is a free plan beside paid ones (freemium); free for a
// duration is a trial, and a full-width question asks rather than states.
func TestAnyLanguage43_FreeUpToALimit(t *testing.T) {
	paid := `<h2>Pricing</h2><p>Team costs $8 per user per month.</p>`
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"free up to 5 users", "en", `<ul><li>Free for up to 5 users, no card and no time limit</li><li>Reports</li></ul>` + paid, "freemium"},
		{"kostenlos für bis zu", "de", `<ul><li>Kostenlos für bis zu 3 Projekte</li></ul><h2>Preise</h2><p>Team kostet 8 € pro Monat.</p>`, "freemium"},
		{"free for up to 30 days", "en", `<ul><li>Free for up to 30 days</li></ul>` + paid, "subscription"},
		{"a full-width question", "ja", `<h1>よくある質問</h1><h3>無料プランはありますか？</h3><p>月額980円のプランのみです。</p>`, "subscription"},
	} {
		dr := draftPages(t, "/", page43(c.lang, "Acme", c.body))
		if got := dr.Fields["pricing_model"].Text; got != c.want {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage43_BoldNameClauses: a list of bold plan names whose line
// says "free" or "contact sales" in a clause of its own, not as the whole
// line, still names those plans.
func TestAnyLanguage43_BoldNameClauses(t *testing.T) {
	body := `<h1>Plans and billing</h1><ul><li><strong>Hobby</strong>: free, for one person and public boards.</li><li><strong>Crew</strong>: $7 per member per month.</li><li><strong>Corporate</strong>: annual contract; contact sales.</li></ul>`
	dr := draftPages(t, "/pricing", page43("en", "Plans and billing", body))
	got := dr.Fields["pricing_summary"].Text
	for _, w := range []string{"Hobby: free", "Crew: $7", "Corporate: contact sales"} {
		if !strings.Contains(got, w) {
			t.Errorf("pricing_summary %q lacks %q", got, w)
		}
	}
	if m := dr.Fields["pricing_model"].Text; m != "freemium" {
		t.Errorf("pricing_model %q, want freemium", m)
	}
}

// TestAnyLanguage43_OneTimeAfterThePrice: a card whose price is followed by
// "One-time payment." is bought once.
func TestAnyLanguage43_OneTimeAfterThePrice(t *testing.T) {
	body := `<h1>Buy</h1><div class="opts"><div class="opt"><h3>Personal</h3><p>$49</p><p>One-time payment. One computer.</p></div><div class="opt"><h3>Family</h3><p>$99</p><p>One-time payment. Five computers.</p></div></div>`
	dr := draftPages(t, "/pricing", page43("en", "Buy Acme", body))
	if m := dr.Fields["pricing_model"].Text; m != "one-time" {
		t.Errorf("pricing_model %q, want one-time", m)
	}
}

// TestAnyLanguage43_IconNamedPlans: cards that name their plan only by an
// icon's aria-label or title (an svg, a span over an empty-alt image) give
// that name with the card's price.
func TestAnyLanguage43_IconNamedPlans(t *testing.T) {
	body := `<h1>Pricing</h1><div class="tiers">` +
		`<div class="tier"><svg role="img" aria-label="Pebble"><use href="#a"></use></svg><div class="amt">$4</div><div>per seat / month</div></div>` +
		`<div class="tier"><span title="Boulder"><img src="/b.svg" alt=""></span><div class="amt">$9</div><div>per seat / month</div></div></div>`
	dr := draftPages(t, "/pricing", page43("en", "Pricing", body))
	got := dr.Fields["pricing_summary"].Text
	for _, w := range []string{"Pebble: $4", "Boulder: $9"} {
		if !strings.Contains(got, w) {
			t.Errorf("pricing_summary %q lacks %q", got, w)
		}
	}
}

// TestAnyLanguage43_ProseUnderAPricingHeading: a heading that names pricing
// over prose (a long line, several sentences or several prices) is no
// plan's name; the prose's own plans are read, named before their price in
// Chinese or with a Korean topic particle, or after their price in English.
func TestAnyLanguage43_ProseUnderAPricingHeading(t *testing.T) {
	for _, c := range []struct {
		name, lang, body string
		want, not        []string
	}{
		{"English prose", "en", `<h2>Pricing</h2><p>Acme is free for small teams. Larger teams pay $4 per member per month.</p>`,
			[]string{"$4 per member per month"}, []string{"Pricing"}},
		{"Chinese editions", "zh", `<h2>价格</h2><p>入门版每月 ¥39，高级版每月 ¥129。</p>`,
			[]string{"入门版: ¥39", "高级版: ¥129"}, []string{"价格"}},
		{"Korean topic particles", "ko", `<h2>요금</h2><p>스타터는 월 5,900원, 비즈니스는 월 15,900원입니다.</p>`,
			[]string{"스타터: 5,900원", "비즈니스: 15,900원"}, []string{"입니다", "요금:"}},
		{"a Korean plan word before a bracket", "ko", `<h2>가격</h2><p>무료로 시작하고, 필요할 때 프로 요금제(월 4,900원)로 업그레이드하세요.</p>`,
			[]string{"프로 요금제: 4,900원"}, []string{"가격"}},
		{"prose the sentence reader cannot read", "en", `<h2>Pricing</h2><p>One licence, one price: $49 for everything in the box.</p>`,
			[]string{"$49"}, []string{"Pricing"}},
		{"named after the price", "en", `<h2>Questions</h2><h3>What does it cost?</h3><p>It costs €15 a month for the Basic plan or €45 a month for Business.</p>`,
			[]string{"Basic: €15 a month", "Business: €45 a month"}, nil},
	} {
		dr := draftPages(t, "/", page43(c.lang, "Acme", c.body))
		checkSummary43(t, c.name, dr.Fields["pricing_summary"].Text, c.want, c.not)
	}
}
