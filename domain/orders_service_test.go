package domain_test

import (
	"context"
	"errors"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// wantRule fails unless err is an invalid-input error whose fields include
// field with rule; with field "" it wants no error.
func wantRule(t *testing.T, err error, field, rule string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.EInvalid {
		t.Fatalf("err = %v, want code %s naming %s (%s)", err, domain.EInvalid, field, rule)
	}
	for _, f := range de.Fields {
		if f.Field == field && f.Rule == rule {
			if f.Message == "" {
				t.Errorf("%s (%s) has no message", field, rule)
			}
			return
		}
	}
	t.Fatalf("fields %+v, want %s (%s)", de.Fields, field, rule)
}

// wantCode fails unless err is a *domain.Error with code.
func wantCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	if got := domain.ErrorCode(err); got != code {
		t.Fatalf("err = %v (code %q), want code %s", err, got, code)
	}
}

// TestService_QuoteOrder checks every item rule of price, the order's
// validation and pricing, against the demo data on SQLite and PostgreSQL: one
// subtest per rule, checking the error code, field and rule.
func TestService_QuoteOrder(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		env := newEnvOn(t, engine, true)
		ctx := fixtures.Caller(t, env.DB, context.Background(), "buyer@example.com")
		fixtures.User(t, env.DB, "stranger@example.com")
		var cats []string
		for _, id := range fixtures.IDs(t, env.DB, "categories", nil)[:6] {
			cats = append(cats, fixtures.Column(t, env.DB, "categories", id, "slug"))
		}
		// fixtures.Listing puts each listing in cats[0] as its primary category.
		mine := func(cols fixtures.Cols) int64 { return fixtures.Listing(t, env.DB, "buyer@example.com", cols) }
		draft := mine(nil)
		live := mine(fixtures.Cols{"status": "live", "launch_week": "2026-11-09"})
		queued := mine(fixtures.Cols{"status": "awaiting_badge", "launch_week": "2027-01-04"})
		paid := mine(fixtures.Cols{"status": "scheduled", "plan": "paid", "launch_week": "2026-12-07"})
		featured := mine(fixtures.Cols{"featured": 1})
		rejected := mine(fixtures.Cols{"status": "rejected"})
		twoExtra := mine(fixtures.Cols{"plan": "paid", "status": "live"})
		fixtures.ExtraCategory(t, env.DB, twoExtra, cats[1])
		fixtures.ExtraCategory(t, env.DB, twoExtra, cats[2])
		theirs := fixtures.Listing(t, env.DB, "stranger@example.com", nil)

		type item = domain.OrderItem
		for _, c := range []struct {
			name        string
			items       []item
			field, rule string
		}{
			{"OK", []item{{Product: "launch", ListingID: draft}}, "", ""},
			{"NoItems", nil, "items", "minItems"},
			{"TwentyOneItems", make([]item, 21), "items", "minItems"},
			{"UnknownProduct", []item{{Product: "rocket", ListingID: draft}}, "items[0].product", "exists"},
			{"ListingRequired", []item{{Product: "launch"}}, "items[0].listing_id", "required"},
			{"SomeoneElsesListing", []item{{Product: "launch", ListingID: theirs}}, "items[0].listing_id", "exists"},
			{"WeekNotAllowed", []item{{Product: "featured", ListingID: draft, Week: "2026-11-23"}}, "items[0].week", "not_allowed"},
			{"WeekRequired", []item{{Product: "skip_queue", ListingID: queued}}, "items[0].week", "required"},
			{"WeekNotADate", []item{{Product: "launch", ListingID: draft, Week: "2026-02-30"}}, "items[0].week", "date"},
			{"WeekNotMonday", []item{{Product: "launch", ListingID: draft, Week: "2026-11-24"}}, "items[0].week", "monday"},
			{"WeekNotOffered", []item{{Product: "skip_queue", ListingID: queued, Week: "2026-12-28"}}, "items[0].week", "offered"},
			{"WeekOffered", []item{{Product: "skip_queue", ListingID: queued, Week: "2026-11-23"}}, "", ""},
			{"AmountRequired", []item{{Product: "billboard_min", ListingID: live}}, "items[0].amount_cents", "required"},
			{"AmountMinimum", []item{{Product: "billboard_min", ListingID: live, AmountCents: 499}}, "items[0].amount_cents", "minimum"},
			{"AmountAtMinimum", []item{{Product: "billboard_min", ListingID: live, AmountCents: 500}}, "", ""},
			{"AmountMaximum", []item{{Product: "billboard_min", ListingID: live, AmountCents: 100000001}}, "items[0].amount_cents", "maximum"},
			{"AmountNotAllowed", []item{{Product: "launch", ListingID: draft, AmountCents: 500}}, "items[0].amount_cents", "not_allowed"},
			{"CategoriesNotAllowed", []item{{Product: "launch", ListingID: draft, Categories: []string{cats[1]}}}, "items[0].categories", "not_allowed"},
			{"CategoriesRequired", []item{{Product: "extra_categories", ListingID: paid}}, "items[0].categories", "required"},
			{"CategoriesMaxItems", []item{{Product: "extra_categories", ListingID: paid, Categories: cats[1:5]}}, "items[0].categories", "maxItems"},
			{"CategoryTwice", []item{{Product: "extra_categories", ListingID: paid, Categories: []string{cats[1], cats[1]}}}, "items[0].categories[1]", "unique"},
			{"CategoryPrimary", []item{{Product: "extra_categories", ListingID: paid, Categories: []string{cats[0]}}}, "items[0].categories[0]", "primary"},
			{"CategoryAttached", []item{{Product: "extra_categories", ListingID: twoExtra, Categories: []string{cats[1]}}}, "items[0].categories[0]", "attached"},
			{"CategoryUnknown", []item{{Product: "extra_categories", ListingID: paid, Categories: []string{"no-such-category"}}}, "items[0].categories[0]", "exists"},
			{"CategoriesMaxInAll", []item{{Product: "extra_categories", ListingID: twoExtra, Categories: cats[3:5]}}, "items[0].categories", "maxItems"},
			{"CategoriesPaidOnly", []item{{Product: "extra_categories", ListingID: draft, Categories: []string{cats[1]}}}, "items[0].listing_id", "paid_only"},
			{"CategoriesWithLaunch", []item{{Product: "extra_categories", ListingID: draft, Categories: []string{cats[1]}},
				{Product: "launch", ListingID: draft, Week: "2026-11-23"}}, "", ""},
			{"OptionsNotAllowed", []item{{Product: "launch", ListingID: draft, Options: map[string]any{"x": 1}}}, "items[0].options", "not_allowed"},
			{"OptionsRequired", []item{{Product: "trophy_verification", ListingID: live}}, "items[0].options", "required"},
			{"LaunchLive", []item{{Product: "launch", ListingID: live}}, "items[0].listing_id", "state"},
			{"LaunchPaidScheduled", []item{{Product: "launch", ListingID: paid}}, "items[0].listing_id", "state"},
			{"LaunchRejected", []item{{Product: "launch", ListingID: rejected}}, "items[0].listing_id", "state"},
			{"LaunchFreeQueued", []item{{Product: "launch", ListingID: queued}}, "", ""},
			{"SkipQueueFreeOnly", []item{{Product: "skip_queue", ListingID: paid, Week: "2026-11-23"}}, "items[0].listing_id", "free_only"},
			{"RelaunchNotLive", []item{{Product: "relaunch", ListingID: draft, Week: "2026-11-30"}}, "items[0].listing_id", "state"},
			{"FeaturedAlready", []item{{Product: "featured", ListingID: featured}}, "items[0].listing_id", "state"},
			{"TwoLaunches", []item{{Product: "launch", ListingID: draft}, {Product: "skip_queue", ListingID: draft, Week: "2026-11-23"}},
				"items[1].product", "conflict"},
		} {
			t.Run(c.name, func(t *testing.T) {
				q, err := env.Service.QuoteOrder(ctx, domain.OrderInput{Items: c.items})
				wantRule(t, err, c.field, c.rule)
				if err == nil && (len(q.Lines) != len(c.items) || q.TotalCents <= 0) {
					t.Fatalf("quote %+v for %d items", q, len(c.items))
				}
			})
		}

		t.Run("Unauthenticated", func(t *testing.T) {
			_, err := env.Service.QuoteOrder(context.Background(), domain.OrderInput{Items: []item{{Product: "launch", ListingID: draft}}})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("Price", func(t *testing.T) {
			q, err := env.Service.QuoteOrder(ctx, domain.OrderInput{Items: []item{{Product: "extra_categories", ListingID: paid, Categories: cats[1:4]}}})
			if err != nil {
				t.Fatal(err)
			}
			if len(q.Lines) != 1 || q.Lines[0].Quantity != 3 || q.Lines[0].UnitPriceCents != 900 || q.SubtotalCents != 2700 {
				t.Fatalf("three extra categories: %+v", q)
			}
		})
		t.Run("NothingStored", func(t *testing.T) {
			if n := fixtures.Count(t, env.DB, "orders", nil); n != 0 {
				t.Fatalf("quotes stored %d orders", n)
			}
		})
	})
}
