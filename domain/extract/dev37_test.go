package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev37 reads the sixth development set in any language (testdata/dev37):
// founders, stage and places laid out by page structure.
func loadDev37(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev37", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev37 measures the drafter on the sixth development set:
// team grids of cards without headings or sentences, <dl> and <table>
// profiles, JSON-LD founders with jobTitle, founders in appositions and in
// the attributions of their own quotes, people under Founders, Team,
// Advisors and Investors headings; stage from a header badge, a waitlist
// form, an early-access call to action, a pricing page with live prices, a
// news or changelog entry that ends the beta; places from footers,
// <address>, JSON-LD PostalAddress, map captions and "Made in" lines. They
// must be clean (nothing ungrounded, non-verbatim or invented beyond
// dev37MaxInvented); recall is held to dev37MinRecall.
func TestEvaluationDev37(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev37(t)
	if len(sites) < 18 {
		t.Errorf("%d dev37 sites, want at least 18", len(sites))
	}
	sc := scoreSet(t, "dev37", sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > dev37MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev37MaxInvented)
	}
	if sc.recall() < dev37MinRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*dev37MinRecall)
	}
}

// dev37MinRecall and dev37MaxInvented hold the drafter on dev37. The day each
// batch was written: testdata/dev37/README.md; after the rules written
// against it 99.4% (162/163), value accuracy 100%, 0 invented
// (docs/drafts.md, "Issue 31, dev37 round").
const (
	dev37MinRecall   = 0.97
	dev37MaxInvented = 0
)
