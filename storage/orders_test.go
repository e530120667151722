package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
)

// orderFixture is the directory of fixtureSQL with an order store over it.
// ann owns notely (1, live free), drafty (4, draft) and soonly (5, scheduled
// for 2026-11-23); bob owns nothing.
type orderFixture struct {
	db       *DB
	st       *OrderStore
	ann, bob int64
}

func newOrderFixture(t *testing.T) *orderFixture {
	t.Helper()
	return newOrderFixtureOn(t, "sqlite")
}

// newOrderFixtureOn is newOrderFixture on engine (see openEngine).
func newOrderFixtureOn(t *testing.T, engine string) *orderFixture {
	t.Helper()
	db, _, _ := newFixtureOn(t, engine)
	db.now = func() time.Time { return fxNow } // as WithClock does
	st, err := NewOrderStore(db, fxSite)
	draftMust(t, err)
	f := &orderFixture{db: db, st: st, ann: mkDraftUser(t, db, "ann@ex.test"), bob: mkDraftUser(t, db, "bob@ex.test")}
	for _, id := range []int64{1, 4, 5} {
		setRows(t, db, "listings", cols{"owner_id": f.ann}, cols{"id": id})
	}
	return f
}

// tokenHash is the SHA-256 hex of a checkout token.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// fullOrder is an order with every field set, as JSON would decode it (a
// float64 in options), so that a round trip is exact.
func fullOrder(userID int64, number string, created time.Time) *domain.Order {
	return &domain.Order{
		Number: number, UserID: userID, Currency: "USD",
		Lines: []domain.OrderLine{
			{Index: 0, Product: "launch", Name: "Launch", ListingID: 4, ListingName: "Drafty", Week: "2026-12-07",
				Quantity: 1, UnitPriceCents: 4900, AmountCents: 4900, VATCents: 1029, TotalCents: 5929,
				Effect: "Drafty is scheduled for the week of 2026-12-07."},
			{Index: 1, Product: "extra_categories", Name: "Extra categories", ListingID: 4, ListingName: "Drafty",
				Categories: []string{"software", "design"}, Options: map[string]any{"note": "top", "n": 2.0},
				Quantity: 2, UnitPriceCents: 900, AmountCents: 1800, VATCents: 378, TotalCents: 2178,
				Effect: "Software and Design are added."},
			{Index: 2, Product: "ai_review", Name: "AI review", Quantity: 1, UnitPriceCents: 0, Effect: "A review."},
		},
		SubtotalCents: 6700, TotalCents: 8107,
		VAT: domain.VAT{Mode: domain.VATStandard, Country: "NL", RateBasisPoints: 2100, RatePercent: 21, Cents: 1407,
			VATNumber: "NL123456789B01", Checked: "offline", Note: "Dutch VAT at 21%.", RatesAsOf: "2026-01-01",
			RatesSource: "European Commission"},
		Billing:  &domain.Billing{Name: "Ann Lee", Address: "Dam 1, Amsterdam", Country: "NL", VATNumber: "NL123456789B01"},
		Provider: "stripe", ProviderRef: "cs_test_1", TestMode: true,
		Status: domain.OrderPending, CreatedAt: created, ExpiresAt: created.AddDate(0, 0, domain.CheckoutDays),
	}
}

// smallOrder is a pending order of one line for listing (0: none).
func smallOrder(userID int64, number string, created time.Time, product string, listing int64) *domain.Order {
	return &domain.Order{Number: number, UserID: userID, Currency: "USD", SubtotalCents: 100, TotalCents: 100,
		VAT:       domain.VAT{Mode: domain.VATOutsideEU, Country: "US"},
		Lines:     []domain.OrderLine{{Index: 0, Product: product, ListingID: listing, Quantity: 1, UnitPriceCents: 100, AmountCents: 100, TotalCents: 100}},
		CreatedAt: created,
	}
}

// wantOrders fails unless the numbers of got are want, in order.
func wantOrders(t *testing.T, what string, got []domain.Order, want ...string) {
	t.Helper()
	var nums []string
	for _, o := range got {
		nums = append(nums, o.Number)
	}
	if strings.Join(nums, ",") != strings.Join(want, ",") {
		t.Fatalf("%s = %v, want %v", what, nums, want)
	}
}

