package storage

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// sqlDB is *sql.DB with every query rebound for the engine.
type sqlDB struct {
	*sql.DB
	eng engine
}

func (s *sqlDB) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	q, args = s.eng.bind(q, args)
	return s.DB.ExecContext(ctx, q, args...)
}

func (s *sqlDB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	q, args = s.eng.bind(q, args)
	return s.DB.QueryContext(ctx, q, args...)
}

func (s *sqlDB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	q, args = s.eng.bind(q, args)
	return s.DB.QueryRowContext(ctx, q, args...)
}

func (s *sqlDB) Exec(q string, args ...any) (sql.Result, error) {
	return s.ExecContext(context.Background(), q, args...)
}

func (s *sqlDB) Query(q string, args ...any) (*sql.Rows, error) {
	return s.QueryContext(context.Background(), q, args...)
}

func (s *sqlDB) QueryRow(q string, args ...any) *sql.Row {
	return s.QueryRowContext(context.Background(), q, args...)
}

// BeginTx starts a transaction: SQLite's is BEGIN IMMEDIATE (the DSN's
// _txlock); PostgreSQL's is SERIALIZABLE unless opts asks otherwise, and a
// read-only one is REPEATABLE READ (one snapshot for all its reads, never a
// serialization failure), unless opts names a level.
func (s *sqlDB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) {
	if s.eng == enginePostgres {
		switch {
		case opts == nil:
			opts = &sql.TxOptions{Isolation: sql.LevelSerializable}
		case opts.ReadOnly && opts.Isolation == sql.LevelDefault:
			opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
		}
	}
	tx, err := s.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: tx, eng: s.eng}, nil
}

// Tx is *Tx with every query rebound for the engine.
type Tx struct {
	*sql.Tx
	eng engine
}

func (t *Tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	q, args = t.eng.bind(q, args)
	return t.Tx.ExecContext(ctx, q, args...)
}

func (t *Tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	q, args = t.eng.bind(q, args)
	return t.Tx.QueryContext(ctx, q, args...)
}

func (t *Tx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	q, args = t.eng.bind(q, args)
	return t.Tx.QueryRowContext(ctx, q, args...)
}

// ExecScript runs q, several statements separated by semicolons, in one
// round trip (the demo seed's batches). On PostgreSQL it is sent with the
// simple protocol, the only one that takes several statements in one
// message; its arguments are quoted into it by pgx, safely.
func (t *Tx) ExecScript(ctx context.Context, q string, args ...any) (sql.Result, error) {
	q, args = t.eng.bind(q, args)
	if t.eng == enginePostgres {
		args = append([]any{pgx.QueryExecModeSimpleProtocol}, args...)
	}
	return t.Tx.ExecContext(ctx, q, args...)
}

func (t *Tx) Exec(q string, args ...any) (sql.Result, error) {
	return t.ExecContext(context.Background(), q, args...)
}

func (t *Tx) Query(q string, args ...any) (*sql.Rows, error) {
	return t.QueryContext(context.Background(), q, args...)
}

func (t *Tx) QueryRow(q string, args ...any) *sql.Row {
	return t.QueryRowContext(context.Background(), q, args...)
}

// PrepareContext prepares q on SQLite. On PostgreSQL the statement is
// bound and sent with each call like any other query, which pgx's
// statement cache prepares once per connection (openPostgres).
func (t *Tx) PrepareContext(ctx context.Context, q string) (*Stmt, error) {
	if t.eng == enginePostgres {
		return &Stmt{tx: t, q: q}, nil
	}
	st, err := t.Tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return &Stmt{st: st}, nil
}

// Stmt is a statement prepared in a transaction (see Tx.PrepareContext).
type Stmt struct {
	st *sql.Stmt // SQLite
	tx *Tx       // PostgreSQL: q runs on tx
	q  string
}

func (s *Stmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	if s.tx != nil {
		return s.tx.ExecContext(ctx, s.q, args...)
	}
	return s.st.ExecContext(ctx, args...)
}

func (s *Stmt) QueryRowContext(ctx context.Context, args ...any) *sql.Row {
	if s.tx != nil {
		return s.tx.QueryRowContext(ctx, s.q, args...)
	}
	return s.st.QueryRowContext(ctx, args...)
}

func (s *Stmt) QueryContext(ctx context.Context, args ...any) (*sql.Rows, error) {
	if s.tx != nil {
		return s.tx.QueryContext(ctx, s.q, args...)
	}
	return s.st.QueryContext(ctx, args...)
}

// Close closes the statement.
func (s *Stmt) Close() error {
	if s.st != nil {
		return s.st.Close()
	}
	return nil
}

// maxTxAttempts bounds DB.inTx's retries of a transaction that lost a
// serialization conflict. Transactions on one hot row (the votes of one
// listing all update its votes_count) commit one at a time, so the last of
// n concurrent ones may lose n-1 times: 20 attempts (about 1 s of backoff)
// ran out for 20 concurrent votes on a loaded machine (TestStore_VotesConcurrent);
// 60 give about 6 s.
const maxTxAttempts = 60

// inTx runs fn in a transaction and commits it. On PostgreSQL a
// transaction that fails with a serialization failure or deadlock, in fn or
// at commit, is rolled back and run again (fn must only touch the database
// through tx, so running it again is safe). SQLite runs it once.
func (db *DB) inTx(ctx context.Context, fn func(tx *Tx) error) error {
	for attempt := 1; ; attempt++ {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		err = fn(tx)
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		if err == nil || !isRetryable(err) || attempt >= maxTxAttempts {
			return err
		}
		if err := backoff(ctx, attempt); err != nil {
			return err
		}
	}
}

// backoff waits a random time before attempt+1 of a transaction, growing
// with attempt (up to about 100ms), so that racing transactions spread out
// rather than meet again.
func backoff(ctx context.Context, attempt int) error {
	d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 7)))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
