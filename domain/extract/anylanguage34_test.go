package extract_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/testtier"
)

// TestAnyLanguage34_PricingForms: prices in forms the pricing rules did not
// know. A plans page named in romanised Chinese (/fangan) or titled 方案,
// with New Taiwan dollars ("NT$120 / 月"); a bare /buy page with a licence
// "€39, pay once"; plans listed as "Starter: free, 5 monitors" and "Team:
// $12/month"; a Swedish per-user price "59 kr per användare och månad"
// beside "0 kr".
func TestAnyLanguage34_PricingForms(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body, model string
		summary                       []string
	}{
		{"NT$ on /fangan", "zh-TW", "/fangan", `<title>方案｜學伴鴨</title></head><body><h1>方案與價格</h1>
<div><h2>免費方案</h2><p>NT$0</p><p>每日 50 張卡片</p></div><div><h2>進階方案</h2><p>NT$120 / 月</p><p>卡片無上限</p></div>`,
			"freemium", []string{"免費方案", "NT$0", "進階方案", "NT$120"}},
		{"licence on /buy", "en", "/buy", `<title>Buy Inkwell</title></head><body><h1>Buy Inkwell</h1>
<div><h2>Personal licence</h2><p>€39, pay once</p></div><div><h2>Family licence</h2><p>€69, pay once</p></div><p>No subscription.</p>`,
			"one-time", []string{"Personal", "€39", "Family", "€69"}},
		{"name: free, limits", "en", "/", `<title>Pulsewatch</title></head><body><h1>Pulsewatch</h1><p>Uptime checks every minute.</p>
<h2>Plans</h2><ul><li>Starter: free, 5 monitors</li><li>Team: $12/month, 50 monitors</li></ul>`,
			"freemium", []string{"Starter", "Team", "$12"}},
		{"Swedish per user and month", "sv", "/priser", `<title>Priser – Planka</title></head><body><h1>Priser</h1>
<div><h2>Gratis</h2><p>0 kr</p></div><div><h2>Team</h2><p>59 kr per användare och månad</p></div>`,
			"freemium", []string{"Gratis", "0 kr", "Team", "59 kr"}},
	} {
		checkPricing(t, c.name, draftPages(t, pricingSite(c.lang, c.path, c.body)...), c.model, c.summary, nil)
	}
}

// TestName_SharedTitlePartsTieIsDeterministic: when two parts of the title
// are shared by as many pages ("Destekçi | Yardım masası yazılımı" on both),
// the name is the part seen first, every time (it was the map's order: the
// name, and the categories scored without it, changed from run to run).
func TestName_SharedTitlePartsTieIsDeterministic(t *testing.T) {
	testtier.SkipRace(t, "30 drafts one after another, one goroutine")
	head := `<html lang="tr"><head><title>Destekçi | Yardım masası yazılımı</title></head><body>`
	for i := range 30 {
		dr := draftPages(t, "/", head+`<h1>Destekçi</h1><p>Destekçi bir yardım masası yazılımıdır.</p><a href="/kurumsal">?</a></body></html>`,
			"/kurumsal", head+`<h1>Kurumsal</h1></body></html>`)
		if got := dr.Fields["name"].Text; got != "Destekçi" {
			t.Fatalf("draft %d: name %q, want %q", i, got, "Destekçi")
		}
	}
}

