package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev42 reads the tenth development set (testdata/dev42): pricing
// sections, plans and category statements as site builders and themes write
// them (Squarespace, Wix, WooCommerce, Elementor, Bootstrap, Hugo, Alpine,
// shadcn/ui, Element Plus, imweb), in local currencies and forms.
func loadDev42(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev42", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev42 measures the drafter on the tenth development set:
// plans in builder and theme markup, prices only in JSON-LD or in a
// sentence, yearly prices hidden by CSS, per-seat and "from" prices, free
// plans beside free trials, and the site's own words for what it is. They
// must be clean (nothing non-verbatim or ungrounded, nothing invented
// beyond dev42MaxInvented); recall is held to dev42MinRecall.
func TestEvaluationDev42(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev42", loadDev42(t), 10, dev42MinRecall, dev42MaxInvented)
}

// dev42MinRecall and dev42MaxInvented hold the drafter
// on dev42. The day it was written (drafter unchanged): 85.2% recall
// (121/142), value accuracy 93.8% (121/129), 3 invented (a per-sale fee
// taken as a plan, hidden yearly prices glued to the monthly ones, "99 SEK"
// from JSON-LD where the page says "99 kr"), 1 ungrounded (a per-SMS price
// in a comparison table read as usage-based pricing), 0 non-verbatim. After
// the JSON-LD, x-cloak, "zł 49" and fee rules: 90.1% (128/142), 97.7%
// accurate, 0 invented, 1 ungrounded. After the on-request tiers, Nordic
// rota words and charges in comparison cells: 93.7% (133/142), 99.3%
// accurate, 0 invented, 0 ungrounded.
const (
	dev42MinRecall   = 0.93
	dev42MaxInvented = 0
)
