package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// founderList is "Name/Title" of each drafted founder.
func founderList(dr *domain.Drafted) []string {
	var out []string
	for _, f := range dr.Founders {
		out = append(out, f.Name+"/"+f.Title)
	}
	return out
}

// TestAnyLanguage_Founders: founders in role cards with titles in Polish,
// Korean and Chinese (names in Hangul and Han), in a Japanese profile row
// naming the representative director, in Swedish and Polish founding
// sentences, and in a definition list naming one person twice; employees,
// designers and advisers beside them are not founders.
func TestAnyLanguage_Founders(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"Polish role cards", "pl", "/o-nas", `<h1>O nas</h1><h2>Zespół</h2>
<div><h3>Tomasz Zieliński</h3><p>Współzałożyciel, prezes zarządu</p></div>
<div><h3>Piotr Wróbel</h3><p>Programista</p></div>
<h2>Doradcy</h2><div><h3>Marek Sikora</h3><p>Doradca, inwestor</p></div>`,
			[]string{"Tomasz Zieliński/Współzałożyciel, prezes zarządu"}},
		{"Korean cards", "ko", "/about", `<h1>회사 소개</h1><h2>팀</h2>
<div><h3>이민준</h3><p>대표</p></div><div><h3>최수아</h3><p>공동창업자 · CTO</p></div><div><h3>정하늘</h3><p>디자이너</p></div>`,
			[]string{"이민준/대표", "최수아/공동창업자 · CTO"}},
		{"Chinese cards", "zh", "/about", `<h1>关于我们</h1><h2>创始团队</h2>
<div><h3>张伟</h3><p>创始人兼 CEO</p></div><div><h3>李娜</h3><p>联合创始人兼 CTO</p></div>`,
			[]string{"张伟/创始人兼 CEO", "李娜/联合创始人兼 CTO"}},
		{"Japanese profile row", "ja", "/company/", `<h1>会社概要</h1><table><tr><th>設立</th><td>2016年4月</td></tr>
<tr><th>代表取締役</th><td>山田 太郎</td></tr></table>`,
			[]string{"山田 太郎/代表取締役"}},
		{"Swedish sentence", "sv", "/om-oss", `<h1>Om oss</h1><p>Acme grundades 2022 i Uppsala av Sara Lindqvist och Erik Berg, två lärare.</p>`,
			[]string{"Sara Lindqvist/", "Erik Berg/"}},
		{"Polish verb first", "pl", "/kim-jestesmy", `<h1>Kim jesteśmy</h1><p>Firmę założyli w 2020 roku Ewa Mazur i Paweł Wójcik, wcześniej nauczyciele.</p>`,
			[]string{"Ewa Mazur/", "Paweł Wójcik/"}},
		{"Swedish definition list", "sv", "/foretaget", `<h1>Företaget</h1><dl><dt>Grundare</dt><dd>Karin Ek och Johan Ström</dd><dt>VD</dt><dd>Karin Ek</dd></dl>`,
			[]string{"Karin Ek/Grundare", "Johan Ström/Grundare"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := founderList(dr); strings.Join(got, "; ") != strings.Join(c.want, "; ") {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage_Stage: the stage as sites state it in any language:
// traction from 1,000 users or customers on is growing, less is launched,
// a plan's limit ("for more than 100 users") is neither; a public launch and
// an open beta in the languages without sentence patterns; a dated entry of
// a history list is the past; profitable outranks a traction count.
func TestAnyLanguage_Stage(t *testing.T) {
	for _, tc := range []struct{ name, lang, body, want string }{
		{"en traction", "en", `<h1>Calm support</h1><p>Trusted by 4,000+ teams.</p>`, "growing"},
		{"en used by", "en", `<h1>Ride logs</h1><p>Used by more than 2,000 teams.</p>`, "growing"},
		{"pl traction", "pl", `<h1>Grafik pracy</h1><p>Z Acme korzysta już ponad 1 200 firm w całej Polsce.</p>`, "growing"},
		{"cs traction", "cs", `<h1>Helpdesk</h1><p>Používá nás přes 3 000 e-shopů.</p>`, "growing"},
		{"ja traction", "ja", `<h1>メルマガ配信</h1><p>導入企業 5,000社以上</p>`, "growing"},
		{"zh traction", "zh", `<h1>视频剪辑</h1><p>已有超过 20,000 名创作者在使用。</p>`, "growing"},
		{"ko traction", "ko", `<h1>고객 관리</h1><p>1,000개 이상의 기업이 사용합니다.</p>`, "growing"},
		{"sv launch and traction", "sv", `<h1>Nyhetsbrev</h1><p>Sedan lanseringen 2019 har över 2 500 föreningar skickat sina nyhetsbrev med Acme.</p>`, "growing"},
		{"small count", "pl", `<h1>Kursy</h1><p>Od startu opublikowano u nas ponad 900 firm.</p>`, "launched"},
		{"plan limit", "fr", `<h1>Tarifs</h1><p>Pour plus de 1 000 utilisateurs, la formule Grand compte est sur devis.</p>`, ""},
		{"pl launch", "pl", `<h1>Kursy online</h1><p>Od startu w 2021 roku rośniemy co miesiąc.</p>`, "launched"},
		{"tr launch", "tr", `<h1>Notlar</h1><p>Mart 2022'de herkese açık olarak yayına girdik.</p>`, "launched"},
		{"sv beta", "sv", `<h1>Glosor</h1><p>Acme är i öppen beta – allt kan fortfarande ändras.</p>`, "beta"},
		{"cs beta", "cs", `<h1>Jazyky</h1><p>Aplikace je zatím v otevřené betě.</p>`, "beta"},
		{"ko beta", "ko", `<h1>고객 관리</h1><p>현재 오픈 베타 중입니다.</p>`, "beta"},
		{"history list", "ko", `<h1>고객 관리</h1><h2>연혁</h2><ul><li>2023.06 오픈 베타 출시</li></ul>`, ""},
		{"profitable first", "en", `<h1>Calm support</h1><p>Used by more than 3,000 teams, and we are profitable.</p>`, "profitable"},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body>`+tc.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != tc.want {
			t.Errorf("%s: stage %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAnyLanguage_Categories: the primary category from the site's own words
// in languages without sentence patterns, and English phrasings that name
// no category ("shared inbox", "captions").
func TestAnyLanguage_Categories(t *testing.T) {
	for _, tc := range []struct{ lang, title, body, want string }{
		{"pl", "Grafikon – grafik pracy online", `<h1>Grafik pracy bez arkuszy</h1><p>Aplikacja do planowania zmian.</p>`, "Calendar & Scheduling"},
		{"sv", "Pluggis | Glosor och flashkort", `<h1>Glosor och flashkort som fastnar</h1>`, "Flashcards & Study"},
		{"sv", "Utskick – nyhetsbrev för föreningar", `<h1>Nyhetsbrev som medlemmarna läser</h1>`, "Email Marketing"},
		{"cs", "Slovíčko – učení jazyků", `<h1>Angličtina po pěti minutách denně</h1>`, "Language Learning"},
		{"tr", "Notdefteri — not alma uygulaması", `<h1>Notlarınız, ekibinizle</h1>`, "Note-taking"},
		{"ja", "メルハコ｜メルマガ配信", `<h1>メルマガ配信を、もっとかんたんに。</h1>`, "Email Marketing"},
		{"zh", "剪片 - 在线视频剪辑工具", `<h1>人人都会用的视频剪辑</h1>`, "Video Editing"},
		{"en", "Quietdesk — the shared inbox for small support teams", `<h1>Answer every customer</h1>`, "Help Desk"},
		{"en", "Subtly: subtitles for your videos", `<h1>Captions in one click</h1>`, "Video Editing"},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>`+tc.title+`</title></head><body>`+tc.body+`</body></html>`)
		if got := dr.Fields["categories"].List; len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: categories %q, want %q first", tc.title, got, tc.want)
		}
	}
}

// milestoneList is "date title" of each drafted milestone.
func milestoneList(dr *domain.Drafted) []string {
	var out []string
	for _, m := range dr.Milestones {
		out = append(out, m.Date+" "+m.Title)
	}
	return out
}

// TestAnyLanguage_Milestones: a changelog whose headings are only versions
// takes each release's description as its title (a patch release is none);
// a history table's date and entry cells, year-month lists written
// "2022.03" and "03.2019", and a news index whose entries are a link and a
// <time> are milestones.
func TestAnyLanguage_Milestones(t *testing.T) {
	for _, tc := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"version headings", "en", "/changelog", `<h1>Changelog</h1>
<section><h2>v4.2.1</h2><p><time datetime="2024-05-20">May 20, 2024</time></p><p>Fixed a crash when exporting tags.</p></section>
<section><h2>v4.2.0</h2><p><time datetime="2024-05-02">May 2, 2024</time></p><p>Satisfaction surveys after every closed conversation.</p></section>
<section><h2>Verze 3.0</h2><p>9. 10. 2023</p><p>Nový editor šablon odpovědí.</p></section>`,
			[]string{"2024-05-02 Satisfaction surveys after every closed conversation.", "2023-10-09 Nový editor šablon odpovědí."}},
		{"history table", "ja", "/company/", `<h1>会社概要</h1><h2>沿革</h2><table>
<tr><th>2016年4月</th><td>会社設立</td></tr><tr><th>2017年10月</th><td>サービス提供開始</td></tr></table>`,
			[]string{"2016-04-01 会社設立", "2017-10-01 サービス提供開始"}},
		{"year.month list", "ko", "/about", `<h1>회사 소개</h1><h2>연혁</h2><ul><li>2022.03 법인 설립</li><li>2023.06 베타 서비스 출시</li></ul>`,
			[]string{"2022-03-01 법인 설립", "2023-06-01 베타 서비스 출시"}},
		{"month.year list", "pl", "/o-nas", `<h1>O nas</h1><h2>Historia</h2><ul><li><strong>03.2019</strong> Założenie spółki</li><li><strong>11.2020</strong> Premiera aplikacji mobilnej</li></ul>`,
			[]string{"2019-03-01 Założenie spółki", "2020-11-01 Premiera aplikacji mobilnej"}},
		{"news index", "en", "/news", `<h1>News</h1><ul>
<li><a href="/news/public-beta">Acme opens its public beta</a> <time datetime="2025-01-15">15 Jan 2025</time></li>
<li><a href="/news/thirty">Captions now in 30 languages</a> <time datetime="2025-04-02">2 Apr 2025</time></li></ul>`,
			[]string{"2025-01-15 Acme opens its public beta", "2025-04-02 Captions now in 30 languages"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+tc.path+`">?</a></body></html>`,
			tc.path, `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body>`+tc.body+`</body></html>`)
		got := milestoneList(dr)
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: milestones %q, want %q", tc.name, got, want)
		}
	}
}

