package storage

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// race runs fns at the same moment and returns their errors in order.
func race(fns ...func() error) []error {
	errs := make([]error, len(fns))
	var start, done sync.WaitGroup
	start.Add(1)
	for i, fn := range fns {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			errs[i] = fn()
		}()
	}
	start.Done()
	done.Wait()
	return errs
}

// TestStore_ConcurrentCategoryMerges: two members of the site team merge
// categories A into B and B into A at the same moment. One merge wins and
// the other finds its category gone (not found), on both engines: on
// PostgreSQL the loser's SERIALIZABLE transaction fails to serialize and is
// run again (DB.inTx) rather than reaching the team as an internal error.
// The survivor holds the union of the listings and the lost slug redirects
// to it; one merge is in the audit log.
func TestStore_ConcurrentCategoryMerges(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for round := range 4 {
			ids := map[string]int64{}
			for _, name := range []string{"a", "b"} {
				slug := fmt.Sprintf("%s-%d", name, round)
				id, err := st.CreateCategory(ctx, console.AdminCategory{Slug: slug, Name: slug, Position: 9}, opsEntry("category.create"))
				if err != nil {
					t.Fatal(err)
				}
				ids[slug] = id
			}
			a, b := ids[fmt.Sprintf("a-%d", round)], ids[fmt.Sprintf("b-%d", round)]
			for _, l := range []struct{ listing, category int64 }{{1, a}, {2, a}, {2, b}, {3, b}} {
				if _, err := db.InsertRow(ctx, "listing_categories", map[string]any{"listing_id": l.listing, "category_id": l.category, "is_primary": 0}); err != nil {
					t.Fatal(err)
				}
			}
			errs := race(
				func() error { _, err := st.MergeCategory(ctx, a, b, opsEntry("category.merge")); return err },
				func() error { _, err := st.MergeCategory(ctx, b, a, opsEntry("category.merge")); return err },
			)
			var survivor, lost int64
			switch {
			case errs[0] == nil && domain.ErrorCode(errs[1]) == domain.ENotFound:
				survivor, lost = b, a
			case errs[1] == nil && domain.ErrorCode(errs[0]) == domain.ENotFound:
				survivor, lost = a, b
			default:
				t.Fatalf("round %d: merges A into B and B into A at once: %v and %v; want one success and one not found", round, errs[0], errs[1])
			}
			var listings []int64
			for _, r := range consoleRows(t, db, "listing_categories", cols{"category_id": survivor}) {
				listings = append(listings, mustInt(t, r["listing_id"]))
			}
			sort.Slice(listings, func(i, j int) bool { return listings[i] < listings[j] })
			if fmt.Sprint(listings) != "[1 2 3]" {
				t.Errorf("round %d: the surviving category holds listings %v, want [1 2 3]", round, listings)
			}
			if n := len(consoleRows(t, db, "categories", cols{"id": lost})); n != 0 {
				t.Errorf("round %d: the merged category is still there", round)
			}
			c, err := st.AdminCategory(ctx, survivor)
			if err != nil {
				t.Fatal(err)
			}
			lostSlug := fmt.Sprintf("a-%d", round)
			if lost == b {
				lostSlug = fmt.Sprintf("b-%d", round)
			}
			if to, err := st.CategoryRedirect(ctx, lostSlug); err != nil || to != survivor {
				t.Errorf("round %d: %s redirects to %d (%v), want %d; redirects of the survivor %v", round, lostSlug, to, err, survivor, c.Redirects)
			}
		}
		if n := len(consoleRows(t, db, "audit_log", cols{"action": "category.merge"})); n != 4 {
			t.Errorf("%d category.merge audit entries after 4 rounds, want 4", n)
		}
	})
}

// TestStore_ConcurrentRatingImportConfirm: the same pending import is
// confirmed twice at the same moment (two tabs, or a double submit). One
// confirmation stores the readings and the other is refused as decided
// already (conflict), on both engines; the readings are stored once and
// one rating.import entry is in the audit log.
func TestStore_ConcurrentRatingImportConfirm(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for round := range 4 {
			date := fmt.Sprintf("2025-03-%02d", round+1) // no reading stored on these days yet
			id, err := st.CreateRatingImport(ctx, &console.RatingImport{FileName: "dr.csv", Source: "ahrefs", Actor: "ops@example.com",
				Status: console.ImportPending, Accepted: 2, Refused: 1, CreatedAt: fxNow, Rows: []console.RatingRow{
					{Line: 2, Domain: "notely.test", Date: date, Value: 40},
					{Line: 3, Domain: "jotter.test", Date: date, Value: 55},
					{Line: 4, Reason: "the rating is not a number", Raw: "x,y"},
				}})
			if err != nil {
				t.Fatal(err)
			}
			audit := func(imp console.RatingImport) *console.AuditEntry {
				return &console.AuditEntry{At: fxNow, Actor: "ops@example.com", Action: "rating.import", Target: fmt.Sprintf("import #%d", imp.ID)}
			}
			var got [2]*console.RatingImport
			errs := race(
				func() (err error) {
					got[0], err = st.DecideRatingImport(ctx, id, console.ImportConfirmed, "ops@example.com", fxNow, audit)
					return err
				},
				func() (err error) {
					got[1], err = st.DecideRatingImport(ctx, id, console.ImportConfirmed, "mod@example.com", fxNow, audit)
					return err
				},
			)
			win := 0
			switch {
			case errs[0] == nil && domain.ErrorCode(errs[1]) == domain.EConflict:
			case errs[1] == nil && domain.ErrorCode(errs[0]) == domain.EConflict:
				win = 1
			default:
				t.Fatalf("round %d: two confirmations at once: %v and %v; want one success and one conflict", round, errs[0], errs[1])
			}
			if imp := got[win]; imp.Status != console.ImportConfirmed || imp.Added != 2 || imp.Updated != 0 || imp.Unchanged != 0 {
				t.Errorf("round %d: the winning confirmation: %+v, want 2 added", round, imp)
			}
			if n := len(consoleRows(t, db, "domain_ratings", cols{"date": date, "source": "ahrefs"})); n != 2 {
				t.Errorf("round %d: %d readings stored for %s, want 2", round, n, date)
			}
		}
		if n := len(consoleRows(t, db, "audit_log", cols{"action": "rating.import"})); n != 4 {
			t.Errorf("%d rating.import audit entries after 4 double confirmations, want 4", n)
		}
	})
}

