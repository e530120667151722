package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
	"github.com/launchdir/launchdir/internal/testtier"
)

// oneSitePage is a one-page site named name whose home page body is body.
func oneSitePage(name, path, body string) (*site, *page) {
	wp := htmltext.Page("https://x.test"+path, "<html><body>"+body+"</body></html>")
	p := newPage(&wp, path == "/")
	return &site{name: name, brand: compact(name), pages: []*page{p}, out: &domain.Drafted{Fields: map[string]domain.DraftedValue{}}}, p
}

func TestCompany_PlaceOfFounding(t *testing.T) {
	for _, c := range []struct{ text, verb, year, city, country string }{
		{"We founded Minutely in 2021 in Berlin, Germany, after one too many meetings.", "founded", "2021", "Berlin", "DE"},
		{"Terminfuchs wurde 2019 in Leipzig gegründet.", "gegründet", "2019", "Leipzig", ""},
		{"Devisio a été fondé en 2020 à Lyon par Claire.", "fondé", "2020", "Lyon", ""},
		{"Huerto fue fundada en 2019 en Sevilla, España, por dos camareros.", "fundada", "2019", "Sevilla", "ES"},
		{"Bottega è stata fondata nel 2017 a Torino da due ex commessi.", "fondata", "2017", "Torino", ""},
		{"Kasboek is in 2017 opgericht in Utrecht door Sanne de Vries en Joris Bakker.", "opgericht", "2017", "Utrecht", ""},
		{"A Cadernim foi fundada em 2022 em Recife, no Brasil, por duas professoras.", "fundada", "2022", "Recife", "BR"},
		{"Founded in 2022 in Nantes (France).", "Founded", "2022", "Nantes", "FR"},
		{"Founded in 2019 in the Netherlands.", "Founded", "2019", "", "NL"},
		{"Founded in March 2019 in São Paulo.", "Founded", "2019", "São Paulo", ""},
		{"We founded it in 2019 in a garage.", "founded", "2019", "", ""},
		{"Wir haben Acme 2019 im Herzen von Leipzig gegründet.", "gegründet", "2019", "", ""},
		{"Acme a été fondée en 2019 au Portugal.", "fondée", "2019", "", "PT"},
		{"Acme a été fondée en 2019 aux États-Unis.", "fondée", "2019", "", "US"},
		{"We founded Acme in 2019 in Austin, Texas, USA.", "founded", "2019", "Austin", "US"},
		{"We founded Acme in 2019 in California.", "founded", "2019", "", ""},
		{"Founded in 2019 in Europe.", "Founded", "2019", "", ""},
	} {
		_, p := oneSitePage("X", "/about", "<p>"+c.text+"</p>")
		l, _ := placeIn(p, c.text, c.verb, c.year)
		if l.city != c.city || l.country != c.country {
			t.Errorf("%q: city %q country %q, want %q %q", c.text, l.city, l.country, c.city, c.country)
		}
	}
}

func TestCompany_FoundingYear(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"<p>Fuchsbau wurde 2018 in Dresden gegründet.</p>", "2018"},
		{"<p>Tisane a été fondé en 2020 à Bordeaux.</p>", "2020"},
		{"<p>Bottega è stata fondata nel 2017 a Torino.</p>", "2017"},
		{"<p>Fundamos Huerto en 2019.</p>", "2019"},
		{"<footer><p>Contact: hi@x.test · Founded in 2023 in Dublin, Ireland</p></footer>", "2023"},
		{"<p>Gegründet 2019</p>", "2019"},
		{"<p>Since 2019</p>", "2019"},
		{"<p>Fundada em 2022</p>", "2022"},
		{"<p>The idea came up at a hackathon in 2016 and we founded Harborly in 2018.</p>", "2018"},
		{"<p>In 2016 we founded Harborly, and in 2019 we hired our first engineer.</p>", "2016"},
		{"<p>Kasboek is in 2017 opgericht in Utrecht.</p>", "2017"},
		{"<p>Pagella è nata nel 2020 a Bologna.</p>", "2020"},
		{"<p>Luca è nato nel 1986 a Modena.</p>", ""},
		{"<p>I was born in 1986 in Porto and founded Harborly after years in shipping.</p>", ""},
		// Traps: another company's founding, a customer, a copyright range,
		// a "since" that is no founding, a testimonial.
		{"<p>Founded in 2009, Globex Shipping is our oldest customer.</p>", ""},
		{"<footer><p>© 2019–2025 Acme GmbH</p></footer>", ""},
		{"<p>Sinds 2021 werken we met een klein team.</p>", ""},
		{`<section class="testimonials"><blockquote><p>Founded in 2016, our bakery loves it.</p></blockquote></section>`, ""},
		{"<p>Our client Globex was founded in 2009 in Cork.</p>", ""},
	} {
		name := "Harborly"
		for _, n := range []string{"Fuchsbau", "Tisane", "Bottega", "Huerto", "Kasboek", "Pagella"} {
			if strings.Contains(c.body, n) {
				name = n
			}
		}
		s, _ := oneSitePage(name, "/about", c.body)
		var got string
		if fs := s.foundings(); len(fs) > 0 {
			got = fs[0].year
		}
		if got != c.want {
			t.Errorf("%s: founded %q, want %q", c.body, got, c.want)
		}
	}
}

