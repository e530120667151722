package web

import (
	"context"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestBadges_SiteNameFromSetting: a badge names the site as the site_name
// setting says now (docs/console.md), in get_badges' labels and in the SVG
// served, not the name the service started with.
func TestBadges_SiteNameFromSetting(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	ctx := context.Background()
	rich, _ := badgeListings(t)
	if err := e.console.SetSiteSettings(ctx, "ops@example.com", map[string]string{domain.SettingSiteName: "Rocket Board"}); err != nil {
		t.Fatal(err)
	}
	b := must(e.svc.GetBadges(ctx, domain.GetBadgesInput{Slug: rich.Listing})).get(t)
	for _, it := range b.Items {
		if !strings.HasSuffix(it.Label, " Rocket Board") {
			t.Errorf("get_badges label %q, want the site's name as set: Rocket Board", it.Label)
		}
		res := e.get(t, it.SVGURL)
		if res.status != 200 || !strings.Contains(res.body, "Rocket Board") || strings.Contains(res.body, "Launchdir") {
			t.Errorf("GET %s: %d; want the SVG to name Rocket Board, not the start-up name Launchdir", it.SVGURL, res.status)
		}
	}
}
