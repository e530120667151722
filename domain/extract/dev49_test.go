package extract_test

import (
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// loadDev49 reads the development set of prices, places and socials as
// pricing pages and footers state them (testdata/dev49): metered prices per
// request and per 1,000 emails, prices only in prose or in a hidden FAQ
// answer, one-time licences and a lifetime deal, open source beside hosted
// plans, local price forms ("29,- €", "월 9,900원", "每月 ¥68", "49 zł /
// mies.", "₺199/ay", "99 kr/mån"), footer and imprint addresses in national
// formats beside customers', events' and data centres' cities, and icon-only
// social links beside share links, builders' accounts and employees'
// profiles.
func loadDev49(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev49", loadCategories(t), dev36Languages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestEvaluationDev49 measures the drafter on dev49. The sites must be read
// clean (nothing ungrounded or non-verbatim, at most dev49MaxInvented
// invented); recall is held to dev49MinRecall.
func TestEvaluationDev49(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	holdDevSet(t, "dev49", loadDev49(t), 12, dev49MinRecall, dev49MaxInvented)
}

// dev49MinRecall and dev49MaxInvented hold the drafter on dev49. The day
// it was written (drafter unchanged): 86.3% recall (195/226), value accuracy
// 94.7% (195/206), 3 invented (a lone footer social that is Shopify's own,
// a payment reseller's country, a freemium prose price read as a
// subscription), 0 ungrounded, 0 non-verbatim; 88.1% with two fixes of the
// set (a site's pages moved where its links point, a truth trap that was a
// substring of the stated model). After the rules written against it: 97.8%
// (221/226), 99.5% accurate, 0 invented; left are three founding years
// (not this set's fields), a price in an accordion answer hidden by an
// inline style, and the country of "10119 Berlin" (no country named).
const (
	dev49MinRecall   = 0.97
	dev49MaxInvented = 0
)
