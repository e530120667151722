package storage_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

// jobsDB opens a fresh database file; a second Open of the same path stands for
// another replica sharing it.
func jobsDB(t *testing.T) (string, *storage.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "jobs.db")
	db, err := storage.Open(path)
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

// waitFor polls cond until it holds or the test's deadline nears.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestJobs_EnqueueIsIdempotentPerKey(t *testing.T) {
	_, db := jobsDB(t)
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
}

// Two replicas (two DB handles, two runners with two workers each) share 60
// jobs: every job runs exactly once.
func TestJobs_TwoReplicasRunEachJobOnce(t *testing.T) {
	path, db := jobsDB(t)
	db2, err := storage.Open(path)
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
		time.Sleep(time.Millisecond)
		return nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, d := range []*storage.DB{db, db2} {
		r := quietRunner(storage.NewJobStore(d), domain.RunnerOptions{Workers: 2})
		r.Handle("count", kind)
		wg.Add(1)
		go func() { defer wg.Done(); r.Run(ctx) }()
	}
	s := storage.NewJobStore(db)
	for i := range 60 {
		if _, err := s.EnqueueJob(ctx, "count", fmt.Sprint(i), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "all jobs done", func() bool {
		n, err := s.JobCounts(ctx)
		return err == nil && n["done"] == 60
	})
	cancel()
	wg.Wait()
	for i := range 60 {
		if runs[fmt.Sprint(i)] != 1 {
			t.Errorf("job %d ran %d times, want 1", i, runs[fmt.Sprint(i)])
		}
	}
}

func TestJobs_RetryThenGiveUp(t *testing.T) {
	_, db := jobsDB(t)
	s := storage.NewJobStore(db)
	r := quietRunner(s, domain.RunnerOptions{Workers: 1, Backoff: time.Millisecond})
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
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	for _, k := range []string{"flaky", "doomed", "perm"} {
		if err := r.Enqueue(ctx, k, k, nil); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "jobs finished", func() bool {
		n, _ := s.JobCounts(ctx)
		return n["done"] == 1 && n["failed"] == 2
	})
	cancel()
	<-done
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
}

// A worker that stops in the middle of a job (a crash or restart) leaves its
// lease; when the lease runs out another runner takes the job up again.
func TestJobs_InterruptedJobResumes(t *testing.T) {
	path, db := jobsDB(t)
	started := make(chan struct{})
	var attempts []int
	var mu sync.Mutex
	r1 := quietRunner(storage.NewJobStore(db), domain.RunnerOptions{Workers: 1, Lease: time.Second})
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

	db2, err := storage.Open(path) // the restarted process
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	s2 := storage.NewJobStore(db2)
	r2 := quietRunner(s2, domain.RunnerOptions{Workers: 1, Lease: time.Second})
	finished := make(chan struct{})
	r2.Handle("long", domain.JobKind{Run: func(ctx context.Context, j domain.Job) error {
		mu.Lock()
		attempts = append(attempts, j.Attempt)
		mu.Unlock()
		close(finished)
		return nil
	}})
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	go r2.Run(ctx2)
	select {
	case <-finished:
	case <-time.After(20 * time.Second):
		t.Fatal("the interrupted job was not resumed")
	}
	waitFor(t, "job done", func() bool { n, _ := s2.JobCounts(ctx2); return n["done"] == 1 })
	mu.Lock()
	defer mu.Unlock()
	if len(attempts) != 2 || attempts[1] != 2 {
		t.Errorf("attempts = %v, want [1 2]", attempts)
	}
}
