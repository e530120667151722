package extract_test

import "testing"

// TestAnyLanguage44_FoundersInProse: founders stated outside team grids: a
// blog post's byline with the author's role after a comma, a letter signed
// on two lines, a post signed with first names that the page gives in
// full, a co-founder named in passing in a story, "A and I started X", a
// Turkish "ortağım A ile ... kurduk", a Chinese "我和…A一起创办", the product's
// co-founders with their titles in parentheses, and a press kit's fact
// sheet whose founders carry their titles in parentheses. Guest authors,
// customers' captions, another company's co-founders and board members are
// never taken.
func TestAnyLanguage44_FoundersInProse(t *testing.T) {
	home := func(lang string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><nav><a href="/">Acme</a></nav><h1>Acme</h1><p>Acme keeps the books of small shops.</p>
<figure><blockquote>“We just launched our store.”</blockquote><figcaption>Oliver Grant, Founder, Grant &amp; Field Coffee</figcaption></figure></body></html>`
	}
	page := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><nav><a href="/">Acme</a></nav><main>` + body + `</main></body></html>`
	}
	for _, c := range []struct {
		name, lang, path, body, want string
	}{
		{"a byline", "en", "/blog/one-oh.html", `<article><header><h1>Acme 1.0</h1><p class="byline">By <a href="/a/d">Daniel Osei</a>, co-founder and CTO · <time>March 4, 2025</time></p></header><p>Today we tag 1.0.</p></article>`, "Daniel Osei [co-founder and CTO]"},
		{"a guest author's byline", "en", "/blog/guest.html", `<article><header><h1>On ledgers</h1><p class="byline">By Jane Doe, founder of Globex · May 2, 2025</p></header><p>Ledgers matter.</p></article>`, ""},
		{"a Turkish byline", "tr", "/blog/neden.html", `<article><h1>Neden kurduk?</h1><p class="yazar">Yazan: Emre Kaya, Kurucu Ortak &amp; CEO · 12 Şubat 2025</p><p>Merhaba.</p></article>`, "Emre Kaya [Kurucu Ortak & CEO]"},
		{"a customer's attribution in a post", "en", "/blog/bloom.html", `<article><h1>How Bloom closes the month</h1><p>“Acme saved us a day a month.”</p><p>— Jane Doe, Founder, Bloom</p></article>`, ""},
		{"a letter signed on two lines", "en", "/letter", `<h1>Why I built Acme</h1><p>Dear reader, thank you.</p><p class="signature">— Priya Natarajan<br><span>Founder &amp; CEO</span></p>`, "Priya Natarajan [Founder & CEO]"},
		{"a Chinese letter signed on two lines", "zh", "/letter.html", `<h1>为什么做</h1><p>谢谢。</p><p class="sign">—— 陈晓雯<br>创始人兼 CEO</p>`, "陈晓雯 [创始人兼 CEO]"},
		{"a post signed with first names", "en", "/news/joining.html", `<article><h1>Acme is joining Atlas</h1><p class="meta">September 10, 2024 · Samuel Ortiz and Lea Fischer</p><p>Thank you all.</p><p>— Sam &amp; Lea, co-founders</p></article>`, "Samuel Ortiz []; Lea Fischer []"},
		{"a co-founder named in passing", "en", "/story.html", `<h1>Our story</h1><p>Acme began in 2019, when Maya Chen and her co-founder Tom Reyes left their jobs at a bank.</p>`, "Maya Chen []; Tom Reyes []"},
		{"their titles by first name", "en", "/story.html", `<h1>Our story</h1><p>Acme began in 2019, when Maya Chen and her co-founder Tom Reyes left their jobs at a bank.</p><p>Maya runs the company as CEO and still answers the inbox. Tom is our CTO; he wrote the importers.</p>`, "Maya Chen [CEO]; Tom Reyes [CTO]"},
		{"a Docusaurus post's author block", "en", "/blog/hello", `<article><header><h1>Hello</h1><div class="avatar"><div class="avatar__intro"><div class="avatar__name"><a href="https://github.com/ana"><span>Ana Ruiz</span></a></div><small class="avatar__subtitle">Co-founder &amp; CEO</small></div></div></header><p>Today we open Acme to everyone.</p></article>`, "Ana Ruiz [Co-founder & CEO]"},
		{"a customer story's card", "en", "/blog/bloom", `<article><h1>How Bloom closes the month</h1><div class="card"><p class="name">Jane Doe</p><p class="role">Founder, Bloom</p></div><p>Jane runs a flower shop.</p></article>`, ""},
		{"a Ghost author card", "en", "/blog/ten-years/", `<article><h1>Ten years</h1><p>We sold our first ticket in 2015.</p><section class="gh-author-card"><h4>Jamie Lowe</h4><p>Jamie is a co-founder and the managing director of Acme.</p></section></article>`, "Jamie Lowe [co-founder and the managing director]"},
		{"another company's founder in an author card", "en", "/blog/guest/", `<article><h1>Guest post</h1><section class="gh-author-card"><h4>Jane Doe</h4><p>Jane is the founder of Globex.</p></section></article>`, ""},
		{"j'ai créé X avec A", "fr", "/lettre.html", `<h1>Pourquoi ?</h1><p>En 2023, j'ai créé Acme avec Thomas Girard, développeur, pour que le carnet ne se perde plus.</p>`, "Thomas Girard []"},
		{"a Korean byline", "ko", "/blog/why.html", `<article><h1>만든 이유</h1><p class="byline">글: 정하은, 공동창업자 · 대표 | 2025년 3월 2일</p><p>그래서 만들었습니다.</p></article>`, "정하은 [공동창업자 · 대표]"},
		{"A and I started X", "en", "/blog/why.html", `<article><h1>Why</h1><p>Two years ago Elena Duarte and I started Acme because we were tired.</p></article>`, "Elena Duarte []"},
		{"ortağım A ile kurduk", "tr", "/blog/hikaye.html", `<article><h1>Hikâye</h1><p>2024 yılında ortağım Zeynep Arslan ile Acme'yi kurduğumuzda ilk müşterimiz babamdı.</p></article>`, "Zeynep Arslan []"},
		{"我和…一起创办", "zh", "/letter.html", `<h1>信</h1><p>2023 年，我和大学同学周明一起创办了Acme。</p>`, "周明 []"},
		{"the product's co-founders with titles in parentheses", "en", "/team", `<h1>Who builds Acme</h1><p>Acme's co-founders, Ines Duval (CEO) and Marco Bellini (CTO), met as planners.</p><p>Dr. Helen Ward (former planning director) advises the company.</p>`, "Ines Duval [CEO]; Marco Bellini [CTO]"},
		{"another company's co-founders", "en", "/story.html", `<h1>Our story</h1><p>We learned a lot from Globex's co-founders, Ada Brennan and Kwame Mensah, at our first job.</p>`, ""},
		{"a press kit's fact sheet", "en", "/press", `<h1>Press kit</h1><dl><dt>Founded</dt><dd>2020</dd><dt>Founders</dt><dd>Ruth Adeyemi (CEO), Karan Mehta (CTO)</dd><dt>Board</dt><dd>Sophie Laurent (independent)</dd></dl>`, "Ruth Adeyemi [CEO]; Karan Mehta [CTO]"},
		{"a Japanese fact sheet", "ja", "/press.html", `<h1>プレスキット</h1><dl><dt>設立</dt><dd>2022年6月</dd><dt>創業者</dt><dd>山本 健太（代表取締役CEO）、佐藤 花（取締役CTO）</dd></dl>`, "山本 健太 [代表取締役CEO]; 佐藤 花 [取締役CTO]"},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang), c.path, page(c.lang, c.body))
		if got := founderLine(dr); got != c.want {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage44_StageInProse: stage said of competitors or in a
// comparison section is not the product's ("Some of our competitors are
// still in beta", "tools like MapForge are used by more than 50,000 teams",
// "市面上的记账软件已有超过 500 万家企业在用"); a press kit's customers row of
// 1,000 or more is growing; "1.0 was released", "seit ... für alle
// verfügbar" are a launch; "Beta sürümü yayında" is a beta.
func TestAnyLanguage44_StageInProse(t *testing.T) {
	home := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div><h1>Acme</h1><p>Acme keeps zoning maps.</p>` + body + `</body></html>`
	}
	for _, c := range []struct {
		name, lang, body, press, want string
	}{
		{"competitors still in beta", "en", `<h2>Acme or a spreadsheet?</h2><p>Some of our competitors are still in beta after four years; we would rather ship it finished.</p>`, "", ""},
		{"a competitor's traction beside early access", "en", `<p><a class="button" href="/access">Request early access</a></p><h2>Why not a general GIS tool?</h2><p>General tools like MapForge are used by more than 50,000 teams, and they are excellent at maps.</p>`, "", "beta"},
		{"市面上 traction", "zh", `<p>小店记账。</p><h2>和传统记账软件有什么不同？</h2><p>市面上的记账软件已有超过 500 万家企业在用，但它们是为会计设计的。</p>`, "", ""},
		{"a press kit's customers row", "en", ``, `<h1>Press kit</h1><dl><dt>Founded</dt><dd>2020</dd><dt>Customers</dt><dd>More than 3,200 accounting firms in 14 countries</dd></dl>`, "growing"},
		{"a customers row under a thousand", "en", ``, `<h1>Press kit</h1><dl><dt>Customers</dt><dd>About 600 accounting firms</dd></dl>`, ""},
		{"1.0 was released", "en", `<div class="admonition note"><p class="admonition-title">Version 1.0 is here</p><p>Acme 1.0 was released in June 2024. The options are now stable.</p></div>`, "", "launched"},
		{"für alle verfügbar", "de", `<p class="hinweis">Nach einer einjährigen Testphase ist Acme seit Mai 2024 für alle Betriebe verfügbar.</p>`, "", "launched"},
		{"a 'We just launched' badge", "en", `<header class="hero"><span class="badge">We just launched</span><h2>Logs</h2></header>`, "", "launched"},
		{"en accès anticipé", "fr", `<p class="bandeau">Acme est en accès anticipé : nous ouvrons de nouvelles cliniques chaque semaine.</p>`, "", "beta"},
		{"베타 서비스 기간", "ko", `<p class="badge">지금은 베타 서비스 기간입니다. 모든 기능을 무료로 써 보세요.</p>`, "", "beta"},
		{"beta sürümü yayında", "tr", `<p class="rozet">Beta sürümü yayında: ilk üç ay ücretsiz deneyin.</p>`, "", "beta"},
	} {
		pages := []string{"/", home(c.lang, c.body)}
		if c.press != "" {
			pages = append(pages, "/press", `<html lang="`+c.lang+`"><head><title>Press · Acme</title></head><body>`+c.press+`</body></html>`)
		}
		dr := draftLang(t, c.lang, pages...)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q (%v)", c.name, got, c.want, dr.Fields["stage"].Evidence)
		}
	}
}
