package extract_test

import (
	"slices"
	"testing"
)

// TestAnyLanguage37_StageByStructure: the stage from the page's structure
// when no sentence states it: a badge beside the logo in the site's header
// (beta, β版), an early-access call to action (beta), a form with an e-mail
// field that names a waitlist (pre-launch), a changelog or news entry that
// announces version 1.0 (launched; an earlier "Public beta opens" entry of
// that changelog is history, never the stage). Not: a "Beta" menu entry
// leading to another page, a newsletter form, a bare "v1.0.0" heading,
// a patch release, prices alone.
func TestAnyLanguage37_StageByStructure(t *testing.T) {
	page := func(lang, header, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><header><a href="/"><img src="/logo.png" alt="Acme"></a>` +
			header + `</header><main><h1>Acme</h1><p>Acme plans shifts for small shops.</p>` + body + `</main></body></html>`
	}
	for _, tc := range []struct {
		name  string
		pages []string
		want  string
	}{
		{"badge", []string{"/", page("en", `<span class="pill">Beta</span><nav><a href="/team">Team</a></nav>`, "")}, "beta"},
		{"badge ja", []string{"/", page("ja", `<span class="badge">β版</span>`, "")}, "beta"},
		{"badge in the logo link", []string{"/", `<html lang="de"><head><title>Acme</title></head><body><header><a href="/"><img src="/l.png" alt="Acme"><sup>beta</sup></a></header><main><h1>Acme</h1></main></body></html>`}, "beta"},
		{"beta menu entry", []string{"/", page("en", `<nav><a href="/beta-program"><span>Beta</span></a></nav>`, "")}, ""},
		{"early access", []string{"/", page("en", `<a class="cta" href="/early-access">Request early access</a>`, "")}, "beta"},
		{"waitlist form", []string{"/", page("en", "", `<form action="/w"><input type="email" name="email"><button>Get on the waitlist</button></form>`)}, "pre-launch"},
		{"waitlist form pl", []string{"/", page("pl", "", `<form><input type="email"><button type="submit">Zapisz się na listę oczekujących</button></form>`)}, "pre-launch"},
		{"newsletter form", []string{"/", page("en", "", `<form><input type="email"><button>Subscribe to our newsletter</button></form>`)}, ""},
		{"1.0 released, beta before", []string{"/", page("en", "", ""), "/changelog", page("en", "", `<h1>Changelog</h1><article><h2>v1.0</h2><p><time datetime="2024-09-03">September 3, 2024</time></p><p>Acme 1.0 released: out of beta.</p></article>
<article><h2>v0.9</h2><p><time datetime="2024-03-11">March 11, 2024</time></p><p>Public beta opens.</p></article>`)}, "launched"},
		{"1.0 on a Korean news page", []string{"/", page("ko", "", ""), "/news", page("ko", "", `<h1>소식</h1><article><h2>Acme 1.0 정식 출시</h2><p>2023.03.02</p></article><article><h2>베타 테스트 시작</h2><p>2022.09.15</p></article>`)}, "launched"},
		{"bare version heading", []string{"/", page("en", "", ""), "/changelog", page("en", "", `<h1>Changelog</h1><h2>v1.0.0 (2023-06-30)</h2><ul><li>Export to CSV</li></ul>`)}, ""},
		{"patch release", []string{"/", page("en", "", ""), "/changelog", page("en", "", `<h1>Changelog</h1><h2>Acme 1.0.3 released</h2><p>Fixes.</p>`)}, ""},
		{"millions", []string{"/", page("en", "", `<p>Over 1.2 million gardeners use Acme every spring.</p>`)}, "growing"},
		{"used by millions", []string{"/", page("en", "", `<p>Used by 3M+ people in 40 countries.</p>`)}, "growing"},
		{"a million of something else", []string{"/", page("en", "", `<p>We have planted 1 million trees since 2020.</p>`)}, ""},
		{"notify me at launch", []string{"/", page("en", "", `<section><h2>Launching spring 2026</h2><p>Leave your address.</p><form><input type="email" name="email"><button>Notify me at launch</button></form></section>`)}, "pre-launch"},
		{"prices alone", []string{"/", page("en", "", ""), "/pricing", page("en", "", `<h1>Pricing</h1><div><h2>Solo</h2><p>$12 / month</p></div>`)}, ""},
	} {
		dr := draftPages(t, tc.pages...)
		if got := dr.Fields["stage"].Text; got != tc.want {
			t.Errorf("%s: stage %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAnyLanguage37_FoundersByStructure: founders by the structure of about
// and team pages: the dash attribution of a founder's own quote, a title in
// apposition inside a founding sentence, a name element and a title element
// under a Founders heading. Not: a customer's quote, someone else's CEO in
// apposition, employees, advisers and investors under their own headings.
func TestAnyLanguage37_FoundersByStructure(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want, not              []string
	}{
		{"quote attributions", "en", "/about", `<h1>About Acme</h1><figure class="founder-quote"><blockquote><p>One screen for the tide.</p></blockquote><figcaption>— Tom Reyes, co-founder and CEO</figcaption></figure>
<figure><blockquote><p>Cold, wet hands.</p></blockquote><figcaption>– Amara Singh, co-founder</figcaption></figure>
<h2>What sailors say</h2><figure><blockquote><p>Great app.</p></blockquote><figcaption>— Sarah Lim, founder of Oban Sailing</figcaption></figure>`,
			[]string{"Tom Reyes/co-founder and CEO", "Amara Singh/co-founder"}, []string{"Sarah Lim"}},
		{"Polish attributions", "pl", "/o-nas", `<h1>O nas</h1><figure class="cytat"><blockquote><p>Grafik w piątek.</p></blockquote><figcaption>— Katarzyna Nowak, współzałożycielka i prezes zarządu</figcaption></figure>
<figure class="cytat"><blockquote><p>Zmiana w minutę.</p></blockquote><figcaption>— Piotr Zając, współzałożyciel, CTO</figcaption></figure>
<section><h2>Opinie</h2><figure><blockquote><p>Oszczędzam czas.</p></blockquote><figcaption>— Marta Kowalczyk, piekarnia w Gdyni</figcaption></figure></section>`,
			[]string{"Katarzyna Nowak/współzałożycielka i prezes zarządu", "Piotr Zając/współzałożyciel, CTO"}, []string{"Marta Kowalczyk"}},
		{"appositions", "en", "/our-story", `<h1>Our story</h1><p>Priya Nair, our CEO, started Acme in 2021 after ten years of spreadsheets. She co-founded it with Tom Becker, now our CTO, who automated the boring parts.</p>
<p>Our accountant in residence, Grace Liu, checks every rule. Jane Roe, CEO of Globex, founded a club with us.</p>`,
			[]string{"Priya Nair/our CEO", "Tom Becker/CTO"}, []string{"Grace Liu", "Jane Roe"}},
		{"French appositions", "fr", "/notre-histoire", `<h1>Notre histoire</h1><p>Claire Martin, notre présidente, a fondé Acme en 2020 avec Hugo Petit, aujourd'hui directeur technique, après deux ans de bouchons.</p>`,
			[]string{"Claire Martin/présidente", "Hugo Petit/directeur technique"}, nil},
		{"lists under headings", "en", "/people", `<h1>People</h1><h2>Founders</h2><ul><li><strong>Ruth Adeyemi</strong> <span>Chief Executive</span></li><li><strong>Sam Whitaker</strong> <span>Engineering</span></li></ul>
<h2>Team</h2><ul><li><strong>Priyanka Shah</strong> <span>Support Lead</span></li></ul><h2>Advisors</h2><ul><li><strong>Martin Hale</strong> <span>Retail logistics</span></li></ul>
<h2>Investors</h2><ul><li><strong>Beth Moran</strong> <span>Angel</span></li></ul>`,
			[]string{"Ruth Adeyemi/Chief Executive", "Sam Whitaker/Engineering"}, []string{"Priyanka Shah", "Martin Hale", "Beth Moran", "Sam Whitaker Engineering"}},
	} {
		dr := draftLang(t, c.lang, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><nav><a href="`+c.path+`">About</a></nav></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		got := founderList(dr)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: founders %q, want %q", c.name, got, w)
			}
		}
		for _, f := range dr.Founders {
			for _, n := range c.not {
				if f.Name == n {
					t.Errorf("%s: %q drafted as a founder (%q)", c.name, n, got)
				}
			}
		}
	}
}

