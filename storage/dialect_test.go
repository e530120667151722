package storage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBind: SQLite gets queries and arguments as written; PostgreSQL gets
// $N placeholders, bools as 0/1, integers as pgInt (sent as a number or as
// text, whichever the parameter's type is), and only the arguments the
// query uses.
func TestBind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, q, want  string
		args, wantArgs []any
	}{
		{"plain", `SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`, []any{1, "x"}, []any{pgInt(1), "x"}},
		{"numbered reused", `WHERE a = ?1 OR b = ?1 AND c = ?2`, `WHERE a = $1 OR b = $1 AND c = $2`, []any{1, 2}, []any{pgInt(1), pgInt(2)}},
		{"plain after numbered", `WHERE a = ?3 AND b = ?`, `WHERE a = $1 AND b = $2`, []any{1, 2, 3, 4}, []any{pgInt(3), pgInt(4)}},
		{"unused dropped", `WHERE site = ?3 AND week = ?4`, `WHERE site = $1 AND week = $2`, []any{10, 20, 30, 40}, []any{pgInt(30), pgInt(40)}},
		{"quoted ? kept", `SELECT '?', "a?b", x FROM t WHERE y = ? -- why?` + "\n" + `AND z = 'it''s ?'`,
			`SELECT '?', "a?b", x FROM t WHERE y = $1 -- why?` + "\n" + `AND z = 'it''s ?'`, []any{5}, []any{pgInt(5)}},
		{"bools", `VALUES (?, ?)`, `VALUES ($1, $2)`, []any{true, false}, []any{pgInt(1), pgInt(0)}},
		{"int64 and strings", `VALUES (?, ?)`, `VALUES ($1, $2)`, []any{int64(7), "7"}, []any{pgInt(7), "7"}},
		{"no placeholders", `SELECT 1`, `SELECT 1`, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, args := engineSQLite.bind(c.q, c.args)
			if q != c.q || !cmp.Equal(args, c.args) {
				t.Errorf("sqlite: %q %v; want them unchanged", q, args)
			}
			q, args = enginePostgres.bind(c.q, c.args)
			if q != c.want {
				t.Errorf("postgres query:\n got %q\nwant %q", q, c.want)
			}
			if diff := cmp.Diff(c.wantArgs, args); diff != "" {
				t.Errorf("postgres args (-want +got):\n%s", diff)
			}
		})
	}
}
