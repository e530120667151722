package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestAnyLanguage39_PlacesInImprintLines: the company's place from the line
// that names it, however the site marks it up: the pieces a separator sets
// apart on one line are read apart ("Pollen Learning Ltd · Leeds, United
// Kingdom · hello@…"), "UK" after a city is a country (no US state has that
// code), "Tallow is made in Lisbon, Portugal" (the product or "we" as the
// subject), and a line naming a legal form is the company's imprint even
// outside a <footer> (sites built with page builders mark none): a US state
// and ZIP, a Korean road address after 주식회사. Not: a company's name taken
// for its city, a hosting line, a customer's place.
func TestAnyLanguage39_PlacesInImprintLines(t *testing.T) {
	home := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div><div class="hero"><div>Shift handovers for care homes</div><div>Acme keeps notes in one place.</div></div>` + body + `</body></html>`
	}
	for _, c := range []struct {
		name, lang, body, city, country string
	}{
		{"pieces of a line", "en", `<div class="css-1dbjc4n"><div dir="auto">Acme Learning Ltd · Leeds, United Kingdom · <a href="mailto:hi@acme.example">hi@acme.example</a></div></div>`, "Leeds", "GB"},
		{"Eircode and a postal district", "en", `<div class="footer_bottom">Acme Software Ltd, 5 Hanover Quay, Dublin 2, D02 VY79, Ireland · <a href="mailto:hi@acme.example">hi@acme.example</a></div>`, "Dublin", "IE"},
		{"UK after the city", "en", `<div class="x"><p>© 2025 Acme Ltd · Bristol, UK · <a href="mailto:hi@acme.example">hi@acme.example</a></p></div>`, "Bristol", "GB"},
		{"the product made in", "en", `<footer><p>Acme is made in Lisbon, Portugal · <a href="mailto:hi@acme.example">hi@acme.example</a></p></footer>`, "Lisbon", "PT"},
		{"a legal form beside a US address", "en", `<div class="foot">Acme LLC · 1120 NW Couch St, Portland, OR 97209 · <a href="mailto:hi@acme.example">hi@acme.example</a></div>`, "Portland", "US"},
		{"주식회사 beside a road address", "ko", `<div class="ft"><p>주식회사 에이크미 | 부산광역시 해운대구 센텀중앙로 79 | 이메일 hi@acme.example</p></div>`, "부산광역시", "KR"},
		{"the name is no city", "en", `<div class="foot">Acme Learning Ltd · United Kingdom</div>`, "", "GB"},
		{"hosting", "en", `<div class="foot">Acme Ltd · Hosted in Frankfurt, Germany</div>`, "", ""},
		{"a host's legal form", "en", `<h2>Hosting</h2><p>Aruba S.p.A., Via San Clemente 53, 24036 Ponte San Pietro (BG), Italia</p>`, "", ""},
		{"someone else made in", "en", `<footer><p>Photos are made in Porto, Portugal by Rui Lima</p></footer>`, "", ""},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang, c.body))
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage39_StageAsStated: the stage as sites state it beside what
// is no longer true: a status pill "Now generally available" (not "Dark
// mode is now generally available"); a news item dated by a date element
// beside its title is the past ("Public beta opens"); a span of time spent
// in beta means the beta is over ("after a year in closed beta", "efter
// ett år i sluten beta", "β版を経て"), while "after the beta ends" does not;
// traction whatever the noun ("more than 2,300 marinas"); "We have been
// profitable since 2021"; a launch ahead in Korean beside an e-mail form (an
// app "출시 예정" without one is no stage).
func TestAnyLanguage39_StageAsStated(t *testing.T) {
	home := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div>` + body + `</body></html>`
	}
	news := `<div class="news"><div class="t">Latest news</div><div role="list"><div role="listitem"><div class="news-date">12 March 2024</div><a href="/n1" class="news-link">Acme public beta opens to 20 care homes</a></div>
<div role="listitem"><div class="news-date">3 September 2024</div><a href="/n2" class="news-link">Acme comes to Wales</a></div></div></div>`
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"status pill beside old news", "en", `<div class="pill-wrap"><div class="pill-text">Now generally available</div></div><div class="h">Handovers your team reads</div>` + news, "launched"},
		{"old news alone", "en", `<div class="h">Handovers your team reads</div>` + news, ""},
		{"a feature generally available", "en", `<div class="h">Handovers your team reads</div><p>Dark mode is now generally available.</p>`, ""},
		{"after months in beta", "en", `<div>After 18 months in public beta with 40 schools, the app is now open to all.</div>`, "launched"},
		{"efter ett år i sluten beta", "sv", `<div class="hero-notis">Acme finns nu för alla – efter ett år i sluten beta med 300 företagare.</div>`, "launched"},
		{"β版を経て", "ja", `<p>1年間のβ版を経て、Acmeは誰でも使えるようになりました。</p>`, "launched"},
		{"after the beta ends", "en", `<p>Acme is in public beta. Prices come after the beta ends.</p>`, "beta"},
		{"any noun", "en", `<div class="elementor-widget-text-editor"><p>Trusted by more than 2,300 marinas in 14 countries.</p></div>`, "growing"},
		{"millions are no small count", "en", `<p>Over 1.2 million gardeners use Acme every spring.</p>`, "growing"},
		{"profitable since", "en", `<div class="block-body"><p>We have been profitable since 2021 and answer to our customers.</p></div>`, "profitable"},
		{"출시 예정 beside a form", "ko", `<div class="hero"><div class="hero-title">세금, 대신 계산해 드려요</div><div class="hero-launch">2026년 봄 출시 예정입니다. 출시 알림을 받아 보세요.</div><form action="/notify" method="post"><input type="email" name="email"><button type="submit">알림 신청</button></form></div>`, "pre-launch"},
		{"an app 출시 예정, no form", "ko", `<div class="main-visual"><div class="tit">학원 출결 관리</div><div class="txt-s">안드로이드 앱 출시 예정</div></div>`, ""},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang, c.body))
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q (%v)", c.name, got, c.want, dr.Fields["stage"].Evidence)
		}
	}
}

