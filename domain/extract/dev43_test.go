package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev43 reads the eleventh development set (testdata/dev43): plans and
// prices stated outside plan cards (several in one sentence or list item, in
// FAQ answers, in tables either way round, per unit, yearly only, lifetime,
// named only by icons, on a docs Billing page, in a changelog).
func loadDev43(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev43", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev43 measures the drafter on the eleventh development set.
// It must be clean (nothing non-verbatim or ungrounded, nothing invented
// beyond dev43MaxInvented); recall is held to dev43MinRecall.
func TestEvaluationDev43(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev43", loadDev43(t), 10, dev43MinRecall, dev43MaxInvented)
}

// dev43MinRecall and dev43MaxInvented hold the drafter on dev43. The day it
// was written (drafter unchanged): 75.9% recall (63/83), value accuracy
// 76.8%, 2 invented (a free tier in a feature list missed, a full-width
// question read as a free plan). After the rules for plans several to a
// sentence, free use up to a limit, bold names with a free or contact
// clause, one-time payments after a card's price and icon-named plans:
// 100% (83/83), 0 invented. Its second batch of five (17 sites): 93.8%
// (105/112), 3 invented (a "Pricing" heading as a plan's name); after
// prose under pricing headings, names after the price and Korean topic
// particles: 100% (112/112), 0 invented.
const (
	dev43MinRecall   = 1.0
	dev43MaxInvented = 0
)
