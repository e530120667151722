package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestPublish_SiteTakenByOther: two people saved a listing of one site before
// either was public; once one is public, the other can neither join the free
// queue nor quote or buy a launch for theirs (the first to publish keeps the
// site, the second is sent to claim_listing), and nothing is stored or
// charged. A listing of another site of the same person is unaffected.
func TestPublish_SiteTakenByOther(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	firstKey, secondKey := env.apiKey(t, "first@example.com"), env.apiKey(t, "second@example.com")
	_ = firstKey
	public := env.ownedListing(t, "first@example.com", fixtures.Cols{"status": "live", "name": "Shared Site",
		"url": "https://shared-site.example/", "domain": "shared-site.example"})
	slug := listingColumn(t, env, public, "slug")
	second := env.ownedListing(t, "second@example.com", fixtures.Cols{"status": "submitted",
		"url": "https://www.shared-site.example/", "domain": "www.shared-site.example"})
	other := env.ownedListing(t, "second@example.com", fixtures.Cols{"status": "submitted",
		"url": "https://another-site.example/", "domain": "another-site.example"})

	for _, tr := range []string{"rest", "mcp"} {
		t.Run(tr, func(t *testing.T) {
			call := restCaller(env, secondKey)
			if tr == "mcp" {
				call = mcpCaller(env, secondKey)(t)
			}
			queued := fixtures.Count(t, env.db, "free_queue", nil)
			st, p := call(t, "choose_free_listing", map[string]any{"listing_id": second})
			if st != 409 || !strings.Contains(fmt.Sprint(p["detail"]), "claim_listing (slug "+slug+")") {
				t.Errorf("choose_free_listing of a site listed by someone else: %d %v, want 409 naming claim_listing and %s", st, p, slug)
			}
			if n := fixtures.Count(t, env.db, "free_queue", nil); n != queued {
				t.Errorf("the refused choice changed the free queue (%d -> %d)", queued, n)
			}
			if s := listingColumn(t, env, second, "status"); s != "submitted" {
				t.Errorf("the refused listing is %s, want submitted", s)
			}
			orders := fixtures.Count(t, env.db, "orders", nil)
			for _, op := range []string{"quote_order", "create_checkout"} {
				st, p := call(t, op, map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": second, "week": freeWeek(2)}}})
				if st != 400 || !strings.Contains(fmt.Sprint(p), "site_listed") || !strings.Contains(fmt.Sprint(p), "claim_listing") {
					t.Errorf("%s of a launch for a site listed by someone else: %d %v, want 400 site_listed", op, st, p)
				}
			}
			if n := fixtures.Count(t, env.db, "orders", nil); n != orders {
				t.Errorf("the refused checkout stored an order (%d -> %d)", orders, n)
			}
			st, q := call(t, "quote_order", map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": other, "week": freeWeek(2)}}})
			if st != 200 {
				t.Errorf("quote_order for a listing of another site: %d %v", st, q)
			}
		})
	}
}
