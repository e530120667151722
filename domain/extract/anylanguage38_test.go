package extract_test

import (
	"slices"
	"testing"
)

// TestAnyLanguage38_NotTheProductsEvents: a dated line that is not the
// product's own event is no milestone, whichever structure dates it: a
// customer-story page whose entries are headings over a <time> (a changelog
// only by its structure), a job ad, a maintenance notice under a dated
// heading or in a date | title table row, a trade fair in a news list. On a
// page that is a changelog only by its dated headings, an entry naming the
// product or a version is kept, and so is every entry under a history
// heading.
func TestAnyLanguage38_NotTheProductsEvents(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"customer stories dated like a changelog", "en", "/customers", `<h1>Stories</h1>
<article><h2>How Northwind cut overtime by a third</h2><p><time datetime="2024-10-01">October 1, 2024</time></p></article>
<article><h2>Acme 2.0 ships with offline mode</h2><p><time datetime="2024-06-03">June 3, 2024</time></p></article>
<article><h2>Bluefin Bakery opens in Leeds</h2><p><time datetime="2024-04-22">April 22, 2024</time></p></article>`,
			[]string{"2024-06-03 Acme 2.0 ships with offline mode"}},
		{"job ads", "en", "/jobs", `<h1>Work with us</h1>
<section><h2>Product designer</h2><time datetime="2025-01-10">January 10, 2025</time><p>Shape how teams plan.</p></section>
<section><h2>Support engineer</h2><time datetime="2025-02-14">February 14, 2025</time><p>Help customers.</p></section>`,
			nil},
		{"maintenance under a dated heading of a changelog", "en", "/changelog", `<h1>Changelog</h1>
<section><h2>Team workspaces</h2><time datetime="2025-03-03">March 3, 2025</time><p>Invite your whole team.</p></section>
<section><h2>Planned maintenance window</h2><time datetime="2025-02-20">February 20, 2025</time><p>Acme is read-only for an hour.</p></section>`,
			[]string{"2025-03-03 Team workspaces"}},
		{"maintenance in a date | title row", "de", "/neuigkeiten", `<h1>Neuigkeiten</h1><table>
<tr><td>03.03.2025</td><td>Teamarbeitsbereiche sind da</td></tr>
<tr><td>20.02.2025</td><td>Wartungsfenster am Donnerstag</td></tr></table>`,
			[]string{"2025-03-03 Teamarbeitsbereiche sind da"}},
		{"a trade fair in a news list", "pl", "/aktualnosci", `<h1>Aktualności</h1><ul>
<li><time datetime="2025-04-01">1 kwietnia 2025</time> <a href="/aktualnosci/a">Nowy moduł urlopów</a></li>
<li><time datetime="2025-05-12">12 maja 2025</time> <a href="/aktualnosci/b">Spotkajmy się na targach Expo HoReCa</a></li></ul>`,
			[]string{"2025-04-01 Nowy moduł urlopów"}},
		{"a history heading over dated headings", "en", "/about", `<h1>About</h1><h2>Milestones</h2>
<section><h3>May 5, 2023</h3><p>Shared boards for families.</p></section>
<section><h3>January 9, 2023</h3><p>Recurring chores.</p></section>`,
			[]string{"2023-05-05 Shared boards for families.", "2023-01-09 Recurring chores."}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage38_TimelinesAndBlocks: dated entries read by their
// structure whatever the words: a list of three or more items each opening
// with an element holding only a year ("<b>2016</b> …", "<time>2018</time>
// …") under a heading in no history words; a news page's <dl> of date
// terms and titles (a seminar among them is none); release-note rows of
// version, date and notes blocks (a patch release is none). A list of
// years under no such structure (two items; a year inside the text) is not
// a timeline.
func TestAnyLanguage38_TimelinesAndBlocks(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"timeline under an unknown heading", "nl", "/over", `<h1>Over ons</h1><h2>Zo ging het</h2><ol>
<li><b>2016</b> Acme begint in een garage in Utrecht.</li>
<li><b>2018</b> De eerste betalende klant.</li>
<li><b>2021</b> Acme voor Android.</li></ol>`,
			[]string{"2016-01-01 Acme begint in een garage in Utrecht.", "2018-01-01 De eerste betalende klant.", "2021-01-01 Acme voor Android."}},
		{"timeline of <time> years", "tr", "/hakkimizda", `<h1>Hakkımızda</h1><h2>Yolculuğumuz</h2><ul>
<li><time datetime="2019">2019</time> Acme İzmir'de kuruldu.</li>
<li><time datetime="2020">2020</time> İlk mobil uygulama.</li>
<li><time datetime="2023">2023</time> 10.000 kullanıcı.</li></ul>`,
			[]string{"2019-01-01 Acme İzmir'de kuruldu.", "2020-01-01 İlk mobil uygulama.", "2023-01-01 10.000 kullanıcı."}},
		{"two years are no timeline", "en", "/about", `<h1>About</h1><ul><li><b>2019</b> Founded.</li><li><b>2020</b> Launched.</li></ul>`, nil},
		{"news as a dl", "ja", "/news", `<h1>お知らせ</h1><dl>
<dt>2025.02.10</dt><dd>請求書のCSV出力に対応しました</dd>
<dt>2025.01.20</dt><dd>オンラインセミナー開催のお知らせ</dd>
<dt>2024.11.05</dt><dd>Acmeの提供を開始しました</dd></dl>`,
			[]string{"2025-02-10 請求書のCSV出力に対応しました", "2024-11-05 Acmeの提供を開始しました"}},
		{"release rows of blocks", "en", "/releases", `<h1>Releases</h1>
<div class="r"><span>v4.0</span><span>2025-01-30</span><span>Offline sync for every device.</span></div>
<div class="r"><span>v3.2.1</span><span>2024-12-02</span><span>Fixes a crash.</span></div>
<div class="r"><span>v3.2</span><span>2024-10-14</span><span>Shared folders.</span></div>`,
			[]string{"2025-01-30 Offline sync for every device.", "2024-10-14 Shared folders."}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage38_PricingGrids: plans read by the structure of a pricing
// grid whatever its classes and words: cards that are repeated blocks of one
// class with the name in a <b> or <strong> and no heading; a price that is
// the card's heading under a name line, its period on the line below
// (hidden yearly prices left out); an open-source tier ("Free and open
// source") beside a paid cloud.
func TestAnyLanguage38_PricingGrids(t *testing.T) {
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"repeated blocks without a heading", "nl", `<h1>Prijzen</h1>
<div class="blok"><b>Basis</b><p>Gratis</p></div>
<div class="blok"><b>Plus</b><p>€ 7 per maand</p></div>`, "Basis: Gratis; Plus: € 7 per maand"},
		{"the price is the heading", "en", `<h1>Pricing</h1>
<div class="col"><p>Starter</p><h3><span>$15</span><span hidden>$150</span></h3><p>per month</p></div>
<div class="col"><p>Studio</p><h3><span>$39</span><span hidden>$390</span></h3><p>per month</p></div>`, "Starter: $15 per month; Studio: $39 per month"},
		{"open source beside a cloud", "en", `<h1>Pricing</h1>
<section><h2>Community</h2><p>Free and open source (MIT). Host it yourself.</p></section>
<section><h2>Cloud</h2><p>$20 per month</p></section>`, "Community: Free and open source; Cloud: $20 per month"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">?</a></body></html>`,
			"/pricing", `<html lang="`+c.lang+`"><head><title>Pricing - Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_summary"].Text; got != c.want {
			t.Errorf("%s: pricing_summary %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage38_FeatureStructures: features by the structure of the
// pages that show them: a tab set whose panels are hidden but the chosen
// one gives every panel's heading; two or more pages below a features path
// give their h1 each.
func TestAnyLanguage38_FeatureStructures(t *testing.T) {
	home := `<html lang="de"><head><title>Acme</title></head><body><h1>Acme</h1><nav><a href="/funktionen">Funktionen</a><a href="/funktionen/dienstplan">Dienstplan</a><a href="/funktionen/zeiterfassung">Zeiterfassung</a></nav></body></html>`
	dr := draftPages(t, "/", home,
		"/funktionen", `<html lang="de"><head><title>Funktionen – Acme</title></head><body><h1>Funktionen</h1>
<div role="tablist"><button role="tab">Planen</button><button role="tab">Erfassen</button></div>
<div role="tabpanel"><h3>Dienstplan per Drag and Drop</h3><p>Schichten ziehen und ablegen.</p></div>
<div role="tabpanel" hidden><h3>Zeiterfassung per App</h3><p>Stempeln mit dem Handy.</p></div></body></html>`)
	if got, want := dr.Fields["features"].List, []string{"Dienstplan per Drag and Drop", "Zeiterfassung per App"}; !slices.Equal(got, want) {
		t.Errorf("tab panels: features %q, want %q", got, want)
	}
	dr = draftPages(t, "/", home,
		"/funktionen/dienstplan", `<html lang="de"><head><title>Dienstplan – Acme</title></head><body><h1>Dienstplan in Minuten</h1><p>Schichten planen.</p></body></html>`,
		"/funktionen/zeiterfassung", `<html lang="de"><head><title>Zeiterfassung – Acme</title></head><body><h1>Zeiterfassung per App</h1><p>Stempeln.</p></body></html>`)
	if got, want := dr.Fields["features"].List, []string{"Dienstplan in Minuten", "Zeiterfassung per App"}; !slices.Equal(got, want) {
		t.Errorf("feature pages: features %q, want %q", got, want)
	}
}

// TestAnyLanguage38_BoldFeaturesDlTimelineAndGetInTouch: features named in
// no words we know, by the structure of a feature list (list items or
// sibling blocks of one class opening with a bold title; a list of priced
// items is plans, not features); a <dl> whose every term is a year is a
// timeline under any heading; an enterprise card saying "Get in touch" is
// a plan on request.
func TestAnyLanguage38_BoldFeaturesDlTimelineAndGetInTouch(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"list items", `<h2>Built for busy clinics</h2><ul>
<li><strong>Online booking</strong> — patients book themselves.</li>
<li><strong>Reminders</strong> — fewer no-shows.</li>
<li><b>Waiting list</b>: fill cancelled slots.</li></ul>`},
		{"blocks", `<h2>Built for busy clinics</h2>
<div class="c"><strong>Online booking</strong><p>Patients book themselves.</p></div>
<div class="c"><strong>Reminders</strong><p>Fewer no-shows.</p></div>
<div class="c"><strong>Waiting list</strong><p>Fill cancelled slots.</p></div>`},
	} {
		dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got, want := dr.Fields["features"].List, []string{"Online booking", "Reminders", "Waiting list"}; !slices.Equal(got, want) {
			t.Errorf("%s: features %q, want %q", c.name, got, want)
		}
	}
	dr := draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><ul>
<li><strong>Solo</strong> — $9 per month.</li><li><strong>Team</strong> — $29 per month.</li><li><strong>Clinic</strong> — $59 per month.</li></ul></body></html>`)
	if got := dr.Fields["features"].List; len(got) > 0 {
		t.Errorf("priced items: features %q, want none", got)
	}
	dr = draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/about">About</a></body></html>`,
		"/about", `<html lang="en"><head><title>About Acme</title></head><body><h1>About</h1><h2>Where we come from</h2><dl>
<dt>2017</dt><dd>Acme starts in a dental practice.</dd><dt>2019</dt><dd>Acme for physiotherapists.</dd><dt>2022</dt><dd>Acme in Germany.</dd></dl></body></html>`)
	if got, want := milestoneList(dr), []string{"2017-01-01 Acme starts in a dental practice.", "2019-01-01 Acme for physiotherapists.", "2022-01-01 Acme in Germany."}; !slices.Equal(got, want) {
		t.Errorf("dl timeline: milestones %q, want %q", got, want)
	}
	dr = draftPages(t, "/", `<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">Pricing</a></body></html>`,
		"/pricing", `<html lang="en"><head><title>Pricing - Acme</title></head><body><h1>Pricing</h1>
<div class="p"><h3>Team</h3><p>$29 per month</p></div><div class="p"><h3>Enterprise</h3><p>Get in touch</p></div></body></html>`)
	if got, want := dr.Fields["pricing_summary"].Text, "Team: $29 per month; Enterprise: Get in touch"; got != want {
		t.Errorf("get in touch: pricing_summary %q, want %q", got, want)
	}
}

