package vat

import (
	"regexp"
	"slices"
	"testing"
	"time"
)

// TestStandardRate pins the whole table as in force on RatesAsOf. A change
// here must come with a new RatesAsOf and a check against RatesSource.
func TestStandardRate(t *testing.T) {
	want := map[string]int{
		"AT": 2000, "BE": 2100, "BG": 2000, "CY": 1900, "CZ": 2100, "DE": 1900, "DK": 2500,
		"EE": 2400, // 24% since 1 July 2025
		"ES": 2100,
		"FI": 2550, // 25.5% since 1 September 2024
		"FR": 2000, "GR": 2400, "HR": 2500, "HU": 2700, "IE": 2300, "IT": 2200, "LT": 2100,
		"LU": 1700, "LV": 2100, "MT": 1800, "NL": 2100, "PL": 2300, "PT": 2300,
		"RO": 2100, // 21% since 1 August 2025
		"SE": 2500, "SI": 2200,
		"SK": 2300, // 23% since 1 January 2025
	}
	if len(want) != 27 {
		t.Fatalf("the pinned table has %d states, want 27", len(want))
	}
	for c, bp := range want {
		got, ok := StandardRate(c)
		if !ok || got != bp {
			t.Errorf("StandardRate(%q) = %d, %v; want %d, true", c, got, ok, bp)
		}
	}
	if len(standardRates) != len(want) {
		t.Errorf("the table has %d entries, want %d", len(standardRates), len(want))
	}
}

func TestStandardRate_CaseAndOutsideEU(t *testing.T) {
	if bp, ok := StandardRate("de"); !ok || bp != 1900 {
		t.Errorf(`StandardRate("de") = %d, %v; want 1900, true`, bp, ok)
	}
	for _, c := range []string{"EL", "GB", "XI", "CH", "NO", "US", "", "D", "DEU"} {
		if bp, ok := StandardRate(c); ok || bp != 0 {
			t.Errorf("StandardRate(%q) = %d, %v; want 0, false", c, bp, ok)
		}
		if IsEU(c) {
			t.Errorf("IsEU(%q) = true", c)
		}
	}
	if !IsEU("GR") || !IsEU("fi") {
		t.Error("IsEU is false for GR or fi")
	}
}

func TestCountries(t *testing.T) {
	got := Countries()
	if len(got) != 27 {
		t.Fatalf("Countries() has %d entries, want 27: %v", len(got), got)
	}
	if !slices.IsSorted(got) {
		t.Errorf("Countries() is not sorted: %v", got)
	}
	for _, c := range got {
		if !IsEU(c) {
			t.Errorf("IsEU(%q) = false for a listed country", c)
		}
	}
	// The caller owns the slice.
	got[0] = "ZZ"
	if Countries()[0] != "AT" {
		t.Error("changing the returned slice changed the table")
	}
}

func TestRatesProvenance(t *testing.T) {
	if _, err := time.Parse(time.DateOnly, RatesAsOf); err != nil {
		t.Errorf("RatesAsOf %q is not a date: %v", RatesAsOf, err)
	}
	if !regexp.MustCompile(`https://\S*europa\.eu/`).MatchString(RatesSource) {
		t.Errorf("RatesSource %q does not name the Commission's page", RatesSource)
	}
}