// TestAnyLanguage39_PersonCards: founders from person cards whatever the
// markup: Webflow divs with a LinkedIn icon link, Framer <p>s, a WordPress
// "<strong>Name</strong><br>Role" paragraph, a role eyebrow above the name,
// Korean spans, Japanese cards with the role above the name (each name gets
// its own card's role, not the next card's). Not: employees' and advisers'
// cards, a customer's CEO on the home page, a testimonial card, cards under
// an Investors heading.
func TestAnyLanguage39_PersonCards(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want, not              []string
	}{
		{"webflow", "en", "/about", `<div class="heading-m">The people behind Acme</div><div class="team-grid">
<div class="team-card"><img src="/n.jpg" alt=""><div class="team-card__name">Nadia Okafor</div><div class="team-card__role">CEO &amp; Co-founder</div><a href="https://www.linkedin.com/in/nadia"><img src="/li.svg" alt=""></a></div>
<div class="team-card"><img src="/t.jpg" alt=""><div class="team-card__name">Tomasz Wren</div><div class="team-card__role">Co-founder &amp; CTO</div><a href="https://www.linkedin.com/in/tom"><img src="/li.svg" alt=""></a></div>
<div class="team-card"><div class="team-card__name">Ailsa Grant</div><div class="team-card__role">Customer Success Lead</div></div>
<div class="team-card"><div class="team-card__name">Robert Fyfe</div><div class="team-card__role">Clinical Advisor</div></div></div>`,
			[]string{"Nadia Okafor/CEO & Co-founder", "Tomasz Wren/Co-founder & CTO"}, []string{"Ailsa Grant", "Robert Fyfe"}},
		{"wordpress br", "en", "/about-us", `<h1>About Us</h1><div class="wp-block-columns"><div class="wp-block-column"><figure><img src="/m.jpg" alt="Marcus Feld"></figure><p><strong>Marcus Feld</strong><br>Founder &amp; CEO</p></div>
<div class="wp-block-column"><p><strong>Hannah Cole</strong><br>Co-Founder / COO</p></div><div class="wp-block-column"><p><strong>Diego Alvarez</strong><br>VP of Engineering</p></div></div>`,
			[]string{"Marcus Feld/Founder & CEO", "Hannah Cole/Co-Founder / COO"}, []string{"Diego Alvarez"}},
		{"eyebrow above the name", "en", "/about", `<div class="heading-style-h2">A small company</div><div class="about_founder"><div class="img"><img src="/z.jpg" alt=""></div><div class="about_founder-content"><div class="text-style-tagline">Founder</div><div class="heading-style-h3">Zoe Hart</div><div class="text-size-regular">Zoe ran production at two agencies for a decade.</div></div></div>
<div class="about_quote"><div class="text-size-large">“We got our Fridays back.”</div><div class="text-size-small">Conor Walsh</div><div>Managing Director</div></div>`,
			[]string{"Zoe Hart/Founder"}, []string{"Conor Walsh"}},
		{"korean spans", "ko", "/company", `<div class="sub-tit">회사소개</div><div class="people"><div class="person"><img src="/1.jpg" alt=""><span class="name">이수진</span><span class="pos">공동창업자 · CEO</span></div>
<div class="person"><span class="name">박현우</span><span class="pos">공동창업자 · CTO</span></div><div class="person"><span class="name">정민아</span><span class="pos">디자이너</span></div><div class="person"><span class="name">최동훈</span><span class="pos">자문위원</span></div></div>`,
			[]string{"이수진/공동창업자 · CEO", "박현우/공동창업자 · CTO"}, []string{"정민아", "최동훈"}},
		{"japanese role above name", "ja", "/company", `<p class="ttl">会社概要</p><div class="p-member__list">
<div class="p-member__item"><p class="p-member__role">代表取締役CEO／共同創業者</p><p class="p-member__name">田中 美咲</p></div>
<div class="p-member__item"><p class="p-member__role">取締役CTO／共同創業者</p><p class="p-member__name">山本 翔太</p></div>
<div class="p-member__item"><p class="p-member__role">社外取締役</p><p class="p-member__name">小林 誠</p></div></div>`,
			[]string{"田中 美咲/代表取締役CEO／共同創業者", "山本 翔太/取締役CTO／共同創業者"}, []string{"小林 誠"}},
		{"a customer founder", "en", "/about", `<h1>About</h1><h2>Loved by founders of birding clubs</h2><div><div>Ruth Ames</div><div>Founder, Fenland Birders</div></div>`,
			nil, []string{"Ruth Ames"}},
		{"investors heading", "en", "/team", `<h1>Team</h1><h2>Investors</h2><div class="grid"><div class="card"><div>Greg Tanaka</div><div>Founder, Northwind Ventures</div></div><div class="card"><div>Beth Moran</div><div>CEO</div></div></div>`,
			nil, []string{"Greg Tanaka", "Beth Moran"}},
	} {
		dr := draftLang(t, c.lang, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a><a href="`+c.path+`">About</a></div><div>Acme keeps notes.</div></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>About | Acme</title></head><body><div class="nav"><a href="/">Acme</a></div>`+c.body+`</body></html>`)
		checkFounders39(t, c.name, dr, c.want, c.not)
	}
	// the home page: a customer's CEO in a card is no founder
	dr := draftLang(t, "en", "/", `<html lang="en"><head><title>Acme</title></head><body><div>Acme keeps notes.</div><div class="grid"><div class="card"><div>Mark Chen</div><div>CEO</div><div>Brightside Studio</div></div></div></body></html>`)
	if len(dr.Founders) > 0 {
		t.Errorf("home page customer card: founders %v", dr.Founders)
	}
}

// TestAnyLanguage39_FoundingSentences: founders in sentences as other
// authors write them: a descriptor between "by" and the names, the names in
// apposition before the verb (with titles said later by first name: "is our
// chief technology officer", "as chief executive"), a Korean "A과 B가 공동
// 설립" with descriptors before each name, a press release's boilerplate and
// its attribution ("said A, CEO and co-founder of Acme"), a blog post that
// introduces the founders. Not: an investor's attribution, "A and B, who
// founded OtherCo", a post about another company's founders, a Korean pair
// of words that are no names.
func TestAnyLanguage39_FoundingSentences(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want, not              []string
	}{
		{"descriptor after by", "en", "/", `<div class="about"><p>Acme was founded in 2018 by husband-and-wife team Rachel Ames and Elliot Vance after a decade running a bistro.</p></div>`,
			[]string{"Rachel Ames/", "Elliot Vance/"}, nil},
		{"apposed names", "en", "/our-story", `<div role="heading" aria-level="1">Our story</div><div>In 2020 two former teachers, Amara Singh and Jonas Weber, started Acme in a spare room in Leeds.</div>
<div>Amara leads the company as chief executive; Jonas built the first engine and is our chief technology officer.</div><div>Two engineers, Kim Ode and Lars Berg, who founded Globex, advise us.</div>`,
			[]string{"Amara Singh/chief executive", "Jonas Weber/chief technology officer"}, []string{"Kim Ode", "Lars Berg"}},
		{"korean pair", "ko", "/about", `<div class="about-title">우리는 누구인가요</div><p>에이크미는 세무사 출신 김도윤과 개발자 오세린이 2024년에 공동 설립한 회사입니다.</p><p>기술과 디자인이 함께 설립 취지를 만듭니다.</p>`,
			[]string{"김도윤/", "오세린/"}, []string{"기술", "디자인"}},
		{"press release", "en", "/press", `<div class="text-3xl">Press</div><div class="prose"><p>“Small teams read the same clauses,” said Maya Lindqvist, CEO and co-founder of Acme. “We want them to think.”</p>
<p>“A rare product,” said Greg Tanaka, partner at Northwind Ventures, who joins Acme's board.</p>
<p><strong>About Acme</strong><br>Acme helps small legal teams. Founded in 2021 by Maya Lindqvist and Daniel Osei, the company is headquartered in Austin, Texas.</p></div>`,
			[]string{"Maya Lindqvist/CEO and co-founder", "Daniel Osei/"}, []string{"Greg Tanaka"}},
		{"founders post", "en", "/blog/meet-the-founders", `<h1>Meet the founders: a conversation with Ines Carvalho and Ravi Menon</h1><p>We sat down with our two co-founders.</p>`,
			[]string{"Ines Carvalho/", "Ravi Menon/"}, nil},
		{"another company's founders post", "en", "/blog/aurora", `<h1>Meet the founders of Padaria Aurora: a conversation with Helena Sousa and Rui Lima</h1>`,
			nil, []string{"Helena Sousa", "Rui Lima"}},
	} {
		pages := []string{"/", `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a><a href="` + c.path + `">About</a></div><div>Acme keeps notes.</div></body></html>`,
			c.path, `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div>` + c.body + `</body></html>`}
		if c.path == "/" {
			pages = pages[2:]
		}
		dr := draftLang(t, c.lang, pages...)
		var got []string
		for _, f := range dr.Founders {
			got = append(got, f.Name+"/"+f.Title)
		}
		for _, w := range c.want {
			if !slices.ContainsFunc(got, func(g string) bool { return g == w || strings.HasSuffix(w, "/") && strings.HasPrefix(g, w) }) {
				t.Errorf("%s: founders %q, want %q", c.name, got, w)
			}
		}
		for _, n := range c.not {
			for _, g := range got {
				if strings.HasPrefix(g, n) {
					t.Errorf("%s: %q drafted as a founder", c.name, g)
				}
			}
		}
	}
}

// TestAnyLanguage39_RoleAndNameTogether: a title and a Han or Hangul name in
// one text of an about page ("代表取締役CEO 田中美咲", "创始人兼CEO 陈晓东",
// "대표 김도윤", "山本 翔太（取締役CTO）"), and cards whose name has a middle
// initial ("Jane A. Doe"). Not: an outside director or adviser so written.
func TestAnyLanguage39_RoleAndNameTogether(t *testing.T) {
	for _, c := range []struct {
		name, lang, body string
		want, not        []string
	}{
		{"japanese", "ja", `<p class="ttl">会社概要</p><div class="member"><p>代表取締役CEO 田中美咲</p><p>山本 翔太（取締役CTO）</p><p>社外取締役 小林誠</p><p>顧問 伊藤彩</p></div>`,
			[]string{"田中美咲/代表取締役CEO", "山本 翔太/取締役CTO"}, []string{"小林誠", "伊藤彩"}},
		{"chinese", "zh", `<div class="t">关于我们</div><div class="m"><div>创始人兼CEO 陈晓东</div><div>战略顾问 王建国</div><div>联合创始人：林佳怡</div><div>投资人：赵峰</div></div>`,
			[]string{"陈晓东/创始人兼CEO", "林佳怡/联合创始人"}, []string{"王建国", "赵峰"}},
		{"latin title, Han name", "ja", `<p class="ttl">チーム</p><div class="member"><p>CEO 佐藤健太</p><p>CTO｜鈴木一郎</p></div>`,
			[]string{"佐藤健太/CEO", "鈴木一郎/CTO"}, nil},
		{"korean", "ko", `<div class="t">회사소개</div><div class="m"><p>대표 김도윤</p><p>고문 한미래</p></div>`,
			[]string{"김도윤/대표"}, []string{"한미래"}},
		{"middle initial", "en", `<div class="h">Our team</div><div class="card"><div>Jane A. Doe</div><div>Co-founder &amp; CEO</div></div><div class="card"><div>Dr. Helen Marsh</div><div>Advisor</div></div>`,
			[]string{"Jane A. Doe/Co-founder & CEO"}, []string{"Dr. Helen Marsh", "Helen Marsh"}},
	} {
		dr := draftLang(t, c.lang, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a><a href="/about">About</a></div><div>Acme keeps notes.</div></body></html>`,
			"/about", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		checkFounders39(t, c.name, dr, c.want, c.not)
	}
}

