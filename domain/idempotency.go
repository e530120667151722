package domain

import (
	"context"
	"errors"
	"time"
)

// Idempotency of the operations the spec marks Idem: a client sends a key of
// its choosing with a call, and a retry with the same key gets the first
// call's answer instead of a second effect. The transports (tools) run the
// mechanism; IdemStore is where the claims and answers are kept.

// IdemTTL is how long a finished call's answer is kept and replayed; the
// issue asks for at least 24 hours.
const IdemTTL = 24 * time.Hour

// IdemLease bounds how long a pending claim holds its key. A claim older than
// this is taken to belong to a process that died mid-call, and the next call
// with the key runs the operation again. It is far longer than any request
// may run (the HTTP server's write timeout), so a live call never loses it.
const IdemLease = 5 * time.Minute

// Provisional is implemented by a result that reports a state the caller is
// waiting for and that may change without any call of theirs: verify_claim
// that did not find the proof yet (the DNS record may still be propagating).
// Such an answer is not kept for replay when Provisional returns true: a
// retry with the same key runs the operation again, so it cannot hide a
// later success.
type Provisional interface{ Provisional() bool }

// IdemState is the state of a claimed key.
type IdemState string

// Claim states.
const (
	// IdemPending: a call holds the key and is running the operation.
	IdemPending IdemState = "pending"
	// IdemDone: the call finished; Status and Body are its answer.
	IdemDone IdemState = "done"
)

// IdemRecord is what Begin found or created for (user, key).
type IdemRecord struct {
	// Op is the operation the key was first used for.
	Op string
	// Fingerprint identifies the request the key was first used with.
	Fingerprint string
	// State is IdemPending when this Begin claimed the key (Claim is set),
	// IdemDone when an answer is stored.
	State IdemState
	// Claim is the token of a claim made by this Begin; Finish and Abandon
	// need it, so that a stale claim taken over by another call cannot be
	// finished by the first.
	Claim string
	// Status is the HTTP status of the stored answer (IdemDone).
	Status int
	// Body is the stored answer: the result JSON or the problem JSON (IdemDone).
	Body []byte
	// CreatedAt is when the key was claimed; ExpiresAt when it is forgotten.
	CreatedAt, ExpiresAt time.Time
}

// Errors of IdemStore.Begin.
var (
	// ErrIdemMismatch: the key was already used for another operation or
	// with other arguments. Begin returns the stored record with it.
	ErrIdemMismatch = errors.New("idempotency key already used with a different request")
	// ErrIdemInProgress: another call holds the key and has not finished.
	ErrIdemInProgress = errors.New("idempotency key held by a call still in progress")
)

// IdemStore keeps idempotency keys, scoped to the user who sent them.
// Implementations must make Begin atomic: of concurrent Begins for one
// (user, key) exactly one claims it.
type IdemStore interface {
	// Begin claims (userID, key) for a request of op with fingerprint at now.
	// It returns the stored answer (State IdemDone) when the same request
	// finished before; ErrIdemMismatch when the key was used for another op
	// or fingerprint; ErrIdemInProgress when another live claim holds it.
	// Otherwise it records a pending claim (State IdemPending, Claim set),
	// and the caller runs the operation and then calls Finish or Abandon.
	// An expired key (past ExpiresAt) or a claim older than IdemLease counts
	// as absent.
	Begin(ctx context.Context, userID int64, key, op, fingerprint string, now time.Time) (IdemRecord, error)
	// Finish stores the answer of a claimed call; it is replayed until
	// now+IdemTTL. It fails if the claim is no longer held.
	Finish(ctx context.Context, userID int64, key, claim string, status int, body []byte, now time.Time) error
	// Abandon releases a claim whose call has no answer worth replaying
	// (an internal error, a rate limit, a cancelled request), so that a
	// retry runs the operation again. Releasing a claim no longer held is
	// not an error.
	Abandon(ctx context.Context, userID int64, key, claim string) error
}
