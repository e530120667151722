package extract_test

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/testtier"
)

// TestPricing_GroundKeepsPricingAndCategories runs domain.Ground, the check every
// draft passes before it is shown, over the drafts of all three sets: a
// pricing model, pricing summary or category drafted from a page in any of
// the seven languages must survive it (its quote speaks of that pricing or
// category), not only be verbatim.
func TestPricing_GroundKeepsPricingAndCategories(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over the three data sets")
	cats := loadCategories(t)
	var sites []testSite
	sites = append(sites, loadSites(t)...)
	sites = append(sites, loadHeldout(t)...)
	sites = append(sites, loadDev(t)...)
	checked := 0
	for _, ts := range sites {
		if ts.truth.RobotsForbidden {
			continue
		}
		sd := draftOnce(t, ts, cats)
		if sd.crawlErr != nil {
			t.Fatalf("%s: crawl: %v", ts.name, sd.crawlErr)
		}
		req, dr, err := sd.req, sd.draft, sd.draftErr
		if err != nil {
			t.Fatalf("%s: draft: %v", ts.name, err)
		}
		_, dropped := domain.Ground(req, dr)
		for _, why := range dropped {
			if strings.HasPrefix(why, "pricing") || strings.HasPrefix(why, "categories") || strings.HasPrefix(why, "tags") {
				t.Errorf("%s: Ground dropped %s", ts.name, why)
			}
		}
		for _, f := range []string{"pricing_model", "pricing_summary", "categories"} {
			if _, ok := dr.Fields[f]; ok {
				checked++
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d pricing and category values drafted over all sets, want at least 40", checked)
	}
}
