package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev50 reads the development set of page text as a browser lays it
// out (testdata/dev50): footer rows of spans with no whitespace between
// them in flex and grid containers, words split over spans that are one
// word on screen, closing blocks of the body that are divs without a
// footer name (role=contentinfo, #colophon, .site-bottom, a last block
// with the copyright and legal links), Norwegian and Swedish "i" ("in"),
// prices per user or seat without a month, and Bluesky and Mastodon
// profiles.
func loadDev50(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev50", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev50 measures the drafter on dev50. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev50MaxInvented
// invented); recall is held to dev50MinRecall.
func TestEvaluationDev50(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev50", loadDev50(t), 6, dev50MinRecall, dev50MaxInvented)
}

// dev50MinRecall and dev50MaxInvented hold the drafter on dev50. The day
// it was written (drafter unchanged): 64.2% recall (34/53), value accuracy
// 91.9% (34/37), 2 invented (a customer's founding year read through Swedish
// "I", an address glued to the country before it), 0 ungrounded, 0
// non-verbatim. After the rules written against it (one list of period
// words for the drafter and the gate, "I" only in English, div footers, the
// layout's gaps, Bluesky and Mastodon as custom, a footer piece "City,
// Country"): 100% (53/53), 100% accurate, 0 invented.
const (
	dev50MinRecall   = 1.0
	dev50MaxInvented = 0
)