func TestOrderStore_Prices(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		got, err := f.st.Prices(ctx)
		draftMust(t, err)
		if len(got) != 0 {
			t.Fatalf("a new site has prices %v; the defaults live in domain code, the table holds overrides only", got)
		}
		draftMust(t, f.st.SetPrice(ctx, "launch", domain.Price{Cents: 4900, Currency: "USD", UpdatedAt: fxLastWeek}))
		draftMust(t, f.st.SetPrice(ctx, "featured", domain.Price{Cents: 0, Currency: "EUR"})) // free; now from the store's clock
		draftMust(t, f.st.SetPrice(ctx, "launch", domain.Price{Cents: 5900, Currency: "USD", UpdatedAt: fxThisWeek}))
		got, err = f.st.Prices(ctx)
		draftMust(t, err)
		want := map[string]domain.Price{
			"launch":   {Cents: 5900, Currency: "USD", UpdatedAt: fxThisWeek},
			"featured": {Cents: 0, Currency: "EUR", UpdatedAt: fxNow},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("prices (-want +got):\n%s", diff)
		}
		// The domain validates a price (Ordering.SetProductPrice; web's
		// TestAdmin_Prices and cmd's TestAdminPrices refuse bad ones over HTTP
		// and the command line). Storage checks nothing again: a row the
		// table's CHECK constraints refuse is the database's error, an
		// internal one (not invalid input: the domain let it through), and
		// nothing is stored.
		for _, bad := range []struct {
			code string
			p    domain.Price
		}{
			{"launch", domain.Price{Cents: -1, Currency: "USD"}},
			{"launch", domain.Price{Cents: 1, Currency: "usd"}},
			{"", domain.Price{Cents: 1, Currency: "USD"}},
		} {
			err := f.st.SetPrice(ctx, bad.code, bad.p)
			var de *domain.Error
			if err == nil || errors.As(err, &de) {
				t.Errorf("SetPrice(%q, %+v) = %v, want the database's constraint violation (storage re-checks nothing)", bad.code, bad.p, err)
			}
		}
		if got, err := f.st.Prices(ctx); err != nil || cmp.Diff(want, got) != "" {
			t.Fatalf("after refused prices: %v, %v; want %v (nothing stored)", got, err, want)
		}
		// Prices are per site.
		other, err := NewOrderStore(f.db, domain.Site{Key: "other", Name: "Other"})
		draftMust(t, err)
		if got, err := other.Prices(ctx); err != nil || len(got) != 0 {
			t.Fatalf("another site's prices = %v, %v; want none", got, err)
		}
	})
}

func TestOrderStore_OrderListing(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		got, err := f.st.OrderListing(ctx, f.ann, 1)
		draftMust(t, err)
		want := &domain.OrderListing{ID: 1, Slug: "notely", Name: "Notely", Status: "live", Plan: "free",
			LaunchWeek: "2026-11-16", Featured: true, Unlocked: []string{"story"}, Primary: "notes", Extra: []string{"design"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("OrderListing (-want +got):\n%s", diff)
		}
		got, err = f.st.OrderListing(ctx, f.ann, 4)
		draftMust(t, err)
		if got.Status != "draft" || got.LaunchWeek != "" || got.Primary != "notes" || got.Extra == nil || len(got.Extra) != 0 {
			t.Fatalf("OrderListing(drafty) = %+v", got)
		}

		t.Run("NotTheirs", func(t *testing.T) {
			theirs := wantDomainErr(t, second(f.st.OrderListing(ctx, f.bob, 1)), domain.ENotFound, "bob's order of ann's listing")
			missing := wantDomainErr(t, second(f.st.OrderListing(ctx, f.bob, 999)), domain.ENotFound, "a missing listing")
			if strings.ReplaceAll(missing.Message, "999", "1") != theirs.Message {
				t.Fatalf("someone else's listing says %q, a missing one %q: they must not be told apart", theirs.Message, missing.Message)
			}
			// A listing nobody owns (the directory's own) is nobody's to order for.
			wantDomainErr(t, second(f.st.OrderListing(ctx, f.ann, 2)), domain.ENotFound, "an unowned listing")
			other, err := NewOrderStore(f.db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			wantDomainErr(t, second(other.OrderListing(ctx, f.ann, 1)), domain.ENotFound, "ann's listing through another site")
		})

		t.Run("CategoryExists", func(t *testing.T) {
			for slug, want := range map[string]bool{"notes": true, "software": true, "nope": false, "": false} {
				if got, err := f.st.CategoryExists(ctx, slug); err != nil || got != want {
					t.Errorf("CategoryExists(%q) = %v, %v; want %v", slug, got, err, want)
				}
			}
		})
	})
}

// second returns the error of a two-valued call.
func second[T any](_ T, err error) error { return err }

