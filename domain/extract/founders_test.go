package extract_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/domain/htmltext"
	"github.com/launchdir/launchdir/internal/testtier"
)

// TestFounders_FoundersOnlyTruth drafts every site of the three sets through the
// real fetcher and holds the founders to the truth table both ways: where
// the truth names founders (or says there are none), no other person may be
// drafted as one (a customer, investor, advisor or employee would be).
func TestFounders_FoundersOnlyTruth(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over the three data sets")
	cats := loadCategories(t)
	var sites []testSite
	for _, set := range [][]testSite{loadSites(t), loadDev(t), loadHeldout(t)} {
		sites = append(sites, set...)
	}
	for _, ts := range sites {
		if ts.truth.RobotsForbidden || (len(ts.truth.Founders) == 0 && !slices.Contains(ts.truth.Absent, "founders")) {
			continue
		}
		sd := draftOnce(t, ts, cats)
		if sd.crawlErr != nil {
			t.Fatalf("%s: %v", ts.name, sd.crawlErr)
		}
		dr, err := sd.draft, sd.draftErr
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range dr.Founders {
			if !slices.ContainsFunc(ts.truth.Founders, func(w truthFounder) bool { return lower(w.Name) == lower(f.Name) }) {
				t.Errorf("%s: drafted %q (%s) who is not a founder in the truth; evidence %v", ts.name, f.Name, f.Title, f.Evidence)
			}
		}
		if testing.Verbose() {
			t.Logf("%s: %v", ts.name, founderLine(dr))
		}
	}
}

func founderLine(dr *domain.Drafted) string {
	var b []string
	for _, f := range dr.Founders {
		b = append(b, f.Name+" ["+f.Title+"]")
	}
	return strings.Join(b, "; ")
}

