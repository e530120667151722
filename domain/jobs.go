package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Job is one unit of durable background work: drafting a site now; badge
// checks, scheduled go-live, awards and mail later.
type Job struct {
	ID      int64
	Kind    string
	Key     string // what the job is about (a draft id); (Kind, Key) is unique among queued jobs
	Payload json.RawMessage
	// Attempt counts runs, this one included (1 on the first run).
	Attempt int
}

// JobStore keeps jobs durably. Leasing is one atomic step, so two workers (or
// two replicas on one database) never hold the same job; a lease that runs
// out (its worker died) makes the job available again, which is how a restart
// resumes work. Every method that finishes a job checks the lease owner, so a
// worker whose lease was taken over cannot overwrite the new worker's result.
type JobStore interface {
	// EnqueueJob adds a job due at runAt. A queued job with the same kind and key
	// is reused (its id returned), so enqueueing is idempotent.
	EnqueueJob(ctx context.Context, kind, key string, payload []byte, runAt time.Time) (int64, error)
	// LeaseJob takes the next due job of one of kinds (queued with run_at <= now and no
	// live lease) for owner until now+lease, counting the attempt; nil when none is due.
	LeaseJob(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration) (*Job, error)
	// ExtendLease renews owner's lease; ErrLeaseLost when another owner holds the job.
	ExtendLease(ctx context.Context, id int64, owner string, until time.Time) error
	// FinishJob ends the job: done (errMsg "") or failed for good.
	FinishJob(ctx context.Context, id int64, owner string, failed bool, errMsg string, now time.Time) error
	// RetryJob releases the lease and makes the job due again at runAt.
	RetryJob(ctx context.Context, id int64, owner string, runAt time.Time, errMsg string, now time.Time) error
}

// JobSpec is a job that a store method writes in the same transaction as
// the row the job is about (a draft and its build, an update and its
// fan-out), so that a crash between the two cannot leave one without the
// other. The store encodes Payload as JSON; a queued job with the same Kind
// and Key is reused, as with EnqueueJob.
type JobSpec struct {
	Kind, Key string
	Payload   any
	// RunAt is when the job is due; the zero time is due at once.
	RunAt time.Time
}

// ErrLeaseLost is returned when a job's lease is held by another worker.
var ErrLeaseLost = errors.New("job lease lost")

// permanent marks an error that retrying cannot fix.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// Permanent wraps err so the job runner does not retry it.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err (or an error it wraps) was marked Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// JobKind is how the runner runs one kind of job.
type JobKind struct {
	// Run does the work. It must be idempotent: after a crash it may run again
	// from the start (or from a checkpoint it saved itself).
	Run func(ctx context.Context, j Job) error
	// GiveUp is called once when the job fails for good (a Permanent error, or
	// MaxAttempts reached), with the last error.
	GiveUp func(ctx context.Context, j Job, err error)
	// MaxAttempts bounds the runs; 0 means 5.
	MaxAttempts int
}

// RunnerOptions tune a Runner; zero values mean the defaults.
type RunnerOptions struct {
	Workers int           // parallel jobs per process; default 2
	Lease   time.Duration // how long a lease lasts before renewal; default 30s
	Poll    time.Duration // how often idle workers look for due jobs; default 1s
	Backoff time.Duration // first retry delay, doubled per attempt up to 10 minutes; default 2s
	Logger  *slog.Logger
	// Now is the clock (required): when a job is due and leases end.
	Now func() time.Time
}

// Runner runs durable jobs with in-process workers.
type Runner struct {
	store JobStore
	opts  RunnerOptions
	owner string
	kinds map[string]JobKind
	wake  chan struct{}
	mu    sync.Mutex
}

// NewRunner returns a runner over store. Register kinds with Handle before Run.
func NewRunner(store JobStore, opts RunnerOptions) *Runner {
	if opts.Workers <= 0 {
		opts.Workers = 2
	}
	if opts.Lease <= 0 {
		opts.Lease = 30 * time.Second
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 2 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		panic("domain: NewRunner without a clock (RunnerOptions.Now)")
	}
	return &Runner{store: store, opts: opts, owner: "worker-" + RandomHex(8), kinds: map[string]JobKind{}, wake: make(chan struct{}, 1)}
}

// Handle registers how jobs of kind run.
func (r *Runner) Handle(kind string, k JobKind) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kinds[kind] = k
}

// Enqueue adds a job due now and wakes a worker.
func (r *Runner) Enqueue(ctx context.Context, kind, key string, payload any) error {
	return r.EnqueueAt(ctx, kind, key, payload, r.opts.Now())
}

// EnqueueAt adds a job due at runAt (a scheduled launch's Monday); a time in
// the past is due now.
func (r *Runner) EnqueueAt(ctx context.Context, kind, key string, payload any, runAt time.Time) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	if _, err := r.store.EnqueueJob(ctx, kind, key, b, runAt); err != nil {
		return err
	}
	r.Wake()
	return nil
}