func TestOrderStore_CreateAndRead(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		want := fullOrder(f.ann, "LD-2026-0001", fxNow)
		draftMust(t, f.st.CreateOrder(ctx, want, tokenHash("tok-1")))
		if want.ID == 0 {
			t.Fatal("CreateOrder did not set the id")
		}
		for name, read := range map[string]func() (*domain.Order, error){
			"UserOrder":   func() (*domain.Order, error) { return f.st.UserOrder(ctx, f.ann, "LD-2026-0001") },
			"TokenOrder":  func() (*domain.Order, error) { return f.st.TokenOrder(ctx, tokenHash("tok-1")) },
			"NumberOrder": func() (*domain.Order, error) { return f.st.NumberOrder(ctx, "LD-2026-0001") },
		} {
			got, err := read()
			draftMust(t, err)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", name, diff)
			}
		}

		t.Run("Defaults", func(t *testing.T) {
			o := smallOrder(f.ann, "LD-2", time.Time{}, "featured", 1)
			draftMust(t, f.st.CreateOrder(ctx, o, tokenHash("tok-2")))
			got, err := f.st.NumberOrder(ctx, "LD-2")
			draftMust(t, err)
			if !got.CreatedAt.Equal(fxNow) || !got.ExpiresAt.Equal(fxNow.AddDate(0, 0, domain.CheckoutDays)) ||
				got.Billing != nil || got.PaidAt != nil || got.Status != domain.OrderPending || got.Lines[0].Fulfilled {
				t.Fatalf("order without times or billing read back as %+v", got)
			}
		})

		t.Run("NotFound", func(t *testing.T) {
			wantDomainErr(t, second(f.st.UserOrder(ctx, f.bob, "LD-2026-0001")), domain.ENotFound, "bob reading ann's order")
			wantDomainErr(t, second(f.st.UserOrder(ctx, f.ann, "LD-NONE")), domain.ENotFound, "a missing order")
			de := wantDomainErr(t, second(f.st.TokenOrder(ctx, tokenHash("wrong"))), domain.ENotFound, "a wrong token")
			if strings.Contains(de.Message, tokenHash("wrong")) {
				t.Errorf("the not-found message %q echoes the token hash", de.Message)
			}
			other, err := NewOrderStore(f.db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			wantDomainErr(t, second(other.NumberOrder(ctx, "LD-2026-0001")), domain.ENotFound, "the order through another site")
		})

		t.Run("Refused", func(t *testing.T) {
			dup := smallOrder(f.bob, "LD-2026-0001", fxNow, "featured", 0)
			wantDomainErr(t, f.st.CreateOrder(ctx, dup, tokenHash("tok-dup")), domain.EConflict, "a taken number")
			if err := f.st.CreateOrder(ctx, smallOrder(f.bob, "LD-3", fxNow, "featured", 0), "not-a-hash"); err == nil {
				t.Error("a token hash that is not SHA-256 hex was stored")
			}
			if err := f.st.CreateOrder(ctx, smallOrder(f.bob, strings.Repeat("9", 33), fxNow, "featured", 0), tokenHash("t")); err == nil {
				t.Error("a 33-character number was stored")
			}
			// A bad line fails the whole order: nothing is stored.
			bad := smallOrder(f.bob, "LD-4", fxNow, "featured", 0)
			bad.Lines = append(bad.Lines, domain.OrderLine{Index: 1, Product: "featured", Quantity: 0})
			if err := f.st.CreateOrder(ctx, bad, tokenHash("tok-4")); err == nil || !strings.Contains(err.Error(), "line 1") {
				t.Fatalf("an order with a line of quantity 0: err = %v, want one naming line 1", err)
			}
			wantDomainErr(t, second(f.st.NumberOrder(ctx, "LD-4")), domain.ENotFound, "the order whose line failed")
			var lines int
			draftMust(t, f.db.sql.QueryRow(`SELECT COUNT(*) FROM order_lines`).Scan(&lines))
			if lines != len(want.Lines)+1 {
				t.Fatalf("%d order lines stored, want %d (a failed order leaves none)", lines, len(want.Lines)+1)
			}
		})
	})
}

func TestOrderStore_Lists(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		// Two orders share a second: the later id is newer.
		for i, o := range []*domain.Order{
			smallOrder(f.ann, "A1", fxLastWeek, "featured", 1),
			smallOrder(f.bob, "B1", fxThisWeek, "ai_review", 0),
			smallOrder(f.ann, "A2", fxThisWeek, "featured", 1),
			smallOrder(f.ann, "A3", fxNow, "featured", 1),
		} {
			draftMust(t, f.st.CreateOrder(ctx, o, tokenHash(fmt.Sprint("tok", i))))
		}
		got, total, err := f.st.UserOrders(ctx, f.ann, 0, 0)
		draftMust(t, err)
		wantOrders(t, "ann's orders", got, "A3", "A2", "A1")
		if total != 3 || len(got[0].Lines) != 1 || got[0].Lines[0].ListingID != 1 {
			t.Fatalf("total %d (want 3), first order's lines %+v", total, got[0].Lines)
		}
		got, total, err = f.st.UserOrders(ctx, f.ann, 1, 1)
		draftMust(t, err)
		wantOrders(t, "ann's second page of one", got, "A2")
		if total != 3 {
			t.Fatalf("total of a page = %d, want 3", total)
		}
		got, total, err = f.st.AllOrders(ctx, 0, 3)
		draftMust(t, err)
		wantOrders(t, "all orders", got, "A3", "A2", "B1")
		if total != 4 {
			t.Fatalf("all orders total = %d, want 4", total)
		}
		got, total, err = f.st.UserOrders(ctx, 12345, 0, 10)
		draftMust(t, err)
		if got == nil || len(got) != 0 || total != 0 {
			t.Fatalf("orders of a user with none = %v (total %d), want an empty list", got, total)
		}
	})
}

