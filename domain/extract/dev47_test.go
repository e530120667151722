package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev47 reads the development set of Chinese, Japanese and Korean
// product sites as their makers write them, and pricing pages in English
// (testdata/dev47): company-profile tables, officers with titles before or
// after the name, full-width digits and yen signs, 万 and 억 units, era
// dates, tax notes, per-seat prices, "contact us" plans, free trials beside
// free plans, hidden yearly prices, add-ons and one-time fees that are not
// plans, local socials beside global ones.
func loadDev47(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev47", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev47 measures the drafter on dev47. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev47MaxInvented
// invented); recall is held to dev47MinRecall.
func TestEvaluationDev47(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev47", loadDev47(t), 12, dev47MinRecall, dev47MaxInvented)
}

// dev47MinRecall and dev47MaxInvented hold the drafter on dev47. The day
// it was written (drafter unchanged): 76.6% recall (131/171), value
// accuracy 91.0% (131/144), 6 invented (add-ons and a per-message fee taken
// as the pricing model or a plan, an investor taken as a founder), 0
// ungrounded, 0 non-verbatim. After the rules written against it: 94.2%
// (161/171), 99.4% accurate, 1 invented (an investor's row taken as a
// founder: people rules are not this set's); left are countries of cities
// named alone, a 代表社員 and a 創辦人 in prose, a stage and a founding said
// as 公測中 and "2023년 … 시작했습니다", and a mixed Han-Latin name's email.
const (
	dev47MinRecall   = 0.94
	dev47MaxInvented = 1
)
