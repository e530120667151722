// Package storage keeps launchdir's data in SQLite (mattn/go-sqlite3) or
// PostgreSQL (jackc/pgx through database/sql) and implements domain.Store
// over it. It is the only package that imports database/sql and the drivers;
// driver errors are turned into domain codes here. What differs between the
// two engines is stated in dialect.go.
package storage

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/launchdir/launchdir/domain"
	"github.com/mattn/go-sqlite3"
)

// migrationFS holds SQLite's migrations in migrations/ and PostgreSQL's, with
// the same schema, in migrations/postgres/.
//
//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// DB is an open launchdir database. Every store built from it stamps times
// (created_at, updated_at, run_at, ...) with its clock, so that a test that
// moves the service's clock moves the stores' too.
type DB struct {
	// closed is set by Close: the pending idempotency claims of its stores
	// are then known to be abandoned (idemowner.go).
	closed atomic.Bool
	sql    *sqlDB
	path   string // the SQLite file, or the PostgreSQL URL
	eng    engine
	now    func() time.Time
	log    *slog.Logger // what the stores built from it log (the search snapshot)
	// maxConns bounds the open PostgreSQL connections of this process (0:
	// no bound); WithMaxConns.
	maxConns int
}

// DefaultMaxConns is the default bound of one process's PostgreSQL
// connections (--db-max-conns): docs/scaling.md's arithmetic for three
// processes on a server allowing 100 connections (PostgreSQL's default
// max_connections and that of small managed plans), 3 of them reserved for
// superusers and 5 kept spare for migrate, admin and a person's psql:
// (100 - 3 - 5) / 3 = 30.
const DefaultMaxConns = 30

// WithMaxConns bounds the open connections to PostgreSQL at n (n <= 0: no
// bound). A call that finds all n busy waits for one until its context's
// deadline (database/sql's pool); then it fails with the context's error,
// which the HTTP surfaces answer as 503 with Retry-After. SQLite ignores it.
func WithMaxConns(n int) Option {
	return func(db *DB) { db.maxConns = max(n, 0) }
}

// Option configures Open.
type Option func(*DB)

// WithLogger makes l the logger of the stores built from the database (the
// search snapshot's lines); without it they log to slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(db *DB) {
		if l != nil {
			db.log = l
		}
	}
}

// logger is the stores' logger.
func (db *DB) logger() *slog.Logger {
	if db.log == nil {
		return slog.Default()
	}
	return db.log
}

// WithClock makes now the clock of the database and of every store built
// from it. It is required: Open refuses a database without a clock. main
// reads time.Now once and hands it here (through internal/app), tests hand a
// testclock.Clock's Now or name the wall clock.
func WithClock(now func() time.Time) Option {
	return func(db *DB) {
		if now != nil {
			db.now = now
		}
	}
}

// Now is the database's clock, in UTC.
func (db *DB) Now() time.Time { return db.now().UTC() }

// sqliteIdleConns is how many idle SQLite connections the pool keeps: as
// many as the concurrent requests a busy process serves at once.
const sqliteIdleConns = 32

// postgresIdleConns is the same for PostgreSQL, where a new connection is
// a forked backend (and, on a managed database, a TLS and SCRAM handshake).
const postgresIdleConns = 32

// dsn carries the pragmas so that every pooled connection gets them.
func dsn(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_foreign_keys=on&_journal_mode=WAL&_busy_timeout=5000&_txlock=immediate"
}

