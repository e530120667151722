package storage

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
)

// Row is one row of a table with every column read as text: "" for NULL,
// integers in decimal, as SQLite's CAST(... AS TEXT) gives them.
type Row map[string]string

// Rows, InsertRow and UpdateRows read and write rows of any table by column
// name. They are for the test fixtures (storage/fixtures) and for tests that
// look at rows no operation shows, so that no test writes SQL or opens the
// file without the DSN's pragmas. Table and column names are checked against
// the schema; values are always bound.

// Rows returns the rows of table whose columns equal the values of where
// (nil: every row), in rowid order (primary key order for a WITHOUT ROWID
// table, and for every table on PostgreSQL, which has no rowid). A nil value matches NULL.
func (db *DB) Rows(ctx context.Context, table string, where map[string]any) ([]Row, error) {
	cols, err := db.columns(ctx, table)
	if err != nil {
		return nil, err
	}
	cond, args, err := whereClause(cols, where)
	if err != nil {
		return nil, fmt.Errorf("storage: rows of %s: %w", table, err)
	}
	sel := make([]string, len(cols))
	for i, c := range cols {
		sel[i] = `CAST("` + c + `" AS TEXT)`
	}
	order, err := db.rowOrder(ctx, table)
	if err != nil {
		return nil, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+strings.Join(sel, ", ")+` FROM "`+table+`"`+cond+` ORDER BY `+order, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: rows of %s: %w", table, err)
	}
	defer rows.Close()
	var out []Row
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("storage: rows of %s: %w", table, err)
		}
		r := make(Row, len(cols))
		for i, c := range cols {
			r[c] = vals[i].String
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: rows of %s: %w", table, err)
	}
	return out, nil
}

// InsertRow adds one row to table with the given column values and returns
// its rowid. Constraint failures are mapped as every store method maps them.
func (db *DB) InsertRow(ctx context.Context, table string, values map[string]any) (int64, error) {
	cols, err := db.columns(ctx, table)
	if err != nil {
		return 0, err
	}
	names := rowKeys(values)
	if len(names) == 0 {
		return 0, fmt.Errorf("storage: insert into %s: no values", table)
	}
	marks := make([]string, len(names))
	args := make([]any, len(names))
	for i, n := range names {
		if !hasColumn(cols, n) {
			return 0, fmt.Errorf("storage: insert into %s: no column %q", table, n)
		}
		marks[i], args[i] = "?", values[n]
	}
	insert := `INSERT INTO "` + table + `" ("` + strings.Join(names, `", "`) + `") VALUES (` + strings.Join(marks, ", ") + `)`
	if !db.eng.hasRowid() {
		return db.insertRowPG(ctx, table, insert, values, args)
	}
	res, err := db.sql.ExecContext(ctx, insert, args...)
	if err != nil {
		return 0, mapErr(err, table, "")
	}
	return res.LastInsertId()
}

// insertRowPG is InsertRow on PostgreSQL, which has no rowid: it returns
// the table's single-column integer primary key (0 for other tables). A row
// given its id explicitly (the fixtures do) moves the id's sequence past
// it, as SQLite's rowid would, so later inserts get fresh ids.
func (db *DB) insertRowPG(ctx context.Context, table, insert string, values map[string]any, args []any) (int64, error) {
	pk, err := db.primaryKey(ctx, table)
	if err != nil {
		return 0, err
	}
	var seq sql.NullString
	if len(pk) == 1 {
		if err := db.sql.QueryRowContext(ctx, `SELECT pg_get_serial_sequence(?, ?)`, `"`+table+`"`, pk[0]).Scan(&seq); err != nil {
			return 0, fmt.Errorf("storage: insert into %s: %w", table, err)
		}
	}
	if !seq.Valid {
		_, err := db.sql.ExecContext(ctx, insert, args...)
		return 0, mapErr(err, table, "")
	}
	var id int64
	if err := db.sql.QueryRowContext(ctx, insert+` RETURNING "`+pk[0]+`"`, args...).Scan(&id); err != nil {
		return 0, mapErr(err, table, "")
	}
	if _, given := values[pk[0]]; given {
		if _, err := db.sql.ExecContext(ctx, `SELECT setval(?, (SELECT max("`+pk[0]+`") FROM "`+table+`"))`, seq.String); err != nil {
			return 0, fmt.Errorf("storage: insert into %s: %w", table, err)
		}
	}
	return id, nil
}

