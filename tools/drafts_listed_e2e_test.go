package tools

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestDrafts_SiteAlreadyListed submits URLs whose registrable domain
// (example.co.uk, public suffix co.uk) has a live listing: a stranger's
// draft names it and claim_listing, and submit_draft saves nothing (409);
// the owner's draft names their listing and submit_draft points to
// update_my_listing; a sibling under the same public suffix is not the
// same site. Every name resolves to the local ledgerly site.
func TestDrafts_SiteAlreadyListed(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	env.svc.Drafts.Fetcher = fetch.New(fetch.Options{AllowLoopback: true,
		LookupNetIP: func(context.Context, string, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}})
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	at := func(host string) string {
		return (&url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/"}).String()
	}

	ownerKey, strangerKey := env.apiKey(t, "owner@example.com"), env.apiKey(t, "stranger@example.com")
	listed := fixtures.Listing(t, env.db, "owner@example.com", fixtures.Cols{"status": "live", "name": "Example Ledger",
		"launched_at": catNow.Add(-48 * time.Hour).Unix(), "url": "https://example.co.uk/", "domain": "example.co.uk"})
	slug := listingColumn(t, env, listed, "slug")
	listings := func() int { return fixtures.Count(t, env.db, "listings", nil) }

	for _, tr := range []struct {
		name string
		call func(t *testing.T, key string) draftCaller
	}{
		{"rest", func(_ *testing.T, key string) draftCaller { return restCaller(env, key) }},
		{"mcp", func(t *testing.T, key string) draftCaller { return mcpCaller(env, key)(t) }},
	} {
		t.Run(tr.name, func(t *testing.T) {
			stranger, owner := tr.call(t, strangerKey), tr.call(t, ownerKey)
			draft := func(t *testing.T, call draftCaller, u string) (string, map[string]any, map[string]any) {
				t.Helper()
				st, sub := call(t, "submit_listing", map[string]any{"url": u})
				if st != 201 {
					t.Fatalf("submit_listing %s: %d %v", u, st, sub)
				}
				id := sub["id"].(string)
				return id, sub, builtDraft(t, env, call, id)
			}

			for _, host := range []string{"app.example.co.uk", "www.example.co.uk", "example.co.uk"} {
				id, sub, d := draft(t, stranger, at(host))
				for when, v := range map[string]map[string]any{"submit_listing": sub, "get_draft": d} {
					e, _ := v["existing_listing"].(map[string]any)
					if e == nil || e["slug"] != slug || e["yours"] != false || e["listing_id"] != nil ||
						e["registrable_domain"] != "example.co.uk" || !strings.Contains(fmt.Sprint(e["message"]), "claim_listing") {
						t.Errorf("%s %s: existing_listing = %v, want %s, not yours, claim_listing", host, when, v["existing_listing"], slug)
					}
				}
				before := listings()
				st, p := stranger(t, "submit_draft", map[string]any{"id": id})
				wantConflict(t, st, p, slug, "claim_listing", "example.co.uk")
				if n := listings(); n != before {
					t.Errorf("%s: submit_draft of a stranger made a listing (%d -> %d)", host, before, n)
				}
			}

			id, _, d := draft(t, owner, at("www.example.co.uk"))
			e, _ := d["existing_listing"].(map[string]any)
			if e == nil || e["slug"] != slug || e["yours"] != true || e["listing_id"] != float64(listed) || !strings.Contains(fmt.Sprint(e["message"]), "update_my_listing") {
				t.Fatalf("owner's draft: existing_listing = %v", d["existing_listing"])
			}
			before := listings()
			st, p := owner(t, "submit_draft", map[string]any{"id": id})
			wantConflict(t, st, p, "update_my_listing", slug)
			if n := listings(); n != before {
				t.Errorf("submit_draft of the owner made a second listing")
			}

			// Another site under the same public suffix is not the same site, and
			// someone else's saved but unpublished listing is not revealed.
			fixtures.Listing(t, env.db, "owner@example.com", fixtures.Cols{"status": "draft", "url": "https://hidden-" + tr.name + ".co.uk/", "domain": "hidden-" + tr.name + ".co.uk"})
			if _, _, d := draft(t, stranger, at("www.hidden-"+tr.name+".co.uk")); d["existing_listing"] != nil {
				t.Errorf("someone else's unpublished listing revealed: %v", d["existing_listing"])
			}
			id, _, d = draft(t, stranger, at("other-"+tr.name+".co.uk"))
			if d["existing_listing"] != nil {
				t.Errorf("other-%s.co.uk: existing_listing = %v", tr.name, d["existing_listing"])
			}
			if st, sub := stranger(t, "submit_draft", map[string]any{"id": id}); st != 200 || sub["created"] != true {
				t.Fatalf("submit_draft of an unlisted site: %d %v", st, sub)
			}
		})
	}
}