// TestAnyLanguage39_ComingSoonOfAFeature: "coming soon" is the product's
// stage when said of it or standing alone as a banner, never when said of
// an app, a plan or an integration of a product that is out.
func TestAnyLanguage39_ComingSoonOfAFeature(t *testing.T) {
	home := func(body string) string {
		return `<html lang="en"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div><div>Acme keeps stock counts for bakeries.</div>` + body + `</body></html>`
	}
	for _, c := range []struct{ name, body, want string }{
		{"an app", `<p>The Android app is coming soon.</p>`, ""},
		{"a plan", `<div class="card"><div>Enterprise</div><div>SSO and audit logs, coming soon</div></div>`, ""},
		{"the product", `<p>Acme is coming soon to bakeries in Lisbon.</p>`, "pre-launch"},
		{"a banner", `<div class="pill">Coming soon</div>`, "pre-launch"},
	} {
		if got := draftLang(t, "en", "/", home(c.body)).Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
}

// checkFounders39 checks that the drafted founders ("Name/Title") hold
// every want and no one named in not.
func checkFounders39(t *testing.T, name string, dr *domain.Drafted, want, not []string) {
	t.Helper()
	got := founderList(dr)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: founders %q, want %q", name, got, w)
		}
	}
	for _, n := range not {
		for _, g := range got {
			if strings.HasPrefix(g, n+"/") {
				t.Errorf("%s: %q drafted as a founder", name, g)
			}
		}
	}
}