// primaryKey returns the primary key columns of table, in key order.
func (db *DB) primaryKey(ctx context.Context, table string) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, db.eng.primaryKeyQuery(), table)
	if err != nil {
		return nil, fmt.Errorf("storage: primary key of %s: %w", table, err)
	}
	defer rows.Close()
	var pk []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		pk = append(pk, c)
	}
	return pk, rows.Err()
}

// UpdateRows sets the columns of set on the rows of table matching where
// (as in Rows; nil: every row) and returns how many rows it changed.
func (db *DB) UpdateRows(ctx context.Context, table string, set, where map[string]any) (int64, error) {
	cols, err := db.columns(ctx, table)
	if err != nil {
		return 0, err
	}
	names := rowKeys(set)
	if len(names) == 0 {
		return 0, fmt.Errorf("storage: update %s: nothing to set", table)
	}
	assign := make([]string, len(names))
	var args []any
	for i, n := range names {
		if !hasColumn(cols, n) {
			return 0, fmt.Errorf("storage: update %s: no column %q", table, n)
		}
		assign[i] = `"` + n + `" = ?`
		args = append(args, set[n])
	}
	cond, wargs, err := whereClause(cols, where)
	if err != nil {
		return 0, fmt.Errorf("storage: update %s: %w", table, err)
	}
	res, err := db.sql.ExecContext(ctx, `UPDATE "`+table+`" SET `+strings.Join(assign, ", ")+cond, append(args, wargs...)...)
	if err != nil {
		return 0, mapErr(err, table, "")
	}
	return res.RowsAffected()
}

// columns returns the column names of table, which must be a table of the
// schema.
func (db *DB) columns(ctx context.Context, table string) ([]string, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, db.eng.hasTableQuery(), table).Scan(&n); err != nil {
		return nil, fmt.Errorf("storage: table %s: %w", table, err)
	}
	if n != 1 {
		return nil, fmt.Errorf("storage: no table %q", table)
	}
	rows, err := db.sql.QueryContext(ctx, db.eng.columnsQuery(), table)
	if err != nil {
		return nil, fmt.Errorf("storage: columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("storage: columns of %s: %w", table, err)
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// whereClause builds " WHERE a = ? AND b IS NULL" from where, checking each
// name against cols.
func whereClause(cols []string, where map[string]any) (string, []any, error) {
	names := rowKeys(where)
	if len(names) == 0 {
		return "", nil, nil
	}
	conds := make([]string, len(names))
	var args []any
	for i, n := range names {
		if !hasColumn(cols, n) {
			return "", nil, fmt.Errorf("no column %q", n)
		}
		if where[n] == nil {
			conds[i] = `"` + n + `" IS NULL`
			continue
		}
		conds[i] = `"` + n + `" = ?`
		args = append(args, where[n])
	}
	return " WHERE " + strings.Join(conds, " AND "), args, nil
}

func hasColumn(cols []string, name string) bool {
	for _, c := range cols {
		if c == name {
			return true
		}
	}
	return false
}

func rowKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DeleteRows deletes the rows of table matching where (as in Rows; it must
// name at least one column) and returns how many it deleted.
func (db *DB) DeleteRows(ctx context.Context, table string, where map[string]any) (int64, error) {
	cols, err := db.columns(ctx, table)
	if err != nil {
		return 0, err
	}
	if len(where) == 0 {
		return 0, fmt.Errorf("storage: delete from %s: no condition", table)
	}
	cond, args, err := whereClause(cols, where)
	if err != nil {
		return 0, fmt.Errorf("storage: delete from %s: %w", table, err)
	}
	res, err := db.sql.ExecContext(ctx, `DELETE FROM "`+table+`"`+cond, args...)
	if err != nil {
		return 0, mapErr(err, table, "")
	}
	return res.RowsAffected()
}

// queryer is a *sqlDB or a *Tx.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryEach runs query on q (a database or a transaction) and calls scan on each row.
func queryEach(ctx context.Context, q queryer, scan func(*sql.Rows) error, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// queryIDs runs a query whose rows are one integer each (ids) and returns them in order.
func queryIDs(ctx context.Context, q queryer, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