// IsPostgresURL reports whether dsn names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens a database and applies the embedded migrations that are not
// applied yet: a PostgreSQL database when path is a postgres:// URL, else the
// SQLite file at path (created if needed, with its parent directory).
func Open(path string, opts ...Option) (*DB, error) {
	db := &DB{}
	for _, o := range opts {
		o(db)
	}
	if db.now == nil {
		return nil, errors.New("storage: open: no clock (WithClock is required)")
	}
	if IsPostgresURL(path) {
		return openPostgres(db, path)
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("storage: open: want a file path, got %q", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("storage: open: %w", err)
	}
	sdb, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("storage: open: %w", err)
	}
	// Keep a burst's connections for the next one: opening a SQLite
	// connection runs the dsn's pragmas and closing it drops its page cache,
	// and database/sql keeps only 2 idle by default (a fifth of a search
	// call's CPU went to opening and closing). Idle ones close after a
	// while, so a quiet server holds few.
	sdb.SetMaxIdleConns(sqliteIdleConns)
	sdb.SetConnMaxIdleTime(5 * time.Minute)
	db.sql, db.path, db.eng = &sqlDB{DB: sdb, eng: engineSQLite}, path, engineSQLite
	if err := db.migrate(context.Background()); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// openPostgres opens the PostgreSQL database at url through pgx's
// database/sql driver into db (its options applied).
func openPostgres(db *DB, url string) (*DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("storage: open: %w", err)
	}
	// Each statement is prepared once per connection and kept in pgx's
	// statement cache (512 per connection by default), so PostgreSQL
	// parses and plans a query text once per connection rather than on
	// every call, as it did with the simple protocol (docs/scaling.md).
	// That is pgx's default mode; a URL may choose another with pgx's
	// default_query_exec_mode (exec behind a PgBouncer that does not track
	// prepared statements). Placeholders and arguments: dialect.go.
	if !strings.Contains(url, "default_query_exec_mode=") {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	}
	// A prepared statement gets one generic plan per connection
	// (plan_cache_mode, sent as a startup parameter), where PostgreSQL's
	// default plans its first five executions with their values before it
	// may keep a generic plan: with a pool of 16-35 backends most executions
	// of a write were planned again (docs/scaling.md, "Generic plans", which
	// compares the plans of every statement BenchmarkProcesses runs in both
	// modes). A URL's own plan_cache_mode is kept.
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		cfg.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	// A connection the server refuses for now (too many clients) is the
	// unavailable error, answered 503 with Retry-After (pgconnect.go).
	sdb := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	// As on SQLite, a burst's connections stay for the next burst: with
	// database/sql's default of 2 idle, 16 calls in flight closed a
	// connection after almost every use and PostgreSQL forked a new backend
	// for the next (0.2-0.7 new connections a call, most of PostgreSQL's
	// CPU per call in BenchmarkProcesses; docs/scaling.md). The open
	// connections are bounded by WithMaxConns (--db-max-conns), so that N
	// processes stay under the server's max_connections: docs/scaling.md
	// has the arithmetic.
	sdb.SetConnMaxIdleTime(5 * time.Minute)
	db.sql, db.path, db.eng = &sqlDB{DB: sdb, eng: enginePostgres}, url, enginePostgres
	idle := postgresIdleConns
	if db.maxConns > 0 {
		sdb.SetMaxOpenConns(db.maxConns)
		idle = min(idle, db.maxConns)
	}
	sdb.SetMaxIdleConns(idle)
	if err := db.migrate(context.Background()); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// Engine is "sqlite" or "postgres".
func (db *DB) Engine() string { return db.eng.String() }

// Close closes the database.
func (db *DB) Close() error {
	db.closed.Store(true)
	return db.sql.Close()
}

// migrate applies, in name order, every embedded migration not yet recorded in
// schema_migrations, each in its own transaction.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at `+db.intType()+` NOT NULL)`); err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	names, err := fs.Glob(migrationFS, db.eng.migrationGlob())
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	sort.Strings(names)
	before, err := db.migrationsApplied(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		base := filepath.Base(name)
		if err := db.applyMigration(ctx, base, name); err != nil {
			return fmt.Errorf("storage: migrate %s: %w", base, err)
		}
	}
	// A migration may change listings without search_log: the search
	// snapshot written before it is not loaded (snapshot.go; SQLite only).
	if after, err := db.migrationsApplied(ctx); err != nil || after == before || !db.eng.fileBacked() {
		return err
	}
	return db.forgetSnapshot(ctx)
}

