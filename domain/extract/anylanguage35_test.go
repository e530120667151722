package extract_test

import (
	"slices"
	"strings"
	"testing"
)

// TestAnyLanguage35_NewsNoticesAreNoMilestones: in a news list, an entry
// naming a patch release is no milestone even with a <time> ("Phiên bản
// 2.1.3: sửa lỗi"), nor is a maintenance notice ("深夜メンテナンスのお知らせ")
// or an appearance in the media ("テレビ大阪で紹介されました", "featured
// in"); the product's releases beside them are.
func TestAnyLanguage35_NewsNoticesAreNoMilestones(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"patch release with <time>", "vi", "/tin-tuc", `<h1>Tin tức</h1><ul>
<li><a href="/tin-tuc/a">Ra mắt chế độ Lớp học cho giáo viên</a><time datetime="2025-02-17">17/02/2025</time></li>
<li><a href="/tin-tuc/b">Phiên bản 2.1.3: sửa lỗi đồng bộ</a><time datetime="2024-12-05">05/12/2024</time></li>
<li><a href="/tin-tuc/c">Mở beta cho tất cả mọi người</a><time datetime="2024-06-01">01/06/2024</time></li></ul>`,
			[]string{"2025-02-17 Ra mắt chế độ Lớp học cho giáo viên", "2024-06-01 Mở beta cho tất cả mọi người"}},
		{"maintenance and TV", "ja", "/news", `<h1>お知らせ</h1><ul>
<li><span class="date">2025.03.10</span><a href="/news/a">AI自動シフト作成機能をリリースしました</a></li>
<li><span class="date">2025.01.15</span><a href="/news/b">1月20日（月）深夜メンテナンスのお知らせ</a></li>
<li><span class="date">2024.07.01</span><a href="/news/c">LINE WORKS連携を開始しました</a></li>
<li><span class="date">2024.05.20</span><a href="/news/d">テレビ大阪「ビジネスの芽」で紹介されました</a></li></ul>`,
			[]string{"2025-03-10 AI自動シフト作成機能をリリースしました", "2024-07-01 LINE WORKS連携を開始しました"}},
		{"scheduled maintenance and featured in", "en", "/news", `<h1>News</h1>
<article><time datetime="2025-03-01">March 1, 2025</time><h2><a href="/news/a">Shared inboxes for teams</a></h2></article>
<article><time datetime="2025-02-10">February 10, 2025</time><h2><a href="/news/b">Scheduled maintenance on February 12</a></h2></article>
<article><time datetime="2024-11-04">November 4, 2024</time><h2><a href="/news/c">Acme featured in TechWeekly</a></h2></article>`,
			[]string{"2025-03-01 Shared inboxes for teams"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>News</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage35_Stage: stage statements in languages without word
// lists and forms the rules did not know: traction in Finnish,
// Indonesian and Greek, open beta in Hungarian and Vietnamese, "since we
// launched" in Danish, "private beta, then launched publicly" in
// Romanian, "launched <name> in 2022 after a year of private beta" and
// "<name> 3 is out now" (launched, not beta).
func TestAnyLanguage35_Stage(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"Finnish traction", "fi", `<p>Yli 1 200 yritystä käyttää Acmea joka päivä.</p>`, "growing"},
		{"Indonesian traction", "id", `<p>Digunakan oleh lebih dari 5.000 UMKM di seluruh Indonesia.</p>`, "growing"},
		{"Greek traction, few", "el", `<p>Περισσότερες από 300 εταιρείες χρησιμοποιούν το Acme.</p>`, "launched"},
		{"Hungarian open beta", "hu", `<p>Az Acme jelenleg nyilvános bétában van: bárki regisztrálhat.</p>`, "beta"},
		{"Vietnamese open beta", "vi", `<p>Acme đang trong giai đoạn beta mở.</p>`, "beta"},
		{"Danish since we launched", "da", `<p>Siden vi lancerede i 2021, har vi sendt over 400.000 fakturaer.</p>`, "launched"},
		{"Romanian beta then public launch", "ro", `<p>Am pornit cu o beta privată în 2019, apoi am lansat public în 2020.</p>`, "launched"},
		{"launched the product in a year after a beta", "en", `<p>We launched Acme in 2022 after a year of private beta.</p>`, "launched"},
		{"a major version is out now", "en", `<div class="banner"><a href="/blog/acme-3">Acme 3 is out now: client approvals and a new timeline →</a></div>`, "launched"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
	// A feature that is out now says nothing of the product's stage.
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><p>Dark mode is out now.</p></body></html>`)
	if got := dr.Fields["stage"].Text; got != "" {
		t.Errorf("a feature out now: stage %q, want none", got)
	}
}

// TestAnyLanguage35_PricingForms: pricing pages named and priced in
// Finnish, Danish, Hungarian, Romanian, Indonesian, Vietnamese and Greek:
// a free trial with a line denying a free plan ("Ei ilmaista pakettia",
// "Nu avem plan gratuit", "Không có gói miễn phí") stays a subscription;
// a free plan at 0 beside a monthly one is freemium; forint, lei, rupiah
// and dong amounts are prices; a hidden yearly price is left out.
func TestAnyLanguage35_PricingForms(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body, model string
		summary                       []string
	}{
		{"Finnish trial, no free package", "fi", "/hinnat", `<title>Hinnat – Acme</title></head><body><h1>Hinnat</h1>
<p>Kokeile ilmaiseksi 30 päivää. Ei ilmaista pakettia, ei sitoutumista.</p>
<div class="plan"><h2>Perus</h2><p>6 € / käyttäjä / kk</p></div><div class="plan"><h2>Laaja</h2><p>11 € / käyttäjä / kk</p></div>`,
			"subscription", []string{"Perus", "6 €", "Laaja", "11 €"}},
		{"Danish free plan, yearly hidden", "da", "/priser", `<title>Priser | Acme</title></head><body><h1>Priser</h1>
<div class="plan"><h2>Gratis</h2><p class="price">0 kr.</p><p>Op til 5 fakturaer om måneden</p></div>
<div class="plan"><h2>Pro</h2><p class="price">99 kr. pr. måned</p><p class="price" hidden>950 kr. pr. år</p></div>`,
			"freemium", []string{"Gratis", "0 kr", "Pro", "99 kr"}},
		{"Hungarian forint per month", "hu", "/arak", `<title>Árak – Acme</title></head><body><h1>Árak</h1>
<div class="plan"><h2>Ingyenes</h2><p>0 Ft</p><p>3 jegyzetfüzet</p></div><div class="plan"><h2>Csapat</h2><p>1 490 Ft / fő / hó</p></div>`,
			"freemium", []string{"Ingyenes", "0 Ft", "Csapat", "1 490 Ft"}},
		{"Romanian trial, no free plan", "ro", "/preturi", `<title>Prețuri – Acme</title></head><body><h1>Prețuri</h1>
<p>Încearcă gratuit 14 zile. Nu avem plan gratuit; după perioada de probă alegi un abonament.</p>
<div class="plan"><h2>Solo</h2><p>49 lei / lună</p></div><div class="plan"><h2>Echipă</h2><p>129 lei / lună</p></div>`,
			"subscription", []string{"Solo", "49 lei", "Echipă", "129 lei"}},
		{"Indonesian plans as list items", "id", "/", `<title>Acme</title></head><body><h1>Acme</h1><p>Acme membantu usaha kecil.</p>
<h2>Harga</h2><ul><li>Gratis: Rp 0, hingga 20 faktur per bulan</li><li>Bisnis: Rp 99.000 per bulan, faktur tanpa batas</li></ul>`,
			"freemium", []string{"Gratis", "Bisnis", "99.000"}},
		{"Vietnamese trial, no free plan", "vi", "/bang-gia", `<title>Bảng giá – Acme</title></head><body><h1>Bảng giá</h1>
<p>Dùng thử miễn phí 7 ngày. Không có gói miễn phí.</p>
<div class="plan"><h2>Cá nhân</h2><p>79.000 ₫ / tháng</p></div><div class="plan"><h2>Lớp học</h2><p>299.000 ₫ / tháng</p></div>`,
			"subscription", []string{"Cá nhân", "79.000", "Lớp học", "299.000"}},
		{"Greek trial, yearly hidden", "el", "/times", `<title>Τιμές – Acme</title></head><body><h1>Τιμές</h1>
<p>Δωρεάν δοκιμή 14 ημερών, χωρίς πιστωτική κάρτα.</p>
<div class="plan"><h2>Βασικό</h2><p>15 € / χρήστη / μήνα</p><p hidden>150 € / χρήστη / έτος</p></div>
<div class="plan"><h2>Επαγγελματικό</h2><p>29 € / χρήστη / μήνα</p><p hidden>290 € / χρήστη / έτος</p></div>`,
			"subscription", []string{"Βασικό", "15 €", "Επαγγελματικό", "29 €"}},
	} {
		dr := draftPages(t, pricingSite(c.lang, c.path, c.body)...)
		checkPricing(t, c.name, dr, c.model, c.summary, nil)
		got := dr.Fields["pricing_summary"].Text
		if strings.Contains(got, "950") || strings.Contains(got, "150 €") {
			t.Errorf("%s: pricing_summary %q takes a hidden yearly price", c.name, got)
		}
	}
}

// TestAnyLanguage35_LocalDates: dates with the month names of Finnish,
// Danish, Hungarian, Romanian, Indonesian and Greek, Hungarian's year
// first ("2025. március 4."), Vietnamese months by number ("17 tháng 2,
// 2025"), in history lists and under changelog headings.
func TestAnyLanguage35_LocalDates(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"Hungarian changelog", "hu", "/valtozasok", `<h1>Változásnapló</h1>
<section><h2>v3.0 — Közös jegyzetfüzetek</h2><p>2025. március 4.</p><p>Megosztás.</p></section>
<section><h2>v2.4.2</h2><p>2025. január 20.</p><p>Hibajavítások.</p></section>
<section><h2>v2.4 — Offline mód</h2><p>2024. november 12.</p><p>Internet nélkül.</p></section>`,
			[]string{"2025-03-04 Közös jegyzetfüzetek", "2024-11-12 Offline mód"}},
		{"Greek history", "el", "/etaireia", `<h1>Η εταιρεία</h1><h2>Η ιστορία μας</h2><ul>
<li>Μάιος 2020 — κυκλοφορία της πρώτης έκδοσης</li><li>Νοέμβριος 2022 — ζωντανή συνομιλία</li><li>15 Απριλίου 2024 — αυτόματες απαντήσεις</li></ul>`,
			[]string{"2020-05-01 κυκλοφορία της πρώτης έκδοσης", "2022-11-01 ζωντανή συνομιλία", "2024-04-15 αυτόματες απαντήσεις"}},
		{"Indonesian journey", "id", "/tentang", `<h1>Tentang kami</h1><h2>Perjalanan kami</h2><ul>
<li>Januari 2021 — peluncuran publik</li><li>Agustus 2023 — pengingat lewat WhatsApp</li></ul>`,
			[]string{"2021-01-01 peluncuran publik", "2023-08-01 pengingat lewat WhatsApp"}},
		{"Romanian and Finnish and Danish", "ro", "/istoric", `<h1>Istoric</h1><ul>
<li>martie 2019 — beta privată</li><li>3. syyskuuta 2024 — versio 2</li><li>12. marts 2024 — bankafstemning</li></ul>`,
			[]string{"2019-03-01 beta privată", "2024-09-03 versio 2", "2024-03-12 bankafstemning"}},
		{"Vietnamese", "vi", "/lich-su", `<h1>Lịch sử</h1><ul>
<li>17 tháng 2, 2025 — chế độ Lớp học</li><li>tháng 6/2024 — mở beta</li></ul>`,
			[]string{"2025-02-17 chế độ Lớp học", "2024-06-01 mở beta"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage35_BlogAndPressMilestones: a blog index's posts that name
// the product are milestones, its advice posts are not; a press page's
// own releases ("12. marts 2024 — Fakturly lancerer ...") are, its dated
// links to coverage on other sites and lines not naming the product are not.
func TestAnyLanguage35_BlogAndPressMilestones(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"Finnish blog", "fi", "/blogi", `<h1>Blogi</h1>
<article><h2><a href="/blogi/a">Acme 2.0: projektit ja asiakaslaskutus</a></h2><time datetime="2024-09-03">3. syyskuuta 2024</time></article>
<article><h2><a href="/blogi/b">Viisi vinkkiä Acmekirjanpitoon</a></h2><time datetime="2024-06-11">11. kesäkuuta 2024</time></article>
<article><h2><a href="/blogi/c">Acmen mobiilisovellus on julkaistu</a></h2><time datetime="2023-02-14">14. helmikuuta 2023</time></article>`,
			[]string{"2024-09-03 Acme 2.0: projektit ja asiakaslaskutus", "2023-02-14 Acmen mobiilisovellus on julkaistu"}},
		{"English blog", "en", "/blog", `<h1>The Acme blog</h1>
<article><h2><a href="/blog/a">Acme 3: client approvals</a></h2><p><time datetime="2025-04-22">April 22, 2025</time></p></article>
<article><h2><a href="/blog/b">How to estimate agency projects</a></h2><p><time datetime="2025-02-03">February 3, 2025</time></p></article>
<article><h2><a href="/blog/c">Our 2023 in review</a></h2><p><time datetime="2024-01-09">January 9, 2024</time></p></article>`,
			[]string{"2025-04-22 Acme 3: client approvals"}},
		{"Danish press page", "da", "/presse", `<h1>Presse</h1><h2>Pressemeddelelser</h2><ul>
<li>12. marts 2024 — Acme lancerer automatisk bankafstemning</li>
<li>2. maj 2022 — Acme åbner for tilbud</li></ul>
<h2>Omtalt i</h2><ul>
<li>8. februar 2024 — <a href="https://news.example/a">Iværksætternyt: Acme og andre faktureringsprogrammer</a></li>
<li>30. november 2022 — Erhvervsbladet: Små virksomheder digitaliserer regnskabet</li></ul>`,
			[]string{"2024-03-12 Acme lancerer automatisk bankafstemning", "2022-05-02 Acme åbner for tilbud"}},
		{"Korean press page", "ko", "/press", `<h1>보도자료</h1><ul>
<li>2024년 9월 3일 — Acme, 자동화 시나리오 기능 출시</li></ul><h2>언론 보도</h2><ul>
<li>2024년 10월 21일 — <a href="https://news.example.kr/1">스타트업 뉴스: Acme 등 마케팅 도구 5선</a></li></ul>`,
			[]string{"2024-09-03 Acme, 자동화 시나리오 기능 출시"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage35_HistoryInDetails: a history list folded into a closed
// <details> whose summary names it gives its milestones; a <details> FAQ
// answer with a date does not.
func TestAnyLanguage35_HistoryInDetails(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="el"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/etaireia">?</a>
<details><summary>Πότε ξεκίνησε;</summary><p>Μάιος 2020 — η πρώτη έκδοση.</p></details></body></html>`,
		"/etaireia", `<html lang="el"><head><title>Acme</title></head><body><h1>Η εταιρεία</h1><p>Το Acme ιδρύθηκε το 2019.</p>
<details><summary>Η ιστορία μας</summary><ul>
<li>Μάιος 2020 — κυκλοφορία της πρώτης έκδοσης</li><li>Νοέμβριος 2022 — ζωντανή συνομιλία (live chat)</li></ul></details></body></html>`)
	want := []string{"2020-05-01 κυκλοφορία της πρώτης έκδοσης", "2022-11-01 ζωντανή συνομιλία (live chat)"}
	if got := milestoneList(dr); !slices.Equal(got, want) {
		t.Errorf("milestones %q, want %q", got, want)
	}
}

// TestAnyLanguage35_SecondBatch: the forms of dev35's second batch. A
// count passed ("利用企業数は1,200社を超えました") is traction; "サービス提供を
// 開始", "정식 오픈" are a launch; a β版 entry of a 沿革 list is history, not
// the stage; a setup fee of zero ("初期費用は0円", "설치비 0원") is no free
// plan; a price table whose row label is the period ("月額（1ユーザー）") is
// monthly; seminars and holidays in a news list are no milestones.
func TestAnyLanguage35_SecondBatch(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"count passed", "ja", `<p>利用企業数は1,200社を超えました。</p>`, "growing"},
		{"service started", "ja", `<p>2020年にサービス提供を開始しました。</p>`, "launched"},
		{"official open", "ko", `<p>Acme는 2022년 서비스를 정식 오픈했습니다.</p>`, "launched"},
		{"history entry", "ja", `<p>Acmeは議事録を作ります。</p><h2>沿革</h2><dl><dt>2020年9月</dt><dd>Acme β版を公開</dd><dt>2021年4月</dt><dd>正式版の提供を開始</dd></dl>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct{ name, lang, path, body, model string }{
		{"setup fee and row label", "ja", "/plan", `<h1>料金プラン</h1><p>すべてのプランで14日間の無料トライアルをご利用いただけます。初期費用は0円です。</p>
<table><tr><th></th><th>ベーシック</th><th>ビジネス</th></tr><tr><th>月額（1ユーザー）</th><td>1,980円</td><td>3,480円</td></tr></table>`, "subscription"},
		{"Korean setup fee", "ko", "/price", `<h1>가격 안내</h1><p>14일 무료 체험 후 구독이 시작됩니다. 설치비 0원, 위약금 없음.</p>
<div><h2>스탠다드</h2><p>월 29,000원</p></div><div><h2>프리미엄</h2><p>월 49,000원</p></div>`, "subscription"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_model"].Text; got != c.model {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.model)
		}
	}
	dr := draftPages(t, "/", `<html lang="ja"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/news">?</a></body></html>`,
		"/news", `<html lang="ja"><head><title>Acme</title></head><body><h1>ニュース</h1><ul>
<li><time datetime="2025-02-05">2025年2月5日</time><a href="/news/a">Teamsに対応</a></li>
<li><time datetime="2024-10-30">2024年10月30日</time><a href="/news/b">「会議DXセミナー」登壇のお知らせ</a></li>
<li><time datetime="2024-03-01">2024年3月1日</time><a href="/news/c">年末年始休業のお知らせ</a></li></ul></body></html>`)
	if got, want := milestoneList(dr), []string{"2025-02-05 Teamsに対応"}; !slices.Equal(got, want) {
		t.Errorf("news with a seminar and a holiday: milestones %q, want %q", got, want)
	}
}

