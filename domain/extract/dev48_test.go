package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev48 reads the development set of people, founding and stage as
// small teams and solo makers write them (testdata/dev48): founders in
// narrative, bylines and signatures, titles before, after and around the
// name, employees, advisers, investors, customers and guests beside them,
// founding years in prose beside copyright ranges, stage in prose and
// badges beside beta features and customer programmes.
func loadDev48(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev48", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev48 measures the drafter on dev48. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev48MaxInvented
// invented); recall is held to dev48MinRecall.
func TestEvaluationDev48(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev48", loadDev48(t), 12, dev48MinRecall, dev48MaxInvented)
}

// dev48MinRecall and dev48MaxInvented hold the drafter on dev48. The day
// it was written (drafter unchanged): 59.0% recall (62/105), value accuracy
// 96.9% (62/64), 1 invented (a chief operating officer taken as a founder).
// After the rules written against it: 88.6% (93/105), 100% accurate, 0
// invented; left are cities and countries of footer divs without a footer
// class.
const (
	dev48MinRecall   = 0.88
	dev48MaxInvented = 0
)
