package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Idempotency for the operations the spec marks Idem (docs/idempotency.md).
// A client sends a key of its choosing with a call: REST in the
// Idempotency-Key header, MCP in the same header of the /mcp request or in
// the idempotency_key argument. The first call with a key claims it in the
// IdemStore and runs; its answer (result or business error) is kept for
// domain.IdemTTL, and a later call with the same key and the same request
// gets that answer again without running the operation. The key is scoped to
// the signed-in user. It all happens in one stage of Server.handle, after the
// scope check, the rate limit and validation, so REST and MCP behave the same.

const (
	// IdempotencyKeyHeader is the request header carrying the key (REST and /mcp).
	IdempotencyKeyHeader = "Idempotency-Key"
	// IdempotentReplayedHeader is set to "true" on a REST answer that is the
	// replay of an earlier call's answer.
	IdempotentReplayedHeader = "Idempotent-Replayed"
	// idemArgument is the optional MCP argument carrying the key.
	idemArgument = "idempotency_key"
	// CodeIdempotencyKeyReused is the problem code of a key sent again with
	// another request (HTTP 422 in the internal/problem table).
	CodeIdempotencyKeyReused = domain.EIdemKeyReused
)

// idemWaitDefault is how long a duplicate waits for the call that holds its
// key (a submit_listing answers in well under a second); idemPoll is how
// often it looks.
const (
	idemWaitDefault = 20 * time.Second
	idemPoll        = 50 * time.Millisecond
)

// idemKeyRE is what a key may be: 1 to 255 printable ASCII characters, the
// range a header value and a log line carry safely.
var idemKeyRE = regexp.MustCompile(`^[ -~]{1,255}$`)

// idemKey is the Idempotency-Key of one call, as the transport's front
// found it (a field of the call).
type idemKey struct {
	key   string
	field string // where the key came from: the header or the argument
	many  bool   // the header was sent more than once
}

// idemFromHeader returns the Idempotency-Key header, or nil when none was sent.
func idemFromHeader(h http.Header) *idemKey {
	vals, ok := h[http.CanonicalHeaderKey(IdempotencyKeyHeader)]
	if !ok {
		return nil
	}
	k := &idemKey{field: IdempotencyKeyHeader, many: len(vals) > 1}
	if len(vals) > 0 {
		k.key = vals[0]
	}
	return k
}

// takeIdemArgument removes the idempotency_key argument of an Idem tool from
// args and returns the call's key: hdr (the header's, or nil), or the
// argument's. It reports an argument that is not a string, or that differs
// from the header.
func takeIdemArgument(hdr *idemKey, args map[string]any) (*idemKey, []domain.FieldError) {
	v, ok := args[idemArgument]
	if !ok {
		return hdr, nil
	}
	delete(args, idemArgument)
	key, isString := v.(string)
	if !isString {
		return hdr, []domain.FieldError{{Field: idemArgument, Rule: "type",
			Message: "idempotency_key must be a string of 1 to 255 printable ASCII characters."}}
	}
	if hdr != nil {
		if hdr.key != key {
			return hdr, []domain.FieldError{{Field: idemArgument, Rule: "not_equal",
				Message: "idempotency_key differs from the Idempotency-Key header of the request; send one of them, or the same value in both."}}
		}
		return hdr, nil
	}
	return &idemKey{key: key, field: idemArgument}, nil
}

// check validates the key.
func (c *idemKey) check() error {
	if c.many {
		return validationError([]domain.FieldError{{Field: c.field, Rule: "maxItems",
			Message: fmt.Sprintf("Send one %s header, not several.", c.field)}})
	}
	if idemKeyRE.MatchString(c.key) {
		return nil
	}
	rule := "pattern"
	if len(c.key) == 0 {
		rule = "minLength"
	} else if len(c.key) > 255 {
		rule = "maxLength"
	}
	return validationError([]domain.FieldError{{Field: c.field, Rule: rule,
		Message: fmt.Sprintf("%s must be one value of 1 to 255 printable ASCII characters, e.g. a UUID.", c.field)}})
}

// runIdem runs an Idem operation under the call's key: replays a stored
// answer, refuses a key reused for another request, waits for a concurrent
// call holding the key, or claims the key, runs the operation and stores the
// answer. replayed says the answer is a stored one.
func (s *Server) runIdem(ctx context.Context, c *call, args json.RawMessage) (body []byte, replayed bool, err error) {
	b, k := c.op, c.idem
	if err := k.check(); err != nil {
		return nil, false, err
	}
	if c.caller == nil {
		// Keys are scoped to a user; every Idem operation of the spec needs
		// sign-in, so an anonymous call here has nobody to keep a key for.
		body, _, err := s.exec(ctx, b, args)
		return body, false, err
	}
	if s.idem == nil {
		return nil, false, fmt.Errorf("tools: %s got an %s but Options.Idem is nil: wire an IdemStore (storage.NewIdemStore)", b.Name, IdempotencyKeyHeader)
	}
	fp, err := idemFingerprint(b.Name, args)
	if err != nil {
		return nil, false, err
	}
	userID := c.caller.UserID
	rec, err := s.idemClaim(ctx, b, userID, k, fp)
	if err != nil {
		return nil, false, err
	}
	if rec.State == domain.IdemDone {
		body, err := idemReplay(b, rec)
		return body, true, err
	}

	body, provisional, err := s.exec(ctx, b, args)
	// Store or release the claim even when the client has gone: the effect
	// happened, and its retry must see it.
	bg := context.WithoutCancel(ctx)
	if status, answer, keep := s.idemAnswer(ctx, c, body, err); keep && !provisional {
		if ferr := s.idem.Finish(bg, userID, k.key, rec.Claim, status, answer, s.svc.Now()); ferr != nil {
			s.log.ErrorContext(ctx, "idempotency: store answer", "op", b.Name, "transport", c.transport, "err", ferr)
		}
	} else if aerr := s.idem.Abandon(bg, userID, k.key, rec.Claim); aerr != nil {
		s.log.ErrorContext(ctx, "idempotency: release claim", "op", b.Name, "transport", c.transport, "err", aerr)
	}
	return body, false, err
}

