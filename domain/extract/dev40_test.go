package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev40 reads the eighth development set (testdata/dev40): pricing
// grids, feature lists and changelogs as site builders and frameworks write
// them (Webflow, Framer, WordPress, Tailwind, Bootstrap, Vue).
func loadDev40(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev40", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev40 measures the drafter on the eighth development set:
// plan cards of nested divs, split prices, toggles, comparison tables,
// add-ons and fees beside the plans; feature cards, accordions, tabs and
// <dl> lists. They must be clean (nothing ungrounded, nothing non-verbatim,
// nothing invented beyond dev40MaxInvented); recall is held to
// dev40MinRecall.
func TestEvaluationDev40(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev40", loadDev40(t), 12, dev40MinRecall, dev40MaxInvented) // dev41_test.go
}

// dev40MinRecall and dev40MaxInvented hold the drafter on dev40. The day it
// was written (drafter unchanged): 69.2% recall (128/185), value accuracy
// 87.1% (128/147), 5 invented (add-ons, an overage row, a strike-through
// price taken as plans' prices; a patch release's date), 0 non-verbatim.
// After the first rules: 100% (185/185), 0 invented. A second batch of four
// (en-shiftwise, ja-shiftnote, zh-kuaiyue, tr-randevu), written then and
// before the drafter was run on it: 98.3% (234/238), 99.6% accurate, 1
// invented (a one-time setup fee in an option table). After the rules
// written against it: 100% (238/238), 100% accurate, 0 invented.
const (
	dev40MinRecall   = 0.97
	dev40MaxInvented = 0
)
