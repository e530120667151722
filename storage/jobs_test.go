package storage_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// jobEngines are the engines the job store tests run on.
var jobEngines = []string{"sqlite", "postgres"}

// skipSQLiteInE2E skips the sqlite part of a job store test when the e2e
// tier runs the test for its postgres part: the sqlite part ran in the
// in-process tier (testtier.SkipRanInProcess, as storage's onEngines does).
func skipSQLiteInE2E(t *testing.T, engine string) {
	t.Helper()
	if engine == "sqlite" {
		testtier.SkipRanInProcess(t, engine)
	}
}

// jobsDB opens a fresh database file; a second Open of the same path stands for
// another replica sharing it.
func jobsDB(t *testing.T) (string, *storage.DB) {
	t.Helper()
	return jobsDBOn(t, "sqlite")
}

// jobsDBOn is jobsDB on engine: a SQLite file, or a fresh database in the
// test binary's PostgreSQL cluster (its URL stands for the path).
func jobsDBOn(t *testing.T, engine string) (string, *storage.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "jobs.db")
	if engine == "postgres" {
		path = fixtures.MigratedPostgres(t)
	}
	db, err := storage.Open(path, storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return path, db
}

func quietRunner(s domain.JobStore, o domain.RunnerOptions) *domain.Runner {
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if o.Poll == 0 {
		o.Poll = 10 * time.Millisecond
	}
	return domain.NewRunner(s, o)
}

// jobsNow is where the job tests' clocks start.
var jobsNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// runAll calls RunDue until it finds nothing due, moving clk by step after
// each pass that ran something (so that retries come due), and returns the
// number of runs.
func runAll(t *testing.T, r *domain.Runner, clk *testclock.Clock, step time.Duration) int {
	t.Helper()
	total := 0
	for pass := 0; ; pass++ {
		n, err := r.RunDue(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return total
		}
		if pass > 100 {
			t.Fatalf("still running jobs after %d passes", pass)
		}
		total += n
		clk.Advance(step)
	}
}

func TestJobs_EnqueueIsIdempotentPerKey(t *testing.T) {
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			_, db := jobsDBOn(t, engine)
			s := storage.NewJobStore(db)
			ctx := context.Background()
			a, err := s.EnqueueJob(ctx, "draft", "d1", []byte(`{}`), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.EnqueueJob(ctx, "draft", "d1", []byte(`{}`), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			c, _ := s.EnqueueJob(ctx, "draft", "d2", []byte(`{}`), time.Now())
			if a != b || a == c {
				t.Fatalf("ids %d %d %d: the same kind and key must be one queued job", a, b, c)
			}
		})
	}
}

// Two replicas (two DB handles, two callers of RunDue on each, all at once)
// share 60 jobs: every job runs exactly once, and the callers' counts add up.
func TestJobs_TwoReplicasRunEachJobOnce(t *testing.T) {
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			path, db := jobsDBOn(t, engine)
			db2, err := storage.Open(path, storage.WithClock(time.Now))
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			var mu sync.Mutex
			runs := map[string]int{}
			kind := domain.JobKind{Run: func(ctx context.Context, j domain.Job) error {
				mu.Lock()
				runs[j.Key]++
				mu.Unlock()
				return nil
			}}
			ctx := context.Background()
			s := storage.NewJobStore(db)
			for i := range 60 {
				if _, err := s.EnqueueJob(ctx, "count", fmt.Sprint(i), nil, jobsNow); err != nil {
					t.Fatal(err)
				}
			}
			clk := testclock.New(jobsNow)
			var wg sync.WaitGroup
			var ran atomic.Int32
			for _, d := range []*storage.DB{db, db, db2, db2} {
				r := quietRunner(storage.NewJobStore(d), domain.RunnerOptions{Now: clk.Now})
				r.Handle("count", kind)
				wg.Add(1)
				go func() {
					defer wg.Done()
					n, err := r.RunDue(ctx)
					if err != nil {
						t.Error(err)
					}
					ran.Add(int32(n))
				}()
			}
			wg.Wait()
			if n, _ := s.JobCounts(ctx); n["done"] != 60 || ran.Load() != 60 {
				t.Fatalf("jobs %v, RunDue counted %d; want 60 done and 60 runs", n, ran.Load())
			}
			for i := range 60 {
				if runs[fmt.Sprint(i)] != 1 {
					t.Errorf("job %d ran %d times, want 1", i, runs[fmt.Sprint(i)])
				}
			}
		})
	}
}

// RunDue runs what is due at the clock's now, once, jobs enqueued by those
// jobs included, and leaves later jobs for when the clock reaches them.
func TestJobs_RunDueOnTheClock(t *testing.T) {
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			_, db := jobsDBOn(t, engine)
			s := storage.NewJobStore(db)
			clk := testclock.New(jobsNow)
			r := quietRunner(s, domain.RunnerOptions{Now: clk.Now, Backoff: time.Minute})
			var mu sync.Mutex
			var ran []string
			note := func(j domain.Job) { mu.Lock(); ran = append(ran, j.Key); mu.Unlock() }
			r.Handle("note", domain.JobKind{Run: func(ctx context.Context, j domain.Job) error {
				note(j)
				if j.Key == "parent" {
					return r.Enqueue(ctx, "note", "child", nil)
				}
				return nil
			}})
			r.Handle("fail", domain.JobKind{Run: func(_ context.Context, j domain.Job) error {
				note(j)
				return errors.New("down")
			}})
			ctx := context.Background()
			for _, k := range []string{"parent", "later"} {
				at := clk.Now()
				if k == "later" {
					at = at.Add(time.Hour)
				}
				if err := r.EnqueueAt(ctx, "note", k, nil, at); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Enqueue(ctx, "fail", "fail", nil); err != nil {
				t.Fatal(err)
			}
			step := func(want int, keys string) {
				t.Helper()
				mu.Lock()
				ran = nil
				mu.Unlock()
				n, err := r.RunDue(ctx)
				mu.Lock()
				defer mu.Unlock()
				slices.Sort(ran)
				if err != nil || n != want || fmt.Sprint(ran) != keys {
					t.Fatalf("RunDue at %s = %d, %v; ran %v; want %d: %s", clk.Now().Format(time.TimeOnly), n, err, ran, want, keys)
				}
			}
			step(3, "[child fail parent]") // the failure is retried a minute later, not now
			step(0, "[]")                  // nothing more is due while the clock stands
			clk.Advance(time.Minute)
			step(1, "[fail]")
			clk.Advance(time.Hour)
			step(2, "[fail later]")
			if n, _ := s.JobCounts(ctx); n["done"] != 3 || n["queued"] != 1 {
				t.Fatalf("jobs %v, want 3 done and the failing one queued", n)
			}
		})
	}
}

