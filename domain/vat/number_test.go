package vat

import (
	"bufio"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// The vectors are real numbers, never made up: testdata/published_valid.txt
// (numbers found on invoices and web sites, collected by python-stdnum) and
// the examples of the member states' documentation quoted below. The
// "one digit changed" numbers are those vectors with one digit altered.

// TestParse_Valid pins the normalised form of documented numbers, one or
// more per variant of each member state's format.
func TestParse_Valid(t *testing.T) {
	tests := []struct {
		raw                    string
		country, prefix, local string
	}{
		{"ATU 142 43 102", "AT", "AT", "U14243102"},
		{"BE 0897290877", "BE", "BE", "0897290877"},
		{"BE 444.503.092", "BE", "BE", "0444503092"}, // old 9-digit form
		{"BG 175 074 752", "BG", "BG", "175074752"},  // legal entity
		{"BG8032056031", "BG", "BG", "8032056031"},   // EGN
		{"CY-10259033P", "CY", "CY", "10259033P"},
		{"CZ 25123891", "CZ", "CZ", "25123891"},      // legal entity (python-stdnum cz/dic example)
		{"CZ 640903926", "CZ", "CZ", "640903926"},    // person without a birth number
		{"CZ 710319/2745", "CZ", "CZ", "7103192745"}, // birth number (python-stdnum cz/rc example)
		{"DE 118619592", "DE", "DE", "118619592"},
		{"DK 13 20 24 35", "DK", "DK", "13202435"},
		{"EE101256753", "EE", "EE", "101256753"},
		{"EL 094012834", "GR", "EL", "094012834"},
		{"EL 94051189", "GR", "EL", "094051189"}, // old 8-digit form
		{"ES A-28184661", "ES", "ES", "A28184661"},
		{"ES Q-2818015-F", "ES", "ES", "Q2818015F"}, // CIF with a check letter
		{"ES 54362315K", "ES", "ES", "54362315K"},   // DNI
		{"es-x-2482300w", "ES", "ES", "X2482300W"},  // NIE
		{"ES M-1234567-L", "ES", "ES", "M1234567L"}, // python-stdnum es/cif example of a valid NIF
		{"FI 2094606-3", "FI", "FI", "20946063"},
		{"FR 40 303 265 045", "FR", "FR", "40303265045"},
		{"FR23334175221", "FR", "FR", "23334175221"},   // python-stdnum fr/tva example
		{"FR K 7399859412", "FR", "FR", "K7399859412"}, // new-style key, letter first
		{"FR4Z123456782", "FR", "FR", "4Z123456782"},   // new-style key, digit first (python-stdnum fr/tva example)
		{"FR32000000330", "FR", "FR", "32000000330"},   // Monaco, no SIREN
		{"HR 33392005961", "HR", "HR", "33392005961"},  // python-stdnum hr/oib example
		{"HU-12892312", "HU", "HU", "12892312"},
		{"IE 6433435F", "IE", "IE", "6433435F"},
		{"IE6433435OA", "IE", "IE", "6433435OA"}, // 2013 form with a second letter
		{"IE8D79739I", "IE", "IE", "8D79739I"},   // old form
		{"IT 00743110157", "IT", "IT", "00743110157"},
		{"LT 119511515", "LT", "LT", "119511515"},
		{"LT 100001919017", "LT", "LT", "100001919017"}, // 12-digit form
		{"LU 150 274 42", "LU", "LU", "15027442"},
		{"LV 4000 3521 600", "LV", "LV", "40003521600"}, // company (python-stdnum lv/pvn example)
		{"LV 161175-19997", "LV", "LV", "16117519997"},  // old personal code (python-stdnum lv/pvn example)
		{"MT 1167-9112", "MT", "MT", "11679112"},
		{"NL4495445B01", "NL", "NL", "004495445B01"},   // RSIN, 11-proef (python-stdnum nl/btw example)
		{"NL002455799B11", "NL", "NL", "002455799B11"}, // sole trader since 2020, MOD 97 (python-stdnum nl/btw example)
		{"NL000099998B57", "NL", "NL", "000099998B57"}, // business.gov.nl example of a btw-identificatienummer
		{"PL 584-030-44-72", "PL", "PL", "5840304472"},
		{"PT 501 964 843", "PT", "PT", "501964843"},
		{"RO 185 472 90", "RO", "RO", "18547290"},
		{"RO 573768", "RO", "RO", "573768"},
		{"RO 1630615123457", "RO", "RO", "1630615123457"}, // CNP
		{"SE 556043606401", "SE", "SE", "556043606401"},
		{"SI 5022 3054", "SI", "SI", "50223054"},
		{"SK 202 274 96 19", "SK", "SK", "2022749619"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			n, err := Parse(tt.raw)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.raw, err)
			}
			want := Number{Country: tt.country, Prefix: tt.prefix, Local: tt.local}
			if n != want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.raw, n, want)
			}
			if got := n.String(); got != tt.prefix+tt.local {
				t.Errorf("String() = %q, want %q", got, tt.prefix+tt.local)
			}
			// Parsing the normalised form gives the same number again.
			again, err := Parse(n.String())
			if err != nil || again != n {
				t.Errorf("Parse(%q) = %+v, %v; want %+v", n.String(), again, err, n)
			}
		})
	}
}

