package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev45 reads the development set of larger sites (testdata/dev45):
// 10 to 40 pages each, whose facts sit on pages a crawl must choose well
// (footer-only company pages, a story listed only in the sitemap, a blog's
// oldest post, an imprint in one language of several), and places stated in
// copyright lines, footers, <address> elements and JSON-LD beside customers'
// and events' cities.
func loadDev45(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev45", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev45 measures the drafter on dev45. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev45MaxInvented
// invented); recall is held to dev45MinRecall.
func TestEvaluationDev45(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev45", loadDev45(t), 10, dev45MinRecall, dev45MaxInvented)
}

// dev45MinRecall and dev45MaxInvented hold the drafter on dev45. The day
// it was written (drafter and fetcher unchanged): 74.7% recall (62/83),
// value accuracy 96.9% (62/64), 0 invented, 0 ungrounded, 0 non-verbatim.
// After the page-choice rules (internal/fetch), the footer places and the
// postcode read in its page's language: 86.7% (72/83), 98.6% accurate, 0
// invented; left are founders and founding years on pages now read (a blog
// post, a /crew page, a profile table on /corporate) and one plan.
const (
	dev45MinRecall   = 0.86
	dev45MaxInvented = 0
)