func TestOrderStore_PendingChanges(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		o := fullOrder(f.ann, "P1", fxNow)
		o.Billing, o.Provider, o.ProviderRef, o.TestMode = nil, "", "", false
		draftMust(t, f.st.CreateOrder(ctx, o, tokenHash("p1")))

		b := domain.Billing{Name: "Ann Lee GmbH", Address: "Str. 1, Berlin", Country: "DE", VATNumber: "DE123456789"}
		vat := domain.VAT{Mode: domain.VATReverseCharge, Country: "DE", VATNumber: "DE123456789", Checked: "offline",
			Note: "Reverse charge.", RatesAsOf: "2026-01-01", RatesSource: "EC"}
		lines := []domain.OrderLine{{Index: 0, VATCents: 0, TotalCents: 4900}, {Index: 1, VATCents: 0, TotalCents: 1800}}
		draftMust(t, f.st.SaveBilling(ctx, o.ID, b, vat, lines, 6700, 6700))
		draftMust(t, f.st.BeginPayment(ctx, o.ID, "stripe", "cs_test_9"))
		got, err := f.st.NumberOrder(ctx, "P1")
		draftMust(t, err)
		want := *o
		want.Billing, want.VAT, want.TotalCents, want.Provider, want.ProviderRef = &b, vat, 6700, "stripe", "cs_test_9"
		want.Lines = append([]domain.OrderLine(nil), o.Lines...)
		want.Lines[0].VATCents, want.Lines[0].TotalCents = 0, 4900
		want.Lines[1].VATCents, want.Lines[1].TotalCents = 0, 1800
		if diff := cmp.Diff(&want, got); diff != "" {
			t.Fatalf("after SaveBilling and BeginPayment (-want +got):\n%s", diff)
		}
		if err := f.st.SaveBilling(ctx, o.ID, b, vat, []domain.OrderLine{{Index: 7}}, 6700, 6700); err == nil {
			t.Error("billing for a line the order does not have was saved")
		}

		draftMust(t, f.st.CancelOrder(ctx, o.ID, fxNow.Add(time.Hour)))
		if got, _ := f.st.NumberOrder(ctx, "P1"); got.Status != domain.OrderCanceled {
			t.Fatalf("status after cancel = %q", got.Status)
		}
		for name, err := range map[string]error{
			"SaveBilling":  f.st.SaveBilling(ctx, o.ID, b, vat, nil, 6700, 6700),
			"BeginPayment": f.st.BeginPayment(ctx, o.ID, "test", "t1"),
			"CancelOrder":  f.st.CancelOrder(ctx, o.ID, fxNow),
		} {
			de := wantDomainErr(t, err, domain.EConflict, name+" of a canceled order")
			if !strings.Contains(de.Message, "P1") || !strings.Contains(de.Message, "canceled") {
				t.Errorf("%s: message %q does not name the order and its status", name, de.Message)
			}
		}
		wantDomainErr(t, f.st.BeginPayment(ctx, 999, "test", "t"), domain.ENotFound, "BeginPayment of a missing order")
	})
}

// paymentEvents counts the stored payment events.
func paymentEvents(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	draftMust(t, db.sql.QueryRow(`SELECT COUNT(*) FROM payment_events`).Scan(&n))
	return n
}

func TestOrderStore_MarkPaid(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		o := smallOrder(f.ann, "M1", fxNow, "featured", 1)
		draftMust(t, f.st.CreateOrder(ctx, o, tokenHash("m1")))
		ev := domain.PaymentEvent{Provider: "stripe", EventID: "evt_1", OrderNumber: "M1", Ref: "cs_1", AmountCents: 100, Currency: "USD"}
		paidAt := fxNow.Add(time.Minute)
		ok, err := f.st.MarkPaid(ctx, o.ID, ev, paidAt)
		if err != nil || !ok {
			t.Fatalf("first MarkPaid = %v, %v; want true", ok, err)
		}
		first, err := f.st.NumberOrder(ctx, "M1")
		draftMust(t, err)
		if first.Status != domain.OrderPaid || first.PaidAt == nil || !first.PaidAt.Equal(paidAt) ||
			first.Provider != "stripe" || first.ProviderRef != "cs_1" || first.TestMode {
			t.Fatalf("paid order = %+v", first)
		}

		t.Run("ReplayedEvent", func(t *testing.T) {
			ok, err := f.st.MarkPaid(ctx, o.ID, ev, paidAt.Add(time.Hour))
			if err != nil || ok {
				t.Fatalf("replayed MarkPaid = %v, %v; want false", ok, err)
			}
			got, _ := f.st.NumberOrder(ctx, "M1")
			if diff := cmp.Diff(first, got); diff != "" || paymentEvents(t, f.db) != 1 {
				t.Fatalf("a replayed event changed the order (-before +after):\n%s\nevents: %d", diff, paymentEvents(t, f.db))
			}
		})

		t.Run("SecondEventForPaidOrder", func(t *testing.T) {
			ev2 := ev
			ev2.EventID, ev2.Ref, ev2.Provider, ev2.TestMode = "evt_2", "cs_2", "test", true
			ok, err := f.st.MarkPaid(ctx, o.ID, ev2, paidAt.Add(time.Hour))
			if err != nil || ok {
				t.Fatalf("MarkPaid of a paid order = %v, %v; want false", ok, err)
			}
			got, _ := f.st.NumberOrder(ctx, "M1")
			if diff := cmp.Diff(first, got); diff != "" || paymentEvents(t, f.db) != 1 {
				t.Fatalf("a late event changed the order (-before +after):\n%s\nevents: %d (want 1: the late one is not kept)", diff, paymentEvents(t, f.db))
			}
		})

		t.Run("CanceledOrderIsPaid", func(t *testing.T) {
			c := smallOrder(f.ann, "M2", fxNow, "featured", 1)
			draftMust(t, f.st.CreateOrder(ctx, c, tokenHash("m2")))
			draftMust(t, f.st.CancelOrder(ctx, c.ID, fxNow))
			ok, err := f.st.MarkPaid(ctx, c.ID, domain.PaymentEvent{Provider: "test", EventID: "t-1", TestMode: true, AmountCents: 100}, paidAt)
			if err != nil || !ok {
				t.Fatalf("MarkPaid of a canceled order = %v, %v; want true (the money was taken)", ok, err)
			}
			if got, _ := f.st.NumberOrder(ctx, "M2"); got.Status != domain.OrderPaid || !got.TestMode || got.ProviderRef != "" {
				t.Fatalf("canceled order after payment: %+v", got)
			}
		})

		t.Run("Refused", func(t *testing.T) {
			wantDomainErr(t, second(f.st.MarkPaid(ctx, 999, domain.PaymentEvent{Provider: "test", EventID: "x"}, fxNow)),
				domain.ENotFound, "MarkPaid of a missing order")
			if _, err := f.st.MarkPaid(ctx, o.ID, domain.PaymentEvent{Provider: "test"}, fxNow); err == nil {
				t.Error("an event without its id was accepted")
			}
		})
	})
}

