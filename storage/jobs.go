package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// JobStore implements domain.JobStore over the jobs table (0003_jobs_drafts.sql).
// Every state change is one UPDATE guarded by its WHERE clause, so the
// database decides races: SQLite serialises writers, and the lease condition
// is checked inside the same statement that takes the lease.
type JobStore struct{ db *DB }

var _ domain.JobStore = (*JobStore)(nil)

// NewJobStore returns the job store over db.
func NewJobStore(db *DB) *JobStore { return &JobStore{db: db} }

// EnqueueJob implements domain.JobStore.
func (s *JobStore) EnqueueJob(ctx context.Context, kind, key string, payload []byte, runAt time.Time) (int64, error) {
	return insertJob(ctx, s.db.sql, s.db.Now(), kind, key, payload, runAt)
}

// insertJob adds a job to q (the database, or the transaction that writes
// the row the job is about); a queued job with the same kind and key is
// reused. at is when it is written (created_at, updated_at).
func insertJob(ctx context.Context, q queryRower, at time.Time, kind, key string, payload []byte, runAt time.Time) (int64, error) {
	var id int64
	now := at.Unix()
	err := q.QueryRowContext(ctx, `
		INSERT INTO jobs (kind, key, payload, run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, key) WHERE state = 'queued' DO UPDATE SET updated_at = excluded.updated_at
		RETURNING id`, kind, key, string(payload), runAt.Unix(), now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("storage: enqueue %s job: %w", kind, err)
	}
	return id, nil
}

// enqueueTx adds jobs inside tx, the transaction that writes the row they
// are about: the row and its jobs are stored together or not at all.
func (db *DB) enqueueTx(ctx context.Context, tx *Tx, jobs ...domain.JobSpec) error {
	for _, j := range jobs {
		payload, err := json.Marshal(j.Payload)
		if err != nil {
			return fmt.Errorf("storage: enqueue %s job: %w", j.Kind, err)
		}
		runAt := j.RunAt
		if runAt.IsZero() {
			runAt = time.Unix(0, 0)
		}
		if _, err := insertJob(ctx, tx, db.Now(), j.Kind, j.Key, payload, runAt); err != nil {
			return err
		}
	}
	return nil
}

// LeaseJob implements domain.JobStore.
func (s *JobStore) LeaseJob(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration) (*domain.Job, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	args := []any{owner, now.Add(lease).Unix(), now.Unix(), now.Unix(), now.Unix()}
	for _, k := range kinds {
		args = append(args, k)
	}
	j := &domain.Job{}
	var payload string
	err := s.db.sql.QueryRowContext(ctx, `
		UPDATE jobs SET lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND lease_until <= ?
		            AND kind IN (?`+strings.Repeat(",?", len(kinds)-1)+`) ORDER BY run_at, id LIMIT 1`+s.db.eng.skipLocked()+`)
		RETURNING id, kind, key, payload, attempts`, args...).Scan(&j.ID, &j.Kind, &j.Key, &payload, &j.Attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: lease job: %w", err)
	}
	j.Payload = []byte(payload)
	return j, nil
}

// held runs an UPDATE on a job that owner must hold, reporting ErrLeaseLost otherwise.
func (s *JobStore) held(ctx context.Context, query string, args ...any) error {
	res, err := s.db.sql.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("storage: job: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.ErrLeaseLost
	}
	return nil
}

// ExtendLease implements domain.JobStore.
func (s *JobStore) ExtendLease(ctx context.Context, id int64, owner string, until time.Time) error {
	return s.held(ctx, `UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ? AND state = 'queued'`,
		until.Unix(), id, owner)
}

// FinishJob implements domain.JobStore.
func (s *JobStore) FinishJob(ctx context.Context, id int64, owner string, failed bool, errMsg string, now time.Time) error {
	state := "done"
	if failed {
		state = "failed"
	}
	return s.held(ctx, `UPDATE jobs SET state = ?, last_error = ?, lease_owner = '', lease_until = 0, updated_at = ?
		WHERE id = ? AND lease_owner = ? AND state = 'queued'`, state, errMsg, now.Unix(), id, owner)
}

// RetryJob implements domain.JobStore.
func (s *JobStore) RetryJob(ctx context.Context, id int64, owner string, runAt time.Time, errMsg string, now time.Time) error {
	return s.held(ctx, `UPDATE jobs SET run_at = ?, last_error = ?, lease_owner = '', lease_until = 0, updated_at = ?
		WHERE id = ? AND lease_owner = ? AND state = 'queued'`, runAt.Unix(), errMsg, now.Unix(), id, owner)
}

// JobCounts returns how many jobs are in each state (for tests and operators).
func (s *JobStore) JobCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT state, COUNT(*) FROM jobs GROUP BY state`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		out[st] = n
	}
	return out, rows.Err()
}