// consoleRows reads the rows of table matching where.
func consoleRows(t *testing.T, db *DB, table string, where cols) []Row {
	t.Helper()
	rows, err := db.Rows(context.Background(), table, where)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestStore_ConcurrentCategoryMoves: two members of the team move category A
// under B and B under A at the same moment. Each move passed the domain's
// tree check on the tree it read before; the store checks the tree again
// in its transaction, so one move is stored and the other is refused as
// invalid (no_cycle) with nothing changed, on both engines: the tree has
// no cycle and one category.move is in the audit log per round.
func TestStore_ConcurrentCategoryMoves(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for round := range 4 {
			var a, b *console.AdminCategory
			for _, p := range []**console.AdminCategory{&a, &b} {
				slug := fmt.Sprintf("move-%d-%p", round, p)
				id, err := st.CreateCategory(ctx, console.AdminCategory{Slug: slug, Name: slug, Position: 9}, opsEntry("category.create"))
				if err != nil {
					t.Fatal(err)
				}
				if *p, err = st.AdminCategory(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			aUnderB, bUnderA := *a, *b
			aUnderB.ParentID, bUnderA.ParentID = b.ID, a.ID
			errs := race(
				func() error { return st.SaveCategory(ctx, aUnderB, console.CategoryPlace, opsEntry("category.move")) },
				func() error { return st.SaveCategory(ctx, bUnderA, console.CategoryPlace, opsEntry("category.move")) },
			)
			ok, refused := 0, 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case domain.ErrorCode(err) == domain.EInvalid:
					refused++
					if e := (*domain.Error)(nil); !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != "parent" || e.Fields[0].Rule != "no_cycle" {
						t.Errorf("round %d: refused with %v, want field parent, rule no_cycle", round, err)
					}
				default:
					t.Errorf("round %d: a move failed with %v", round, err)
				}
			}
			if ok != 1 || refused != 1 {
				t.Fatalf("round %d: moves A under B and B under A at once: %v and %v; want one stored and one refused", round, errs[0], errs[1])
			}
			pa, pb := categoryParent(t, db, a.ID), categoryParent(t, db, b.ID)
			if (pa == b.ID) == (pb == a.ID) {
				t.Errorf("round %d: parents after the moves: A under %d, B under %d (A is %d, B is %d); want exactly one under the other", round, pa, pb, a.ID, b.ID)
			}
		}
		if n := len(consoleRows(t, db, "audit_log", cols{"action": "category.move"})); n != 4 {
			t.Errorf("%d category.move audit entries after 4 rounds, want 4", n)
		}
	})
}

// TestStore_ConcurrentCategoryEdits: one member renames a category while
// another moves it and a third describes it, each from the copy they read
// before. All three changes are kept, on both engines: each action writes
// only its own columns.
func TestStore_ConcurrentCategoryEdits(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		_, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		for round := range 4 {
			slug := fmt.Sprintf("edit-%d", round)
			id, err := st.CreateCategory(ctx, console.AdminCategory{Slug: slug, Name: slug, Position: 9}, opsEntry("category.create"))
			if err != nil {
				t.Fatal(err)
			}
			read, err := st.AdminCategory(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			renamed, moved, described := *read, *read, *read
			renamed.Slug, renamed.Name = slug+"-new", "Renamed"
			moved.Position = 42
			described.Description, described.FAQs = "Described.", []domain.FAQ{{Question: "Q?", Answer: "A."}}
			for i, err := range race(
				func() error {
					return st.SaveCategory(ctx, renamed, console.CategoryNaming, opsEntry("category.rename"))
				},
				func() error { return st.SaveCategory(ctx, moved, console.CategoryPlace, opsEntry("category.move")) },
				func() error {
					return st.SaveCategory(ctx, described, console.CategoryText, opsEntry("category.describe"))
				},
			) {
				if err != nil {
					t.Fatalf("round %d: edit %d: %v", round, i, err)
				}
			}
			got, err := st.AdminCategory(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Slug != slug+"-new" || got.Name != "Renamed" || got.Position != 42 || got.Description != "Described." || len(got.FAQs) != 1 {
				t.Errorf("round %d: after a rename, a move and a description at once: slug %q name %q position %d description %q FAQs %v; want all three kept",
					round, got.Slug, got.Name, got.Position, got.Description, got.FAQs)
			}
		}
	})
}

func categoryParent(t *testing.T, db *DB, id int64) int64 {
	t.Helper()
	var p int64
	if err := db.sql.QueryRowContext(context.Background(), `SELECT COALESCE(parent_id, 0) FROM categories WHERE id = ?`, id).Scan(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// opsEntry is the audit entry of action by a member of the site team.
func opsEntry(action string) console.AuditEntry {
	return console.AuditEntry{At: fxNow, Actor: "ops@example.com", Action: action}
}
