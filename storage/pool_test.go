package storage

import (
	"context"
	"sync"
	"testing"
)

// TestOpen_PoolKeepsConnections: a burst of concurrent reads (16 requests at
// once, as the throughput benchmark sends) leaves its connections in the
// pool for the next burst instead of closing them. Opening a SQLite
// connection runs its pragmas, and closing one frees its page cache: with
// database/sql's default of 2 idle connections, every burst opened and
// closed most of its connections again (a fifth of a search call's CPU).
//
// On PostgreSQL a new connection is a forked backend: the same churn was
// 0.2-0.7 new connections a call in BenchmarkProcesses.
func TestOpen_PoolKeepsConnections(t *testing.T) {
	t.Parallel() // each part owns its database copy
	onEngines(t, testPoolKeepsConnections)
}

func testPoolKeepsConnections(t *testing.T, engine string) {
	// 16 connections held at once by design: unbounded even when the
	// harness caps the pool (LAUNCHDIR_TEST_DB_MAX_CONNS).
	db := openEngine(t, engine, WithMaxConns(0))
	ctx := context.Background()
	burst := func() {
		var holding, done sync.WaitGroup
		release := make(chan struct{})
		for range 16 {
			holding.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				// Each read keeps its connection until all 16 hold one.
				rows, err := db.sql.QueryContext(ctx, `SELECT id FROM listings`)
				holding.Done()
				if err != nil {
					t.Error(err)
					return
				}
				<-release
				rows.Close()
			}()
		}
		holding.Wait()
		close(release)
		done.Wait()
	}
	burst()
	opened := db.sql.Stats().OpenConnections
	burst()
	s := db.sql.Stats()
	if s.MaxIdleClosed != 0 {
		t.Errorf("the pool closed %d connections for being over its idle limit (open after a burst: %d); they should stay for the next burst", s.MaxIdleClosed, opened)
	}
}