// idemClaim calls Begin until it claims the key or finds the answer, waiting
// while a concurrent call holds the key, up to s.idemWait.
func (s *Server) idemClaim(ctx context.Context, b *bound, userID int64, k *idemKey, fp string) (domain.IdemRecord, error) {
	deadline := time.Now().Add(s.idemWait)
	for {
		rec, err := s.idem.Begin(ctx, userID, k.key, b.Name, fp, s.svc.Now())
		switch {
		case err == nil:
			return rec, nil
		case errors.Is(err, domain.ErrIdemMismatch):
			return rec, idemReusedError(b, k, rec)
		case !errors.Is(err, domain.ErrIdemInProgress):
			return rec, err
		}
		if !time.Now().Before(deadline) {
			return rec, domain.Errorf(domain.EConflict, "A request with this %s is still in progress; retry later with the same key to get its answer.", k.field)
		}
		t := time.NewTimer(idemPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return rec, ctx.Err()
		case <-t.C:
		}
	}
}

// idemAnswer decides what of an outcome is kept for replay: a result, and the
// errors that the same request would meet again (invalid, not found,
// forbidden), so that it gets the same answer. A conflict depends on the
// moment (update_draft while the draft is still being built), and internal
// errors, rate limits, sign-in failures and cancelled calls are not answers
// at all: those release the key so that a retry runs the operation again (an
// error made no change, so running again is safe).
func (s *Server) idemAnswer(ctx context.Context, c *call, body []byte, err error) (int, []byte, bool) {
	if err == nil {
		return c.op.SuccessStatus(), body, true
	}
	var de *domain.Error
	if ctx.Err() != nil || !errors.As(err, &de) {
		return 0, nil, false
	}
	switch de.Code {
	case domain.EInvalid, domain.ENotFound, domain.EForbidden:
	default:
		return 0, nil, false
	}
	p := s.problem(ctx, c, err) // a known code below 500: nothing is logged
	return p.Status, p.JSON(), true
}

// idemReplay turns a stored answer back into what the call returns.
func idemReplay(b *bound, rec domain.IdemRecord) ([]byte, error) {
	if rec.Status == b.SuccessStatus() {
		return rec.Body, nil
	}
	var p Problem
	if err := json.Unmarshal(rec.Body, &p); err != nil || p.Status != rec.Status {
		return nil, fmt.Errorf("tools: %s: stored idempotent answer (status %d) is not a problem: %v", b.Name, rec.Status, err)
	}
	return nil, &problemError{&p}
}

// idemReusedError is the 422 of a key sent again with another request.
func idemReusedError(b *bound, c *idemKey, rec domain.IdemRecord) error {
	what := fmt.Sprintf("for %s", rec.Op)
	if rec.Op == b.Name {
		what = fmt.Sprintf("for %s with different arguments", b.Name)
	}
	msg := fmt.Sprintf("This %s was already used %s. Use a new key for a new request; send the same request again to get its first answer.", c.field, what)
	return &domain.Error{Code: domain.EIdemKeyReused, Message: msg,
		Fields: []domain.FieldError{{Field: c.field, Rule: string(domain.EIdemKeyReused), Message: msg}}}
}

// problemError is an error whose problem was fixed by an earlier call: a
// replayed answer, kept as it was first sent.
type problemError struct{ p *Problem }

func (e *problemError) Error() string { return fmt.Sprintf("%s: %s", e.p.Code, e.p.Detail) }

// problem is problemFor that also knows problemError: the problem a
// transport answers for the error of a call.
func (s *Server) problem(ctx context.Context, c *call, err error) *Problem {
	var pe *problemError
	var p *Problem
	if errors.As(err, &pe) {
		p = pe.p
	} else {
		p = problemFor(ctx, s.log.With("transport", c.transport), c.op.Name, err)
	}
	if d := s.rebaseString(ctx, p.Detail); d != p.Detail { // origin.go
		cp := *p
		cp.Detail = d
		p = &cp
	}
	return p
}

// idemFingerprint identifies a request: SHA-256 of the operation name and the
// canonical JSON of its validated arguments (path parameters and body, no
// key), so that key order, spacing and number spelling (20, 20.0, 2e1) do
// not make two equal requests differ, over REST or MCP alike.
func idemFingerprint(op string, args json.RawMessage) (string, error) {
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", fmt.Errorf("tools: %s: fingerprint arguments: %w", op, err)
	}
	canon, err := json.Marshal(idemCanonical(v))
	if err != nil {
		return "", fmt.Errorf("tools: %s: fingerprint arguments: %w", op, err)
	}
	h := sha256.New()
	h.Write([]byte(op))
	h.Write([]byte{0})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// idemCanonical rewrites numbers to one spelling per value; json.Marshal
// then sorts object keys.
func idemCanonical(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = idemCanonical(e)
		}
	case []any:
		for i, e := range x {
			x[i] = idemCanonical(e)
		}
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return x
		}
		if r.IsInt() {
			return json.Number(r.Num().String())
		}
		return json.Number(r.FloatString(40))
	}
	return v
}
