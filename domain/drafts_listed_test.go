package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// The registrable domain a draft's site is matched by: the public suffix
// list decides, so two sites under co.uk or github.io are not one site, and
// an address with no registrable domain matches nothing.
func TestSiteRegistrable(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.co.uk/":            "example.co.uk",
		"https://www.example.co.uk/pricing": "example.co.uk",
		"http://app.example.co.uk:8080/":    "example.co.uk",
		"https://other.co.uk/":              "other.co.uk",
		"https://alice.github.io/":          "alice.github.io",
		"https://docs.alice.github.io/":     "alice.github.io",
		"https://EXAMPLE.com./":             "example.com",
		"https://acme.test/":                "acme.test",
		"https://co.uk/":                    "",
		"https://github.io/":                "",
		"http://localhost:8080/":            "",
		"http://127.0.0.1:8080/":            "",
		"http://[::1]:8080/":                "",
		"not a url\x7f":                     "",
	} {
		if got := domain.SiteRegistrable(in); got != want {
			t.Errorf("SiteRegistrable(%q) = %q, want %q", in, got, want)
		}
	}
}
