package domain_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// mailbox is a domain.Mailer that keeps what it is asked to send.
type mailbox struct {
	mu   sync.Mutex
	sent []string
}

func (m *mailbox) SendMail(_ context.Context, to, subject, _ string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+"|"+subject)
	return nil
}

// TestService_ClaimListing checks each rule of claim_listing against a real
// SQLite file and on PostgreSQL: one subtest per rule, checking the error
// code (and the field and rule of an invalid input), and that a refused
// claim stores nothing.
func TestService_ClaimListing(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		env.Service.Owner.Mailer = &mailbox{}
		ctx := fixtures.Caller(t, env.DB, context.Background(), "claimant@example.com")
		fixtures.User(t, env.DB, "other@example.com")
		public := func(owner string, cols fixtures.Cols) string {
			row := fixtures.Cols{"status": "live", "launched_at": fixtures.Now.Add(-48 * time.Hour).Unix(),
				"url": "https://acme.test/", "domain": "acme.test", "owner_id": nil}
			for k, v := range cols {
				row[k] = v
			}
			id := fixtures.Listing(t, env.DB, owner, row)
			return fixtures.Column(t, env.DB, "listings", id, "slug")
		}
		unowned := public("other@example.com", nil)
		scheduled := public("other@example.com", fixtures.Cols{"status": "scheduled", "launch_week": "2026-11-23", "launched_at": nil})
		noSite := public("other@example.com", fixtures.Cols{"url": "", "domain": ""})
		draft := public("other@example.com", fixtures.Cols{"status": "draft", "launched_at": nil})
		mine := public("claimant@example.com", fixtures.Cols{"owner_id": fixtures.ID(t, env.DB, "users", fixtures.Cols{"email": "claimant@example.com"})})

		for _, c := range []struct {
			name        string
			in          domain.ClaimListingInput
			code        domain.Code
			field, rule string
		}{
			{"EmailRequired", domain.ClaimListingInput{Slug: unowned, Method: "email"}, domain.EInvalid, "email", "required"},
			{"EmailNotAllowed", domain.ClaimListingInput{Slug: unowned, Method: "dns", Email: "me@acme.test"}, domain.EInvalid, "email", "not_allowed"},
			{"EmailFormat", domain.ClaimListingInput{Slug: unowned, Method: "email", Email: "not an address"}, domain.EInvalid, "email", "format"},
			{"EmailOtherDomain", domain.ClaimListingInput{Slug: unowned, Method: "email", Email: "me@elsewhere.test"}, domain.EInvalid, "email", "domain"},
			{"NoSuchListing", domain.ClaimListingInput{Slug: "no-such-listing", Method: "dns"}, domain.ENotFound, "", ""},
			{"NotPublic", domain.ClaimListingInput{Slug: draft, Method: "dns"}, domain.ENotFound, "", ""},
			{"NoWebsite", domain.ClaimListingInput{Slug: noSite, Method: "meta"}, domain.EConflict, "", ""},
			{"AlreadyOwner", domain.ClaimListingInput{Slug: mine, Method: "file"}, domain.EConflict, "", ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := fixtures.Count(t, env.DB, "claims", nil)
				_, err := env.Service.ClaimListing(ctx, c.in)
				if c.field != "" {
					wantRule(t, err, c.field, c.rule)
				} else {
					wantCode(t, err, c.code)
				}
				if n := fixtures.Count(t, env.DB, "claims", nil); n != before {
					t.Fatalf("a refused claim stored %d claims", n-before)
				}
			})
		}
		t.Run("Unauthenticated", func(t *testing.T) {
			_, err := env.Service.ClaimListing(context.Background(), domain.ClaimListingInput{Slug: unowned, Method: "dns"})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("OK", func(t *testing.T) {
			for _, slug := range []string{unowned, scheduled} {
				cl, err := env.Service.ClaimListing(ctx, domain.ClaimListingInput{Slug: slug, Method: "dns"})
				if err != nil || cl.Status != "pending" || cl.Domain != "acme.test" || cl.Slug != slug {
					t.Fatalf("claim of %s: %+v %v", slug, cl, err)
				}
				again, err := env.Service.ClaimListing(ctx, domain.ClaimListingInput{Slug: slug, Method: "dns"})
				if err != nil || again.ID != cl.ID {
					t.Fatalf("the same claim again: %+v %v, want claim %d", again, err, cl.ID)
				}
			}
		})
	})
}
