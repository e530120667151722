package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev44 reads the eleventh development set (testdata/dev44): founders,
// their titles and the stage stated in running text and in pages that are
// not team grids (stories, founder letters, blog bylines, press-kit fact
// sheets, an open-source project's docs, an Impressum).
func loadDev44(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev44", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev44 measures the drafter on the eleventh development set:
// founders named mid-paragraph, in a letter's signature, in a byline or a
// fact sheet, their titles after a comma, in parentheses, on a second line
// or in an aria-label, beside advisers, board members, investors and quoted
// customers; and the stage said in prose (generally available, early
// access, acquired) beside other people's stage words. They must be clean
// (nothing non-verbatim or ungrounded, nothing invented beyond
// dev44MaxInvented); recall is held to dev44MinRecall.
func TestEvaluationDev44(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev44", loadDev44(t), 10, dev44MinRecall, dev44MaxInvented)
}

// dev44MinRecall and dev44MaxInvented hold the drafter on dev44. The day
// it was written (drafter unchanged): 53.0% recall (61/115), value accuracy
// 92.4%, 0 invented; stage 6/13 (3 wrong: competitors' traction and beta),
// founders 5/24, titles 3/18. After bylines, signed letters, stories,
// press-kit fact sheets and competitors' stage: 84.3% (97/115). Its second
// batch of four, written before those rules ran on it, gave 15 of 31; with
// the rules written after it, 84.9% (124/146), 99.2% accurate, 0 invented.
const (
	dev44MinRecall   = 0.84
	dev44MaxInvented = 0
)