// TestOrderStore_MarkPaidConcurrent pays one order with 10 distinct events at
// once: exactly one of them pays it, and only its event is kept.
func TestOrderStore_MarkPaidConcurrent(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		o := smallOrder(f.ann, "C1", fxNow, "featured", 1)
		draftMust(t, f.st.CreateOrder(ctx, o, tokenHash("c1")))
		const n = 10
		var wg sync.WaitGroup
		results := make([]bool, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i], errs[i] = f.st.MarkPaid(ctx, o.ID, domain.PaymentEvent{Provider: "stripe",
					EventID: fmt.Sprintf("evt_%d", i), Ref: fmt.Sprintf("cs_%d", i), AmountCents: 100}, fxNow)
			}()
		}
		close(start)
		wg.Wait()
		won := -1
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("MarkPaid %d: %v", i, errs[i])
			}
			if results[i] {
				if won >= 0 {
					t.Fatalf("events %d and %d both paid the order", won, i)
				}
				won = i
			}
		}
		if won < 0 {
			t.Fatal("no event paid the order")
		}
		var kept string
		draftMust(t, f.db.sql.QueryRow(`SELECT `+f.db.eng.groupConcat("event_id", "','")+` FROM payment_events`).Scan(&kept))
		got, _ := f.st.NumberOrder(ctx, "C1")
		if kept != fmt.Sprintf("evt_%d", won) || got.ProviderRef != fmt.Sprintf("cs_%d", won) {
			t.Fatalf("kept events %q and order ref %q; want only the winner's (%d)", kept, got.ProviderRef, won)
		}
	})
}

// listingState is everything fulfilment may change about a listing.
type listingState struct {
	Status, Plan, LaunchWeek string
	LaunchedAt, ScheduledAt  int64 // 0: NULL
	Featured                 bool
	Unlocked                 string
	BillboardCents           int64
	UpdatedAt                int64
	Categories               string // slug (primary marked *), by slug
	Relaunches               string // week:state, by week
	Work                     string // kind:listing:order:details:status, by id
}

func readListing(t *testing.T, db *DB, id int64) listingState {
	t.Helper()
	var s listingState
	draftMust(t, db.sql.QueryRow(`SELECT status, plan, COALESCE(launch_week, ''), COALESCE(launched_at, 0),
		COALESCE(scheduled_at, 0), featured, unlocked_sections, billboard_cents, updated_at FROM listings WHERE id = ?`, id).
		Scan(&s.Status, &s.Plan, &s.LaunchWeek, &s.LaunchedAt, &s.ScheduledAt, &s.Featured, &s.Unlocked, &s.BillboardCents, &s.UpdatedAt))
	draftMust(t, db.sql.QueryRow(`SELECT COALESCE(`+db.eng.groupConcat("slug", "','")+`, '') FROM (SELECT c.slug || CASE lc.is_primary
		WHEN 1 THEN '*' ELSE '' END AS slug FROM listing_categories lc JOIN categories c ON c.id = lc.category_id
		WHERE lc.listing_id = ? ORDER BY c.slug) AS cats`, id).Scan(&s.Categories))
	draftMust(t, db.sql.QueryRow(`SELECT COALESCE(`+db.eng.groupConcat("r", "','")+`, '') FROM (SELECT week || ':' || state AS r
		FROM relaunches WHERE listing_id = ? ORDER BY week) AS rs`, id).Scan(&s.Relaunches))
	draftMust(t, db.sql.QueryRow(`SELECT COALESCE(`+db.eng.groupConcat("w", "','")+`, '') FROM (SELECT kind || ':' || listing_id || ':' ||
		order_number || ':' || details || ':' || status AS w FROM work_items WHERE listing_id = ? ORDER BY id) AS ws`, id).Scan(&s.Work))
	return s
}

