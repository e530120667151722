//go:build e2e

package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/storage/pgtest"
)

// TestPostgres_StatementsPrepared: on PostgreSQL a store method's
// statements are prepared on the connection once and reused by the next
// call (pgx's statement cache, openPostgres), instead of being sent as text
// and parsed and planned again on every call (the simple protocol, which
// left pg_prepared_statements empty). One connection, so the session that
// ran the method is the one asked.
func TestPostgres_StatementsPrepared(t *testing.T) {
	t.Parallel() // owns its database copy
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	db := openEngine(t, "postgres", WithMaxConns(1))
	ctx := context.Background()
	// The account export: the user's row ("WHERE id = ? AND issuer != ?")
	// and, since there is none, not_found.
	for range 3 {
		if _, err := db.ExportAccount(ctx, 42); err == nil {
			t.Fatal("export of a missing account: no error")
		}
	}
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM pg_prepared_statements
		WHERE statement LIKE '%FROM users WHERE id = $1 AND issuer != $2%' AND statement NOT LIKE '%pg_prepared_statements%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("the export's first statement is prepared %d times on the connection after three calls, want once (prepared, then reused)", n)
	}
}

// TestPostgres_BoundedPoolsUnderConnectionLimit: a PostgreSQL server that
// allows 20 connections (max_connections=20, its own cluster), three
// processes' pools on it and a burst of 100 concurrent write calls, each
// holding its connection a moment. Bounded at 6 connections each
// (WithMaxConns, --db-max-conns: 3 x 6 = 18, 2 spare), every call waits for
// a connection and is stored: no "too many clients" error, nothing
// acknowledged lost. Unbounded (as before --db-max-conns), the same burst
// opens a connection per call and the server refuses some with SQLSTATE
// 53300, which reached clients as 500s.
func TestPostgres_BoundedPoolsUnderConnectionLimit(t *testing.T) {
	t.Parallel() // owns its cluster (max_connections=20) and databases
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	c, err := pgtest.StartWith(t.Logf, "max_connections=20")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop() })
	ctx := context.Background()

	burst := func(t *testing.T, maxConns int) (acked int, tooMany []error, other []error) {
		url, err := c.NewDatabase(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var dbs []*DB
		for range 3 {
			db, err := Open(url, WithMaxConns(maxConns), WithClock(time.Now))
			if err != nil {
				t.Fatal(err)
			}
			dbs = append(dbs, db)
		}
		defer func() {
			for _, db := range dbs {
				db.Close()
			}
		}()
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db := dbs[i%3]
				// A request's deadline: waiting for a connection ends there.
				ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
				defer cancel()
				<-start
				err := db.inTx(ctx, func(tx *Tx) error {
					if _, err := insertJob(ctx, tx, db.Now(), "pooltest", fmt.Sprint("k", i), nil, db.Now()); err != nil {
						return err
					}
					// The rest of the call's work, holding the connection.
					_, err := tx.ExecContext(ctx, `SELECT 1 FROM pg_sleep(0.05)`)
					return err
				})
				mu.Lock()
				defer mu.Unlock()
				var pe *pgconn.PgError
				switch {
				case err == nil:
					acked++
				case errors.As(err, &pe) && pe.Code == "53300", strings.Contains(err.Error(), "too many clients"):
					tooMany = append(tooMany, err)
				default:
					other = append(other, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		var stored int
		if err := dbs[0].sql.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE kind = 'pooltest'`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored < acked {
			t.Errorf("%d calls acknowledged, %d jobs stored: acknowledged writes lost", acked, stored)
		}
		return acked, tooMany, other
	}

	t.Run("bounded", func(t *testing.T) {
		acked, tooMany, other := burst(t, 6)
		if len(tooMany) > 0 {
			t.Errorf("%d calls refused by the server, e.g. %v", len(tooMany), tooMany[0])
		}
		if len(other) > 0 {
			t.Errorf("%d calls failed, e.g. %v", len(other), other[0])
		}
		if acked != 100 {
			t.Errorf("%d of 100 calls acknowledged", acked)
		}
	})
	t.Run("unbounded", func(t *testing.T) {
		// What the bound prevents: the burst is enough to exhaust the server.
		_, tooMany, _ := burst(t, 0)
		if len(tooMany) == 0 {
			t.Errorf("unbounded pools: no call refused with too many clients; the burst does not test the bound")
		}
	})
}

// TestPostgres_PoolWaitEndsAtDeadline: with every connection of the
// process's pool busy (--db-max-conns 1, held by an open transaction), a
// call waits for one until its request's deadline and then fails with the
// deadline's error, which every HTTP surface answers as 503 unavailable with
// Retry-After (problem.For); it never opens a connection over the bound.
func TestPostgres_PoolWaitEndsAtDeadline(t *testing.T) {
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	db := openEngine(t, "postgres", WithMaxConns(1))
	tx, err := db.sql.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err = db.ExportAccount(ctx, 1)
	waited := time.Since(t0)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a call with the only connection busy: %v, want the deadline's error", err)
	}
	if waited < 250*time.Millisecond {
		t.Errorf("it gave up after %v, before its deadline", waited)
	}
	p := problem.For(context.Background(), slog.New(slog.DiscardHandler), "export", err)
	if p.Status != 503 || p.Code != domain.EUnavailable || p.RetryAfter <= 0 {
		t.Errorf("problem %+v, want 503 unavailable with a Retry-After", p)
	}
	if n := db.sql.Stats().OpenConnections; n != 1 {
		t.Errorf("%d connections open, want the bound, 1", n)
	}
	// Once the connection is free, the next call is served.
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	var de *domain.Error
	if _, err := db.ExportAccount(context.Background(), 1); err != nil && !errors.As(err, &de) {
		t.Fatalf("after the connection came free: %v", err)
	}
}

// TestPostgres_GenericPlans: the store's connections plan each prepared
// statement once (plan_cache_mode = force_generic_plan), and a URL that
// names its own plan_cache_mode keeps it. Before, sessions ran with the
// server's default, auto: up to five plannings per statement and backend.
func TestPostgres_GenericPlans(t *testing.T) {
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	ctx := context.Background()
	db := openEngine(t, "postgres")
	var mode string
	if err := db.sql.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "force_generic_plan" {
		t.Errorf("plan_cache_mode = %q, want force_generic_plan", mode)
	}
	own, err := Open(db.path+"&plan_cache_mode=auto", WithMaxConns(2), WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	if err := own.sql.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "auto" {
		t.Errorf("with plan_cache_mode=auto in the URL: %q, want auto", mode)
	}
}