// TestParse_PublishedNumbers runs every number of the published list, and
// checks that together with it every member state has a real valid number.
func TestParse_PublishedNumbers(t *testing.T) {
	f, err := os.Open("testdata/published_valid.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	perPrefix := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n, err := Parse(line)
		if err != nil {
			t.Errorf("Parse(%q): %v", line, err)
			continue
		}
		perPrefix[n.Prefix]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range Prefixes() {
		if perPrefix[p] == 0 {
			t.Errorf("no published valid number for %s", p)
		}
	}
	t.Logf("valid numbers per prefix: %v", perPrefix)
}

// TestParse_Checksum: real numbers with one digit (or check letter) changed
// fail with ErrChecksum, for every member state.
func TestParse_Checksum(t *testing.T) {
	tests := []string{
		// python-stdnum's tests/test_eu_vat.doctest, "mangled so their check digit is wrong".
		"ATU 143 43 102", "ATU 15169209", "ATU46080904", "ATU61191628",
		"BE 0406.139.583", "BE 0793 013 186", "BE 456.973.432", "BE697449982",
		"BG 1037735942", "BG 131 172 009", "BG 147147471", "BG 200940556",
		"CY 10246672F", "CY-10009489 A", "CY-10257074Y", "CY00632893 F",
		"CZ 25557481", "CZ 48207726", "CZ 640913926", "CZ 8058018314",
		"DE 125014855", "DE 246 495 415", "DE 813 91 38 75", "DE - 266297673",
		"DK 11 96 56 58", "DK 2565 2202", "DK-27996592", "DK10159817",
		"EE 100 941 558", "EE 100525487", "EE 101586639", "EE101256754",
		"ES 54362415K", "ES K-2814015-F", "ES-x-2322300w", "Es-a48951310",
		"EL 094013834", "EL 094068733", "EL094501140",
		"FR 04409414264", "FR 21 326 565 603", "FR K 7399859312", "FR L 7399859412",
		"IE 4731823H", "IE 632 3421 C", "IE 5339273F", "IE8D79729I",
		"LV 40003189715", "LV 90000528022", "LV-10103241337", "LV-42103048181",
		"SK 1078449164", "SK 302 274 96 19", "SK 2030 237 945", "SK 2020457679",
		// Module examples of python-stdnum with a wrong check digit.
		"CZ 25123890", "CY-10259033Z", "BG 175074751", "SI 50223055", "HR 33392005962",
		"LV 40003521601", "CZ 7103192746", "FR 84 323 140 391", "NL123456789B90",
		// Reported in zapadi/vies-dotnet#27 as the right format with a wrong check.
		"HR15422143326",
		// Our own: one digit of a number in published_valid.txt changed.
		"FI 20784740", "FI 2094607-3",
		"HU 10672201", "HU 12892322",
		"IT 00743210157", "IT 00743110158",
		"LT 119611515", "LT 100001919018",
		"LU 15027443", "LU 16027442",
		"MT 17125737", "MT 11679113",
		"NL004495446B01", "NL002455798B11", "NL000099998B58",
		"PL 5840304473", "PL 5261035421",
		"PT 501964853", "PT 501964844",
		"RO 18547390", "RO 1630615123458", "RO 573769",
		"SE 556043606501", "SE 556043606301",
		"SI 50323054",
		"LV 161175-19998",
		"EL 94051188",
	}
	perPrefix := map[string]bool{}
	for _, raw := range tests {
		t.Run(raw, func(t *testing.T) {
			n, err := Parse(raw)
			if !errors.Is(err, ErrChecksum) {
				t.Fatalf("Parse(%q) = %+v, %v; want ErrChecksum", raw, n, err)
			}
			if !strings.Contains(err.Error(), "check it for a typo") {
				t.Errorf("message %q does not say what to do", err)
			}
		})
		perPrefix[strings.ToUpper(raw[:2])] = true
	}
	for _, p := range Prefixes() {
		if !perPrefix[p] {
			t.Errorf("no check-digit failure tested for %s", p)
		}
	}
}

// TestParse_Format: wrong length, letters where digits belong, and each
// state's structural rules give ErrFormat naming the expected format.
func TestParse_Format(t *testing.T) {
	tests := []string{
		// python-stdnum's "formatting flaws", "invalid component" and "wrong length" lists.
		"AT1 142 43 102", "ATU 1515B209", "ATU 151592092",
		"BE 02A2.239.951", "BE 0220,764.971", "BE 2202239951",
		"BG 10X8735941", "BG 1758074752000",
		"CY-102590Z3P", "CY-12259033P", "CY-1225903322",
		"CZ 95123891", "CZ 1103492745", "CZ 590312/123",
		"DE 246X595 415", "DE 011125440",
		"DK 01234567",
		"EE 200931558",
		"EL 12345", "EL 0940128341",
		"ES B-583784312", "ES O-1234567-L", "ES 5436231KK",
		"FI 209460",
		"FR000076090", "FR IO334175221",
		"HR 3339200596",
		"HU 1289231",
		"IE 4550C59S", "IE 069385V8", "IE 6433435X", "IE 6433435FZ",
		"IT 00687129980", "IT 00000000000",
		"LT 100001354", "LT 100001509922",
		"LU 1502744",
		"LV 4000352160", "LV 161375-19997",
		"MT 01679112",
		"NL 001241643801", "NL 009122746B00", "NL B06753742B01", "NL 82X569759b01", "NL006866304B021",
		"PL 58403044", "PL 58403044720",
		"PT 001964843",
		"RO 0185472", "RO 1", "RO 12345678901", "RO 1631315123457",
		"SE 55643359201", "SE 5567003255201", "SE 556043606402",
		"SI 05022305",
		"SK A078449064", "SK 012 274 96 19", "SK 2010 237 945",
	}
	for _, raw := range tests {
		t.Run(raw, func(t *testing.T) {
			n, err := Parse(raw)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Parse(%q) = %+v, %v; want ErrFormat", raw, n, err)
			}
		})
	}
	// Every state: too short, and letters only.
	for _, p := range Prefixes() {
		for _, local := range []string{"1", "ABCDEFGHIJ"} {
			if _, err := Parse(p + local); !errors.Is(err, ErrFormat) {
				t.Errorf("Parse(%q): %v, want ErrFormat", p+local, err)
			}
		}
	}
}

