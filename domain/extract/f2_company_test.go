package extract

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// f2Site is a one-page site named name whose home page body is body.
func f2Site(name, path, body string) (*site, *page) {
	wp := htmltext.Page("https://x.test"+path, "<html><body>"+body+"</body></html>")
	p := newPage(&wp, path == "/")
	return &site{name: name, brand: compact(name), pages: []*page{p}, out: &domain.Drafted{Fields: map[string]domain.DraftedValue{}}}, p
}

func TestF2PlaceOfFounding(t *testing.T) {
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
	} {
		_, p := f2Site("X", "/about", "<p>"+c.text+"</p>")
		l, _ := f2PlaceIn(p, c.text, c.verb, c.year)
		if l.city != c.city || l.country != c.country {
			t.Errorf("%q: city %q country %q, want %q %q", c.text, l.city, l.country, c.city, c.country)
		}
	}
}