// paidOrder stores a paid order of one line for listing and returns its id.
func (f *orderFixture) paidOrder(t *testing.T, number, product string, listing int64) int64 {
	t.Helper()
	ctx := context.Background()
	o := smallOrder(f.ann, number, fxNow, product, listing)
	draftMust(t, f.st.CreateOrder(ctx, o, tokenHash(number)))
	if ok, err := f.st.MarkPaid(ctx, o.ID, domain.PaymentEvent{Provider: "test", EventID: number, AmountCents: 100}, fxNow); err != nil || !ok {
		t.Fatalf("paying %s: %v, %v", number, ok, err)
	}
	return o.ID
}

// TestOrderStore_FulfilLine applies each kind of fulfilment to a fresh
// directory and checks that it changes exactly what it says, that the line
// records it, and that a second run changes nothing.
func TestOrderStore_FulfilLine(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		at := fxNow.Add(time.Hour) // Wednesday 2026-11-18 13:00 UTC
		monday := func(week string) int64 { d, _ := time.Parse(domain.DateLayout, week); return d.Unix() }
		cases := []struct {
			name    string
			listing int64
			f       domain.Fulfilment
			change  func(s *listingState)
		}{
			{"LaunchNow", 4, domain.Fulfilment{Launch: true, Outcome: "Live since 2026-11-18"}, func(s *listingState) {
				s.Status, s.Plan, s.LaunchWeek, s.LaunchedAt = "live", "paid", "2026-11-16", at.Unix()
				s.Unlocked = `["media","milestones","story"]`
			}},
			{"LaunchNowWhenLive", 1, domain.Fulfilment{Launch: true}, func(s *listingState) {
				s.Plan, s.Unlocked = "paid", `["media","milestones","story"]` // stays live since its launch
			}},
			{"LaunchScheduled", 4, domain.Fulfilment{Launch: true, LaunchWeek: "2026-12-07"}, func(s *listingState) {
				s.Status, s.Plan, s.LaunchWeek, s.ScheduledAt = "scheduled", "paid", "2026-12-07", monday("2026-12-07")
				s.Unlocked = `["media","milestones","story"]`
			}},
			{"QueueWeekDraft", 4, domain.Fulfilment{QueueWeek: "2026-11-30"}, func(s *listingState) {
				s.Status, s.LaunchWeek, s.ScheduledAt = "awaiting_badge", "2026-11-30", monday("2026-11-30")
			}},
			{"QueueWeekScheduled", 5, domain.Fulfilment{QueueWeek: "2026-11-30"}, func(s *listingState) {
				s.LaunchWeek, s.ScheduledAt = "2026-11-30", monday("2026-11-30")
			}},
			{"QueueWeekLiveUnchanged", 1, domain.Fulfilment{QueueWeek: "2026-11-30"}, func(s *listingState) {}},
			{"Featured", 4, domain.Fulfilment{Featured: true}, func(s *listingState) { s.Featured = true }},
			{"ExtraCategories", 1, domain.Fulfilment{ExtraCategories: []string{"software", "design", "notes"}}, func(s *listingState) {
				s.Categories = "design,notes*,software" // design attached already, notes is primary: both left alone
			}},
			{"Relaunch", 1, domain.Fulfilment{RelaunchWeek: "2026-12-14"}, func(s *listingState) { s.Relaunches = "2026-12-14:booked" }},
			{"Billboard", 1, domain.Fulfilment{BillboardCents: 2500, Currency: "USD"}, func(s *listingState) { s.BillboardCents += 2500 }},
			{"Unlock", 1, domain.Fulfilment{Unlock: []string{"media", "story"}}, func(s *listingState) { s.Unlocked = `["media","story"]` }},
			{"Work", 4, domain.Fulfilment{Work: []domain.WorkItem{{Kind: "ai_review", Details: map[string]any{"depth": "full"}},
				{Kind: "done_for_you"}}}, func(s *listingState) {
				s.Work = `ai_review:4:F1:{"depth":"full"}:open,done_for_you:4:F1:{}:open`
			}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				f := newOrderFixtureOn(t, engine)
				ctx := context.Background()
				id := f.paidOrder(t, "F1", "x", c.listing)
				before := readListing(t, f.db, c.listing)
				c.f.ListingID = c.listing
				ok, err := f.st.FulfilLine(ctx, id, 0, c.f, at)
				if err != nil || !ok {
					t.Fatalf("FulfilLine = %v, %v; want true", ok, err)
				}
				want := before
				c.change(&want)
				if touchesListing(c.f) { // work items are not listing data
					want.UpdatedAt = at.Unix()
				}
				after := readListing(t, f.db, c.listing)
				if diff := cmp.Diff(want, after); diff != "" {
					t.Fatalf("listing after fulfilment (-want +got):\n%s", diff)
				}
				o, err := f.st.NumberOrder(ctx, "F1")
				draftMust(t, err)
				if l := o.Lines[0]; !l.Fulfilled || l.FulfilledAt == nil || !l.FulfilledAt.Equal(at) || l.Outcome != c.f.Outcome {
					t.Fatalf("line after fulfilment: %+v", l)
				}
				ok, err = f.st.FulfilLine(ctx, id, 0, c.f, at.Add(time.Hour))
				if err != nil || ok {
					t.Fatalf("second FulfilLine = %v, %v; want false", ok, err)
				}
				if again := readListing(t, f.db, c.listing); again != after {
					t.Fatalf("a second fulfilment changed the listing (-once +twice):\n%s", cmp.Diff(after, again))
				}
			})
		}

		t.Run("Refused", func(t *testing.T) {
			t.Parallel()
			f := newOrderFixtureOn(t, engine)
			ctx := context.Background()
			pending := smallOrder(f.ann, "U1", fxNow, "featured", 4)
			draftMust(t, f.st.CreateOrder(ctx, pending, tokenHash("u1")))
			wantDomainErr(t, second(f.st.FulfilLine(ctx, pending.ID, 0, domain.Fulfilment{ListingID: 4, Featured: true}, at)),
				domain.EConflict, "fulfilling a pending order")
			id := f.paidOrder(t, "U2", "featured", 4)
			wantDomainErr(t, second(f.st.FulfilLine(ctx, id, 5, domain.Fulfilment{}, at)), domain.ENotFound, "a line the order does not have")
			before := readListing(t, f.db, 4)
			// A category gone since the quote fails the line, and its other effects with it.
			if _, err := f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 4, Featured: true, ExtraCategories: []string{"gone"}}, at); err == nil ||
				!strings.Contains(err.Error(), `"gone"`) {
				t.Fatalf("a missing category: err = %v, want one naming it", err)
			}
			if _, err := f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{Featured: true}, at); err == nil {
				t.Fatal("a listing change without a listing was applied")
			}
			if _, err := f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 4, Launch: true, LaunchWeek: "2026-12-08"}, at); err == nil {
				t.Fatal("a launch week that is a Tuesday was applied")
			}
			if after := readListing(t, f.db, 4); after != before {
				t.Fatalf("failed fulfilments changed the listing:\n%s", cmp.Diff(before, after))
			}
			if o, _ := f.st.NumberOrder(ctx, "U2"); o.Lines[0].Fulfilled {
				t.Fatal("a failed fulfilment marked the line fulfilled")
			}
		})
	})
}

