package tools

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// unownedListing inserts a live listing nobody owns (owner_id NULL, as the
// public listings of the demo data and of imports are) at siteURL and
// returns its id and slug.
func (e *claimsEnv) unownedListing(t *testing.T, siteURL, domain string) (int64, string) {
	t.Helper()
	id := e.ownedListing(t, "nobody@example.com", fixtures.Cols{"status": "live", "launched_at": catNow.Add(-48 * time.Hour).Unix(), "url": siteURL, "domain": domain, "owner_id": nil})
	return id, listingColumn(t, e.catEnv, id, "slug")
}

// TestClaims_UnownedListing claims listings that have no owner, which is
// nearly every public listing, with each of the four methods over REST and
// MCP, through to verification: the claimant becomes the listing's only
// owner. The DNS claim is of a listing of the demo data (jotstack and
// notewise, as the service ships them).
func TestClaims_UnownedListing(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	env.svc.Owner.Mailer = env.auth // the outbox, where the email link is read
	env.apiKey(t, "nobody@example.com")
	for _, tr := range []struct{ name, demo string }{{"rest", "jotstack"}, {"mcp", "notewise"}} {
		t.Run(tr.name, func(t *testing.T) {
			key := env.apiKey(t, "claimant-"+tr.name+"@example.com")
			call := restCaller(env.catEnv, key)
			if tr.name == "mcp" {
				call = mcpCaller(env.catEnv, key)(t)
			}
			owns := func(t *testing.T, id int64, how string) {
				t.Helper()
				if st, l := call(t, "get_my_listing", map[string]any{"listing_id": id}); st != 200 || l["verified"] != true {
					t.Fatalf("%s: get_my_listing of the claimed listing: %d %v", how, st, l)
				}
				if n := env.count(t, "listing_owners", fixtures.Cols{"listing_id": id}); n != 1 {
					t.Fatalf("%s: owners of the claimed listing: %d, want 1", how, n)
				}
				st, p := call(t, "claim_listing", map[string]any{"slug": listingColumn(t, env.catEnv, id, "slug"), "method": "dns"})
				wantConflict(t, st, p, "already own")
			}

			// dns, on a listing of the demo data.
			id := fixtures.ID(t, env.db, "listings", fixtures.Cols{"slug": tr.demo, "owner_id": nil})
			c := claim(t, call, map[string]any{"slug": tr.demo, "method": "dns"})
			env.zone.set(instr(c, "record_name"), instr(c, "record_value"))
			if st, v := call(t, "verify_claim", map[string]any{"claim_id": c["id"]}); st != 200 || v["status"] != "verified" {
				t.Fatalf("dns verify: %d %v", st, v)
			}
			owns(t, id, "dns")

			// meta and file, on local sites.
			for _, method := range []string{"meta", "file"} {
				site := newClaimSite(t)
				id, slug := env.unownedListing(t, site.URL+"/", "")
				c := claim(t, call, map[string]any{"slug": slug, "method": method})
				site.set(func(s *claimSite) { s.meta, s.file = instr(c, "token"), instr(c, "token") })
				if st, v := call(t, "verify_claim", map[string]any{"claim_id": c["id"]}); st != 200 || v["status"] != "verified" {
					t.Fatalf("%s verify: %d %v", method, st, v)
				}
				owns(t, id, method)
			}

			// email: the mailed link, confirmed on its page.
			domain := "unowned-" + tr.name + ".test"
			id, slug := env.unownedListing(t, "https://"+domain+"/", domain)
			addr := "founder@" + domain
			claim(t, call, map[string]any{"slug": slug, "method": "email", "email": addr})
			link, n := env.outboxLink(t, addr)
			if n != 1 {
				t.Fatalf("mails to %s: %d", addr, n)
			}
			if st, page := newBrowser(t).post(link, url.Values{}); st != 200 || !strings.Contains(page, "Claim confirmed") {
				t.Fatalf("confirm: %d %s", st, page)
			}
			owns(t, id, "email")
			if st, l := call(t, "list_my_claims", map[string]any{}); st != 200 || len(l["items"].([]any)) != 4 {
				t.Fatalf("list_my_claims: %d %v", st, l)
			}
		})
	}
}
