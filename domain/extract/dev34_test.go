package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev34 reads the fourth development set in any language
// (testdata/dev34), whose truth may name the languages of unseenLanguages.
func loadDev34(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev34", loadCategories(t), unseenLanguages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev34 measures the drafter on the fourth development set:
// bare price paths, news lists without <time>, founders in JSON-LD, role
// cards, profile tables and prose with titles beside traps, footer-only
// company facts, stage as traction in any language, FAQs in several shapes,
// a <noscript> app. They must be clean (nothing ungrounded, no page
// robots.txt forbids); invented values are held to dev34MaxInvented and
// recall to dev34MinRecall.
func TestEvaluationDev34(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev34(t)
	if len(sites) < 12 {
		t.Errorf("%d dev34 sites, want at least 12", len(sites))
	}
	sc := scoreSet(t, "dev34", sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 || sc.robotsSites == 0 || sc.robotsOK != sc.robotsSites {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > dev34MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev34MaxInvented)
	}
	if sc.recall() < dev34MinRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*dev34MinRecall)
	}
}

// dev34MinRecall and dev34MaxInvented hold the drafter on dev34. The day it
// was written (drafter unchanged): 73.5% recall (194/264), value accuracy
// 99.0%, 0 invented, 0 non-verbatim; after the rules written against it
// 87.5% (231/264), value accuracy 100%, 0 invented.
const (
	dev34MinRecall   = 0.87
	dev34MaxInvented = 0
)
