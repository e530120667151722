package storage

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// claimFixture adds three accounts to the fixture: 100 submitted sketchy
// (live, not verified), 101 and 102 are claimants.
func claimFixture(t *testing.T) (*DB, *Store) {
	t.Helper()
	return claimFixtureOn(t, "sqlite")
}

// claimFixtureOn is claimFixture on engine (see openEngine).
func claimFixtureOn(t *testing.T, engine string) (*DB, *Store) {
	t.Helper()
	db, st, _ := newFixtureOn(t, engine)
	for i, sub := range []string{"a", "b", "c"} {
		putRow(t, db, "users", cols{"id": 100 + i, "issuer": "e", "subject": sub, "email": sub + "@sketchy.test", "created_at": 0})
	}
	setRows(t, db, "listings", cols{"owner_id": 100}, cols{"slug": "sketchy"})
	return db, st
}

func newClaim(t *testing.T, st *Store, user int64, slug, method string, at time.Time) *domain.ClaimRecord {
	t.Helper()
	l, err := st.ClaimTarget(context.Background(), user, slug)
	if err != nil {
		t.Fatal(err)
	}
	rec := &domain.ClaimRecord{ListingID: l.ID, UserID: user, Method: method, Status: domain.ClaimPending, Token: "tok-" + method,
		Domain: l.Domain, HomeURL: l.URL, CreatedAt: at, ExpiresAt: at.AddDate(0, 0, domain.ClaimDays)}
	if method == domain.ClaimEmail {
		rec.Token, rec.Email = "", "x@"+l.Domain
	}
	if err := st.CreateClaim(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestStore_ClaimTargetAndReplace(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st := claimFixtureOn(t, engine)
		ctx := context.Background()
		_, err := st.ClaimTarget(ctx, 101, "drafty")
		wantCode(t, err, domain.ENotFound)
		if l, err := st.ClaimTarget(ctx, 100, "sketchy"); err != nil || !l.CallerOwns || l.CallerPending != nil {
			t.Fatalf("owner's view: %+v %v", l, err)
		}
		first := newClaim(t, st, 101, "sketchy", domain.ClaimDNS, fxNow)
		l, err := st.ClaimTarget(ctx, 101, "sketchy")
		if err != nil || l.CallerOwns || l.CallerPending == nil || l.CallerPending.ID != first.ID || l.CallerPending.Token != "tok-dns" {
			t.Fatalf("claimant's view: %+v %v", l, err)
		}
		second := newClaim(t, st, 101, "sketchy", domain.ClaimMeta, fxNow.Add(time.Minute))
		// After the second's expiry, a third makes it expired, not replaced.
		third := newClaim(t, st, 101, "sketchy", domain.ClaimEmail, second.ExpiresAt)
		for id, want := range map[int64]string{first.ID: "replaced", second.ID: "expired", third.ID: "pending"} {
			r, err := st.UserClaim(ctx, 101, id)
			if err != nil || r.Status != want || r.Slug != "sketchy" || r.ClaimantEmail != "b@sketchy.test" {
				t.Fatalf("claim %d: %+v %v, want %s", id, r, err, want)
			}
		}
		// One pending claim per person and listing, whatever calls the store.
		if _, err := db.InsertRow(ctx, "claims", cols{"listing_id": third.ListingID, "user_id": 101, "method": "dns", "token": "t",
			"domain": "d", "created_at": 0, "expires_at": 1}); err == nil {
			t.Fatal("a second pending claim was stored")
		}
		// The email claim has no link until one is set; a bad hash is refused.
		_, err = st.LinkClaim(ctx, domain.SecretHash("secret"))
		wantCode(t, err, domain.ENotFound)
		if err := st.SetClaimLink(ctx, third.ID, "not-a-hash", fxNow); err == nil {
			t.Fatal("a link hash that is not SHA-256 hex was stored")
		}
		if err := st.SetClaimLink(ctx, third.ID, domain.SecretHash("secret"), fxNow); err != nil {
			t.Fatal(err)
		}
		if r, err := st.LinkClaim(ctx, domain.SecretHash("secret")); err != nil || r.ID != third.ID || r.MailedAt == nil {
			t.Fatalf("LinkClaim: %+v %v", r, err)
		}
		// Someone else's claim reads like a missing one.
		_, errOther := st.UserClaim(ctx, 102, first.ID)
		_, errNone := st.UserClaim(ctx, 102, 99999)
		wantCode(t, errOther, domain.ENotFound)
		wantCode(t, errNone, domain.ENotFound)
		recs, total, err := st.UserClaims(ctx, 101, 0, 2)
		if err != nil || total != 3 || len(recs) != 2 || recs[0].ID != third.ID || recs[1].ID != second.ID {
			t.Fatalf("UserClaims: %d %v %v", total, recs, err)
		}
		if recs, total, _ := st.UserClaims(ctx, 102, 0, 20); total != 0 || len(recs) != 0 {
			t.Fatalf("another user's claims: %v", recs)
		}
	})
}

