package extract_test

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev33 reads the third development set in any language (testdata/dev33),
// whose truth may name the languages of unseenLanguages.
func loadDev33(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev33", loadCategories(t), unseenLanguages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev33 measures the drafter on the third development set:
// founders in profile tables, role cards and "founded by" lines, stage
// statements, dated news lists in local formats, free plan vs free trial,
// postal addresses without the country's name. They must be clean; recall is
// held to dev33MinRecall.
func TestEvaluationDev33(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev33(t)
	if len(sites) < 8 {
		t.Errorf("%d dev33 sites, want at least 8", len(sites))
	}
	sc := scoreSet(t, "dev33", sites, fetched)
	if sc.ungrounded != 0 || sc.robotsSites == 0 || sc.robotsOK != sc.robotsSites {
		checkClean(t, sc)
	}
	if sc.invented > dev33MaxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, dev33MaxInvented)
	}
	if sc.recall() < dev33MinRecall {
		t.Errorf("recall %.1f%%, want at least %.0f%%", 100*sc.recall(), 100*dev33MinRecall)
	}
}

// dev33MinRecall is the recall TestEvaluationDev33 holds the drafter to,
// and dev33MaxInvented the invented values it allows (the day the set was
// written: 81.5%, 1 invented, a free trial read as freemium; it reaches
// 92.1%, 0 invented).
const (
	dev33MinRecall   = 0.90
	dev33MaxInvented = 0
)

// TestEvaluationSummary prints one line per set: recall, value accuracy,
// invented, non-verbatim and ungrounded values, robots.txt. It prints
// nothing per site or field, so it is the way to look at the held-out
// unseen set while tuning on the others. It runs only when
// LAUNCHDIR_EVAL_SUMMARY is set (the sets' own tests run in the suite):
// LAUNCHDIR_EVAL_SUMMARY=1 go test ./domain/extract -run TestEvaluationSummary -count=1 -v
// With LAUNCHDIR_EVAL_SUMMARY=tables it adds each set's tables per language
// and per field (still no site's name, page or value).
func TestEvaluationSummary(t *testing.T) {
	if os.Getenv("LAUNCHDIR_EVAL_SUMMARY") == "" {
		t.Skip("set LAUNCHDIR_EVAL_SUMMARY=1 to print the summary")
	}
	cats := loadCategories(t)
	for _, set := range evaluationSets(t) {
		sc := evaluate(t, set.sites, cats, fetched)
		t.Logf("%-8s recall %5.1f%% (%d/%d)  value accuracy %5.1f%% (%d/%d)  invented %d  non-verbatim %d  ungrounded %d  robots %d/%d",
			set.name, 100*sc.recall(), sc.found, sc.facts, 100*sc.accuracy(), sc.right, sc.filled,
			sc.invented, sc.nonVerbatim, sc.ungrounded, sc.robotsOK, sc.robotsSites)
		if os.Getenv("LAUNCHDIR_EVAL_SUMMARY") == "tables" {
			// the tables per language and per field: aggregates, no site's name or value
			t.Log("\n" + sc.report(set.name))
		}
	}
}
