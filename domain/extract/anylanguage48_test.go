package extract_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// page48 is a page of Acme in lang: div soup without headings, a footer
// div, the way small teams' builders write it.
func page48(lang, title, body, footer string) string {
	return `<html lang="` + lang + `"><head><title>` + title + `</title></head><body><div class="top"><a href="/">Acme</a></div><div class="copy">` + body + `</div><div class="footer">` + footer + `</div></body></html>`
}

// TestAnyLanguage48_StartYear: a founding year said without a founding verb
// ("began in", "has been around since", "existe depuis", "startade", "the
// first line of code ... 2020, when I"), a passive founding verb whose year
// ends a long "by ...", a founding verb first with "we" after it, and an
// "est." label beside a copyright part of the same footer line; never a
// feature that began, a customer that has been around, a copyright range
// or a year in a relative clause.
func TestAnyLanguage48_StartYear(t *testing.T) {
	for _, c := range []struct {
		name, lang, body, footer, want string
	}{
		{"began in", "en", `<p>Acme began in 2021 as a spreadsheet in the back room of a shop.</p>`, `© 2026 Acme Ltd`, "2021"},
		{"been around since", "en", `<p>Acme has been around since 2019. It is a two-person company.</p>`, `© 2026 Acme Ltd`, "2019"},
		{"French existence since", "fr", `<p>Acme existe depuis 2019. Nous sommes six.</p>`, `© 2026 Acme SAS`, "2019"},
		{"Swedish start", "sv", `<p>Acme startade 2022 i en källare i Umeå.</p>`, `Acme AB`, "2022"},
		{"the first line of code", "en", `<p>The first line of code went in during March 2020, when I was stuck at home.</p>`, `© 2026`, "2020"},
		{"a passive verb with a long by", "en", `<p>Acme was started by two friends, Dana and Omar, over a kitchen table in 2021.</p>`, `© 2026 Acme`, "2021"},
		{"the verb first, then we", "de", `<p>Gegründet haben wir Acme 2020 zu zweit: Jana, Lehrerin und heute unsere Geschäftsführerin, und Lukas.</p>`, `© 2026 Acme GmbH`, "2020"},
		{"est. beside a copyright part", "en", `<p>Acme keeps walks and keys in one place.</p>`, `Acme · est. 2018 · © 2016–2026 Acme ApS`, "2018"},
		{"a feature that began", "en", `<p>Acme began offering SSO in 2023.</p>`, `© 2026 Acme`, ""},
		{"a customer around since", "en", `<p>Our customer Globex has been around since 1998.</p>`, `© 2026 Acme`, ""},
		{"a copyright range", "en", `<p>Acme keeps walks and keys in one place.</p>`, `© 2016–2026 Acme Inc.`, ""},
		{"a year in a relative clause", "en", `<p>Acme was started by Jane, who had run support teams since 2012.</p>`, `© 2026 Acme`, ""},
	} {
		dr := draftPages(t, "/", page48(c.lang, "Acme", c.body, c.footer))
		if got := dr.Fields["founded_year"].Text; got != c.want {
			t.Errorf("%s: founded_year %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage48_CityRegionPair: a footer's "City, State" pair gives the
// city, not the state, and a US street's number and name ("512 Congress
// Ave") is no postcode and city.
func TestAnyLanguage48_CityRegionPair(t *testing.T) {
	for _, c := range []struct{ name, footer, want string }{
		{"a company, then city and state", `<p>Acme Patterns LLC · Portland, Oregon</p>`, "Portland"},
		{"a street, city and state", `<p>Acme Ltd · 512 Congress Ave, Austin, Texas</p>`, "Austin"},
		{"a company and a city alone", `<p>Acme AB · Göteborg</p>`, "Göteborg"},
	} {
		dr := draftPages(t, "/", page48("en", "Acme", `<p>Acme keeps books.</p>`, c.footer))
		if got := dr.Fields["city"].Text; got != c.want {
			t.Errorf("%s: city %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage48_StageInProse: an invitation-only product is in beta,
// "still in beta" in Swedish and Polish, a count of users after "korzysta z
// nas już ponad", "Acme v1.0 is out", "We launched Acme to the public", a
// status before a dash; a feature's beta or invitation says nothing.
func TestAnyLanguage48_StageInProse(t *testing.T) {
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"invite-only", "en", `<p>Acme is still early. It's invite-only for now: about sixty people use it, and I add more every week.</p>`, "beta"},
		{"nur auf Einladung", "de", `<p>Acme gibt es derzeit nur auf Einladung: wir lassen jede Woche neue Schulen herein.</p>`, "beta"},
		{"Swedish still in beta", "sv", `<p>Vi är fortfarande i beta och testar tillsammans med fyra kommuner.</p>`, "beta"},
		{"Polish still in beta", "pl", `<p>Wciąż jesteśmy w becie, więc prosimy o cierpliwość.</p>`, "beta"},
		{"a Polish count after three words", "pl", `<p>Korzysta z nas już ponad 2 000 biur rachunkowych w całej Polsce.</p>`, "growing"},
		{"a v1.0 out", "en", `<p><strong>Acme v1.0 is out.</strong> The first stable release shipped this spring.</p>`, "launched"},
		{"launched the product to the public", "en", `<p>We launched Acme to the public in September 2022.</p>`, "launched"},
		{"a status before a dash", "en", `<p>Generally available since May 2023 — no waitlist, no invite codes.</p>`, "launched"},
		{"a feature in beta", "sv", `<p>Exporten till Excel är fortfarande i beta.</p>`, ""},
		{"a feature by invitation", "en", `<p>Single sign-on is invite-only for enterprise accounts.</p>`, ""},
	} {
		dr := draftPages(t, "/", page48(c.lang, "Acme", c.body, `© 2026 Acme`))
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
}

// founderNames48 lists a draft's founders as "Name (title)".
func founderNames48(dr *domain.Drafted) []string {
	var out []string
	for _, f := range dr.Founders {
		out = append(out, f.Name+" ("+f.Title+")")
	}
	return out
}

// TestAnyLanguage48_FoundersInProse: founders as makers write them: "Acme
// is made by A and B", "Hi, I'm A, and I build Acme alone", "fondé par A,
// notre présidente, ancienne ..., et par B", a leadership line "A — Chief
// Executive"; a credit for icons and a user who builds with the product
// are no founders.
func TestAnyLanguage48_FoundersInProse(t *testing.T) {
	home := page48("en", "Acme", `<p>Acme keeps books.</p>`, `© 2026 Acme`)
	for _, c := range []struct {
		name, lang, body string
		want             []string
	}{
		{"made by two", "en", `<p>Acme is made by Lena Fischer and Jonas Berg in Asheville.</p>`, []string{"Lena Fischer ()", "Jonas Berg ()"}},
		{"a solo maker who builds it", "en", `<p>Hi, I'm Theo Brandt, and I build Acme alone, mostly at night after my day job.</p>`, []string{"Theo Brandt ()"}},
		{"et par after an apposition", "fr", `<p>Acme a été fondé par Élise Martin, notre présidente, ancienne auxiliaire de puériculture, et par Hugo Lefèvre, développeur et papa de jumeaux.</p>`,
			[]string{"Élise Martin (notre présidente)", "Hugo Lefèvre ()"}},
		{"a chief executive", "en", `<h3>Leadership</h3><ul><li>Jess Albright — Chief Executive</li><li>Sofia Lind — Head of Design</li></ul>`, []string{"Jess Albright (Chief Executive)"}},
		{"an icon credit", "en", `<p>Icons are made by Mira Lind. Thanks!</p>`, nil},
		{"a user who builds with it", "en", `<p>I'm Jane Doe and I build websites with Acme every day.</p>`, nil},
	} {
		dr := draftPages(t, "/", home, "/about", page48(c.lang, "About", c.body, `© 2026 Acme`))
		if got := founderNames48(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage48_FounderLists: a founders' letter signed "A & B /
// Founders" (a blog post), "Założyciele: A (prezes zarządu) i B (CTO)", a
// leadership list whose only founder is "Founder & Chief Executive" (the
// COO beside her is an employee), while beside a "Co-founder & CTO" the CEO
// stays; a title written after a dash is drafted without it.
func TestAnyLanguage48_FounderLists(t *testing.T) {
	home := page48("en", "Acme", `<p>Acme keeps books.</p>`, `© 2026 Acme`)
	for _, c := range []struct {
		name, path, lang, body string
		want                   []string
	}{
		{"a signature on a founders' letter", "/blog/why-acme.html", "en", `<h1>Why we made Acme</h1><p>Thank you for walking with us.</p><p class="sig">Mateo Ruiz &amp; Hana Sato<br>Founders</p>`,
			[]string{"Mateo Ruiz ()", "Hana Sato ()"}},
		{"a Polish founders' label", "/o-nas", "pl", `<p>Założyciele: Anna Nowak (prezes zarządu) i Piotr Zieliński (CTO).</p>`,
			[]string{"Anna Nowak (prezes zarządu)", "Piotr Zieliński (CTO)"}},
		{"one founder, then an employee", "/about", "en", `<div class="l"><span class="n">Aoife Brennan</span><br><em>Founder &amp; Chief Executive</em></div>` +
			`<div class="l"><span class="n">Grace Okafor</span><br><em>Chief Operating Officer</em></div>`, []string{"Aoife Brennan (Founder & Chief Executive)"}},
		{"a co-founder beside the CEO", "/about", "en", `<div class="l"><span class="n">Budi Santoso</span><br><em>CEO</em></div>` +
			`<div class="l"><span class="n">Siti Rahmawati</span><br><em>Co-founder &amp; CTO</em></div>`, []string{"Budi Santoso (CEO)", "Siti Rahmawati (Co-founder & CTO)"}},
		{"a title after a dash", "/about", "en", `<div class="people"><div class="member"><p><b>Omar Haddad</b> – co-founder &amp; CTO</p></div><div class="member"><p><b>Lucy Park</b> (Support lead)</p></div></div>`,
			[]string{"Omar Haddad (co-founder & CTO)"}},
	} {
		dr := draftPages(t, "/", home, c.path, page48(c.lang, "About", c.body, `© 2026 Acme`))
		if got := founderNames48(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage48_DivTimeline: a timeline of div rows (a year block and a
// text block) gives its milestones, and its first entry, in which someone
// founds the product, the founding year; a changelog's dated div rows are
// not a timeline.
func TestAnyLanguage48_DivTimeline(t *testing.T) {
	home := page48("en", "Acme", `<p>Acme reads contracts twice.</p>`, `© 2026 Acme`)
	rows := `<div class="timeline">` +
		`<div class="t-item"><div class="t-year">2017</div><div class="t-text">Aoife Brennan leaves private practice and founds Acme in a co-working space.</div></div>` +
		`<div class="t-item"><div class="t-year">2019</div><div class="t-text">First paying customer, a firm in Cork.</div></div>` +
		`<div class="t-item"><div class="t-year">2022</div><div class="t-text">The clause library passes 10,000 clauses.</div></div></div>`
	dr := draftPages(t, "/", home, "/about", page48("en", "About", rows, `© 2026 Acme`))
	var dates []string
	for _, m := range dr.Milestones {
		dates = append(dates, m.Date[:4])
	}
	if !slices.Equal(dates, []string{"2017", "2019", "2022"}) {
		t.Errorf("milestones %q, want 2017, 2019, 2022", dates)
	}
	if got := dr.Fields["founded_year"].Text; got != "2017" {
		t.Errorf("founded_year %q, want 2017", got)
	}
	changes := `<h1>Changelog</h1><div class="entries">` +
		`<div class="e"><div>2023</div><div>Scheduled publishing for every plan.</div></div>` +
		`<div class="e"><div>2022</div><div>Localization.</div></div>` +
		`<div class="e"><div>2021</div><div>Version history.</div></div></div>`
	dr = draftPages(t, "/", home, "/changelog", page48("en", "Changelog", changes, `© 2026 Acme`))
	if len(dr.Milestones) > 0 {
		t.Errorf("a changelog's rows drafted as a timeline: %v", dr.Milestones)
	}
}
