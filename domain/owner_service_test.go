package domain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestService_PostListingUpdate checks each rule of post_listing_update
// against a real SQLite file and PostgreSQL: one subtest per text rule (field and rule),
// someone else's listing, and the public and kept outcomes.
func TestService_PostListingUpdate(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		ctx := fixtures.Caller(t, env.DB, context.Background(), "owner@example.com")
		fixtures.User(t, env.DB, "someone@example.com")
		live := fixtures.Listing(t, env.DB, "owner@example.com", fixtures.Cols{"status": "live"})
		draft := fixtures.Listing(t, env.DB, "owner@example.com", nil)
		theirs := fixtures.Listing(t, env.DB, "someone@example.com", fixtures.Cols{"status": "live"})

		for _, c := range []struct {
			name        string
			in          domain.PostListingUpdateInput
			field, rule string
		}{
			{"TitleBlank", domain.PostListingUpdateInput{ListingID: live, Title: " \n ", Body: "b"}, "title", "required"},
			{"TitleTooLong", domain.PostListingUpdateInput{ListingID: live, Title: strings.Repeat("é", 201), Body: "b"}, "title", "maxLength"},
			{"TitleLineBreak", domain.PostListingUpdateInput{ListingID: live, Title: "one\ntwo", Body: "b"}, "title", "plain_text"},
			{"TitleNotUTF8", domain.PostListingUpdateInput{ListingID: live, Title: "bad \xff", Body: "b"}, "title", "plain_text"},
			{"BodyBlank", domain.PostListingUpdateInput{ListingID: live, Title: "News", Body: "\t"}, "body", "required"},
			{"BodyTooLong", domain.PostListingUpdateInput{ListingID: live, Title: "News", Body: strings.Repeat("b", 5001)}, "body", "maxLength"},
			{"BodyControl", domain.PostListingUpdateInput{ListingID: live, Title: "News", Body: "a\x00b"}, "body", "plain_text"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := env.Service.PostListingUpdate(ctx, c.in)
				wantRule(t, err, c.field, c.rule)
				if n := fixtures.Count(t, env.DB, "listing_updates", fixtures.Cols{"listing_id": live}); n != 0 {
					t.Fatalf("a refused update stored %d rows", n)
				}
			})
		}
		t.Run("NotYours", func(t *testing.T) {
			_, err := env.Service.PostListingUpdate(ctx, domain.PostListingUpdateInput{ListingID: theirs, Title: "News", Body: "b"})
			wantCode(t, err, domain.ENotFound)
		})
		t.Run("Unauthenticated", func(t *testing.T) {
			_, err := env.Service.PostListingUpdate(context.Background(), domain.PostListingUpdateInput{ListingID: live, Title: "News", Body: "b"})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("Public", func(t *testing.T) {
			out, err := env.Service.PostListingUpdate(ctx, domain.PostListingUpdateInput{ListingID: live, Title: "  Version 2  ", Body: "Line one\r\nLine two"})
			if err != nil || !out.Public || out.FollowersTold != 0 || out.PageURL == "" {
				t.Fatalf("post on a live listing: %+v %v", out, err)
			}
			if n := fixtures.Count(t, env.DB, "listing_updates", fixtures.Cols{"listing_id": live, "title": "Version 2", "body": "Line one\nLine two"}); n != 1 {
				t.Fatalf("stored updates with the trimmed title and normalised body: %d", n)
			}
		})
		t.Run("Kept", func(t *testing.T) {
			out, err := env.Service.PostListingUpdate(ctx, domain.PostListingUpdateInput{ListingID: draft, Title: "Soon", Body: "b"})
			if err != nil || out.Public || out.PageURL != "" {
				t.Fatalf("post on a draft: %+v %v", out, err)
			}
		})
	})
}
