package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev41 reads the ninth development set (testdata/dev41): team grids,
// about stories and stage statements in the markup of site-builder and
// theme templates (WordPress, Elementor, Webflow CMS, Squarespace, Framer,
// Tailwind UI, Bootstrap, Astro, Hugo, shadcn/ui, Element UI, FLOCSS).
func loadDev41(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev41", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev41 measures the drafter on the ninth development set:
// founders among employees, advisers, investors and customers' testimonials,
// founders named in a story, and stage stated by pills, counters, launches
// and waitlists. They must be clean (nothing ungrounded, nothing
// non-verbatim, nothing invented beyond dev41MaxInvented); recall is held to
// dev41MinRecall.
func TestEvaluationDev41(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev41", loadDev41(t), 10, dev41MinRecall, dev41MaxInvented)
}

// holdDevSet evaluates a development set and holds it clean (nothing
// ungrounded or non-verbatim, at most maxInvented invented), with at least
// minSites sites and minRecall recall; it logs the misses and the report.
func holdDevSet(t *testing.T, name string, sites []testSite, minSites int, minRecall float64, maxInvented int) {
	t.Helper()
	if len(sites) < minSites {
		t.Errorf("%d %s sites, want at least %d", len(sites), name, minSites)
	}
	sc := scoreSet(t, name, sites, fetched)
	if sc.ungrounded != 0 || sc.nonVerbatim != 0 {
		checkClean(t, sc)
		if sc.nonVerbatim != 0 {
			t.Errorf("%d quotes are not verbatim page text, want 0", sc.nonVerbatim)
		}
	}
	if sc.invented > maxInvented {
		t.Errorf("%d values invented, want at most %d", sc.invented, maxInvented)
	}
	if sc.recall() < minRecall {
		t.Errorf("recall %.1f%%, want at least %.1f%%", 100*sc.recall(), 100*minRecall)
	}
}

// dev41MinRecall and dev41MaxInvented hold the drafter on dev41. The day it
// was written (drafter unchanged): 82.0% recall (82/100), value accuracy
// 92.1% (82/89), 1 invented (a customer's quote signed "대표, 카페 온기"
// taken as a founder), 0 non-verbatim. Weakest: stage 5/11 (2 wrong),
// city 4/8, founders 22/24 (26 drafted, 22 right), titles 17/20. After the
// rules written against it: 93.0% (93/100), 100% accurate, 0 invented; the
// misses left are cities and countries of footers and copyright lines
// (five) and a founding year said as "started" in Korean.
const (
	dev41MinRecall   = 0.92
	dev41MaxInvented = 0
)