func TestCompany_Addresses(t *testing.T) {
	for _, c := range []struct{ path, body, city, country string }{
		{"/impressum", "<h2>Angaben gemäß § 5 TMG</h2><p>Fuchs GmbH<br>Hauptstraße 8<br>01099 Dresden<br>Deutschland</p>", "Dresden", "DE"},
		{"/mentions-legales", "<p>Tisane SAS<br>12 cours X, 33000 Bordeaux, France</p>", "Bordeaux", "FR"},
		{"/contatti", "<p>Bottega S.r.l.<br>Via Roma 1<br>10121 Torino (TO), Italia</p>", "Torino", "IT"},
		{"/", "<footer><p>Fietsdesk B.V. · Oudkerkhof 10 · 3512 GH Utrecht · Nederland</p></footer>", "Utrecht", "NL"},
		{"/", "<footer><p>Huerto S.L. · Calle Feria 20, 41003 Sevilla</p></footer>", "Sevilla", ""},
		{"/contato", "<p>Rua Augusta 10<br>01310-100 São Paulo<br>Brasil</p>", "São Paulo", "BR"},
		{"/contact", "<p>Acme Inc.<br>1 Main St.<br>New York, NY 10001<br>USA</p>", "New York", "US"},
		{"/note-legali", "<p>Tessera S.r.l.<br>Corso Buenos Aires 12<br>20124 Milano MI</p>", "Milano", ""},
		{"/legal", "<p>Northdesk Ltd<br>12 Rose Street<br>Edinburgh EH2 2PR<br>United Kingdom</p>", "Edinburgh", "GB"},
		{"/", "<footer><p>Feirinha Ltda. · Rua das Flores, 120 · Recife - PE</p></footer>", "Recife", ""},
		{"/", "<footer><p>Imobly Tecnologia Ltda. · CNPJ 34.567.890/0001-12 · Curitiba, PR</p></footer>", "Curitiba", ""},
		{"/contact", "<address>Deskhero Ltd.<br>The Digital Hub, Thomas Street<br>Dublin 8, D08 TCV4<br>Ireland</address>", "Dublin", "IE"},
		{"/mentions-legales", "<p>Acme SAS<br>5 rue X<br>92130 Issy-les-Moulineaux Cedex<br>France</p>", "Issy-les-Moulineaux", "FR"},
		{"/aviso-legal", "<p>Acme S.L., Calle Mayor 5, 28013 Madrid (Madrid), España</p>", "Madrid", "ES"},
		{"/impressum", "<p>Acme AG<br>Bahnhofstrasse 1<br>CH-8001 Zürich<br>Schweiz</p>", "Zürich", "CH"},
		{"/", "<footer><p>Acme Lda. · Avenida da Liberdade 110 · 1250-096 Lisboa · Portugal</p></footer>", "Lisboa", "PT"},
		// A country is never taken from a postcode's shape.
		{"/kontakt", "<p>Fuchs GmbH<br>Hauptstraße 8<br>01099 Dresden</p>", "Dresden", ""},
		// Someone else's address: the hoster, a court.
		{"/mentions-legales", "<h2>Hébergeur</h2><p>OVH SAS, 2 rue Kellermann, 59100 Roubaix, France</p>", "", ""},
		{"/impressum", "<p>Hosting: Hetzner Online GmbH<br>Industriestr. 25<br>91710 Gunzenhausen</p>", "", ""},
		// No street, legal form or country, not a legal page: no address.
		{"/", "<p>Team of 8<br>2019 Berlin</p>", "", ""},
	} {
		s, p := oneSitePage("X", c.path, c.body)
		var l loc
		if ls := s.addressLocs(p); len(ls) > 0 {
			l = ls[0]
		}
		if l.city != c.city || l.country != c.country {
			t.Errorf("%s %s: city %q country %q, want %q %q", c.path, c.body, l.city, l.country, c.city, c.country)
		}
	}
}