// TestAnyLanguage38_PeriodToggle: prices that name no period beside a
// billing switch ("Monthly | Yearly" buttons, "Miesięcznie" radio labels)
// are a subscription, quoted by the switch; without a switch they say
// nothing of a period.
func TestAnyLanguage38_PeriodToggle(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"buttons", "en", `<div class="t"><button>Monthly</button><button>Yearly</button></div>
<div class="p"><h3>Team</h3><p>$29</p></div><div class="p"><h3>Business</h3><p>$79</p></div>`, "subscription"},
		{"radio labels and a free plan", "pl", `<label><input type="radio"> Miesięcznie</label><label><input type="radio"> Rocznie</label>
<div class="p"><h3>Start</h3><p>0 zł</p></div><div class="p"><h3>Pro</h3><p>49 zł</p></div>`, "freemium"},
		{"no switch", "en", `<div class="p"><h3>Team</h3><p>$29</p></div><div class="p"><h3>Business</h3><p>$79</p></div>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">?</a></body></html>`,
			"/pricing", `<html lang="`+c.lang+`"><head><title>Pricing - Acme</title></head><body><h1>Pricing</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_model"].Text; got != c.want {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage38_FreeCardLines: a free plan card whose price line says
// for whom or how long ("Free for up to 3 users", "Gratis — ein Projekt")
// is a plan; a card line "Free SSL" is not its price.
func TestAnyLanguage38_FreeCardLines(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"free for whom", "en", `<div class="p"><h3>Starter</h3><p>Free for up to 3 users</p></div><div class="p"><h3>Team</h3><p>$8 per user / month</p></div>`,
			"Starter: Free for up to 3 users; Team: $8 per user / month"},
		{"free, a dash", "de", `<div class="p"><h3>Basis</h3><p>Kostenlos – ein Projekt</p></div><div class="p"><h3>Pro</h3><p>12 € pro Monat</p></div>`,
			"Basis: Kostenlos – ein Projekt; Pro: 12 € pro Monat"},
		{"free SSL is no price", "en", `<div class="p"><h3>Pro</h3><p>Free SSL</p><p>$20 per month</p></div><div class="p"><h3>Max</h3><p>$40 per month</p></div>`,
			"Pro: $20 per month; Max: $40 per month"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/pricing">?</a></body></html>`,
			"/pricing", `<html lang="`+c.lang+`"><head><title>Pricing - Acme</title></head><body><h1>Pricing</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_summary"].Text; got != c.want {
			t.Errorf("%s: pricing_summary %q, want %q", c.name, got, c.want)
		}
	}
}
