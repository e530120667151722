package domain_test

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func TestCountryCodes(t *testing.T) {
	codes := domain.CountryCodes()
	// ISO 3166-1 assigns 249 alpha-2 codes.
	if len(codes) != 249 {
		t.Errorf("len(CountryCodes()) = %d, want 249", len(codes))
	}
	for _, c := range codes {
		if domain.CountryName(c) == "" {
			t.Errorf("CountryName(%q) is empty", c)
		}
		if got, ok := domain.CountryCode(domain.CountryName(c)); !ok || got != c {
			t.Errorf("CountryCode(CountryName(%q) = %q) = %q, %v", c, domain.CountryName(c), got, ok)
		}
	}
	for _, notCountry := range []string{"EU", "UN", "UK", "ZZ", "XK", "AC", "YU", "SU", "QO"} {
		if domain.CountryName(notCountry) != "" {
			t.Errorf("CountryName(%q) = %q, want \"\" (not an ISO 3166-1 code)", notCountry, domain.CountryName(notCountry))
		}
	}
}

func TestCountryName(t *testing.T) {
	for code, want := range map[string]string{"DE": "Germany", "us": "United States", "GB": "United Kingdom",
		" pt ": "Portugal", "CI": "Côte d’Ivoire", "": "", "Germany": ""} {
		if got := domain.CountryName(code); got != want {
			t.Errorf("CountryName(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestCountryCode(t *testing.T) {
	for name, want := range map[string]string{
		"Germany": "DE", "germany": "DE", "  GERMANY ": "DE",
		"United States": "US", "United States of America": "US", "USA": "US", "U.S.A.": "US", "U.S.": "US", "US": "US",
		"UK": "GB", "U.K.": "GB", "Great Britain": "GB", "United Kingdom": "GB", "England": "GB",
		"The Netherlands": "NL", "Holland": "NL", "Czech Republic": "CZ", "Czechia": "CZ",
		"Cote d'Ivoire": "CI", "Côte d’Ivoire": "CI", "Ivory Coast": "CI",
		"Curacao": "CW", "Myanmar": "MM", "Hong Kong": "HK", "South Korea": "KR",
		"Saint Kitts & Nevis": "KN", "St. Kitts & Nevis": "KN", "Bosnia and Herzegovina": "BA",
		"DE": "DE", "PT": "PT",
	} {
		if got, ok := domain.CountryCode(name); !ok || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "Atlantis", "Europe", "EU", "ZZ", "Berlin", "in", "de", "by", "us", "Contact us"} {
		if got, ok := domain.CountryCode(name); ok {
			t.Errorf("CountryCode(%q) = %q, want no country", name, got)
		}
	}
}

// Country names in the seven languages the extractor reads map to their codes,
// and CountryNamed finds any of them as whole words.
func TestCountryCodeLocalNames(t *testing.T) {
	for name, want := range map[string]string{
		"Deutschland": "DE", "Österreich": "AT", "France": "FR", "Allemagne": "DE", "Royaume-Uni": "GB",
		"España": "ES", "Espana": "ES", "Italia": "IT", "Nederland": "NL", "Paesi Bassi": "NL",
		"Brasil": "BR", "Brasile": "BR", "Portugal": "PT", "Suisse": "CH", "Verenigd Koninkrijk": "GB",
		"EE. UU.": "US", "Países Baixos": "NL", "Irlanda": "IE",
	} {
		if got, ok := domain.CountryCode(name); !ok || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"Granada", "island"} {
		if got, ok := domain.CountryCode(name); ok {
			t.Errorf("CountryCode(%q) = %q, want no country", name, got)
		}
	}
	if !domain.CountryNamed("IT", "10126 Torino (TO), Italia") || !domain.CountryNamed("GB", "based in Leeds, UK") {
		t.Error("CountryNamed missed a local name or an alias")
	}
	if domain.CountryNamed("IT", "Italiano e inglese") || domain.CountryNamed("OM", "Romania") {
		t.Error("CountryNamed matched part of a word")
	}
}

// TestCountryCode_MoreLanguages: country names in the languages of the dev36
// sites come from CLDR (Norge, Suomi, Magyarország, România, Việt Nam,
// Indonesia, ישראל), and Vietnamese short names that are words or given
// names (Đức, Nga) are not countries.
func TestCountryCode_MoreLanguages(t *testing.T) {
	for name, want := range map[string]string{"Norge": "NO", "Suomi": "FI", "Magyarország": "HU", "România": "RO",
		"Việt Nam": "VN", "Indonesia": "ID", "ישראל": "IL", "Szlovákia": "SK"} {
		if got, ok := domain.CountryCode(name); !ok || got != want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"Đức", "Nga", "Áo"} {
		if got, ok := domain.CountryCode(name); ok {
			t.Errorf("CountryCode(%q) = %q, want none", name, got)
		}
	}
}