func TestOrderStore_StartWeek(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		at := fxNextWeek.Add(time.Minute)

		t.Run("ScheduledGoesLive", func(t *testing.T) {
			if ok, err := f.st.StartWeek(ctx, 5, "2026-11-30", at); err != nil || ok {
				t.Fatalf("StartWeek of another week = %v, %v; want false", ok, err)
			}
			before := readListing(t, f.db, 5)
			if ok, err := f.st.StartWeek(ctx, 5, "2026-11-23", at); err != nil || !ok {
				t.Fatalf("StartWeek = %v, %v; want true", ok, err)
			}
			want := before
			want.Status, want.LaunchedAt, want.UpdatedAt = "live", at.Unix(), at.Unix()
			if got := readListing(t, f.db, 5); got != want {
				t.Fatalf("after StartWeek (-want +got):\n%s", cmp.Diff(want, got))
			}
			if ok, err := f.st.StartWeek(ctx, 5, "2026-11-23", at.Add(time.Hour)); err != nil || ok {
				t.Fatalf("second StartWeek = %v, %v; want false", ok, err)
			}
			if got := readListing(t, f.db, 5); got != want {
				t.Fatalf("a second StartWeek changed the listing:\n%s", cmp.Diff(want, got))
			}
		})

		t.Run("Relaunch", func(t *testing.T) {
			id := f.paidOrder(t, "R1", "relaunch", 1)
			if ok, err := f.st.StartWeek(ctx, 1, "2026-12-14", at); err != nil || ok {
				t.Fatalf("StartWeek before anything was booked = %v, %v; want false", ok, err)
			}
			draftMust(t, second(f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 1, RelaunchWeek: "2026-12-14"}, fxNow)))
			before := readListing(t, f.db, 1)
			relaunchAt := time.Date(2026, 12, 14, 0, 0, 5, 0, time.UTC)
			if ok, err := f.st.StartWeek(ctx, 1, "2026-12-14", relaunchAt); err != nil || !ok {
				t.Fatalf("StartWeek of the relaunch week = %v, %v; want true", ok, err)
			}
			want := before
			want.LaunchWeek, want.LaunchedAt, want.UpdatedAt, want.Relaunches = "2026-12-14", relaunchAt.Unix(), relaunchAt.Unix(), "2026-12-14:done"
			if got := readListing(t, f.db, 1); got != want {
				t.Fatalf("after the relaunch (-want +got):\n%s", cmp.Diff(want, got))
			}
			if ok, err := f.st.StartWeek(ctx, 1, "2026-12-14", relaunchAt.Add(time.Hour)); err != nil || ok {
				t.Fatalf("second StartWeek of the relaunch = %v, %v; want false", ok, err)
			}
			if got := readListing(t, f.db, 1); got != want {
				t.Fatalf("a second StartWeek changed the listing:\n%s", cmp.Diff(want, got))
			}
		})

		t.Run("OtherSite", func(t *testing.T) {
			other, err := NewOrderStore(f.db, domain.Site{Key: "other", Name: "Other"})
			draftMust(t, err)
			setRows(t, f.db, "listings", cols{"status": "scheduled", "launch_week": "2026-11-30"}, cols{"id": 4})
			if ok, err := other.StartWeek(ctx, 4, "2026-11-30", at); err != nil || ok {
				t.Fatalf("StartWeek through another site = %v, %v; want false", ok, err)
			}
		})
	})
}

