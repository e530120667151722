package storage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// failJobInserts makes every later insert into jobs fail, as a full disk or
// a crash between the statements would: the failure is injected into the
// real database, under the store.
func failJobInserts(t *testing.T, db *DB) {
	t.Helper()
	if db.eng == enginePostgres {
		injectFault(t, db, `CREATE FUNCTION fail_job_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'injected job insert failure'; END $$;
			CREATE TRIGGER fail_job_insert BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION fail_job_insert_fn()`)
		return
	}
	injectFault(t, db, `CREATE TRIGGER fail_job_insert BEFORE INSERT ON jobs BEGIN SELECT RAISE(ABORT, 'injected job insert failure'); END`)
}

// healJobInserts removes what failJobInserts added.
func healJobInserts(t *testing.T, db *DB) {
	t.Helper()
	if db.eng == enginePostgres {
		injectFault(t, db, `DROP TRIGGER fail_job_insert ON jobs`)
		return
	}
	injectFault(t, db, `DROP TRIGGER fail_job_insert`)
}

func countRows(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	draftMust(t, db.sql.QueryRow(q, args...).Scan(&n))
	return n
}

// TestStore_RowAndItsJobTogether: the rows that need a job (a draft, an
// update with followers to tell, a badge check, a payment, a fulfilled order
// line) are written in one transaction with it. With the job insert failing,
// none of them is stored; without, the job is there.
func TestStore_RowAndItsJobTogether(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()

		t.Run("SubmitListing", func(t *testing.T) {
			db, st, _ := newFixtureOn(t, engine)
			user := mkDraftUser(t, db, "drafter@ex.test")
			svc := domain.NewService(st, fxSite, func() time.Time { return fxNow })
			svc.Drafts = &domain.Drafting{Store: st, Enqueue: domain.NewRunner(NewJobStore(db), domain.RunnerOptions{Now: db.Now}).Enqueue}
			cctx := domain.WithCaller(ctx, domain.Caller{UserID: user, Email: "drafter@ex.test"})
			d, err := svc.SubmitListing(cctx, domain.SubmitListingInput{URL: "https://one.test/"})
			if err != nil {
				t.Fatal(err)
			}
			if n := countRows(t, db, `SELECT count(*) FROM jobs WHERE kind = ? AND key = ? AND state = 'queued'`, domain.DraftJob, d.ID); n != 1 {
				t.Fatalf("build jobs of the new draft: %d", n)
			}
			failJobInserts(t, db)
			if _, err := svc.SubmitListing(cctx, domain.SubmitListingInput{URL: "https://two.test/"}); err == nil {
				t.Fatal("SubmitListing succeeded without its job")
			}
			if n := countRows(t, db, `SELECT count(*) FROM drafts WHERE user_id = ?`, user); n != 1 {
				t.Fatalf("drafts after the failed submit: %d, want 1 (no draft without its job)", n)
			}
		})

		t.Run("PostListingUpdate", func(t *testing.T) {
			db, st, _ := newFixtureOn(t, engine)
			owner, fan := mkDraftUser(t, db, "owner@ex.test"), mkDraftUser(t, db, "fan@ex.test")
			setRows(t, db, "listings", cols{"owner_id": owner}, cols{"id": 1})
			putRow(t, db, "follows", cols{"listing_id": 1, "follower_key": domain.FollowerKey(fan), "created_at": 0})
			svc := domain.NewService(st, fxSite, func() time.Time { return fxNow })
			svc.Owner = &domain.Owning{EnqueueAt: domain.NewRunner(NewJobStore(db), domain.RunnerOptions{Now: db.Now}).EnqueueAt}
			cctx := domain.WithCaller(ctx, domain.Caller{UserID: owner, Email: "owner@ex.test"})
			out, err := svc.PostListingUpdate(cctx, domain.PostListingUpdateInput{ListingID: 1, Title: "First", Body: "News."})
			if err != nil || out.FollowersTold != 1 {
				t.Fatalf("PostListingUpdate: %+v %v", out, err)
			}
			if n := countRows(t, db, `SELECT count(*) FROM jobs WHERE kind = ? AND key = ?`, domain.UpdateFanOutJob, itoa(out.ID)); n != 1 {
				t.Fatalf("fan-out jobs: %d", n)
			}
			failJobInserts(t, db)
			if _, err := svc.PostListingUpdate(cctx, domain.PostListingUpdateInput{ListingID: 1, Title: "Second", Body: "More."}); err == nil {
				t.Fatal("PostListingUpdate succeeded without its fan-out job")
			}
			if n := countRows(t, db, `SELECT count(*) FROM listing_updates WHERE listing_id = 1 AND title = 'Second'`); n != 0 {
				t.Fatalf("the update was saved without its fan-out job (a retry would post it twice): %d", n)
			}
		})

		t.Run("JoinFreeQueue", func(t *testing.T) {
			db, st, _ := newFixtureOn(t, engine)
			putRow(t, db, "users", cols{"id": 7, "issuer": "e", "subject": "o", "email": "o@x.test", "created_at": 0})
			setRows(t, db, "listings", cols{"owner_id": 7}, cols{"id": 4})
			check := fxNow.Add(domain.FreeJoinGrace)
			job := domain.JobSpec{Kind: domain.BadgeCheckJob, Key: "4@" + itoa(check.Unix()), RunAt: check}
			failJobInserts(t, db)
			if _, err := st.JoinFreeQueue(ctx, 7, 4, fxNow, check, job); err == nil {
				t.Fatal("JoinFreeQueue succeeded without its badge check job")
			}
			if n := countRows(t, db, `SELECT count(*) FROM listings WHERE id = 4 AND status = 'draft'`) +
				countRows(t, db, `SELECT count(*) FROM free_queue WHERE listing_id = 4`); n != 1 {
				t.Fatal("the listing joined the free queue without its badge check job")
			}
			healJobInserts(t, db)
			if joined, err := st.JoinFreeQueue(ctx, 7, 4, fxNow, check, job); err != nil || !joined {
				t.Fatalf("join: %v %v", joined, err)
			}
			if n := countRows(t, db, `SELECT count(*) FROM free_queue q JOIN jobs j ON j.key = '4@' || q.next_check_at
			WHERE q.listing_id = 4 AND q.next_check_at = ? AND j.kind = ?`, check.Unix(), domain.BadgeCheckJob); n != 1 {
				t.Fatalf("the joined listing's next check has no job: %d", n)
			}
		})

		t.Run("BadgeCheck", func(t *testing.T) {
			db, st, _ := newFixtureOn(t, engine)
			jobs := func(*domain.FreeOutcome) []domain.JobSpec {
				return []domain.JobSpec{{Kind: domain.BadgeCheckJob, Key: "4@1", RunAt: fxNow}}
			}
			failJobInserts(t, db)
			before := countRows(t, db, `SELECT count(*) FROM badge_checks`)
			_, err := st.RecordBadgeCheck(ctx, 4, &domain.BadgeCheck{CheckedAt: fxNow, PageURL: "https://drafty.test/", Found: true,
				Link: "https://launchdir.test/listings/drafty"}, fxNow, jobs)
			if err == nil || !strings.Contains(err.Error(), "injected") {
				t.Fatalf("RecordBadgeCheck: %v, want the injected failure", err)
			}
			if n := countRows(t, db, `SELECT count(*) FROM badge_checks`); n != before {
				t.Fatalf("a badge check was recorded without its jobs")
			}
		})

		t.Run("MarkPaid", func(t *testing.T) {
			f := newOrderFixtureOn(t, engine)
			o := smallOrder(f.ann, "J1", fxNow, "featured", 1)
			draftMust(t, f.st.CreateOrder(ctx, o, tokenHash("j1")))
			failJobInserts(t, f.db)
			ev := domain.PaymentEvent{Provider: "stripe", EventID: "evt_j1", OrderNumber: "J1", AmountCents: 100, Currency: "USD"}
			if _, err := f.st.MarkPaid(ctx, o.ID, ev, fxNow, domain.JobSpec{Kind: domain.FulfilJob, Key: "J1"}); err == nil {
				t.Fatal("MarkPaid succeeded without its fulfilment job")
			}
			if n := countRows(t, f.db, `SELECT count(*) FROM orders WHERE id = ? AND status = 'paid'`, o.ID); n != 0 || paymentEvents(t, f.db) != 0 {
				t.Fatal("the order was paid without its fulfilment job")
			}
		})
	})
}