// TestAnyLanguage34_TractionForms: counts of use in forms the stage rules
// did not know: a Japanese count passed ("累計ダウンロード数は120万件を突破"),
// a traditional Chinese 萬 ("超過 80 萬名學生"), Swedish "team" as the
// noun; a small count passed is launched; a count that is not of use
// (a price table's limit) says nothing.
func TestAnyLanguage34_TractionForms(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"Japanese downloads passed", "ja", `<p>累計ダウンロード数は120万件を突破しました。</p>`, "growing"},
		{"Japanese members passed, few", "ja", `<p>会員数500人を突破しました。</p>`, "launched"},
		{"traditional Chinese 萬", "zh-TW", `<p>已有超過 80 萬名學生使用學伴鴨。</p>`, "growing"},
		{"Swedish teams", "sv", `<p>Över 2 000 team planerar sitt arbete i Acme.</p>`, "growing"},
		{"Japanese limit", "ja", `<p>最大1,000件まで保存できます。</p>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage34_FounderCardsAndCompoundLabels: a role line above the
// name heading in one card gives that person's role (an employee's or an
// adviser's card gives no founder), cards with the role below the name do
// not pass a role on to the next card's name, and a profile table's
// compound title with a founder's word ("創辦人暨執行長") is a founder's
// label, an adviser's ("法律顧問") is not.
func TestAnyLanguage34_FounderCardsAndCompoundLabels(t *testing.T) {
	home := `<html lang="%s"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/team">?</a></body></html>`
	for _, c := range []struct {
		name, lang, body string
		want             []string
	}{
		{"role above the name", "ja", `<h1>メンバー</h1>
<div class="m"><p>代表取締役CEO／共同創業者</p><h3>高橋 健</h3><p>人事システムの開発に10年携わる。</p></div>
<div class="m"><p>取締役CTO／共同創業者</p><h3>伊藤 誠</h3></div>
<div class="m"><p>カスタマーサクセス</p><h3>中村 美咲</h3></div>
<div class="m"><p>顧問（社会保険労務士）</p><h3>小林 正樹</h3></div>`, []string{"高橋 健/代表取締役CEO／共同創業者", "伊藤 誠/取締役CTO／共同創業者"}},
		{"role below the name", "en", `<h1>Our team</h1>
<div class="m"><h3>Jane Doe</h3><p>Co-founder &amp; CEO</p></div>
<div class="m"><h3>Tom Lee</h3><p>Support engineer</p></div>`, []string{"Jane Doe/Co-founder & CEO"}},
		{"compound profile labels", "zh-TW", `<h1>公司簡介</h1><table>
<tr><th>公司名稱</th><td>學伴鴨股份有限公司</td></tr><tr><th>創辦人暨執行長</th><td>陳怡君</td></tr>
<tr><th>共同創辦人暨技術長</th><td>黃建宏</td></tr><tr><th>法律顧問</th><td>李大同</td></tr></table>`, []string{"陳怡君/創辦人暨執行長", "黃建宏/共同創辦人暨技術長"}},
	} {
		dr := draftPages(t, "/", strings.Replace(home, "%s", c.lang, 1), "/team",
			`<html lang="`+c.lang+`"><head><title>Team</title></head><body>`+c.body+`</body></html>`)
		if got := founderList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage34_NewsEntriesWithoutTime: on a news or updates page a
// list entry whose date sits in an element of its own ("<span>2025.04.15</span>
// <a>...</a>", "<p>12 maj 2024</p><h2>...</h2>") and a two-column date |
// title table are milestones without a <time>; a patch release, a dated link
// to another site (press coverage) and a dated list on a page that is not
// news (upcoming events) are not.
func TestAnyLanguage34_NewsEntriesWithoutTime(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"dotted dates in spans", "ja", "/info", `<h1>お知らせ</h1><ul>
<li><span>2025.04.15</span> <a href="/info/0415">ファミリー共有機能をリリースしました</a></li>
<li><span>2024.09.02</span> <a href="/info/0902">累計100万ダウンロードを突破しました</a></li></ul>`,
			[]string{"2025-04-15 ファミリー共有機能をリリースしました", "2024-09-02 累計100万ダウンロードを突破しました"}},
		{"date paragraph over the title, a patch release left out", "en", "/updates", `<h1>Updates</h1>
<article><p class="date">3 February 2025</p><h2><a href="/updates/vat">VAT returns filed from the app</a></h2></article>
<article><p class="date">20 January 2025</p><h2><a href="/updates/fix">v2.3.1 bug fixes</a></h2></article>
<article><p class="date">12 June 2024</p><h2><a href="/updates/scan">Receipt scanner for Android</a></h2></article>`,
			[]string{"2025-02-03 VAT returns filed from the app", "2024-06-12 Receipt scanner for Android"}},
		{"date table", "zh", "/dongtai", `<h1>产品动态</h1><table><tr><td>2025-01-20</td><td>支持企业微信渠道</td></tr><tr><td>2024-09-09</td><td>客服宝开启公测</td></tr></table>`,
			[]string{"2025-01-20 支持企业微信渠道", "2024-09-09 客服宝开启公测"}},
		{"press coverage", "en", "/press", `<h1>Press</h1><ul>
<li><span>3 March 2024</span> <a href="https://news.example/acme-review">Acme reviewed</a></li>
<li><span>9 May 2023</span> <a href="https://paper.example/startups">Ten startups to watch</a></li></ul>`, nil},
		{"events page", "en", "/events", `<h1>Upcoming webinars</h1><ul>
<li><span>3 March 2026</span> <a href="/events/a">Closing the books faster</a></li>
<li><span>9 May 2026</span> <a href="/events/b">VAT for freelancers</a></li></ul>`, nil},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>News</title></head><body>`+c.body+`</body></html>`)
		var got []string
		for _, m := range dr.Milestones {
			got = append(got, m.Date+" "+m.Title)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage34_FAQHeadings: FAQ pages headed in the languages without
// word lists ("Vanliga frågor", "常見問題") and questions ending with the
// full-width question mark "？" give their questions and answers, each
// answer stopping at its own block.
func TestAnyLanguage34_FAQHeadings(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"Swedish h3 + p", "sv", "/fragor", `<h1>Vanliga frågor</h1><h3>Kan jag byta plan när som helst?</h3><p>Ja, du kan byta när du vill.</p>
<h3>Var lagras min data?</h3><p>All data lagras i Sverige.</p>`, []string{"Kan jag byta plan när som helst?/Ja, du kan byta när du vill.", "Var lagras min data?/All data lagras i Sverige."}},
		{"traditional Chinese full-width marks", "zh-TW", "/wenda", `<h1>常見問題</h1><h3>免費方案可以用多久？</h3><p>免費方案沒有期限。</p>
<h3>可以在電腦上使用嗎？</h3><p>可以，登入網頁版即可。</p>`, []string{"免費方案可以用多久？/免費方案沒有期限。", "可以在電腦上使用嗎？/可以，登入網頁版即可。"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>FAQ</title></head><body>`+c.body+`<footer><p>Acme AB</p></footer></body></html>`)
		var got []string
		for _, f := range dr.FAQs {
			got = append(got, f.Question+"/"+f.Answer)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: faqs %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage34_FounderApposition: a founding sentence that puts a
// lower-case apposition (a profession) after the first founder's name
// ("założyli ... Anna Wiśniewska, nauczycielka matematyki, i Tomasz
// Zieliński, programista") gives both founders; an adviser named after
// the sentence is not one.
func TestAnyLanguage34_FounderApposition(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="pl"><head><title>Lekcjomat</title></head><body><h1>Lekcjomat</h1><a href="/historia">?</a></body></html>`,
		"/historia", `<html lang="pl"><head><title>Historia</title></head><body><h1>Nasza historia</h1>
<p>Lekcjomat założyli w 2017 roku Anna Wiśniewska, nauczycielka matematyki, i Tomasz Zieliński, programista.</p>
<p>Doradza nam prof. Jan Kowalczyk z Uniwersytetu Łódzkiego.</p></body></html>`)
	if got, want := founderList(dr), []string{"Anna Wiśniewska/", "Tomasz Zieliński/"}; !slices.Equal(got, want) {
		t.Errorf("founders %q, want %q", got, want)
	}
}

// TestAnyLanguage34_SeatRowPostcode: a profile's seat row that gives
// street, postcode and city but not the country ("Sídlo | Kounicova 10,
// 602 00 Brno") names the country by its postcode's form on a Czech site,
// as a footer address does; on an English site the shared form names none.
// The site is served over HTTP and read by the real fetcher, which gives
// the draft its language.
func TestAnyLanguage34_SeatRowPostcode(t *testing.T) {
	for _, c := range []struct{ lang, want string }{{"cs", "CZ"}, {"en", ""}} {
		dr := draftServed(t, map[string]string{
			"index.html": `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/o-projektu">O projektu</a></body></html>`,
			"o-projektu.html": `<html lang="` + c.lang + `"><head><title>O projektu</title></head><body><h1>O projektu</h1>
<dl><dt>Provozovatel</dt><dd>Acme s.r.o.</dd><dt>Sídlo</dt><dd>Kounicova 10, 602 00 Brno</dd></dl></body></html>`})
		if got := dr.Fields["country"].Text; got != c.want {
			t.Errorf("%s: country %q, want %q", c.lang, got, c.want)
		}
		if got := dr.Fields["city"].Text; got != "Brno" {
			t.Errorf("%s: city %q, want Brno", c.lang, got)
		}
	}
}

