package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev46 reads the development set of site-builder markup
// (testdata/dev46): pages as Webflow, Framer, Wix, Squarespace, Elementor,
// Divi, Notion (super.so), Carrd, Tilda, Next.js and Nuxt write them, with
// styled divs for headings, text split over spans, soft hyphens and
// zero-width spaces, desktop and mobile copies hidden by classes, sliders,
// tabs and accordions, and hydration payloads that are not page text.
func loadDev46(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev46", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev46 measures the drafter on dev46. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev46MaxInvented
// invented); recall is held to dev46MinRecall.
func TestEvaluationDev46(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev46", loadDev46(t), 12, dev46MinRecall, dev46MaxInvented)
}

// dev46MinRecall and dev46MaxInvented hold the drafter on dev46. The day
// it was written (drafter unchanged): 72.6% recall (119/164), value
// accuracy 94.4% (119/126), 1 invented, 0 ungrounded, 0 non-verbatim.
// After the builder rules (invisible characters, split headings, badges,
// builder team cards, styled main headings): 88.3% (144/163), 99.3%
// accurate, 0 invented; left are features without a section heading,
// founding years in words no list has, and places of US states.
const (
	dev46MinRecall   = 0.88
	dev46MaxInvented = 0
)