func TestStore_VerifyClaim(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st := claimFixtureOn(t, engine)
		ctx := context.Background()
		b := newClaim(t, st, 101, "sketchy", domain.ClaimDNS, fxNow)
		check := domain.ClaimCheck{CheckedAt: fxNow, LookedFor: domain.ClaimLookedFor{Kind: "dns_txt", Where: "_launchdir-claim.sketchy.test", Value: "v"},
			Seen: domain.ClaimSeen{Values: []string{"other"}}, Message: "no record"}
		if err := st.RecordClaimCheck(ctx, b.ID, check); err != nil {
			t.Fatal(err)
		}
		if r, _ := st.UserClaim(ctx, 101, b.ID); r.LastCheck == nil || !reflect.DeepEqual(*r.LastCheck, check) {
			t.Fatalf("the check read back: %+v, want %+v", r.LastCheck, check)
		}
		// A check written before checks were JSON reads back as its message.
		setRows(t, db, "claims", cols{"last_check": "The file answered 404."}, cols{"id": b.ID})
		if r, _ := st.UserClaim(ctx, 101, b.ID); r.LastCheck == nil || r.LastCheck.Message != "The file answered 404." || !r.LastCheck.CheckedAt.Equal(fxNow) {
			t.Fatalf("an old check: %+v", r.LastCheck)
		}
		// Not after the expiry.
		if _, changed, err := st.VerifyClaim(ctx, b.ID, b.ExpiresAt); err != nil || changed {
			t.Fatalf("verified at expiry: %v %v", changed, err)
		}
		owners, changed, err := st.VerifyClaim(ctx, b.ID, fxNow.Add(time.Hour))
		if err != nil || !changed || !slices.Equal(owners, []string{"a@sketchy.test"}) {
			t.Fatalf("VerifyClaim: %v %v %v", owners, changed, err)
		}
		if _, changed, _ := st.VerifyClaim(ctx, b.ID, fxNow.Add(2*time.Hour)); changed {
			t.Fatal("verified twice")
		}
		r, _ := st.UserClaim(ctx, 101, b.ID)
		if r.Status != domain.ClaimVerified || r.VerifiedAt == nil || r.LastCheck != nil {
			t.Fatalf("verified claim: %+v", r)
		}
		if l, _ := st.ClaimTarget(ctx, 101, "sketchy"); !l.CallerOwns {
			t.Fatal("the claimant does not own the listing")
		}
		c := newClaim(t, st, 102, "sketchy", domain.ClaimMeta, fxNow)
		owners, _, _ = st.VerifyClaim(ctx, c.ID, fxNow.Add(time.Hour))
		if !slices.Equal(owners, []string{"a@sketchy.test", "b@sketchy.test"}) {
			t.Fatalf("owners told of the second claim: %v", owners)
		}
		// The submitter's own claim adds no co-owner row.
		a := newClaim(t, st, 100, "sketchy", domain.ClaimFile, fxNow)
		if _, _, err := st.VerifyClaim(ctx, a.ID, fxNow.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var n, verified int
		if err := db.sql.QueryRow(`SELECT (SELECT count(*) FROM listing_owners WHERE listing_id = l.id), l.verified
		FROM listings l WHERE slug = 'sketchy'`).Scan(&n, &verified); err != nil {
			t.Fatal(err)
		}
		if n != 2 || verified != 1 {
			t.Fatalf("co-owners %d (want 2), verified %d", n, verified)
		}
	})
}