func TestJobs_RetryThenGiveUp(t *testing.T) {
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			_, db := jobsDBOn(t, engine)
			s := storage.NewJobStore(db)
			clk := testclock.New(jobsNow)
			r := quietRunner(s, domain.RunnerOptions{Now: clk.Now, Backoff: time.Minute})
			var flaky, doomed, perm atomic.Int32
			var gaveUp sync.Map
			giveUp := func(ctx context.Context, j domain.Job, err error) { gaveUp.Store(j.Key, err.Error()) }
			r.Handle("flaky", domain.JobKind{Run: func(context.Context, domain.Job) error {
				if flaky.Add(1) < 3 {
					return errors.New("temporary")
				}
				return nil
			}, GiveUp: giveUp})
			r.Handle("doomed", domain.JobKind{MaxAttempts: 3, GiveUp: giveUp, Run: func(context.Context, domain.Job) error {
				doomed.Add(1)
				return errors.New("still down")
			}})
			r.Handle("perm", domain.JobKind{GiveUp: giveUp, Run: func(context.Context, domain.Job) error {
				perm.Add(1)
				return domain.Permanent(errors.New("robots.txt forbids"))
			}})
			ctx := context.Background()
			for _, k := range []string{"flaky", "doomed", "perm"} {
				if err := r.Enqueue(ctx, k, k, nil); err != nil {
					t.Fatal(err)
				}
			}
			if runs := runAll(t, r, clk, time.Hour); runs != 7 {
				t.Errorf("%d runs, want 7", runs)
			}
			if n, _ := s.JobCounts(ctx); n["done"] != 1 || n["failed"] != 2 {
				t.Fatalf("jobs %v, want 1 done and 2 failed", n)
			}
			if flaky.Load() != 3 || doomed.Load() != 3 || perm.Load() != 1 {
				t.Errorf("runs: flaky %d (want 3), doomed %d (want 3), perm %d (want 1)", flaky.Load(), doomed.Load(), perm.Load())
			}
			if _, ok := gaveUp.Load("flaky"); ok {
				t.Error("GiveUp called for a job that succeeded")
			}
			for _, k := range []string{"doomed", "perm"} {
				if _, ok := gaveUp.Load(k); !ok {
					t.Errorf("GiveUp not called for %s", k)
				}
			}
		})
	}
}

// A worker that stops in the middle of a job (a crash or restart) leaves its
// lease; when the lease runs out another runner takes the job up again.
func TestJobs_InterruptedJobResumes(t *testing.T) {
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			path, db := jobsDBOn(t, engine)
			started := make(chan struct{})
			var attempts []int
			var mu sync.Mutex
			r1 := quietRunner(storage.NewJobStore(db), domain.RunnerOptions{Workers: 1, Lease: time.Second, Now: time.Now})
			r1.Handle("long", domain.JobKind{Run: func(ctx context.Context, j domain.Job) error {
				mu.Lock()
				attempts = append(attempts, j.Attempt)
				mu.Unlock()
				close(started)
				<-ctx.Done() // the process dies before finishing
				return ctx.Err()
			}})
			ctx1, stop1 := context.WithCancel(context.Background())
			done1 := make(chan struct{})
			go func() { r1.Run(ctx1); close(done1) }()
			if err := r1.Enqueue(ctx1, "long", "x", nil); err != nil {
				t.Fatal(err)
			}
			<-started
			stop1()
			<-done1

			db2, err := storage.Open(path, storage.WithClock(time.Now)) // the restarted process
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			s2 := storage.NewJobStore(db2)
			r2 := quietRunner(s2, domain.RunnerOptions{Workers: 1, Lease: time.Second, Now: time.Now})
			finished := make(chan struct{})
			r2.Handle("long", domain.JobKind{Run: func(ctx context.Context, j domain.Job) error {
				mu.Lock()
				attempts = append(attempts, j.Attempt)
				mu.Unlock()
				close(finished)
				return nil
			}})
			ctx2 := context.Background()
			// The first runner handed the job back as it stopped, so it is due at once.
			if n, err := r2.RunDue(ctx2); n != 1 || err != nil {
				t.Fatalf("RunDue after the restart = %d, %v; want the interrupted job", n, err)
			}
			<-finished
			if n, _ := s2.JobCounts(ctx2); n["done"] != 1 {
				t.Fatalf("jobs %v, want the resumed one done", n)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(attempts) != 2 || attempts[1] != 2 {
				t.Errorf("attempts = %v, want [1 2]", attempts)
			}
		})
	}
}
