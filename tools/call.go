package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	segjson "github.com/segmentio/encoding/json"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// The one way of an operation call through tools. Each transport has a thin
// front that reads its own message into a call (REST: restHandler in
// rest.go, path, query and body; MCP: toolHandler in mcp.go, the tools/call
// params), then handle runs the same stages for both, in this order:
//
//	authenticate  the front, before the call exists: a failure is an HTTP
//	              challenge (WWW-Authenticate; on /mcp before the SDK reads
//	              the message), and the call carries the caller it found
//	scope check   checkScope
//	rate limit    the caller's operation budget (Options.RateLimit)
//	validate      the arguments against the operation's JSON Schema
//	idempotency   Idem operations sent with a key (idempotency.go)
//	domain        the operation's domain method, its result as JSON
//
// and the front encodes the result or the error for its transport: REST a
// JSON body or problem+json, MCP a tool result (isError with the same
// problem). Validation comes before idempotency, unlike ARCHITECTURE.md
// section 4: docs/decisions.md says why. A body over maxBodyBytes is refused
// by the front before any stage (413): it is not read, so it is no call.

// Transports, as a call names them.
const (
	transportREST = "rest"
	transportMCP  = "mcp"
)

// call is one operation call as a transport's front received it.
type call struct {
	op        *bound
	transport string // transportREST or transportMCP
	// caller is the signed-in caller (also in the context, for the domain);
	// nil for an anonymous call.
	caller *domain.Caller
	// client is the caller's key in the operation rate limiter.
	client string
	// args are the arguments as the one JSON reader decodes them (objects
	// map[string]any, numbers json.Number). nil when they could not be read;
	// pre then says why.
	args any
	// raw are the arguments as the client sent them (MCP), when they can go to
	// the operation as they are: nil for REST, whose arguments come from the
	// query or are merged with the path, and for Idem operations, whose
	// fingerprint needs one canonical encoding and whose idempotency_key
	// argument is taken out.
	raw json.RawMessage
	// pre are the errors the front found while reading the arguments,
	// reported together with the schema's.
	pre []domain.FieldError
	// idem is the Idempotency-Key sent with a call of an Idem operation
	// (REST: the header; MCP: the header or the idempotency_key argument);
	// nil when none was sent or the operation is not Idem.
	idem *idemKey
}

// newCall starts the call of op for the caller of ctx (set by the front's
// authentication).
func newCall(ctx context.Context, op *bound, transport, client string) *call {
	c := &call{op: op, transport: transport, client: client}
	if who, ok := domain.CallerFrom(ctx); ok {
		c.caller = &who
	}
	return c
}

// result is what handle answers besides an error. The fields other than
// body are set on errors too: the transport tells the client about them.
type result struct {
	// body is the operation's result as JSON (nil on an error). It may live
	// in a pooled buffer: the front calls release once it has written or
	// copied it, and not before.
	body []byte
	buf  *bytes.Buffer
	// limit is the caller's operation budget after the call (REST sends it
	// as RateLimit fields); zero when the call stopped before the rate limit.
	limit ratelimit.State
	// replayed: the answer is the one kept for an earlier call with the
	// same Idempotency-Key, not a new run.
	replayed bool
}

// handle runs a call through the stages, in order (see the top of this
// file). It is the one place the transports meet, so they share it exactly.
func (s *Server) handle(ctx context.Context, c *call) (result, error) {
	var res result
	if s.timeout > 0 { // Options.RequestTimeout: past it, 503 with Retry-After (problem.For)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	if err := checkScope(c); err != nil {
		return res, err
	}
	// An /mcp request's tools/call messages were counted before the MCP
	// server read them (limitToolCalls).
	if c.transport != transportMCP || !prepaidCall(ctx) {
		var err error
		if res.limit, err = takeOperations(s.limiter, c.client, 1); err != nil {
			return res, err
		}
	}
	args, err := c.arguments()
	if err != nil {
		return res, err
	}
	if c.idem != nil {
		res.body, res.replayed, err = s.runIdem(ctx, c, args)
	} else if res.buf, _, err = s.execBuf(ctx, c.op, args); err == nil {
		res.body = res.buf.Bytes()
	}
	if err == nil {
		res.body = s.rebase(ctx, res.body) // every URL at the origin the request used (origin.go)
	}
	return res, err
}

