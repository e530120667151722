package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestGround_CountryFromPageLanguage: a site read in English whose legal
// notice is a German page: its five-digit postcode names Germany in the
// page's own language, as on a German site; the same quote on an English
// page, or a page that names no language, names no country.
func TestGround_CountryFromPageLanguage(t *testing.T) {
	for _, c := range []struct {
		name, pageHTML string
		keep           bool
	}{
		{"a German page", `<!DOCTYPE html><html lang="de"><body><p>28217 Bremen</p></body></html>`, true},
		{"a German page, region", `<html class="x" lang='de-DE'><body><p>28217 Bremen</p></body></html>`, true},
		{"an English page", `<html lang="en"><body><p>28217 Bremen</p></body></html>`, false},
		{"no language", `<html><body><p>28217 Bremen</p></body></html>`, false},
	} {
		site := &domain.SiteCrawl{URL: "https://x.test/", Language: "en", Pages: []domain.WebPage{
			{URL: "https://x.test/", Text: "Kontorbox", HTML: `<html lang="en"><body>Kontorbox</body></html>`},
			{URL: "https://x.test/impressum", Text: "28217 Bremen", HTML: c.pageHTML}}}
		d := &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"country": {Text: "DE", Evidence: []domain.Evidence{{Quote: "28217 Bremen", URL: "https://x.test/impressum"}}},
		}}
		kept, _ := domain.Ground(domain.DraftRequest{Site: site}, d)
		if _, ok := kept.Fields["country"]; ok != c.keep {
			t.Errorf("%s: country kept %v, want %v", c.name, ok, c.keep)
		}
	}
}