// TestAnyLanguage_PlanNames: plan names in price tables whose price column
// is labelled in words we do not know (found by its cells, every one a
// price), the period in that column's heading, and a free plan card in
// Turkish beside a paid one (freemium).
func TestAnyLanguage_PlanNames(t *testing.T) {
	for _, tc := range []struct {
		lang, path, title, body, model string
		want                           []string
	}{
		{"pl", "/cennik", "Cennik", `<h1>Cennik</h1><table><thead><tr><th>Plan</th><th>Cena</th><th>Pracownicy</th></tr></thead>
<tbody><tr><td>Start</td><td>19 zł / mies.</td><td>do 15</td></tr><tr><td>Firma</td><td>39 zł / mies.</td><td>do 60</td></tr></tbody></table>`,
			"subscription", []string{"Start", "19 zł", "Firma", "39 zł"}},
		{"ja", "/plan/", "料金プラン", `<h1>料金プラン</h1><table><tr><th>プラン</th><th>月額（税込）</th><th>配信数</th></tr>
<tr><td>ライト</td><td>1,980円</td><td>5,000通</td></tr><tr><td>ベーシック</td><td>4,980円</td><td>30,000通</td></tr></table>`,
			"subscription", []string{"ライト", "1,980円", "ベーシック", "4,980円"}},
		{"tr", "/fiyatlandirma", "Fiyatlandırma", `<h1>Fiyatlandırma</h1><div><h3>Kişisel</h3><p>Ücretsiz</p></div><div><h3>Ekip</h3><p>Kullanıcı başına aylık ₺89</p></div>`,
			"freemium", []string{"Kişisel", "Ekip", "₺89"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+tc.path+`">?</a></body></html>`,
			tc.path, `<html lang="`+tc.lang+`"><head><title>`+tc.title+` | Acme</title></head><body>`+tc.body+`</body></html>`)
		sum := dr.Fields["pricing_summary"].Text
		for _, w := range tc.want {
			if !strings.Contains(sum, w) {
				t.Errorf("%s: pricing_summary %q lacks %q", tc.lang, sum, w)
			}
		}
		if got := dr.Fields["pricing_model"].Text; got != tc.model {
			t.Errorf("%s: pricing_model %q, want %q", tc.lang, got, tc.model)
		}
	}
}

// TestAnyLanguage_City: the city of a footer or <address> line read by its
// form ("postcode City"), and of an address in Han or Hangul (the part
// ending in 市 or 시), in any language.
func TestAnyLanguage_City(t *testing.T) {
	for _, tc := range []struct{ lang, footer, want string }{
		{"pl", `<p>Acme sp. z o.o., ul. Długa 12, 80-831 Gdańsk</p>`, "Gdańsk"},
		{"sv", `<p>Acme AB · Storgatan 5, 211 42 Malmö · <a href="mailto:a@acme.example">a@acme.example</a></p>`, "Malmö"},
		{"cs", `<p>Acme s.r.o., Vinohradská 12, 120 00 Praha 2</p>`, "Praha"},
		{"tr", `<p>Acme A.Ş. · Atatürk Blv. No:45, 06420 Çankaya/Ankara</p>`, "Ankara"},
		{"zh", `<p>地址：广东省深圳市南山区科技园路 8 号</p>`, "深圳市"},
		{"ko", `<address>서울특별시 강남구 테헤란로 123, 대한민국</address>`, "서울특별시"},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><footer>`+tc.footer+`</footer></body></html>`)
		if got := dr.Fields["city"].Text; got != tc.want {
			t.Errorf("%s: city %q, want %q", tc.lang, got, tc.want)
		}
	}
}

// TestAnyLanguage_EmailOnBrandWithDiacritics: a product whose name has
// diacritics ("Dotazník", "Słówko") writes its domain without them, and the
// address on that domain is its own.
func TestAnyLanguage_EmailOnBrandWithDiacritics(t *testing.T) {
	for _, tc := range []struct{ lang, name, addr string }{
		{"cs", "Dotazník", "podpora@dotaznik.cz"},
		{"pl", "Słówko", "kontakt@slowko.pl"},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>`+tc.name+` — helpdesk</title><meta property="og:site_name" content="`+tc.name+`"></head><body><h1>`+tc.name+`</h1>
<footer><p><a href="mailto:`+tc.addr+`">`+tc.addr+`</a></p></footer></body></html>`)
		if got := dr.Fields["contact_email"].Text; got != tc.addr {
			t.Errorf("%s: contact_email %q, want %q", tc.name, got, tc.addr)
		}
	}
}