// draftServed writes files to a directory, serves it on loopback as the
// evaluation does, crawls it with the real fetcher and drafts it; what the
// gate drops fails the test.
func draftServed(t *testing.T, files map[string]string) *domain.Drafted {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	crawl, err := fetchSite(t, testSite{name: "served", dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cats := loadCategories(t)
	req := domain.DraftRequest{Site: crawl, Categories: cats.Categories, Stages: cats.Stages}
	dr := draft(t, req)
	kept, dropped := domain.Ground(req, dr)
	if len(dropped) > 0 {
		t.Errorf("domain.Ground dropped %q", dropped)
	}
	return kept
}

// TestAnyLanguage34_LogoByNameInAnyScript: a header image whose alt text is
// the product's name written in Han ("客服宝") is its logo, as an ASCII
// name's is; another image in the header is not.
func TestAnyLanguage34_LogoByNameInAnyScript(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="zh-CN"><head><title>客服宝 — 工单系统</title></head><body>
<header><a href="/"><img src="/assets/kefubao.svg" alt="客服宝"></a><img src="/assets/flag-cn.svg" alt="中文"></header>
<h1>客服宝</h1><p>工单与在线客服。</p></body></html>`)
	if got, want := dr.Fields["logo_url"].Text, "https://acme.example/assets/kefubao.svg"; got != want {
		t.Errorf("logo_url %q, want %q", got, want)
	}
}
