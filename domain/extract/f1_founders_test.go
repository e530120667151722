package extract_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
)

// TestF1FoundersOnlyTruth drafts every site of the three sets through the
// real fetcher and holds the founders to the truth table both ways: where
// the truth names founders (or says there are none), no other person may be
// drafted as one (a customer, investor, advisor or employee would be).
func TestF1FoundersOnlyTruth(t *testing.T) {
	cats := loadCategories(t)
	var sites []testSite
	for _, set := range [][]testSite{loadSites(t), loadDev(t), loadHeldout(t)} {
		sites = append(sites, set...)
	}
	d := extract.New()
	for _, ts := range sites {
		if ts.truth.RobotsForbidden || (len(ts.truth.Founders) == 0 && !slices.Contains(ts.truth.Absent, "founders")) {
			continue
		}
		crawl, err := fetchSite(t, ts)
		if err != nil {
			t.Fatalf("%s: %v", ts.name, err)
		}
		dr, err := d.Draft(context.Background(), domain.DraftRequest{Site: crawl, Categories: cats.Categories, Stages: cats.Stages})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range dr.Founders {
			if !slices.ContainsFunc(ts.truth.Founders, func(w truthFounder) bool { return lower(w.Name) == lower(f.Name) }) {
				t.Errorf("%s: drafted %q (%s) who is not a founder in the truth; evidence %v", ts.name, f.Name, f.Title, f.Evidence)
			}
		}
		if testing.Verbose() {
			t.Logf("%s: %v", ts.name, founderLine(dr))
		}
	}
}

func founderLine(dr *domain.Drafted) string {
	var b []string
	for _, f := range dr.Founders {
		b = append(b, f.Name+" ["+f.Title+"]")
	}
	return strings.Join(b, "; ")
}
