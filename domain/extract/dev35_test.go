package extract_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// dev35Languages are the languages a truth table of testdata/dev35 may
// name: those of unseenLanguages and more without word lists.
var dev35Languages = append(slices.Clip(unseenLanguages), "fi", "da", "hu", "ro", "id", "vi", "el")

// loadDev35 reads the fifth development set in any language (testdata/dev35).
func loadDev35(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev35", loadCategories(t), dev35Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev35 measures the drafter on the fifth development set:
// blog, news and press indexes with dated posts beside traps (advice posts,
// coverage on other sites, patch releases), a history list in two language
// versions, stage statements and free trials without a free plan in
// languages without word lists, hidden yearly prices, <noscript> apps.
// They must be clean (nothing ungrounded or non-verbatim, no page robots.txt
// forbids); invented values are held to dev35MaxInvented and recall to
// dev35MinRecall.
func TestEvaluationDev35(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev35(t)
	if len(sites) < 10 {
		t.Errorf("%d dev35 sites, want at least 10", len(sites))
	}
	sc := scoreSet(t, "dev35", sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 || sc.robotsOK != sc.robotsSites {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > dev35MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev35MaxInvented)
	}
	if sc.recall() < dev35MinRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*dev35MinRecall)
	}
}

// dev35MinRecall and dev35MaxInvented hold the drafter on dev35. The day it
// was written (drafter unchanged): 53.4% recall (111/208), value accuracy
// 95.7% (111/116), 4 invented, 0 non-verbatim; after the first rules 79.8%
// and 0 invented; with the second batch of four sites (ja 2, ko, zh) added
// before the drafter was run on them: 82.1% (230/280), 97.9%, 4 invented.
const (
	dev35MinRecall   = 0.84
	dev35MaxInvented = 0
)
