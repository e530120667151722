package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev39 reads the seventh development set (testdata/dev39): founders,
// stage and places as sites built with common tools write them.
func loadDev39(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev39", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev39 measures the drafter on the seventh development set:
// team cards of divs, press-release boilerplates, interview posts, founding
// sentences in CJK forms; stage stated as a status beside old betas and
// features coming soon; places in footers. They must be clean (nothing
// ungrounded, nothing non-verbatim, nothing invented beyond
// dev39MaxInvented); recall is held to dev39MinRecall.
func TestEvaluationDev39(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev39(t)
	if len(sites) < 12 {
		t.Errorf("%d dev39 sites, want at least 12", len(sites))
	}
	sc := scoreSet(t, "dev39", sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > dev39MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev39MaxInvented)
	}
	if sc.recall() < dev39MinRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*dev39MinRecall)
	}
}

// dev39MinRecall and dev39MaxInvented hold the drafter on dev39. The day it
// was written (drafter unchanged, main 4181520): 65.5% recall (78/119),
// value accuracy 96.3% (78/81), 0 invented, 0 non-verbatim; 2 stages wrong
// (beta for "now generally available" beside an old beta in news, and for
// "finns nu för alla – efter ett år i sluten beta"), a founder's title taken
// from the next card. After the dev39 round's rules: 96.6% (115/119),
// value accuracy 100%, 0 invented.
const (
	dev39MinRecall   = 0.95
	dev39MaxInvented = 0
)
