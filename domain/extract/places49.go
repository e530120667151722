package extract

import (
	"strings"
)

// streetStart: a place name that starts like a street ("Rue Guy", "Calle
// Mayor", "Via Roma", "ul. Prosta"), the words before the street's name.
var streetStart = lazyMustCompile(`(?i)^(?:rue|avenue|av\.|boulevard|bd|chemin|place|quai|calle|avenida|paseo|carrer|camino|via|viale|piazza|corso|largo|rua|travessa|praça|alameda|ul\.|ulica|al\.|aleja|route|allée)\s`)

// streetName reports whether a name read as a town is a street: "Yonge St"
// after a house number ("500 Yonge St"), "Rue Guy" after one ("1250 Rue Guy").
func streetName(name string) bool {
	return streetEnd.MatchString(name) || streetStart.MatchString(name)
}

// regionZip: a region's code and its postcode as the part after a city's:
// "OR 97202" (US), "ON M4Y 1X9" (Canada), "NSW 2000" (Australia).
var regionZip = lazyMustCompile(`^[A-Z]{2,3}\s+(?:\d{4,5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$`)

// cityRegionZip: the city, its region's code and the postcode in one part
// ("Sydney NSW 2000", "Portland OR 97202").
var cityRegionZip = lazyMustCompile(`^(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}?)\s+[A-Z]{2,3}\s+(?:\d{4,5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$`)

// otherCompany reports whether an address line or block of p names another
// company than the site's ("Our payments are handled by Paddle.com Market
// Ltd, …, London"), on a page where a line names the site's own company with
// its legal form ("Stackpad GmbH"). The page is read only for a line that
// names a company without the site's name.
func (s *site) otherCompany(p *page, text string) bool {
	return s.brand != "" && legalForm.MatchString(text) && !strings.Contains(compact(text), s.brand) && s.ownCompanyOn(p)
}

// ownCompanyOn reports whether a block of p names the site's company with
// its legal form.
func (s *site) ownCompanyOn(p *page) bool {
	if s.brand == "" {
		return false
	}
	for _, seg := range p.segs {
		for _, l := range seg.lines {
			if legalForm.MatchString(l.text) && strings.Contains(compact(l.text), s.brand) {
				return true
			}
		}
	}
	return false
}

// blockText is the text of a block's lines.
func blockText(block []line) string {
	var b strings.Builder
	for _, l := range block {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}