func TestCompany_Statements(t *testing.T) {
	for _, c := range []struct{ body, city, country string }{
		{"<p>We are based in Lisbon, Portugal.</p>", "Lisbon", "PT"},
		{"<p>Fuchsbau ist ein Unternehmen mit Sitz in Dresden.</p>", "Dresden", ""},
		{"<p>Tisane est une entreprise basée à Bordeaux.</p>", "Bordeaux", ""},
		{"<p>Huerto es una empresa con sede en Sevilla, España.</p>", "Sevilla", "ES"},
		{"<p>Bottega è un'azienda con sede a Torino.</p>", "Torino", ""},
		{"<p>Fietsdesk is gevestigd in Utrecht.</p>", "Utrecht", ""},
		{"<p>Somos uma equipa sediada em Lisboa, Portugal.</p>", "Lisboa", "PT"},
		{"<p>Sitz der Gesellschaft: Leipzig</p>", "Leipzig", ""},
		{"<footer><p>Based in Edinburgh, Scotland · Est. 2020</p></footer>", "Edinburgh", "GB"},
		{"<p>We are a remote team based in Europe.</p>", "", ""},
		// Someone else: servers, a customer, a partner.
		{"<p>Our servers are located in Frankfurt, Germany.</p>", "", ""},
		{"<p>Our customer Globex is based in Cork, Ireland.</p>", "", ""},
		{"<p>Unser Rechenzentrum hat seinen Sitz in Frankfurt.</p>", "", ""},
	} {
		name := strings.Fields(htmltext.Text(mustParse(c.body)))[0]
		s, p := oneSitePage(name, "/about", c.body)
		var l loc
		if strong, _ := s.placeStatements(p); len(strong) > 0 {
			l = strong[0]
		}
		if l.city != c.city || l.country != c.country {
			t.Errorf("%s: city %q country %q, want %q %q", c.body, l.city, l.country, c.city, c.country)
		}
	}
}

func TestCompany_Stage(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"<p>Harborly is in public beta.</p>", "beta"},
		{"<p>Fuchsbau ist jetzt in der öffentlichen Beta.</p>", "beta"},
		{"<p>Tisane est en bêta publique : rejoignez-nous !</p>", "beta"},
		{"<p>Huerto está en beta abierta.</p>", "beta"},
		{"<p>Bottega è in beta pubblica.</p>", "beta"},
		{"<p>Fietsdesk is nu in publieke bèta.</p>", "beta"},
		{"<p>Estamos em beta pública.</p>", "beta"},
		{"<p>Now in beta</p>", "beta"},
		{"<p>Trag dich jetzt in die Warteliste ein.</p>", "pre-launch"},
		{"<p>Rejoignez la liste d’attente.</p>", "pre-launch"},
		// A feature in beta, a waitlist feature of the product.
		{"<p>Dark mode is in beta.</p>", ""},
		{"<p>Die Warteliste füllt freie Termine automatisch.</p>", ""},
	} {
		s, _ := oneSitePage("X", "/", c.body)
		s.req.Stages = []string{"idea", "pre-launch", "beta", "launched", "acquired", "profitable"}
		s.draftStage()
		if got := s.out.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.body, got, c.want)
		}
	}
}

func mustParse(body string) *html.Node {
	n, err := html.Parse(strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	return n
}

// TestCompany_GroundKeeps drafts every f2 development site from its files and passes
// the draft through domain.Ground, the gate the service applies: no founding
// year, city, country or stage the extractor finds may be dropped there (a
// country quoted in German, Italian or Portuguese must support its code).
func TestCompany_GroundKeeps(t *testing.T) {
	testtier.SkipRace(t, "drafts every f2 development site, one goroutine")
	dirs, _ := filepath.Glob("testdata/dev/f2-*")
	if len(dirs) == 0 {
		t.Fatal("no f2 development sites")
	}
	stages := []string{"idea", "pre-launch", "beta", "launched", "growing", "profitable", "acquired"}
	for _, dir := range dirs {
		crawl := &domain.SiteCrawl{URL: "https://x.test/"}
		files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			u := "https://x.test/" + strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".html"), "index")
			if u == "https://x.test/" {
				crawl.Pages = append([]domain.WebPage{htmltext.Page(u, string(b))}, crawl.Pages...)
			} else {
				crawl.Pages = append(crawl.Pages, htmltext.Page(u, string(b)))
			}
		}
		req := domain.DraftRequest{Site: crawl, Stages: stages}
		d, err := New().Draft(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		kept, dropped := domain.Ground(req, d)
		for _, f := range []string{"founded_year", "city", "country", "stage"} {
			if _, ok := d.Fields[f]; ok {
				if _, ok := kept.Fields[f]; !ok {
					t.Errorf("%s: Ground dropped %s = %q: %v", dir, f, d.Fields[f].Text, dropped)
				}
			}
		}
		if len(d.Fields["city"].Text) == 0 {
			t.Errorf("%s: no city drafted", dir)
		}
	}
}

func TestCompany_MadeIn(t *testing.T) {
	for _, c := range []struct{ body, city, country string }{
		{"<footer><p>© Devisio SAS 2026 – Fait avec soin à Lyon</p></footer>", "Lyon", ""},
		{"<footer><p>Made with ❤ in Berlin</p></footer>", "Berlin", ""},
		{"<footer><p>Made in Leipzig, Deutschland</p></footer>", "Leipzig", "DE"},
		{"<footer><p>Made in Germany</p></footer>", "", "DE"},
		// A tool, not a place.
		{"<footer><p>Made in Webflow</p></footer>", "", ""},
		{"<footer><p>Built in Rust</p></footer>", "", ""},
	} {
		s, p := oneSitePage("X", "/", c.body)
		var l loc
		if _, weak := s.placeStatements(p); len(weak) > 0 {
			l = weak[0]
		}
		if l.city != c.city || l.country != c.country {
			t.Errorf("%s: city %q country %q, want %q %q", c.body, l.city, l.country, c.city, c.country)
		}
	}
}
