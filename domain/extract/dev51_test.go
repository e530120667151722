package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev51 reads the development set of page layout a site's own CSS
// gives (testdata/dev51): footer rows, menus and plan rows of spans with no
// whitespace between them, laid out as flex rows, grids and columns by rules
// in a <style> element rather than by utility classes.
func loadDev51(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev51", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev51 measures the drafter on dev51. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev51MaxInvented
// invented); recall is held to dev51MinRecall.
func TestEvaluationDev51(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev51", loadDev51(t), 3, dev51MinRecall, dev51MaxInvented)
}

// dev51MinRecall and dev51MaxInvented hold the drafter on dev51. The day
// it was written (drafter unchanged): 61.1% recall (22/36), value accuracy
// 84.6% (22/26), 3 invented (addresses glued to the word before them), 0
// ungrounded, 0 non-verbatim. After the page's own <style> rules were read
// for its layout (htmltext's sheet): 97.2% (35/36), 100% accurate, 0
// invented; the miss left is a German founding year ("wurde 2019 von ...
// gegründet").
const (
	dev51MinRecall   = 0.97
	dev51MaxInvented = 0
)