func TestOrderStore_WorkItems(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		id := f.paidOrder(t, "W1", "ai_review", 4)
		id2 := f.paidOrder(t, "W2", "trophy_verification", 0)
		draftMust(t, second(f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 4,
			Work: []domain.WorkItem{{Kind: "ai_review"}}}, fxThisWeek)))
		draftMust(t, second(f.st.FulfilLine(ctx, id2, 0, domain.Fulfilment{
			Work: []domain.WorkItem{{Kind: "trophy_verification", Details: map[string]any{"trophy": "gold"}}}}, fxNow)))
		items, total, err := f.st.WorkItems(ctx, 0, 0)
		draftMust(t, err)
		want := []domain.WorkItem{
			{ID: items[0].ID, Kind: "trophy_verification", OrderNumber: "W2", Details: map[string]any{"trophy": "gold"}, Status: "open", CreatedAt: fxNow},
			{ID: items[1].ID, Kind: "ai_review", ListingID: 4, OrderNumber: "W1", Status: "open", CreatedAt: fxThisWeek},
		}
		if diff := cmp.Diff(want, items); diff != "" || total != 2 {
			t.Fatalf("work items (-want +got), total %d:\n%s", total, diff)
		}
		// The newer item done: the open one comes first.
		doneAt := fxNow.Add(time.Hour)
		draftMust(t, f.st.FinishWorkItem(ctx, items[0].ID, doneAt))
		draftMust(t, f.st.FinishWorkItem(ctx, items[0].ID, doneAt.Add(time.Hour))) // again: nothing changes
		items, _, err = f.st.WorkItems(ctx, 0, 0)
		draftMust(t, err)
		if items[0].Kind != "ai_review" || items[1].Status != "done" || items[1].DoneAt == nil || !items[1].DoneAt.Equal(doneAt) {
			t.Fatalf("after finishing the newer item: %+v", items)
		}
		page, total, err := f.st.WorkItems(ctx, 1, 1)
		draftMust(t, err)
		if len(page) != 1 || page[0].Kind != "trophy_verification" || total != 2 {
			t.Fatalf("second page of one = %+v (total %d)", page, total)
		}
		wantDomainErr(t, f.st.FinishWorkItem(ctx, 999, doneAt), domain.ENotFound, "finishing a missing work item")
	})
}

// A paid launch of a listing archived since (its owner deleted their
// account, docs/privacy.md) publishes nothing: the listing stays archived,
// the line says so, and the site team gets a refund_review work item.
func TestOrderStore_FulfilLineArchived(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		at := fxNow.Add(time.Hour)
		f := newOrderFixtureOn(t, engine)
		ctx := context.Background()
		id := f.paidOrder(t, "A1", "x", 4)
		if _, err := f.db.UpdateRows(ctx, "listings", map[string]any{"status": "archived", "owner_id": nil}, map[string]any{"id": 4}); err != nil {
			t.Fatal(err)
		}
		before := readListing(t, f.db, 4)
		ok, err := f.st.FulfilLine(ctx, id, 0, domain.Fulfilment{ListingID: 4, Launch: true, Outcome: "Live since 2026-11-18"}, at)
		if err != nil || !ok {
			t.Fatalf("FulfilLine = %v, %v; want true (the line is done, with nothing applied)", ok, err)
		}
		after := readListing(t, f.db, 4)
		after.Work = before.Work // the work item is for the team, not listing data
		if after != before {
			t.Fatalf("an archived listing changed (-before +after):\n%s", cmp.Diff(before, after))
		}
		o, err := f.st.NumberOrder(ctx, "A1")
		draftMust(t, err)
		if l := o.Lines[0]; !l.Fulfilled || !strings.HasPrefix(l.Outcome, "Not applied") {
			t.Errorf("line: %+v, want fulfilled with a Not applied outcome", l)
		}
		rows, err := f.db.Rows(ctx, "work_items", map[string]any{"kind": "refund_review", "listing_id": 4})
		if err != nil || len(rows) != 1 {
			t.Errorf("refund_review work items: %d (%v), want 1", len(rows), err)
		}
	})
}