// TestParse_FormatMessage: the message names the state's format.
func TestParse_FormatMessage(t *testing.T) {
	_, err := Parse("de 12345")
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("err = %v, want ErrFormat", err)
	}
	if want := "DE VAT numbers are DE followed by 9 digits"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q does not contain %q", err, want)
	}
}

// TestParse_Prefix: a missing, foreign or Greek-ISO prefix is ErrPrefix.
func TestParse_Prefix(t *testing.T) {
	tests := []struct {
		raw, mention string
	}{
		{"136695976", "prefix"},
		{"GR094259216", "EL094259216"}, // Greece writes EL
		{"gr 094259216", "use the prefix EL"},
		{"US123456789", "US is not"},
		{"XI980780684", "XI is not"}, // Northern Ireland: not an EU member state
		{"GB980780684", "GB is not"},
		{"QQ 124567", "QQ is not"},
		{"1", "prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			_, err := Parse(tt.raw)
			if !errors.Is(err, ErrPrefix) {
				t.Fatalf("Parse(%q): %v, want ErrPrefix", tt.raw, err)
			}
			if !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("message %q does not mention %q", err, tt.mention)
			}
		})
	}
	if _, err := Parse("   "); !errors.Is(err, ErrFormat) {
		t.Errorf("Parse(blank): %v, want ErrFormat", err)
	}
}

// TestPrefixes: one prefix per member state, EL standing for GR.
func TestPrefixes(t *testing.T) {
	var countries []string
	for _, p := range Prefixes() {
		c := states[p].country
		if !IsEU(c) {
			t.Errorf("prefix %s maps to %s, which is not in the rate table", p, c)
		}
		if want := p; p == "EL" {
			if c != "GR" {
				t.Errorf("EL maps to %s, want GR", c)
			}
		} else if c != want {
			t.Errorf("prefix %s maps to %s", p, c)
		}
		countries = append(countries, c)
	}
	slices.Sort(countries)
	if !slices.Equal(countries, Countries()) {
		t.Errorf("prefix countries %v != Countries() %v", countries, Countries())
	}
}
