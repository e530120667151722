package extract_test

import (
	"strings"
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
		checkPricing(t, c.name, dr, c.model, c.want, c.not)
	}
}

// TestAnyLanguage47_ExtrasBesidePlans: beside named plans with a monthly
// price, a one-time fee, a per-minute add-on or a price per visit of an
// extra service is no pricing model of the product; a plan's own one-time or
// metered price still is, in any language ("買い切り", "元/条").
func TestAnyLanguage47_ExtrasBesidePlans(t *testing.T) {
	for _, c := range []struct {
		name, lang, body, model string
	}{
		{"a one-time onboarding fee", "en", `<div class="grid">` +
			`<div class="card"><div class="plan-name">Starter</div><div class="price"><span>$</span><span>0</span><span>/mo</span></div><div>Free forever for 3 members.</div></div>` +
			`<div class="card"><div class="plan-name">Crew</div><div class="price"><span>$</span><span>29</span><span>/mo</span></div></div>` +
			`<div class="card"><div class="plan-name">Fleet</div><div class="price"><span>$</span><span>79</span><span>/mo</span></div></div></div>` +
			`<div class="more"><div>Guided onboarding</div><div>$499 one-time</div></div>`, "freemium"},
		{"a per-minute add-on below a period line", "en", `<div class="cards">` +
			`<div class="c"><p class="t">Team</p><p class="price">€49</p><p>/month, up to 100 listeners</p></div>` +
			`<div class="c"><p class="t">Company</p><p class="price">€149</p><p>/month, up to 1,000 listeners</p></div></div>` +
			`<p>All plans include a 30-day free trial. Transcription add-on: €0.10 per minute.</p>`, "subscription"},
		{"a paragraph with a one-time licence", "en", `<div class="sec"><div class="tables">` +
			`<div class="table"><div class="h">Hobby</div><div class="p">Free</div><ul><li>1 project</li></ul></div>` +
			`<div class="table"><div class="h">Pro</div><div class="p"><span>$</span><span>8</span><span>per seat / month</span></div><ul><li>Rollouts</li></ul></div>` +
			`<div class="table"><div class="h">Business</div><div class="p"><span>$</span><span>24</span><span>per seat / month</span></div><ul><li>99.95% uptime SLA</li></ul></div></div>` +
			`<div class="txt"><p>Need an on-premise licence? Self-hosted Acme is a one-time $2,400 fee plus support, talk to us.</p></div></div>` +
			`<div class="sec"><p>Made for teams.</p></div>`, "freemium"},
		{"a licence bought once", "ja", `<div class="box"><div class="n">個人ライセンス</div><div class="p">９，８００円<span>（税込・買い切り）</span></div></div>` +
			`<div class="box"><div class="n">事業所ライセンス</div><div class="p">２９，８００円<span>（税込・買い切り）</span></div></div>`, "one-time"},
		{"a price per message", "zh", `<table><tr><th>产品</th><th>单价</th></tr><tr><td>短信验证码</td><td>0.045 元/条</td></tr><tr><td>语音验证码</td><td>0.12 元/次</td></tr></table>`, "usage-based"},
	} {
		dr := draftPages(t, "/pricing", page47(c.lang, "Pricing", c.body))
		if got := dr.Fields["pricing_model"].Text; got != c.model {
			t.Errorf("%s: pricing_model %q, want %q (summary %q)", c.name, got, c.model, dr.Fields["pricing_summary"].Text)
		}
		if s := dr.Fields["pricing_summary"].Text; c.name == "a paragraph with a one-time licence" && (strings.Contains(s, "2,400") || strings.Contains(s, "SLA")) {
			t.Errorf("%s: pricing_summary %q takes the paragraph's fee", c.name, s)
		}
	}
}

// TestAnyLanguage47_EraYears: a profile row's founding date in a Japanese
// era or the Republic of China's calendar gives its Gregorian year, and the
// gate keeps it as stated by that quote.
func TestAnyLanguage47_EraYears(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"令和", "ja", `<table><tr><th>会社名</th><td>株式会社アクメ</td></tr><tr><th>設立</th><td>令和2年7月1日</td></tr></table>`, "2020"},
		{"平成 in td labels", "ja", `<table><tr><td>社名</td><td>合同会社アクメ</td></tr><tr><td>設立</td><td>平成30年2月</td></tr></table>`, "2018"},
		{"令和元年", "ja", `<dl><dt>設立</dt><dd>令和元年5月</dd></dl>`, "2019"},
		{"民國", "zh", `<table><tr><th>成立時間</th><td>民國111年3月</td></tr></table>`, "2022"},
	} {
		dr := draftPages(t, "/company", page47(c.lang, "会社概要", c.body))
		if got := dr.Fields["founded_year"].Text; got != c.want {
			t.Errorf("%s: founded_year %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage47_SocialsInDivFooters: a profile link in a div the builder
// names as the page's footer is the site's own, even on one page, with a
// handle that does not carry a name written in Hangul, and beside the
// representative's name; a testimonial card's "card-footer" link is not.
func TestAnyLanguage47_SocialsInDivFooters(t *testing.T) {
	home := `<html lang="ko"><head><title>달빛노트</title></head><body><div class="gnb"><a href="/">달빛노트</a></div>` +
		`<div class="review"><div class="card"><p>"좋아요"</p><div class="card-footer"><a href="https://x.com/happy_teacher">@happy_teacher</a></div></div></div>` +
		`<div class="footer"><div class="sns"><a href="https://www.instagram.com/moonnote_kr">인스타그램</a></div>` +
		`<p>(주)달빛랩 | 대표 김민준 | 서울특별시 마포구 월드컵북로 396</p></div></body></html>`
	about := `<html lang="ko"><head><title>회사 소개</title></head><body><table><tr><th>대표이사</th><td>김민준</td></tr></table></body></html>`
	dr := draftPages(t, "/", home, "/company", about)
	if got := dr.Socials["instagram"].URL; got != "https://www.instagram.com/moonnote_kr" {
		t.Errorf("instagram %q, want the footer's profile (founders %v)", got, dr.Founders)
	}
	if got := dr.Socials["x"].URL; got != "" {
		t.Errorf("x %q: a testimonial's link is not the site's", got)
	}
}

// TestAnyLanguage47_HanCities: the city of a Chinese address is its first
// 市 (not the 市 of a street name after the district); cjk47_test.go reads
// the city after a seat verb.
func TestAnyLanguage47_HanCities(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"a street named 市政", `<div class="footer"><p>點台科技股份有限公司｜台中市西屯區市政北二路 238 號 12 樓</p></div>`, "台中市"},
	} {
		dr := draftPages(t, "/about", page47("zh", "关于我们", c.body))
		if got := dr.Fields["city"].Text; got != c.want {
			t.Errorf("%s: city %q, want %q", c.name, got, c.want)
		}
	}
}