// TestAnyLanguage_FoundedYear: the founding year from a history entry that
// is the founding (when nothing else states it), and from founding verbs
// said by the founders themselves on an about page.
func TestAnyLanguage_FoundedYear(t *testing.T) {
	for _, tc := range []struct{ name, lang, path, body, want string }{
		{"zh history", "zh", "/about", `<h1>关于我们</h1><h2>大事记</h2><ul><li>2021年5月：公司成立</li><li>2022年9月：正式上线</li></ul>`, "2021"},
		{"ko history", "ko", "/about", `<h1>회사 소개</h1><h2>연혁</h2><ul><li>2022.03 법인 설립</li><li>2023.06 베타 출시</li></ul>`, "2022"},
		{"tr we", "tr", "/hakkimizda", `<h1>Hakkımızda</h1><p>2021 yılında Ankara'da kurulduk.</p>`, "2021"},
		{"pl they", "pl", "/kim-jestesmy", `<h1>Kim jesteśmy</h1><p>Firmę założyli w 2020 roku Ewa Mazur i Paweł Wójcik.</p>`, "2020"},
		{"not a founding", "ko", "/about", `<h1>회사 소개</h1><h2>연혁</h2><ul><li>2023.06 베타 출시</li><li>2024.01 포인트 기능</li></ul>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+tc.path+`">?</a></body></html>`,
			tc.path, `<html lang="`+tc.lang+`"><head><title>Acme</title></head><body>`+tc.body+`</body></html>`)
		if got := dr.Fields["founded_year"].Text; got != tc.want {
			t.Errorf("%s: founded_year %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAnyLanguage_FooterSocials: a one-page site whose name is in Hangul
// links its own profiles from its footer; a profile linked once from the
// page's body (a partner's) is not the site's.
func TestAnyLanguage_FooterSocials(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="ko"><head><title>말하기</title></head><body><h1>말하기 연습</h1>
<p>협력사 <a href="https://www.instagram.com/partnerstudio">파트너 스튜디오</a></p>
<footer><a href="https://www.youtube.com/@malhagilab">YouTube</a> <a href="https://x.com/malhagilab">X</a></footer></body></html>`)
	for pl, want := range map[string]string{"youtube": "https://www.youtube.com/@malhagilab", "x": "https://x.com/malhagilab", "instagram": ""} {
		if got := dr.Socials[pl].URL; got != want {
			t.Errorf("%s %q, want %q", pl, got, want)
		}
	}
}

// TestAnyLanguage_LDEmployees: an Organization's JSON-LD employees whose
// jobTitle is a founder's or an executive's are founders; an adviser and an
// engineer among them are not.
func TestAnyLanguage_LDEmployees(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Organization","name":"Acme","employee":[
{"@type":"Person","name":"Maya Chen","jobTitle":"Co-founder & CEO"},
{"@type":"Person","name":"Jonah Reyes","jobTitle":"CTO"},
{"@type":"Person","name":"Ann Lee","jobTitle":"Adviser"},
{"@type":"Person","name":"Bo Park","jobTitle":"Engineer"}]}</script></head><body><h1>Acme</h1></body></html>`)
	if got := founderList(dr); strings.Join(got, "; ") != "Maya Chen/Co-founder & CEO; Jonah Reyes/CTO" {
		t.Errorf("founders %q", got)
	}
}

// TestAnyLanguage_NameSlashRole: "Name / Role" lines in a team section;
// an adviser written the same way is not a founder.
func TestAnyLanguage_NameSlashRole(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/team">Team</a></body></html>`,
		"/team", `<html lang="en"><head><title>Team | Acme</title></head><body><h1>Our team</h1>
<p>Maya Chen / Co-founder &amp; CEO</p><p>Jonah Reyes / CTO</p><p>Ann Lee / Adviser</p></body></html>`)
	if got := founderList(dr); strings.Join(got, "; ") != "Maya Chen/Co-founder & CEO; Jonah Reyes/CTO" {
		t.Errorf("founders %q", got)
	}
}
