package storage

import (
	"context"
	"encoding/json"
	"testing"
)

// cols are column values for the row helpers below.
type cols = map[string]any

// putRow inserts a row through InsertRow (the DSN's connection, foreign keys
// on) and returns its id: test data the API under test cannot make.
func putRow(t *testing.T, db *DB, table string, values cols) int64 {
	t.Helper()
	id, err := db.InsertRow(context.Background(), table, values)
	if err != nil {
		t.Fatalf("insert into %s %v: %v", table, values, err)
	}
	return id
}

// setRows updates the rows of table matching where through UpdateRows.
func setRows(t *testing.T, db *DB, table string, set, where cols) {
	t.Helper()
	if _, err := db.UpdateRows(context.Background(), table, set, where); err != nil {
		t.Fatalf("update %s %v where %v: %v", table, set, where, err)
	}
}

// delRows deletes the rows of table matching where through DeleteRows.
func delRows(t *testing.T, db *DB, table string, where cols) {
	t.Helper()
	if _, err := db.DeleteRows(context.Background(), table, where); err != nil {
		t.Fatalf("delete from %s where %v: %v", table, where, err)
	}
}

// mergeSettings sets keys of every site's settings JSON, keeping the others.
func mergeSettings(t *testing.T, db *DB, kv cols) {
	t.Helper()
	rows, err := db.Rows(context.Background(), "sites", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		s := map[string]any{}
		if err := json.Unmarshal([]byte(r["settings"]), &s); err != nil {
			t.Fatalf("settings of site %s: %v", r["id"], err)
		}
		for k, v := range kv {
			s[k] = v
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		setRows(t, db, "sites", cols{"settings": string(b)}, cols{"id": r["id"]})
	}
}
