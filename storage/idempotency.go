package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// IdemStore implements domain.IdemStore over the idempotency_keys table of
// migration 0004. Begin runs in one write transaction (the DSN makes every
// transaction BEGIN IMMEDIATE), so concurrent Begins for one key are
// serialised and exactly one of them claims it, across connections and
// processes sharing the file.
type IdemStore struct {
	db *DB
	// owner starts the claim tokens of this store: who holds a pending
	// claim, so that another store can tell a claim whose process died
	// (idemowner.go).
	owner string
	// lastSweep is the Unix second of the last sweep of expired rows.
	lastSweep atomic.Int64
}

var _ domain.IdemStore = (*IdemStore)(nil)

// NewIdemStore returns the domain.IdemStore over db.
func NewIdemStore(db *DB) *IdemStore {
	inst, err := idemToken()
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	inst = inst[:12]
	idemStores.Store(inst, db)
	return &IdemStore{db: db, owner: idemOwnerPrefix(inst)}
}

// idemSweepEvery bounds how often Begin deletes expired rows: often enough
// that the table holds about a day of keys, rarely enough to cost nothing.
const idemSweepEvery = time.Minute

// Begin claims (userID, key) for a request of op with fingerprint; see
// domain.IdemStore.
func (s *IdemStore) Begin(ctx context.Context, userID int64, key, op, fingerprint string, now time.Time) (domain.IdemRecord, error) {
	if userID == 0 || key == "" || op == "" || fingerprint == "" {
		return domain.IdemRecord{}, fmt.Errorf("storage: idempotency begin: user, key, op and fingerprint are required")
	}
	if err := s.sweep(ctx, now); err != nil {
		return domain.IdemRecord{}, err
	}
	// On PostgreSQL two first calls with one key conflict at commit; the
	// loser runs again (inTx) and finds the winner's claim.
	var out domain.IdemRecord
	err := s.db.inTx(ctx, func(tx *Tx) error {
		rec, found, err := idemGet(ctx, tx, userID, key)
		if err != nil {
			return err
		}
		if found && idemLive(rec, now) && !(rec.State == domain.IdemPending && idemOwnerGone(rec.Claim)) {
			switch {
			case rec.Op != op || rec.Fingerprint != fingerprint:
				rec.Body, rec.Claim = nil, ""
				out = rec
				return domain.ErrIdemMismatch
			case rec.State == domain.IdemDone:
				out = rec
				return nil
			default:
				rec.Claim = ""
				out = rec
				return domain.ErrIdemInProgress
			}
		}
		// Absent, expired, or a claim whose call died (its lease ran out, or
		// its process or store is gone): claim it afresh.
		claim, err := idemToken()
		if err != nil {
			return err
		}
		claim = s.owner + claim
		created := now.Unix()
		expires := now.Add(domain.IdemTTL).Unix()
		if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys
		(user_id, key, op, fingerprint, state, claim, status, body, created_at, expires_at)
		VALUES (?, ?, ?, ?, 'pending', ?, 0, NULL, ?, ?)
		ON CONFLICT (user_id, key) DO UPDATE SET op = excluded.op, fingerprint = excluded.fingerprint,
			state = 'pending', claim = excluded.claim, status = 0, body = NULL,
			created_at = excluded.created_at, expires_at = excluded.expires_at`,
			userID, key, op, fingerprint, claim, created, expires); err != nil {
			return fmt.Errorf("storage: idempotency claim: %w", err)
		}
		out = domain.IdemRecord{Op: op, Fingerprint: fingerprint, State: domain.IdemPending, Claim: claim,
			CreatedAt: time.Unix(created, 0).UTC(), ExpiresAt: time.Unix(expires, 0).UTC()}
		return nil
	})
	switch {
	case errors.Is(err, domain.ErrIdemMismatch), errors.Is(err, domain.ErrIdemInProgress):
		return out, err
	case err != nil:
		return domain.IdemRecord{}, err
	}
	return out, nil
}

// Finish stores the answer of a claimed call, kept until now+IdemTTL.
func (s *IdemStore) Finish(ctx context.Context, userID int64, key, claim string, status int, body []byte, now time.Time) error {
	if claim == "" {
		return fmt.Errorf("storage: idempotency finish: no claim token (Begin did not claim the key)")
	}
	if body == nil {
		body = []byte{} // NULL is kept for "no answer yet"
	}
	res, err := s.db.sql.ExecContext(ctx, `UPDATE idempotency_keys
		SET state = 'done', claim = '', status = ?, body = ?, expires_at = ?
		WHERE user_id = ? AND key = ? AND state = 'pending' AND claim = ?`,
		status, body, now.Add(domain.IdemTTL).Unix(), userID, key, claim)
	if err != nil {
		return fmt.Errorf("storage: idempotency finish: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("storage: idempotency finish: %w", err)
	} else if n == 0 {
		return fmt.Errorf("storage: idempotency finish: the claim on key %q is no longer held (it outlived domain.IdemLease and was taken over)", key)
	}
	return nil
}

// Abandon releases a pending claim so that a retry runs the operation again.
func (s *IdemStore) Abandon(ctx context.Context, userID int64, key, claim string) error {
	if claim == "" {
		return nil
	}
	if _, err := s.db.sql.ExecContext(ctx, `DELETE FROM idempotency_keys
		WHERE user_id = ? AND key = ? AND state = 'pending' AND claim = ?`, userID, key, claim); err != nil {
		return fmt.Errorf("storage: idempotency abandon: %w", err)
	}
	return nil
}

// DeleteExpired deletes the keys whose answers have expired at now and
// returns how many. Begin calls it at most once a minute.
func (s *IdemStore) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	return idemDeleteExpired(ctx, s.db.sql, now)
}

// sweep deletes expired rows when the last sweep is a minute old (or the
// clock went back, as injected clocks in tests do).
func (s *IdemStore) sweep(ctx context.Context, now time.Time) error {
	last, t := s.lastSweep.Load(), now.Unix()
	if d := t - last; d >= 0 && d < int64(idemSweepEvery/time.Second) {
		return nil
	}
	if !s.lastSweep.CompareAndSwap(last, t) {
		return nil // another Begin is sweeping
	}
	_, err := idemDeleteExpired(ctx, s.db.sql, now)
	return err
}

func idemDeleteExpired(ctx context.Context, ex interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, now time.Time) (int64, error) {
	res, err := ex.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE expires_at <= ?`, now.Unix())
	if err != nil {
		return 0, fmt.Errorf("storage: idempotency sweep: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: idempotency sweep: %w", err)
	}
	return n, nil
}

// idemGet reads the row of (userID, key).
func idemGet(ctx context.Context, tx *Tx, userID int64, key string) (domain.IdemRecord, bool, error) {
	var rec domain.IdemRecord
	var state string
	var created, expires int64
	err := tx.QueryRowContext(ctx, `SELECT op, fingerprint, state, claim, status, body, created_at, expires_at
		FROM idempotency_keys WHERE user_id = ? AND key = ?`, userID, key).
		Scan(&rec.Op, &rec.Fingerprint, &state, &rec.Claim, &rec.Status, &rec.Body, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.IdemRecord{}, false, nil
	}
	if err != nil {
		return domain.IdemRecord{}, false, fmt.Errorf("storage: idempotency read: %w", err)
	}
	rec.State = domain.IdemState(state)
	rec.CreatedAt, rec.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	return rec, true, nil
}

// idemLive says whether a row still holds its key at now: not expired, and
// not a pending claim older than the lease (its call died with its process).
func idemLive(rec domain.IdemRecord, now time.Time) bool {
	if !now.Before(rec.ExpiresAt) {
		return false
	}
	return rec.State == domain.IdemDone || now.Before(rec.CreatedAt.Add(domain.IdemLease))
}

// idemToken is a random claim token.
func idemToken() (string, error) {
	return domain.RandomHex(16), nil
}