// migrationsApplied is the number of migrations recorded as applied.
func (db *DB) migrationsApplied(ctx context.Context) (int, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: migrate: %w", err)
	}
	return n, nil
}

func (db *DB) applyMigration(ctx context.Context, base, name string) error {
	if db.eng.concurrentMigrations() {
		// Serving processes starting together each try to migrate. The
		// migration's row is inserted first, as a lease: the first process
		// inserts it and applies the body in the same transaction; the
		// others wait on its key until that commits, then insert nothing
		// and skip the body. (No advisory locks, no LOCK TABLE.)
		return db.inTx(ctx, func(tx *Tx) error {
			res, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, base, db.Now().Unix())
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return err
			}
			body, err := migrationFS.ReadFile(name)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, string(body))
			return err
		})
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := db.applyMigrationTx(ctx, tx, base, name); err != nil {
		return err
	}
	return tx.Commit()
}

func (db *DB) applyMigrationTx(ctx context.Context, tx *Tx, base, name string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = ?`, base).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := migrationFS.ReadFile(name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, base, db.Now().Unix()); err != nil {
		return err
	}
	return nil
}

// intType is the column type of a 64-bit integer.
func (db *DB) intType() string { return db.eng.intType() }

// mapErr turns driver errors into domain codes at the edge: no rows becomes
// not_found, a unique or primary key violation becomes conflict; anything
// else is wrapped as an internal error (not a *domain.Error).
func mapErr(err error, kind, key string) error {
	if err == nil {
		return nil
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return domain.NotFound(kind, key)
	}
	var se sqlite3.Error
	if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey) || isPGUniqueViolation(err) {
		return domain.Errorf(domain.EConflict, "This %s already exists.", kind)
	}
	var already *storeError
	if errors.As(err, &already) { // mapped inside a transaction, then again around it
		return err
	}
	return &storeError{what: strings.TrimSpace(kind + " " + key), err: err}
}

// storeError is an internal error mapErr wrapped once, with what it was
// about ("storage: listing notely: ...").
type storeError struct {
	what string
	err  error
}

func (e *storeError) Error() string { return "storage: " + e.what + ": " + e.err.Error() }
func (e *storeError) Unwrap() error { return e.err }

// ensureSite returns the id of the site row for site.Key, creating it or
// refreshing its name and purpose.
func ensureSite(ctx context.Context, db *DB, site domain.Site) (int64, error) {
	if site.Key == "" {
		return 0, fmt.Errorf("storage: site key is empty")
	}
	settings, err := json.Marshal(domain.FreeSettings{WeeksMin: site.FreeWeeksMin, WeeksMax: site.FreeWeeksMax,
		WeekCapacity: site.FreeWeekCapacity, CheckHours: site.BadgeCheckHours}.Norm())
	if err != nil {
		return 0, err
	}
	var id int64
	err = db.sql.QueryRowContext(ctx, `INSERT INTO sites (key, name, purpose, settings, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET name = excluded.name, purpose = excluded.purpose RETURNING id`,
		site.Key, site.Name, site.Purpose, string(settings), db.Now().Unix()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("storage: ensure site %s: %w", site.Key, err)
	}
	return id, nil
}

// unixTime converts a nullable Unix-seconds column to a UTC time pointer.
func unixTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.Unix(v.Int64, 0).UTC()
	return &t
}

// likePattern makes a LIKE pattern matching s anywhere, with % and _ escaped by \.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// placeholders returns "?, ?, ?" for n parameters.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// dollars formats cents as "$1,234.00".
func dollars(cents int64) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	whole := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	s := fmt.Sprintf("$%s.%02d", b.String(), cents%100)
	if neg {
		return "-" + s
	}
	return s
}
