package extract_test

import (
	"testing"
)

// page47 is a page of Acme in lang whose body is builder markup (a div
// header and footer, no headings).
func page47(lang, title, body string) string {
	return `<html lang="` + lang + `"><head><title>` + title + `</title></head><body><div id="header"><a href="/">Acme</a></div><div class="l-main">` + body + `</div></body></html>`
}

// TestAnyLanguage47_FullWidthPrices: prices in full-width digits and signs
// ("１，９８０円", "￥３，３００／月") and amounts in 만 units ("월 3만원") are prices: plan cards of divs give their
// plans, a full-width zero is a free plan, a full-width solidus before 月
// states the period, and the gate keeps the model they speak of.
func TestAnyLanguage47_FullWidthPrices(t *testing.T) {
	for _, c := range []struct {
		name, body, model string
		want, not         []string
	}{
		{"yen after full-width digits, a free card", `<div class="plans">` +
			`<div class="plan"><div class="name">フリー</div><div class="price"><span>０</span><span>円</span></div></div>` +
			`<div class="plan"><div class="name">スタンダード</div><div class="price">月額<span>１，９８０</span><span>円</span><span>（税込）</span></div></div>` +
			`<div class="plan"><div class="name">プレミアム</div><div class="price">月額<span>４，９８０</span><span>円</span><span>（税込）</span></div></div></div>`,
			"freemium", []string{"フリー", "スタンダード", "１，９８０", "プレミアム", "４，９８０"}, nil},
		{"a full-width yen sign and solidus", `<div class="plans">` +
			`<div class="plan"><h2>ライト</h2><p class="price">￥３，３００<small>／月（税別）</small></p></div>` +
			`<div class="plan"><h2>ビジネス</h2><p class="price">￥９，８００<small>／月（税別）</small></p></div></div>` +
			`<p>無料プランはございません。</p>`,
			"subscription", []string{"ライト", "３，３００", "ビジネス", "９，８００"}, nil},
		{"Korean amounts in 만 units", `<div class="plans">` +
			`<div class="plan"><h2>스타트 요금제</h2><p class="amount">월 <span>3만</span>원</p></div>` +
			`<div class="plan"><h2>샵 요금제</h2><p class="amount">월 <span>5만 5천</span>원</p></div></div>` +
			`<p>무료 요금제는 없습니다.</p>`,
			"subscription", []string{"스타트", "3만", "샵", "5만 5천"}, nil},
	} {
		dr := draftPages(t, "/price", page47("ja", "料金", c.body))
		checkSummary43(t, c.name, dr.Fields["pricing_summary"].Text, c.want, c.not)
		if got := dr.Fields["pricing_model"].Text; got != c.model {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.model)
		}
	}
}
