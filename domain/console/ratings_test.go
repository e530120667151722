package console

import (
	"strings"
	"testing"
	"time"
)

// TestRatingHost: the domain column, a URL or a host, becomes the host as
// listings.domain keeps it; what is no host is refused with the value.
func TestRatingHost(t *testing.T) {
	for in, want := range map[string]string{
		"example.com": "example.com", "WWW.Example.COM": "example.com", "https://www.example.com/pricing?x=1": "example.com",
		"http://app.example.com:8080/": "app.example.com", "example.com/blog": "example.com", "example.com.": "example.com",
		"//cdn.example.com/x": "cdn.example.com", "münchen.example": "xn--mnchen-3ya.example", " example.org ": "example.org",
	} {
		if got, err := RatingHost(in); err != nil || got != want {
			t.Errorf("RatingHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "not a host", "localhost", "https://", "exa_mple.com", "-bad.example", "user@example.com", strings.Repeat("a", 64) + ".com"} {
		if got, err := RatingHost(in); err == nil {
			t.Errorf("RatingHost(%q) = %q, want an error", in, got)
		}
	}
}

// TestParseRatingsCSV_Formats: a tab file with a BOM and quoted fields;
// the best-named column wins when two could be the domain.
func TestParseRatingsCSV_Formats(t *testing.T) {
	today := time.Date(2026, 11, 18, 23, 0, 0, 0, time.UTC)
	rows, err := ParseRatingsCSV(strings.NewReader("\xef\xbb\xbfURL\tDomain\t\"Domain Rating\"\tDate\nhttps://x.test/a\ta.example\t\"7\"\t2026-11-18\n"), today)
	if err != nil || len(rows) != 1 || rows[0].Domain != "a.example" || rows[0].Value != 7 || rows[0].Line != 2 || rows[0].Refused() {
		t.Fatalf("rows %+v err %v", rows, err)
	}
	rows, err = ParseRatingsCSV(strings.NewReader("domain,rating,date\na.example,7\n"), today)
	if err != nil || len(rows) != 1 || rows[0].Reason != "the row has fewer columns than the header" {
		t.Fatalf("short row: %+v %v", rows, err)
	}
}
