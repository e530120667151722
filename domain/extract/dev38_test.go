package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev38 reads the sixth development set (testdata/dev38): pricing grids,
// changelogs, timelines and feature lists by page structure, half English.
func loadDev38(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev38", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev38 measures the drafter on the sixth development set:
// plan cards, price toggles, comparison tables and JSON-LD offers; changelogs,
// release-note rows, news tables and "our journey" timelines; feature grids,
// tabs, feature pages; beside logos, testimonials, job ads and notices. They
// must be clean (nothing ungrounded, nothing non-verbatim, nothing invented
// beyond dev38MaxInvented); recall is held to dev38MinRecall.
func TestEvaluationDev38(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev38(t)
	if len(sites) < 12 {
		t.Errorf("%d dev38 sites, want at least 12", len(sites))
	}
	sc := scoreSet(t, "dev38", sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > dev38MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev38MaxInvented)
	}
	if sc.recall() < dev38MinRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*dev38MinRecall)
	}
}

// dev38MinRecall and dev38MaxInvented hold the drafter on dev38. The day it
// was written (drafter unchanged): 77.9% recall (148/190), value accuracy
// 91.9% (148/161), 5 invented (milestones: customer stories, maintenance
// notices, a trade fair), 0 non-verbatim. A second batch of three
// (en-parcelnote, en-wavelet, nl-roosterkit), written after the first rules
// and before the drafter was run on it, brought the set to 92.7% (217/234),
// 99.5% accurate, 0 invented, 1 ungrounded (a pricing model quoted by "per
// medewerker", a unit the gate did not know). After the rules written
// against it: 97.4% (228/234), value accuracy 100%, 0 invented.
const (
	dev38MinRecall   = 0.95
	dev38MaxInvented = 0
)