// TestAnyLanguage37_SeatRowCityCountry: a company-facts row whose value is
// "City, Country" without a postcode gives both ("Headquarters | Dublin,
// Ireland", "HQ: Lisbon, Portugal"); a row of another label (Investors) or a
// value that is no place gives neither.
func TestAnyLanguage37_SeatRowCityCountry(t *testing.T) {
	for _, c := range []struct{ name, body, city, country string }{
		{"dl headquarters", `<dl><dt>Founded</dt><dd>2024</dd><dt>Headquarters</dt><dd>Dublin, Ireland</dd></dl>`, "Dublin", "IE"},
		{"table HQ", `<table><tr><th>HQ</th><td>Lisbon, Portugal</td></tr></table>`, "Lisbon", "PT"},
		{"other label", `<dl><dt>Investors</dt><dd>Northwind Ventures, Ireland</dd></dl>`, "", ""},
		{"not a place", `<dl><dt>Location</dt><dd>remote-first, everywhere</dd></dl>`, "", ""},
	} {
		dr := draftPages(t, "/", acmeHead+`<h1>Acme</h1><a href="/company">Company</a></body></html>`,
			"/company", acmeHead+`<h1>Company</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage37_CityBeforePostcode: an address line that ends with the
// city and a postcode of one country's form gives the city and the country
// ("London EC1V 9HX" in an <address>, "Austin, TX 78701" in a footer); a
// city before five digits on an English site names no country.
func TestAnyLanguage37_CityBeforePostcode(t *testing.T) {
	for _, c := range []struct{ name, body, city, country string }{
		{"London address block", `<h1>Acme</h1><address>Acme Ltd<br>Unit 4, 12 Old Street<br>London EC1V 9HX</address>`, "London", "GB"},
		{"US footer", `<h1>Acme</h1><footer><p>Acme, Inc. · 401 Congress Avenue, Austin, TX 78701 · <a href="mailto:hi@acme.example">hi@acme.example</a></p></footer>`, "Austin", "US"},
		{"five digits", `<h1>Acme</h1><footer><p>Acme · Springfield 12345</p></footer>`, "", ""},
	} {
		dr := draftPages(t, "/", acmeHead+c.body+`</body></html>`)
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage37_FounderHeadingsAndSentences: a name heading holding the
// role in a <small>; "started in 2019 by two neighbours, A and B" and "Our
// founders, A and B," with the titles given later by first name ("Rosa runs
// the company as CEO"). Not: an advisor's heading, an angel investor named
// in a sentence, a first name whose "as" clause names no title.
func TestAnyLanguage37_FounderHeadingsAndSentences(t *testing.T) {
	for _, c := range []struct {
		name, path, body string
		want, not        []string
	}{
		{"roles in small", "/team", `<h1>Team</h1><article><h3>Eleanor Voss <small>Founder &amp; CEO</small></h3><p>Grants.</p></article>
<article><h3>Kwame Mensah <small>Co-founder &amp; CTO</small></h3></article><article><h3>Lucy Grant <small>Community</small></h3></article>
<article><h3>Ian Shore <small>Advisor</small></h3></article>`,
			[]string{"Eleanor Voss/Founder & CEO", "Kwame Mensah/Co-founder & CTO"}, []string{"Lucy Grant", "Ian Shore"}},
		{"counted noun and plural", "/about-us", `<h1>About us</h1><p>Acme was started in 2019 by two neighbours, Rosa Delgado and Ben Hartley, who kept losing track of their beds.</p>
<p>Our founders, Rosa Delgado and Ben Hartley, still answer support email on Fridays.</p><p>Rosa runs the company as CEO; Ben leads engineering as CTO.</p>
<h2>Our investors</h2><p>We are backed by angel investor Mark Levin.</p>`,
			[]string{"Rosa Delgado/CEO", "Ben Hartley/CTO"}, []string{"Mark Levin"}},
		{"no title", "/about-us", `<h1>About us</h1><p>Our founders, Rosa Delgado and Ben Hartley, met at a garden club.</p><p>Rosa works as a gardener on weekends.</p>`,
			[]string{"Rosa Delgado/", "Ben Hartley/"}, nil},
	} {
		dr := draftLang(t, "en", "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><nav><a href="`+c.path+`">About</a></nav></body></html>`,
			c.path, `<html lang="en"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		got := founderList(dr)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: founders %q, want %q", c.name, got, w)
			}
		}
		for _, f := range dr.Founders {
			if slices.Contains(c.not, f.Name) {
				t.Errorf("%s: %q drafted as a founder (%q)", c.name, f.Name, got)
			}
		}
	}
}

// TestAnyLanguage37_PersonMarkup: a Schema.org Person with a founder's or
// executive's jobTitle, in JSON-LD (worksFor naming the product, or on an
// about page a founder's title) or in microdata on a team page. Not: a
// Person working for another company, an employee's or advisor's jobTitle.
func TestAnyLanguage37_PersonMarkup(t *testing.T) {
	ld := `<script type="application/ld+json">[{"@context":"https://schema.org","@type":"Person","name":"Maya Chen","jobTitle":"Co-founder & CEO","worksFor":{"@type":"Organization","name":"Acme"}},
{"@context":"https://schema.org","@type":"Person","name":"Leo Park","jobTitle":"Co-founder","worksFor":"Acme"},
{"@context":"https://schema.org","@type":"Person","name":"Nora Diaz","jobTitle":"CEO","worksFor":{"@type":"Organization","name":"Globex"}},
{"@context":"https://schema.org","@type":"Person","name":"Omar Reed","jobTitle":"Senior Engineer","worksFor":{"@type":"Organization","name":"Acme"}}]</script>`
	micro := `<div itemscope itemtype="https://schema.org/Person"><img src="/a.jpg" alt=""><span itemprop="name">Ines Duarte</span><span itemprop="jobTitle">Founder and CTO</span></div>
<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Paul Ek</span><span itemprop="jobTitle">Advisor</span></div>
<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Rita Moss</span><span itemprop="jobTitle">Support</span></div>`
	dr := draftLang(t, "en", "/", `<html lang="en"><head><title>Acme</title>`+ld+`</head><body><h1>Acme</h1><nav><a href="/team">Team</a></nav></body></html>`,
		"/team", `<html lang="en"><head><title>Team - Acme</title></head><body><h1>Team</h1>`+micro+`</body></html>`)
	got := founderList(dr)
	for _, w := range []string{"Maya Chen/Co-founder & CEO", "Leo Park/Co-founder", "Ines Duarte/Founder and CTO"} {
		if !slices.Contains(got, w) {
			t.Errorf("founders %q, want %q", got, w)
		}
	}
	for _, f := range dr.Founders {
		if slices.Contains([]string{"Nora Diaz", "Omar Reed", "Paul Ek", "Rita Moss"}, f.Name) {
			t.Errorf("%q drafted as a founder (%q)", f.Name, got)
		}
	}
}

// TestAnyLanguage37_TitleWithDepartment: a card's title followed by the
// area the founder leads ("Co-founder, Engineering", "Mitgründerin,
// Technik") is still a title here; one followed by another company's name
// ("Founder, Hale Bikes") is not.
func TestAnyLanguage37_TitleWithDepartment(t *testing.T) {
	for _, c := range []struct{ lang, path, body, want, not string }{
		{"en", "/team", `<h1>Team</h1><div><h3>Ana Souza</h3><p>Co-founder, Engineering</p></div><div><h3>Hal Burke</h3><p>Founder, Hale Bikes</p></div>`, "Ana Souza/Co-founder, Engineering", "Hal Burke"},
		{"de", "/ueber-uns", `<h1>Über uns</h1><div><p>Lena Brandt</p><p>Mitgründerin, Technik</p></div>`, "Lena Brandt/Mitgründerin, Technik", ""},
	} {
		dr := draftLang(t, c.lang, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><nav><a href="`+c.path+`">Team</a></nav></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		got := founderList(dr)
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: founders %q, want %q", c.lang, got, c.want)
		}
		for _, f := range dr.Founders {
			if c.not != "" && f.Name == c.not {
				t.Errorf("%s: %q drafted as a founder (%q)", c.lang, f.Name, got)
			}
		}
	}
}

// TestAnyLanguage37_FooterParticipleIn: a footer's "Brewed in Bristol,
// England" or "Designed in Porto, Portugal" gives the city and the country;
// "Hosted in Frankfurt, Germany" (the host's) and a participle without a
// country give neither.
func TestAnyLanguage37_FooterParticipleIn(t *testing.T) {
	for _, c := range []struct{ foot, city, country string }{
		{"Brewed in Bristol, England", "Bristol", "GB"},
		{"Acme · Designed in Porto, Portugal", "Porto", "PT"},
		{"Hosted in Frankfurt, Germany", "", ""},
		{"Roasted in Leeds", "", ""},
	} {
		dr := draftPages(t, "/", acmeHead+`<h1>Acme</h1><footer><p>`+c.foot+`</p></footer></body></html>`)
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%q: city %q, want %q", c.foot, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%q: country %q, want %q", c.foot, got, c.country)
		}
	}
}