// TestFounders_FounderStatements: one statement kind per case, in the seven
// languages, each beside a trap that must not become a founder. The home
// page names the product; the statement is on the page at path.
func TestFounders_FounderStatements(t *testing.T) {
	cases := []struct {
		name, path, body string
		want             map[string]string // founder -> a substring of the title ("" for none)
		not              []string
	}{
		{"en subject first", "/about", `<p>Mara Quist (CEO) and Olek Brand (CTO) started Acme in 2020.</p>
			<p>Dana Fox and Lee Park founded Globex in 2012.</p>`,
			map[string]string{"Mara Quist": "CEO", "Olek Brand": "CTO"}, []string{"Dana Fox", "Lee Park"}},
		{"en first person founder of", "/about", `<p>Hi, I'm Jonah Pell, founder of Acme. I live in Leeds.</p>
			<div class="card"><p>I'm Rosa Vent, founder of Brightwave, and I started using Acme last year.</p></div>`,
			map[string]string{"Jonah Pell": "founder"}, []string{"Rosa Vent"}},
		{"en testimonial with role at other company", "/about", `<h2>Our team</h2><ul><li>Ana Ruiz – CEO</li></ul>
			<h2>What people say</h2><p>"Great tool."</p><p>Tom Hale, CEO at Initech</p><p>Kim Ode, CTO, Globex Corp</p>`,
			map[string]string{"Ana Ruiz": "CEO"}, []string{"Tom Hale", "Kim Ode"}},
		{"en investors and advisors", "/team", `<h2>Team</h2><div><h3>Ivy Stone</h3><p>Founder &amp; CEO</p></div>
			<div><h3>Rex Moor</h3><p>Advisor</p></div><div><h3>Ola Berg</h3><p>Investor, founder of Shoply</p></div>
			<h2>Investors</h2><div><h3>Nils Frost</h3><p>CEO, Frost Capital</p></div>`,
			map[string]string{"Ivy Stone": "Founder & CEO"}, []string{"Rex Moor", "Ola Berg", "Nils Frost"}},
		{"de gegründet von", "/ueber-uns", `<p>Acme wurde 2019 von Jana Roth und Felix Brandl in Graz gegründet.</p>
			<p>Ich bin Paula Kern, Gründerin von Acme.</p><p>Sven Wolf, Mitgründer von Datenwerk</p>`,
			map[string]string{"Jana Roth": "", "Felix Brandl": "", "Paula Kern": "Gründerin"}, []string{"Sven Wolf"}},
		{"fr fondée par, cards", "/a-propos", `<p>Acme a été fondée par Lucie Marin et Hugo Petit.</p>
			<div><p>Lucie Marin</p><p>Cofondatrice et PDG</p></div><div><p>Hugo Petit</p><p>Cofondateur et directeur technique</p></div>
			<div><p>Anne Roy</p><p>Membre du conseil d'administration</p></div>`,
			map[string]string{"Lucie Marin": "PDG", "Hugo Petit": "directeur technique"}, []string{"Anne Roy"}},
		{"es fundada por", "/nosotros", `<p>Acme fue fundada en 2018 en Sevilla por Marta Gil y Pablo Sanz.</p><ul>
			<li>Marta Gil, cofundadora y directora general</li><li>Iván Soto, asesor e inversor</li></ul>`,
			map[string]string{"Marta Gil": "cofundadora", "Pablo Sanz": ""}, []string{"Iván Soto"}},
		{"it fondata da", "/chi-siamo", `<p>Acme è stata fondata nel 2020 da Sara Neri e Luca Galli.</p>
			<p>Sono Elena Riva, fondatrice di Pastaria, e uso Acme ogni giorno.</p>`,
			map[string]string{"Sara Neri": "", "Luca Galli": ""}, []string{"Elena Riva"}},
		{"nl opgericht door", "/over-ons", `<p>Acme is opgericht door Bram de Wit en Lotte Smit.</p>
			<p>Bram de Wit (oprichter) en Lotte Smit (mede-oprichter) werken vanuit Gent.</p><p>Jan Mol, investeerder</p>`,
			map[string]string{"Bram de Wit": "oprichter", "Lotte Smit": "mede-oprichter"}, []string{"Jan Mol"}},
		{"pt fundada por", "/sobre", `<p>A Acme foi fundada em 2021 por Ana Castro e Rui Lopes.</p>
			<p><strong>Ana Castro</strong>, fundadora e CEO</p><p><strong>Rui Lopes</strong> — cofundador e CTO</p><p><strong>Pedro Reis</strong>, conselheiro</p>`,
			map[string]string{"Ana Castro": "CEO", "Rui Lopes": "CTO"}, []string{"Pedro Reis"}},
		{"labels", "/impressum", `<p>Geschäftsführerin: Nora Lenz</p><p>Gründer: Kai Busch und Tim Roth</p><p>Datenschutzbeauftragter: Uwe Falk</p>`,
			map[string]string{"Nora Lenz": "Geschäftsführerin", "Kai Busch": "", "Tim Roth": ""}, []string{"Uwe Falk"}},
		{"role before name", "/about", `<p>Acme co-founder Lina Berg wrote the first version on a train.</p>
			<p>Globex founder Carl Munk once called it the best tool he never built.</p>`,
			map[string]string{"Lina Berg": "co-founder"}, []string{"Carl Munk"}},
		{"we are", "/about", `<p>We are Iris Kahn and Omar Vidal, the founders of Acme.</p>
			<p>Wir sind Lea Stein und Jan Voss, die Gründer von Kontorly, und nutzen Acme täglich.</p>`,
			map[string]string{"Iris Kahn": "", "Omar Vidal": ""}, []string{"Lea Stein", "Jan Voss"}},
		{"founders section on the home page", "/", `<h1>Acme</h1><p>Acme makes invoices simple.</p>
			<h2>Loved by founders</h2><div><h3>Rob Hale</h3><p>Founder, Hale Bikes</p></div>
			<h2>Meet the founders</h2><div><h3>Tess Lowe</h3><p>Spent ten years doing taxes by hand.</p></div><div><h3>Ari Bloom</h3><p>Co-founder &amp; CTO</p></div>
			<h2>Pricing</h2><div><h3>Team Plan</h3><p>For CEO Office use</p></div>`,
			map[string]string{"Tess Lowe": "", "Ari Bloom": "CTO"}, []string{"Rob Hale", "Team Plan"}},
		{"created by on a product page", "/features", `<p>Templates created by Nina Holm and Paul Grey ship with every plan.</p>`,
			map[string]string{}, []string{"Nina Holm", "Paul Grey"}},
		{"unmarked testimonial on the about page", "/about", `<h2>Team</h2><div><p>Rae Quinn</p><p>Founder &amp; CEO</p></div>
			<div><p>“Acme saved our month-end.”</p><p>Beth Lyle</p><p>CEO</p></div>`,
			map[string]string{"Rae Quinn": "CEO"}, []string{"Beth Lyle"}},
		{"vice presidents and product owners", "/team", `<h2>Team</h2><div><h3>Gus Hale</h3><p>Vice President of Sales</p></div>
			<div><h3>Ida Lux</h3><p>Product Owner</p></div><div><h3>Jon Fenn</h3><p>Stellvertretender Geschäftsführer</p></div>`,
			map[string]string{}, []string{"Gus Hale", "Ida Lux", "Jon Fenn"}},
		{"name, role lines in seven languages", "/team", `<ul><li>Ana Vela, CEO y cofundadora</li><li>Joost Kramer, mede-oprichter</li>
			<li>Inès Morel, cofondatrice et CEO</li><li>Pietro Sala, co-fondatore</li><li>Caio Prado, cofundador e CTO</li>
			<li>Mia Falk, Mitgründerin &amp; CEO</li><li>Eli Voigt, Werkstudent</li></ul>`,
			map[string]string{"Ana Vela": "CEO y cofundadora", "Joost Kramer": "mede-oprichter", "Inès Morel": "cofondatrice et CEO",
				"Pietro Sala": "co-fondatore", "Caio Prado": "cofundador e CTO", "Mia Falk": "Mitgründerin & CEO"},
			[]string{"Eli Voigt"}},
		{"name, dash and bar", "/about", `<h2>Team</h2><p>Liam Shaw – Founder</p><p>Noor Haas | oprichtster</p><p>Ugo Brun - Stagiaire</p>`,
			map[string]string{"Liam Shaw": "Founder", "Noor Haas": "oprichtster"}, []string{"Ugo Brun"}},
		{"is our founder", "/about", `<p>Vera Lind is our co-founder and CEO and still answers support mail.</p>
			<p>Otto Kuhn ist Geschäftsführer von Acme.</p><p>Hal Ross is the CEO of Globex and an early user.</p><p>Sue Park is an advisor to the founders.</p>`,
			map[string]string{"Vera Lind": "co-founder and CEO", "Otto Kuhn": "Geschäftsführer"}, []string{"Hal Ross", "Sue Park"}},
		{"json-ld founders", "/about", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","founders":[{"@type":"Person","name":"Rita Moss"}],"founder":"Karl Ek"}</script><p>About Acme.</p>`,
			map[string]string{"Rita Moss": "", "Karl Ek": ""}, nil},
		{"employees are not founders", "/team", `<h2>Team</h2><div><h3>Zoe Hart</h3><p>Support Engineer</p></div>
			<div><p>Max Lind</p><p>Head of Marketing</p></div><p>Eva Bloom, Designer</p>`,
			map[string]string{}, []string{"Zoe Hart", "Max Lind", "Eva Bloom"}},
		{"loved by founders of, on the about page", "/about", `<h2>Our team</h2><div><p>Ivo Lark</p><p>Founder &amp; CEO</p></div>
			<h2>Loved by founders of 400 studios</h2><div><p>Approvals come back the same day.</p><p>Nina Park</p><p>Founder</p></div>
			<div><p>Our clients stopped asking for files.</p><p>Oren Cast</p><p>Co-founder &amp; Creative Director</p></div>`,
			map[string]string{"Ivo Lark": "CEO"}, []string{"Nina Park", "Oren Cast"}},
		{"job titles are not names", "/about", `<h2>Our team</h2><div><p>Rhea Volk</p><p>Co-founder &amp; CEO</p></div>
			<h2>Open roles</h2><ul><li>Customer Success Lead – Founder's office, remote</li><li>Senior Product Designer – CEO staff</li></ul>`,
			map[string]string{"Rhea Volk": "CEO"}, []string{"Customer Success Lead", "Senior Product Designer"}},
		{"a figure's caption under its blockquote", "/about", `<h2>Team</h2><div><p>Ada Moor</p><p>Founder &amp; CEO</p></div>
			<h2>사장님들의 이야기</h2><figure><blockquote>종이 쿠폰이 없어졌어요.</blockquote><figcaption><p>김민재</p><p>대표, 카페 온기</p></figcaption></figure>`,
			map[string]string{"Ada Moor": "CEO"}, []string{"김민재", "카페 온기"}},
		{"member list: role, name, romanised name; a profile table", "/company", `<ul>
			<li><p>代表取締役CEO／共同創業者</p><p>森川 由紀</p><p>Yuki Morikawa</p></li>
			<li><p>取締役CTO／共同創業者</p><p>石田 航</p><p>Wataru Ishida</p></li>
			<li><p>エンジニア</p><p>高橋 美咲</p><p>Misaki Takahashi</p></li></ul>
			<table><tr><th>代表者</th><td>代表取締役　森川 由紀</td></tr></table>`,
			map[string]string{"森川 由紀": "CEO", "石田 航": "CTO"}, []string{"Yuki Morikawa", "Wataru Ishida", "代表者", "高橋 美咲"}},
		{"cs: založili ... my dva, A a B; a card gives the title", "/o-nas", `<p>Acme jsme založili v roce 2020 my dva, Tereza Malá a Jakub Novák.</p>
			<div class="card"><p>Jakub Novák</p><p>vývoj</p></div><div class="card"><p>Lucie Dvořáková</p><p>zákaznická podpora</p></div>`,
			map[string]string{"Tereza Malá": "", "Jakub Novák": "vývoj"}, []string{"Lucie Dvořáková"}},
		{"sv: a founder of the story gets the card's title", "/om-oss", `<p>Acme grundades 2023 av Elin Sjöberg och Oskar Lund i Umeå.</p>
			<div class="group"><div class="mt-4"><h2>Oskar Lund</h2><h3>Teknisk chef</h3></div></div><div class="group"><div class="mt-4"><h2>Maja Holm</h2><h3>rådgivare</h3></div></div>`,
			map[string]string{"Elin Sjöberg": "", "Oskar Lund": "Teknisk chef"}, []string{"Maja Holm"}},
		{"people on a blog post", "/blog/our-customers", `<p>Globex was founded by Amy Chen and Raj Patel.</p><p>Amy Chen, CEO</p>`,
			map[string]string{}, []string{"Amy Chen", "Raj Patel"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := htmltext.Page("https://acme.example/", `<html><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme makes invoices simple.</p></body></html>`)
			site := siteOf(home, htmltext.Page("https://acme.example"+tc.path, `<html><head><title>Acme</title></head><body><main>`+tc.body+`</main></body></html>`))
			if tc.path == "/" {
				site = siteOf(site.Pages[1])
			}
			dr := draft(t, domain.DraftRequest{Site: site})
			if err := errors.Join(evidenceErrors(site, dr)...); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, f := range dr.Founders {
				got[f.Name] = f.Title
			}
			for name, title := range tc.want {
				gt, ok := got[name]
				if !ok {
					t.Errorf("missed %q; drafted %s", name, founderLine(dr))
				} else if !strings.Contains(strings.ToLower(gt), strings.ToLower(title)) {
					t.Errorf("%q has title %q, want it to contain %q", name, gt, title)
				}
			}
			for _, name := range tc.not {
				if _, ok := got[name]; ok {
					t.Errorf("drafted %q (%s), who is not a founder of Acme", name, got[name])
				}
			}
		})
	}
}

func evidenceErrors(site *domain.SiteCrawl, dr *domain.Drafted) []error {
	var errs []error
	for _, f := range dr.Founders {
		if len(f.Evidence) == 0 {
			errs = append(errs, errors.New(f.Name+": no evidence"))
		}
		if err := domain.CheckEvidence(site, f.Evidence); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// BenchmarkDraftFounders drafts every old and held-out site from files (no
// crawling), to see what the extractor itself costs.
func BenchmarkDraftFounders(b *testing.B) {
	var crawls []*domain.SiteCrawl
	for _, ts := range append(loadSites(b), loadHeldout(b)...) {
		if c, err := filePages(b, ts); err == nil && c != nil {
			crawls = append(crawls, c)
		}
	}
	d := extract.New()
	b.ResetTimer()
	for range b.N {
		for _, c := range crawls {
			if _, err := d.Draft(context.Background(), domain.DraftRequest{Site: c}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
