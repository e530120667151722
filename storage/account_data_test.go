package storage

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestDeleteAccount_OthersRecords: the deleted person's address leaves the
// records of others that named it (an edit's history and its values, the
// audit log), a second deletion is not found, and the account row stays
// only as an anonymous row.
func TestDeleteAccount_OthersRecords(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann := mkDraftUser(t, db, "Ann@Ex.test")
		id, err := st.SaveOwnListing(ctx, ann, 0, fullWrite())
		draftMust(t, err)
		bob := mkDraftUser(t, db, "bob@ex.test")
		_, err = db.InsertRow(ctx, "listing_owners", map[string]any{"listing_id": id, "user_id": bob, "via": "claim", "created_at": 1})
		draftMust(t, err)
		_, err = db.InsertRow(ctx, "listing_versions", map[string]any{"listing_id": id, "version": 1, "kind": "edit", "user_id": ann,
			"by_email": "ann@ex.test", "fields": `["contact_email"]`, "before": `{"contact_email":""}`, "after": `{"contact_email":"Ann@Ex.test"}`,
			"created_at": 1, "reviewed_by": "ann@ex.test"})
		draftMust(t, err)
		_, err = db.InsertRow(ctx, "audit_log", map[string]any{"site_id": 1, "at": 1, "actor": "ann@ex.test", "action": "team.grant",
			"target": "bob@ex.test", "before": "", "after": `{"granted_by":"Ann@Ex.test"}`})
		draftMust(t, err)

		res, err := db.DeleteAccount(ctx, ann)
		draftMust(t, err)
		if res.ListingsDeleted != 0 || res.ListingsHidden != 0 || res.ListingsHandedOver != 1 || res.OrdersKept != 0 {
			t.Errorf("deletion %+v", res)
		}
		// The listing is Bob's now; its history and the audit entry stay without the address.
		if rows, _ := db.Rows(ctx, "listings", map[string]any{"id": id}); len(rows) != 1 || rows[0]["owner_id"] != itoa(bob) {
			t.Errorf("the co-owned listing %v", rows)
		}
		if rows, _ := db.Rows(ctx, "listing_owners", nil); len(rows) != 0 {
			t.Errorf("co-owners left (Bob is the owner now): %v", rows)
		}
		rows, err := db.Rows(ctx, "listing_versions", nil)
		draftMust(t, err)
		if len(rows) != 1 || rows[0]["user_id"] != "" || rows[0]["by_email"] != deletedActor || rows[0]["reviewed_by"] != deletedActor ||
			rows[0]["after"] != `{"contact_email":"`+deletedActor+`"}` {
			t.Errorf("the edit's history %v", rows)
		}
		rows, err = db.Rows(ctx, "audit_log", nil)
		draftMust(t, err)
		if len(rows) != 1 || rows[0]["actor"] != deletedActor || rows[0]["target"] != "bob@ex.test" ||
			rows[0]["after"] != `{"granted_by":"`+deletedActor+`"}` {
			t.Errorf("audit log %v", rows)
		}
		users, err := db.Rows(ctx, "users", map[string]any{"id": ann})
		draftMust(t, err)
		if len(users) != 1 || users[0]["email"] != "" || users[0]["name"] != "" || users[0]["issuer"] != DeletedIssuer ||
			strings.Contains(strings.ToLower(users[0]["subject"]), "ann") {
			t.Errorf("the account row %v", users)
		}
		if _, err := db.DeleteAccount(ctx, ann); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("deleting again: %v", err)
		}
		if _, err := db.ExportAccount(ctx, ann); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("exporting a deleted account: %v", err)
		}
	})
}

// TestExportAccount_SameOnBothEngines: the export of an account with a paid
// order (its lines built as JSON by the database) is the same document on
// SQLite and PostgreSQL (encoding/json compacts the JSON each engine builds).
func TestExportAccount_SameOnBothEngines(t *testing.T) {
	t.Parallel()
	docs := map[string]string{}
	onBothEngines(t, func(t *testing.T, engine string) {
		f := newOrderFixtureOn(t, engine)
		f.paidOrder(t, "E1", "featured", 1)
		x, err := f.db.ExportAccount(context.Background(), f.ann)
		if err != nil {
			t.Fatal(err)
		}
		if len(x.Orders) != 1 {
			t.Fatalf("orders %v, want the paid one", x.Orders)
		}
		raw, _ := x.Orders[0]["lines"].(json.RawMessage)
		var lines []map[string]any
		if err := json.Unmarshal(raw, &lines); err != nil || len(lines) != 1 || lines[0]["product"] != "featured" {
			t.Fatalf("order lines %s (%v), want the one line as JSON", raw, err)
		}
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		docs[engine] = string(b)
	})
	if docs["postgres"] != "" && docs["sqlite"] != docs["postgres"] {
		t.Errorf("exports differ:\nsqlite   %s\npostgres %s", docs["sqlite"], docs["postgres"])
	}
}
