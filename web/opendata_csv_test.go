package web

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestOpenDataCSV_NoFormulas: a maker's name or tagline that a spreadsheet
// would run as a formula (=, +, -, @, tab, carriage return first; OWASP "CSV
// injection") is written with a leading apostrophe, so the export opens as
// text; other cells are unchanged.
func TestOpenDataCSV_NoFormulas(t *testing.T) {
	doc := &domain.OpenData{
		Listings: []domain.OpenListing{{Slug: "evil", Name: `=HYPERLINK("http://x.test","a")`, Tagline: "+1 more", Website: "https://evil.test"}},
		Awards:   []domain.OpenAward{{Week: "2026-W10", Rank: 1, Title: "@SUM(A1)", ListingSlug: "evil", ListingName: "-2+3", Votes: 5}},
	}
	for file, want := range map[string]map[string]string{
		"listings.csv": {"name": `'=HYPERLINK("http://x.test","a")`, "tagline": "'+1 more", "slug": "evil", "website": "https://evil.test"},
		"awards.csv":   {"title": "'@SUM(A1)", "listing_name": "'-2+3", "votes": "5", "rank": "1"},
	} {
		b := openDataCSV(t, file, doc)
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: %v %q", file, err, rows)
		}
		for i, col := range rows[0] {
			if w, ok := want[col]; ok && rows[1][i] != w {
				t.Errorf("%s %s = %q, want %q", file, col, rows[1][i], w)
			}
		}
	}
}

// openDataCSV is the CSV file of the export document doc, written as the
// server writes it (from the JSON document, element by element).
func openDataCSV(t *testing.T, file string, doc *domain.OpenData) []byte {
	t.Helper()
	body, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeOpenDataCSVs(bytes.NewReader(body), map[string]*csv.Writer{file: csv.NewWriter(&buf)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
