package storage

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMigrations_SameNamesOnBothEngines: every SQLite migration has its
// PostgreSQL form under migrations/postgres with the same name, and no more.
func TestMigrations_SameNamesOnBothEngines(t *testing.T) {
	t.Parallel()
	names := func(pattern string) []string {
		files, err := fs.Glob(migrationFS, pattern)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, f := range files {
			out = append(out, filepath.Base(f))
		}
		sort.Strings(out)
		return out
	}
	lite, pg := names("migrations/*.sql"), names("migrations/postgres/*.sql")
	if len(lite) == 0 {
		t.Fatal("no migrations embedded")
	}
	if diff := cmp.Diff(lite, pg); diff != "" {
		t.Fatalf("migrations/ and migrations/postgres/ differ (-sqlite +postgres):\n%s", diff)
	}
}

// schemaShape is what both engines' schemas must agree on: every table with
// its columns in order (name, kind, NOT NULL, primary key), every index made
// by CREATE INDEX and every trigger, by name.
type schemaShape struct {
	Tables   map[string][]string
	Indexes  []string
	Triggers []string
}

// kind maps a declared column type to the one the engines share.
func kind(decl string) string {
	switch strings.ToLower(decl) {
	case "integer", "bigint":
		return "int"
	case "text":
		return "text"
	case "real", "double precision":
		return "real"
	case "blob", "bytea":
		return "blob"
	}
	return "?" + decl
}

func shapeOf(t *testing.T, db *DB) schemaShape {
	t.Helper()
	ctx := context.Background()
	tables, err := db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sh := schemaShape{Tables: map[string][]string{}}
	colQuery := `SELECT name, type, "notnull" = 1, pk > 0 FROM pragma_table_info(?) ORDER BY cid`
	idxQuery := `SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name`
	trgQuery := `SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`
	if db.eng == enginePostgres {
		colQuery = `SELECT c.column_name, c.data_type, c.is_nullable = 'NO',
				EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints tc
					ON tc.constraint_name = k.constraint_name AND tc.table_schema = k.table_schema
					WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema
					AND k.table_name = c.table_name AND k.column_name = c.column_name)
			FROM information_schema.columns c
			WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position`
		idxQuery = `SELECT c.relname FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
			WHERE c.relnamespace = current_schema()::regnamespace
			AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid) ORDER BY c.relname`
		trgQuery = `SELECT DISTINCT trigger_name FROM information_schema.triggers
			WHERE trigger_schema = current_schema() ORDER BY trigger_name`
	}
	for _, tb := range tables {
		rows, err := db.sql.QueryContext(ctx, colQuery, tb)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, typ string
			var notNull, pk bool
			if err := rows.Scan(&name, &typ, &notNull, &pk); err != nil {
				t.Fatal(err)
			}
			c := name + " " + kind(typ)
			if notNull || pk { // SQLite's INTEGER PRIMARY KEY is the rowid: never NULL
				c += " not null"
			}
			if pk {
				c += " pk"
			}
			sh.Tables[tb] = append(sh.Tables[tb], c)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	for _, q := range []struct {
		query string
		out   *[]string
	}{{idxQuery, &sh.Indexes}, {trgQuery, &sh.Triggers}} {
		if err := queryEach(ctx, db.sql, func(r *sql.Rows) error {
			var n string
			err := r.Scan(&n)
			*q.out = append(*q.out, n)
			return err
		}, q.query); err != nil {
			t.Fatal(err)
		}
	}
	return sh
}

// TestMigrations_SameSchemaOnBothEngines migrates a fresh database on each
// engine and compares their tables, columns, indexes and triggers.
func TestMigrations_SameSchemaOnBothEngines(t *testing.T) {
	t.Parallel()
	lite := shapeOf(t, openEngine(t, "sqlite"))
	pg := shapeOf(t, openEngine(t, "postgres"))
	if len(lite.Tables) < 20 || len(lite.Triggers) == 0 || len(lite.Indexes) == 0 {
		t.Fatalf("SQLite schema looks empty: %d tables, %d indexes, %d triggers", len(lite.Tables), len(lite.Indexes), len(lite.Triggers))
	}
	if diff := cmp.Diff(lite, pg); diff != "" {
		t.Fatalf("schemas differ (-sqlite +postgres):\n%s", diff)
	}
}
