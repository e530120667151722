package storage

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// failWrites makes every later write of table that matches when (an SQL
// condition on NEW) fail, as a full disk or a lost connection would between
// two statements: the failure is injected into the real database, under the
// store.
func failWrites(t *testing.T, db *DB, op, table, when string) {
	t.Helper()
	if db.eng == enginePostgres {
		injectFault(t, db, `CREATE FUNCTION fail_write_fn() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'injected write failure'; END $$;
			CREATE TRIGGER fail_write BEFORE `+op+` ON `+table+` FOR EACH ROW WHEN (`+when+`) EXECUTE FUNCTION fail_write_fn()`)
		return
	}
	injectFault(t, db, `CREATE TRIGGER fail_write BEFORE `+op+` ON `+table+` FOR EACH ROW WHEN `+when+`
		BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`)
}

// TestService_DraftAndListingOneWrite: update_draft and submit_draft write
// the draft and its listing in one transaction. With the listing's (or the draft's) write failing, neither is
// stored: the draft keeps its version and value, and no listing is made or
// changed.
func TestService_DraftAndListingOneWrite(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		setup := func(t *testing.T) (*DB, *domain.Service, context.Context, string) {
			db, st, _ := newFixtureOn(t, engine)
			user := mkDraftUser(t, db, "owner@ex.test")
			svc := domain.NewService(st, fxSite, func() time.Time { return fxNow })
			svc.Drafts = &domain.Drafting{Store: st}
			rec := &domain.DraftRecord{UserID: user, URL: "https://onewrite.test/", Status: domain.DraftReady,
				Doc: domain.DraftDoc{Fields: map[string]*domain.DraftField{
					"name":    {Value: "One Write", State: domain.StateManual},
					"tagline": {Value: "Both or neither", State: domain.StateManual},
				}}}
			draftMust(t, st.CreateDraft(ctx, rec))
			return db, svc, domain.WithCaller(ctx, domain.Caller{UserID: user, Email: "owner@ex.test"}), rec.ID
		}
		draftRow := func(t *testing.T, db *DB, id string) (version int, doc string) {
			t.Helper()
			draftMust(t, db.sql.QueryRow(`SELECT version, doc FROM drafts WHERE id = ?`, id).Scan(&version, &doc))
			return version, doc
		}
		tagline := func(t *testing.T, doc string) string {
			t.Helper()
			var d domain.DraftDoc
			draftMust(t, json.Unmarshal([]byte(doc), &d))
			v, _ := d.Fields["tagline"].Value.(string)
			return v
		}

		t.Run("SubmitDraft", func(t *testing.T) {
			db, svc, cctx, id := setup(t)
			before, _ := draftRow(t, db, id)
			failWrites(t, db, "UPDATE", "drafts", "NEW.listing_id IS NOT NULL")
			if _, err := svc.SubmitDraft(cctx, domain.DraftIDInput{ID: id}); err == nil {
				t.Fatal("SubmitDraft succeeded with the draft's write failing")
			}
			if n := countRows(t, db, `SELECT count(*) FROM listings WHERE url = 'https://onewrite.test/'`); n != 0 {
				t.Errorf("listings made by the failed submit: %d, want 0 (a listing the draft does not know of)", n)
			}
			if v, _ := draftRow(t, db, id); v != before {
				t.Errorf("draft version %d, want %d", v, before)
			}
		})

		t.Run("UpdateDraft", func(t *testing.T) {
			db, svc, cctx, id := setup(t)
			out, err := svc.SubmitDraft(cctx, domain.DraftIDInput{ID: id})
			if err != nil {
				t.Fatal(err)
			}
			before, doc := draftRow(t, db, id)
			failWrites(t, db, "UPDATE", "listings", "NEW.tagline = 'Changed'")
			var in domain.UpdateDraftInput
			draftMust(t, json.Unmarshal([]byte(`{"fields":{"tagline":"Changed"}}`), &in))
			in.ID = id
			if _, err := svc.UpdateDraft(cctx, in); err == nil {
				t.Fatal("UpdateDraft succeeded with the listing's write failing")
			}
			if v, d := draftRow(t, db, id); v != before || tagline(t, d) != tagline(t, doc) {
				t.Errorf("draft after the failed update: version %d tagline %q, want %d %q (the draft ahead of its listing)",
					v, tagline(t, d), before, tagline(t, doc))
			}
			if n := countRows(t, db, `SELECT count(*) FROM listings WHERE id = ? AND tagline = 'Both or neither'`, out.ListingID); n != 1 {
				t.Errorf("listing %d lost its tagline", out.ListingID)
			}
		})

		t.Run("UpdateDraftOK", func(t *testing.T) {
			db, svc, cctx, id := setup(t)
			out, err := svc.SubmitDraft(cctx, domain.DraftIDInput{ID: id})
			if err != nil {
				t.Fatal(err)
			}
			before, _ := draftRow(t, db, id)
			var in domain.UpdateDraftInput
			draftMust(t, json.Unmarshal([]byte(`{"fields":{"tagline":"Changed"}}`), &in))
			in.ID = id
			if _, err := svc.UpdateDraft(cctx, in); err != nil {
				t.Fatal(err)
			}
			if v, d := draftRow(t, db, id); v != before+1 || tagline(t, d) != "Changed" {
				t.Errorf("draft: version %d tagline %q, want %d Changed", v, tagline(t, d), before+1)
			}
			if n := countRows(t, db, `SELECT count(*) FROM listings WHERE id = ? AND tagline = 'Changed'`, out.ListingID); n != 1 {
				t.Errorf("listing %s did not follow the draft", strconv.FormatInt(out.ListingID, 10))
			}
		})
	})
}