// Wake tells an idle worker to look for due jobs now rather than at its next
// poll: after a store method wrote a job together with its row (JobSpec).
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run starts the workers and blocks until ctx is done and every running job
// has stopped. A job interrupted by ctx is handed back to the queue; if the
// process dies instead, its lease runs out and a worker (after a restart, or
// on another replica) takes it up again.
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for i := 0; i < r.opts.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	wg.Wait()
}

// RunDue runs, once each and one after another in the caller's goroutine,
// the jobs of the registered kinds that are due at the clock's now (read
// once, at the start), jobs that those jobs enqueue due by then included, and
// returns how many ran, whatever their outcome (a failure is recorded as Run
// records it: a retry later, or failed for good). A job retried is due again
// only after its backoff, so on a clock that stands still each job runs at
// most once. It is how tests run background work on their clock instead of
// waiting for Run's workers; do not call it while Run is running on the same
// kinds if the test needs to know which of the two ran a job.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	now := r.opts.Now()
	kinds := r.kindNames()
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		j, err := r.store.LeaseJob(ctx, r.owner, kinds, now, r.opts.Lease)
		if err != nil {
			return n, err
		}
		if j == nil {
			return n, nil
		}
		r.runOne(ctx, j)
		n++
	}
}

func (r *Runner) kindNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.kinds))
	for k := range r.kinds {
		names = append(names, k)
	}
	return names
}

func (r *Runner) work(ctx context.Context) {
	t := time.NewTicker(r.opts.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		j, err := r.store.LeaseJob(ctx, r.owner, r.kindNames(), r.opts.Now(), r.opts.Lease)
		if err != nil && ctx.Err() == nil {
			r.opts.Logger.Error("jobs: lease", "err", err)
		}
		if j != nil {
			r.runOne(ctx, j)
			continue // look for more work at once
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		case <-r.wake:
		}
	}
}

// runOne runs a leased job, renewing the lease while it runs, and records the outcome.
func (r *Runner) runOne(ctx context.Context, j *Job) {
	r.mu.Lock()
	k, ok := r.kinds[j.Kind]
	r.mu.Unlock()
	log := r.opts.Logger.With("job", j.ID, "kind", j.Kind, "key", j.Key, "attempt", j.Attempt)
	if !ok {
		_ = r.store.FinishJob(ctx, j.ID, r.owner, true, "no handler for this kind", r.opts.Now())
		return
	}
	jctx, cancel := context.WithCancel(ctx)
	renewed := make(chan struct{})
	go func() { // renew the lease at a third of its length; stop the job if it is lost
		defer close(renewed)
		t := time.NewTicker(r.opts.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-jctx.Done():
				return
			case <-t.C:
				if err := r.store.ExtendLease(jctx, j.ID, r.owner, r.opts.Now().Add(r.opts.Lease)); err != nil && jctx.Err() == nil {
					log.Warn("jobs: lease lost; stopping", "err", err)
					cancel()
					return
				}
			}
		}
	}()
	err := runSafely(jctx, k.Run, *j)
	cancel()
	<-renewed
	if ctx.Err() != nil {
		// Shutting down: hand the job back so the next start (or another
		// replica) resumes it at once. Should this fail (or the process be
		// killed), the lease runs out and the job resumes then.
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		now := r.opts.Now()
		_ = r.store.RetryJob(rctx, j.ID, r.owner, now, "interrupted by shutdown", now)
		return
	}
	now := r.opts.Now()
	max := k.MaxAttempts
	if max <= 0 {
		max = 5
	}
	switch {
	case err == nil:
		err = r.store.FinishJob(ctx, j.ID, r.owner, false, "", now)
	case IsPermanent(err) || j.Attempt >= max:
		log.Warn("jobs: failed for good", "err", err)
		if k.GiveUp != nil {
			k.GiveUp(ctx, *j, err)
		}
		err = r.store.FinishJob(ctx, j.ID, r.owner, true, err.Error(), now)
	default:
		delay := r.opts.Backoff << (j.Attempt - 1)
		if delay > 10*time.Minute || delay <= 0 {
			delay = 10 * time.Minute
		}
		log.Info("jobs: retrying", "err", err, "in", delay)
		err = r.store.RetryJob(ctx, j.ID, r.owner, now.Add(delay), err.Error(), now)
	}
	if err != nil && ctx.Err() == nil {
		log.Error("jobs: recording the outcome", "err", err)
	}
}

// runSafely turns a panic of a job into an error, so one bad job cannot stop a worker.
func runSafely(ctx context.Context, run func(context.Context, Job) error, j Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job panicked: %v", p)
		}
	}()
	return run(ctx, j)
}
