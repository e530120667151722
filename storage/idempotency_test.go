package storage

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
)

var idemNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// idemEnv is a real SQLite file with two users.
type idemEnv struct {
	db           *DB
	s            *IdemStore
	alice, bobby int64
}

func newIdemEnv(t *testing.T) idemEnv {
	t.Helper()
	return newIdemEnvOn(t, "sqlite")
}

// newIdemEnvOn is newIdemEnv on engine (see openEngine).
func newIdemEnvOn(t *testing.T, engine string) idemEnv {
	t.Helper()
	db := openEngine(t, engine)
	as := NewAuthStore(db)
	ctx := context.Background()
	a, err := as.UpsertUser(ctx, auth.EmailIssuer, "alice@example.com", "alice@example.com", "", idemNow)
	if err != nil {
		t.Fatal(err)
	}
	b, err := as.UpsertUser(ctx, auth.EmailIssuer, "bob@example.com", "bob@example.com", "", idemNow)
	if err != nil {
		t.Fatal(err)
	}
	return idemEnv{db: db, s: NewIdemStore(db), alice: a.ID, bobby: b.ID}
}

func (e idemEnv) rows(t *testing.T) int {
	t.Helper()
	var n int
	if err := e.db.sql.QueryRow(`SELECT COUNT(*) FROM idempotency_keys`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// claim calls Begin and requires a fresh claim.
func (e idemEnv) claim(t *testing.T, user int64, key, op, fp string, now time.Time) domain.IdemRecord {
	t.Helper()
	rec, err := e.s.Begin(context.Background(), user, key, op, fp, now)
	if err != nil {
		t.Fatalf("Begin(%d, %q): %v", user, key, err)
	}
	if rec.State != domain.IdemPending || rec.Claim == "" {
		t.Fatalf("Begin(%d, %q) = %+v, want a pending claim", user, key, rec)
	}
	return rec
}

func TestIdemStore_Begin(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()

		t.Run("ClaimFinishReplay", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			rec := e.claim(t, e.alice, "k1", "submit_listing", "fp1", idemNow)
			if !rec.ExpiresAt.Equal(idemNow.Add(domain.IdemTTL)) {
				t.Errorf("pending expires %v, want %v", rec.ExpiresAt, idemNow.Add(domain.IdemTTL))
			}
			body := []byte(`{"id":"d_1","status":"crawling"}`)
			if err := e.s.Finish(ctx, e.alice, "k1", rec.Claim, 201, body, idemNow.Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			got, err := e.s.Begin(ctx, e.alice, "k1", "submit_listing", "fp1", idemNow.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if got.State != domain.IdemDone || got.Status != 201 || !bytes.Equal(got.Body, body) || got.Claim != "" {
				t.Fatalf("replay = %+v, want done 201 %s", got, body)
			}
			// Kept IdemTTL after it finished, not after it was claimed.
			if want := idemNow.Add(time.Second + domain.IdemTTL); !got.ExpiresAt.Equal(want) {
				t.Errorf("done expires %v, want %v", got.ExpiresAt, want)
			}
		})

		t.Run("EmptyBodyIsKept", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			rec := e.claim(t, e.alice, "k", "op", "fp", idemNow)
			if err := e.s.Finish(ctx, e.alice, "k", rec.Claim, 200, nil, idemNow); err != nil {
				t.Fatal(err)
			}
			got, err := e.s.Begin(ctx, e.alice, "k", "op", "fp", idemNow)
			if err != nil || got.State != domain.IdemDone || got.Status != 200 || len(got.Body) != 0 {
				t.Fatalf("replay = %+v, %v", got, err)
			}
		})

		t.Run("Mismatch", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			rec := e.claim(t, e.alice, "k", "submit_listing", "fp1", idemNow)
			// While pending and after finishing, another fingerprint or op is refused.
			for _, when := range []string{"pending", "done"} {
				if when == "done" {
					if err := e.s.Finish(ctx, e.alice, "k", rec.Claim, 201, []byte(`{}`), idemNow); err != nil {
						t.Fatal(err)
					}
				}
				for _, c := range []struct{ op, fp string }{{"submit_listing", "fp2"}, {"update_draft", "fp1"}} {
					got, err := e.s.Begin(ctx, e.alice, "k", c.op, c.fp, idemNow)
					if !errors.Is(err, domain.ErrIdemMismatch) {
						t.Fatalf("%s: Begin(%s, %s) err = %v, want ErrIdemMismatch", when, c.op, c.fp, err)
					}
					if got.Op != "submit_listing" || got.Claim != "" || got.Body != nil {
						t.Errorf("%s: mismatch record %+v: want the first op, no claim, no body", when, got)
					}
				}
			}
		})

		t.Run("InProgress", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			e.claim(t, e.alice, "k", "op", "fp", idemNow)
			got, err := e.s.Begin(ctx, e.alice, "k", "op", "fp", idemNow.Add(domain.IdemLease-time.Second))
			if !errors.Is(err, domain.ErrIdemInProgress) || got.Claim != "" {
				t.Fatalf("second Begin = %+v, %v; want ErrIdemInProgress without a claim", got, err)
			}
		})

		t.Run("StaleClaimIsTakenOver", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			first := e.claim(t, e.alice, "k", "op", "fp", idemNow)
			second := e.claim(t, e.alice, "k", "op", "fp", idemNow.Add(domain.IdemLease))
			if second.Claim == first.Claim {
				t.Fatal("the takeover reused the dead claim's token")
			}
			// The first call, if it was alive after all, can no longer finish.
			if err := e.s.Finish(ctx, e.alice, "k", first.Claim, 200, []byte(`{"a":1}`), idemNow); err == nil {
				t.Fatal("Finish with a claim that was taken over succeeded")
			}
			if err := e.s.Finish(ctx, e.alice, "k", second.Claim, 200, []byte(`{"a":2}`), idemNow); err != nil {
				t.Fatal(err)
			}
			got, err := e.s.Begin(ctx, e.alice, "k", "op", "fp", idemNow.Add(domain.IdemLease+time.Minute))
			if err != nil || string(got.Body) != `{"a":2}` {
				t.Fatalf("replay %+v, %v", got, err)
			}
		})

		t.Run("Abandon", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			first := e.claim(t, e.alice, "k", "op", "fp", idemNow)
			if err := e.s.Abandon(ctx, e.alice, "k", "not-the-claim"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.s.Begin(ctx, e.alice, "k", "op", "fp", idemNow); !errors.Is(err, domain.ErrIdemInProgress) {
				t.Fatalf("a wrong token released the claim: %v", err)
			}
			if err := e.s.Abandon(ctx, e.alice, "k", first.Claim); err != nil {
				t.Fatal(err)
			}
			// Released: the retry claims it, even with other arguments.
			e.claim(t, e.alice, "k", "op", "other", idemNow)
			// A finished answer is never abandoned.
			rec := e.claim(t, e.alice, "k2", "op", "fp", idemNow)
			if err := e.s.Finish(ctx, e.alice, "k2", rec.Claim, 200, []byte(`{}`), idemNow); err != nil {
				t.Fatal(err)
			}
			if err := e.s.Abandon(ctx, e.alice, "k2", rec.Claim); err != nil {
				t.Fatal(err)
			}
			if got, err := e.s.Begin(ctx, e.alice, "k2", "op", "fp", idemNow); err != nil || got.State != domain.IdemDone {
				t.Fatalf("after Abandon of a finished key: %+v, %v", got, err)
			}
		})

		t.Run("ScopedToUser", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			a := e.claim(t, e.alice, "same", "op", "fp-a", idemNow)
			if err := e.s.Finish(ctx, e.alice, "same", a.Claim, 201, []byte(`{"who":"alice"}`), idemNow); err != nil {
				t.Fatal(err)
			}
			// Bob's key of the same name is his own: other arguments, a claim of his own.
			b := e.claim(t, e.bobby, "same", "op", "fp-b", idemNow)
			if err := e.s.Finish(ctx, e.bobby, "same", b.Claim, 201, []byte(`{"who":"bob"}`), idemNow); err != nil {
				t.Fatal(err)
			}
			for user, want := range map[int64]string{e.alice: `{"who":"alice"}`, e.bobby: `{"who":"bob"}`} {
				fp := "fp-a"
				if user == e.bobby {
					fp = "fp-b"
				}
				got, err := e.s.Begin(ctx, user, "same", "op", fp, idemNow)
				if err != nil || string(got.Body) != want {
					t.Errorf("user %d: %+v, %v; want %s", user, got, err, want)
				}
			}
		})

		t.Run("ExpiryAfterTTL", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			rec := e.claim(t, e.alice, "k", "op", "fp", idemNow)
			if err := e.s.Finish(ctx, e.alice, "k", rec.Claim, 201, []byte(`{"n":1}`), idemNow); err != nil {
				t.Fatal(err)
			}
			// One second before the TTL ends it is still replayed, with any arguments checked.
			if got, err := e.s.Begin(ctx, e.alice, "k", "op", "fp", idemNow.Add(domain.IdemTTL-time.Second)); err != nil || got.State != domain.IdemDone {
				t.Fatalf("before expiry: %+v, %v", got, err)
			}
			if _, err := e.s.Begin(ctx, e.alice, "k", "op", "other", idemNow.Add(domain.IdemTTL-time.Second)); !errors.Is(err, domain.ErrIdemMismatch) {
				t.Fatalf("before expiry, other arguments: %v", err)
			}
			// At the TTL the key is free again, for any request.
			e.claim(t, e.alice, "k", "op", "other", idemNow.Add(domain.IdemTTL))
		})

		t.Run("SweepDeletesExpired", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			for _, k := range []string{"a", "b", "c"} {
				rec := e.claim(t, e.alice, k, "op", "fp", idemNow)
				if err := e.s.Finish(ctx, e.alice, k, rec.Claim, 200, []byte(`{}`), idemNow); err != nil {
					t.Fatal(err)
				}
			}
			e.claim(t, e.bobby, "fresh", "op", "fp", idemNow.Add(domain.IdemTTL-time.Hour))
			if n := e.rows(t); n != 4 {
				t.Fatalf("%d rows, want 4", n)
			}
			// A Begin more than a minute after the last sweep, once the three have expired,
			// deletes them; bob's newer claim stays.
			e.claim(t, e.bobby, "new", "op", "fp", idemNow.Add(domain.IdemTTL+time.Minute))
			if n := e.rows(t); n != 2 {
				t.Fatalf("%d rows after the sweep, want 2 (bob's two)", n)
			}
			n, err := e.s.DeleteExpired(ctx, idemNow.Add(10*domain.IdemTTL))
			if err != nil || n != 2 {
				t.Fatalf("DeleteExpired = %d, %v; want 2", n, err)
			}
		})

		t.Run("BadArguments", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			for _, c := range []struct {
				user        int64
				key, op, fp string
			}{{0, "k", "op", "fp"}, {e.alice, "", "op", "fp"}, {e.alice, "k", "", "fp"}, {e.alice, "k", "op", ""}} {
				if _, err := e.s.Begin(ctx, c.user, c.key, c.op, c.fp, idemNow); err == nil {
					t.Errorf("Begin%+v succeeded", c)
				}
			}
			if err := e.s.Finish(ctx, e.alice, "k", "", 200, nil, idemNow); err == nil {
				t.Error("Finish without a claim token succeeded")
			}
			// A key the table refuses (over 255 characters) is an error, not a claim.
			long := string(bytes.Repeat([]byte("k"), 256))
			if _, err := e.s.Begin(ctx, e.alice, long, "op", "fp", idemNow); err == nil {
				t.Error("Begin with a 256-character key succeeded")
			}
		})

		t.Run("UserDeletedTakesKeys", func(t *testing.T) {
			t.Parallel()
			e := newIdemEnvOn(t, engine)
			e.claim(t, e.alice, "k", "op", "fp", idemNow)
			delRows(t, e.db, "users", cols{"id": e.alice})
			if n := e.rows(t); n != 0 {
				t.Fatalf("%d rows left after the user was deleted", n)
			}
		})
	})
}

// TestIdemStore_ConcurrentBegin: of many concurrent Begins for one key,
// through the pool's separate connections, exactly one claims it.
func TestIdemStore_ConcurrentBegin(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		e := newIdemEnvOn(t, engine)
		ctx := context.Background()
		const n = 24
		var wg sync.WaitGroup
		var mu sync.Mutex
		claims, inProgress := 0, 0
		var other []error
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				rec, err := e.s.Begin(ctx, e.alice, "race", "op", "fp", idemNow)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && rec.Claim != "":
					claims++
				case errors.Is(err, domain.ErrIdemInProgress):
					inProgress++
				default:
					other = append(other, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if claims != 1 || inProgress != n-1 || len(other) > 0 {
			t.Fatalf("%d claims, %d in progress, other %v; want 1 and %d", claims, inProgress, other, n-1)
		}
	})
}