// release gives the buffer of the body back; body is gone afterwards.
func (r *result) release() {
	if r.buf != nil {
		putResultBuf(r.buf)
		r.buf, r.body = nil, nil
	}
}

// checkScope is the operation-level check behind the transports'
// challenge: a protected operation never runs without a caller holding its
// scope, whatever front or middleware let the call through (on /mcp, a tool
// name spelt with JSON escapes passes the HTTP challenge; see scopesOf).
func checkScope(c *call) error {
	b := c.op
	if b.Scope == "" {
		return nil
	}
	if c.caller == nil {
		return domain.Errorf(domain.EUnauthenticated, "Sign-in required: %s needs an OAuth access token with scope %s, or an API key.", b.Name, b.Scope)
	}
	if !c.caller.HasScope(b.Scope) {
		return domain.Errorf(domain.EForbidden, "%s needs scope %s, which this access token lacks.", b.Name, b.Scope)
	}
	return nil
}

// arguments validates the call's arguments against the operation's schema
// and returns them as the JSON the operation decodes, or a validation error
// that also holds what the front found (pre). Arguments the client sent as
// JSON (raw) go on as they are unless normalizing their integers changed
// them; the others are encoded once here.
func (c *call) arguments() (json.RawMessage, error) {
	fe := slices.Clone(c.pre)
	if c.args != nil {
		fe = append(fe, c.op.v.validate(c.args)...)
	}
	if len(fe) > 0 {
		sortFields(fe)
		return nil, validationError(fe)
	}
	if m, ok := c.args.(map[string]any); ok && c.op.v.normalizeIntegers(m) {
		c.raw = nil
	}
	if c.raw != nil {
		return c.raw, nil
	}
	return json.Marshal(c.args)
}

// exec calls the domain and encodes its result. provisional says the result
// is domain.Provisional: an answer of the moment, not kept for replay.
func (s *Server) exec(ctx context.Context, b *bound, args json.RawMessage) (body []byte, provisional bool, err error) {
	buf, provisional, err := s.execBuf(ctx, b, args)
	if err != nil {
		return nil, false, err
	}
	body = bytes.Clone(buf.Bytes())
	putResultBuf(buf)
	return body, provisional, nil
}

// execBuf is exec with the result left in a pooled buffer (putResultBuf
// gives it back), encoded once, byte for byte as json.Marshal would (HTML
// characters escaped, map keys sorted, raw messages checked and compacted).
func (s *Server) execBuf(ctx context.Context, b *bound, args json.RawMessage) (buf *bytes.Buffer, provisional bool, err error) {
	out, err := b.call(ctx, s.svc, args)
	if err != nil {
		return nil, false, err
	}
	if p, ok := out.(domain.Provisional); ok && p.Provisional() {
		provisional = true
	}
	buf = resultBufs.Get().(*bytes.Buffer)
	enc, err := encodeResult(buf.AvailableBuffer(), out)
	if err != nil {
		putResultBuf(buf)
		return nil, false, fmt.Errorf("encode %s result: %w", b.Name, err)
	}
	buf.Write(enc) // enc is buf's own spare capacity unless it grew
	if bytes.Equal(buf.Bytes(), []byte("null")) {
		putResultBuf(buf)
		return nil, false, fmt.Errorf("%s returned no result", b.Name)
	}
	return buf, provisional, nil
}

// encodeResult appends the JSON of a result to b. It is
// github.com/segmentio/encoding/json with the flags that make its output the
// same bytes as encoding/json's Marshal (TestEncodeResult_SameAsStd checks
// every operation's result type): the one encoding of a search page took a
// third of a REST search call's CPU with encoding/json and about a quarter
// of that with this encoder (docs/benchmarks.md, fourth pass).
func encodeResult(b []byte, out any) ([]byte, error) {
	return segjson.Append(b, out, segjson.EscapeHTML|segjson.SortMapKeys)
}

// resultBufs are the buffers results are encoded into; a buffer that grew
// past maxPooledResult for one large result is dropped, not kept.
var resultBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledResult = 256 << 10

func putResultBuf(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledResult {
		return
	}
	buf.Reset()
	resultBufs.Put(buf)
}
