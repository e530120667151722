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
// the signed-in user. It all happens in Server.run, after validation and the
// scope check, so REST and MCP behave the same.

const (
	// IdempotencyKeyHeader is the request header carrying the key (REST and /mcp).
	IdempotencyKeyHeader = "Idempotency-Key"
	// IdempotentReplayedHeader is set to "true" on a REST answer that is the
	// replay of an earlier call's answer.
	IdempotentReplayedHeader = "Idempotent-Replayed"
	// idemArgument is the optional MCP argument carrying the key.
	idemArgument = "idempotency_key"
	// CodeIdempotencyKeyReused is the problem code of a key sent again with
	// another request (HTTP 422 in the domain/problem table).
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

// idemArgumentSchema is the property added to the MCP input schema of every
// Idem tool. Its description is what tells a model when to use it.
const idemArgumentSchema = `{"type":"string","minLength":1,"maxLength":255,"pattern":"^[ -~]+$",` +
	`"description":"Optional. A unique string you choose for this one intended action (a UUID is best). Send the same ` +
	`value again only when retrying this same call after a timeout or a lost connection: the retry then returns the first ` +
	`call's answer instead of doing it twice. Use a new value for every new action. Kept 24 hours. The Idempotency-Key ` +
	`HTTP header does the same."}`

// idemCall is the key of one call, put into the context by the transport and
// read by Server.run, which records whether the answer was a replay.
type idemCall struct {
	key      string
	field    string // where the key came from: the header or the argument
	many     bool   // the header was sent more than once
	replayed bool
	// provisional: the result is domain.Provisional, so it is not kept.
	provisional bool
}

type idemCallCtx struct{}

// idemCallFrom returns the key of the call in ctx, or nil.
func idemCallFrom(ctx context.Context) *idemCall {
	c, _ := ctx.Value(idemCallCtx{}).(*idemCall)
	return c
}

// idemFromHeader puts the Idempotency-Key header, when sent, into ctx.
func idemFromHeader(ctx context.Context, h http.Header) context.Context {
	vals, ok := h[http.CanonicalHeaderKey(IdempotencyKeyHeader)]
	if !ok {
		return ctx
	}
	c := &idemCall{field: IdempotencyKeyHeader, many: len(vals) > 1}
	if len(vals) > 0 {
		c.key = vals[0]
	}
	return context.WithValue(ctx, idemCallCtx{}, c)
}

// takeIdemArgument removes the idempotency_key argument of an Idem tool from
// args and puts it into ctx. It reports an argument that is not a string,
// or that differs from the Idempotency-Key header; took says whether args
// changed.
func takeIdemArgument(ctx context.Context, b *bound, args map[string]any) (context.Context, []domain.FieldError, bool) {
	v, ok := args[idemArgument]
	if !b.Idem || !ok {
		return ctx, nil, false
	}
	delete(args, idemArgument)
	key, isString := v.(string)
	if !isString {
		return ctx, []domain.FieldError{{Field: idemArgument, Rule: "type",
			Message: "idempotency_key must be a string of 1 to 255 printable ASCII characters."}}, true
	}
	if h := idemCallFrom(ctx); h != nil {
		if h.key != key {
			return ctx, []domain.FieldError{{Field: idemArgument, Rule: "not_equal",
				Message: "idempotency_key differs from the Idempotency-Key header of the request; send one of them, or the same value in both."}}, true
		}
		return ctx, nil, true
	}
	return context.WithValue(ctx, idemCallCtx{}, &idemCall{key: key, field: idemArgument}), nil, true
}

// check validates the key.
func (c *idemCall) check() error {
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

// runIdem runs an Idem operation under its key: replays a stored answer,
// refuses a key reused for another request, waits for a concurrent call
// holding the key, or claims the key, runs the operation and stores the answer.
func (s *Server) runIdem(ctx context.Context, b *bound, args json.RawMessage, c *idemCall) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	caller, ok := domain.CallerFrom(ctx)
	if !ok {
		// Keys are scoped to a user; every Idem operation of the spec needs
		// sign-in, so an anonymous call here has nobody to keep a key for.
		return s.exec(ctx, b, args)
	}
	if s.idem == nil {
		return nil, fmt.Errorf("tools: %s got an %s but Options.Idem is nil: wire an IdemStore (storage.NewIdemStore)", b.Name, IdempotencyKeyHeader)
	}
	fp, err := idemFingerprint(b.Name, args)
	if err != nil {
		return nil, err
	}
	rec, err := s.idemClaim(ctx, b, caller.UserID, c, fp)
	if err != nil {
		return nil, err
	}
	if rec.State == domain.IdemDone {
		c.replayed = true
		return idemReplay(b, rec)
	}

	body, err := s.exec(ctx, b, args)
	// Store or release the claim even when the client has gone: the effect
	// happened, and its retry must see it.
	bg := context.WithoutCancel(ctx)
	if status, answer, keep := s.idemAnswer(ctx, b, body, err); keep && !c.provisional {
		if ferr := s.idem.Finish(bg, caller.UserID, c.key, rec.Claim, status, answer, s.svc.Now()); ferr != nil {
			s.log.ErrorContext(ctx, "idempotency: store answer", "op", b.Name, "err", ferr)
		}
	} else if aerr := s.idem.Abandon(bg, caller.UserID, c.key, rec.Claim); aerr != nil {
		s.log.ErrorContext(ctx, "idempotency: release claim", "op", b.Name, "err", aerr)
	}
	return body, err
}

// idemClaim calls Begin until it claims the key or finds the answer, waiting
// while a concurrent call holds the key, up to s.idemWait.
func (s *Server) idemClaim(ctx context.Context, b *bound, userID int64, c *idemCall, fp string) (domain.IdemRecord, error) {
	deadline := time.Now().Add(s.idemWait)
	for {
		rec, err := s.idem.Begin(ctx, userID, c.key, b.Name, fp, s.svc.Now())
		switch {
		case err == nil:
			return rec, nil
		case errors.Is(err, domain.ErrIdemMismatch):
			return rec, idemReusedError(b, c, rec)
		case !errors.Is(err, domain.ErrIdemInProgress):
			return rec, err
		}
		if !time.Now().Before(deadline) {
			return rec, domain.Errorf(domain.EConflict, "A request with this %s is still in progress; retry later with the same key to get its answer.", c.field)
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
func (s *Server) idemAnswer(ctx context.Context, b *bound, body []byte, err error) (int, []byte, bool) {
	if err == nil {
		return b.SuccessStatus(), body, true
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
	p := problemFor(ctx, s.log, b.Name, err) // a known code below 500: nothing is logged
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
func idemReusedError(b *bound, c *idemCall, rec domain.IdemRecord) error {
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

// problem is problemFor that also knows problemError.
func (s *Server) problem(ctx context.Context, op string, err error) *Problem {
	var pe *problemError
	if errors.As(err, &pe) {
		return pe.p
	}
	return problemFor(ctx, s.log, op, err)
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

// withIdemArgument adds the optional idempotency_key property to an input
// schema, keeping the order of the other keys and properties (the order a
// model and the snapshots read).
func withIdemArgument(schema json.RawMessage) (json.RawMessage, error) {
	top, err := orderedObject(schema)
	if err != nil {
		return nil, err
	}
	found := false
	for i, kv := range top {
		if kv.key != "properties" {
			continue
		}
		props, err := orderedObject(kv.val)
		if err != nil {
			return nil, err
		}
		for _, p := range props {
			if p.key == idemArgument {
				return nil, fmt.Errorf("input already has a property %s", idemArgument)
			}
		}
		props = append(props, keyVal{idemArgument, json.RawMessage(idemArgumentSchema)})
		top[i].val = props.marshal()
		found = true
	}
	if !found {
		top = append(top, keyVal{"properties", orderedObj{{idemArgument, json.RawMessage(idemArgumentSchema)}}.marshal()})
	}
	return top.marshal(), nil
}

type keyVal struct {
	key string
	val json.RawMessage
}

// orderedObj is a JSON object as its members in document order.
type orderedObj []keyVal

func orderedObject(b json.RawMessage) (orderedObj, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("schema is not a JSON object")
	}
	var out orderedObj
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyVal{t.(string), v})
	}
	return out, nil
}

func (o orderedObj) marshal() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(kv.val)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