// TestAnyLanguage35_FullWidthSentences: a Japanese or Chinese paragraph's
// sentences end with "。": a monthly price in one sentence is read even
// when the next one offers a free trial ("月額980円です。14日間の無料
// トライアルもあります。" is a subscription), and a trial sentence is still
// no free plan.
func TestAnyLanguage35_FullWidthSentences(t *testing.T) {
	for _, c := range []struct{ lang, body, want string }{
		{"ja", `<h1>料金</h1><p>ご利用料金は1ユーザーあたり月額980円です。14日間の無料トライアルもあります。</p>`, "subscription"},
		{"zh", `<h1>价格</h1><p>专业版每月¥49。可免费试用14天。</p>`, "subscription"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/price">?</a></body></html>`,
			"/price", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_model"].Text; got != c.want {
			t.Errorf("%s: pricing_model %q, want %q", c.lang, got, c.want)
		}
	}
}

// TestAnyLanguage35_LocalBlogPostsAreBlogPages: a post under a blog or
// news index named in another language (/uutiset/..., /blogi/...), which
// the fetcher now follows, is a blog page: what it says (a beta two years
// ago) is not the product's stage; a news index so named is still read for
// its dated entries.
func TestAnyLanguage35_LocalBlogPostsAreBlogPages(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="fi"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme on työajanseuranta.</p><a href="/uutiset">Uutiset</a></body></html>`,
		"/uutiset", `<html lang="fi"><head><title>Uutiset</title></head><body><h1>Uutiset</h1><ul>
<li><a href="/uutiset/beta">Projektit ja laskutus</a> <time datetime="2024-09-03">3.9.2024</time></li>
<li><a href="/uutiset/app">Mobiilisovellus julkaistu</a> <time datetime="2023-02-14">14.2.2023</time></li></ul></body></html>`,
		"/uutiset/beta", `<html lang="fi"><head><title>Acme</title></head><body><h1>Acme avoimeen beetaan</h1><p>Acme on nyt avoimessa beetassa.</p></body></html>`)
	if got := dr.Fields["stage"].Text; got != "" {
		t.Errorf("stage %q from a news post, want none", got)
	}
	if got, want := milestoneList(dr), []string{"2024-09-03 Projektit ja laskutus", "2023-02-14 Mobiilisovellus julkaistu"}; !slices.Equal(got, want) {
		t.Errorf("milestones %q, want %q", got, want)
	}
}

// TestAnyLanguage35_JoinTraction: "Join 10,000+ teams" counts those
// already using the product (growing); "Join our team of 12" is no count
// of users.
func TestAnyLanguage35_JoinTraction(t *testing.T) {
	for _, c := range []struct{ lang, body, want string }{
		{"en", `<p>Join 10,000+ teams who plan with Acme.</p>`, "growing"},
		{"fr", `<p>Rejoignez plus de 2 000 équipes qui planifient avec Acme.</p>`, "growing"},
		{"en", `<p>Join our team of 12 in Lisbon.</p>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%q: stage %q, want %q", c.body, got, c.want)
		}
	}
}
