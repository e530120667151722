package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
)

// newOperationLimiter is the per-client operation budget: perSecond calls
// a second with the given burst (0: ceil(perSecond)), a token bucket of
// auth/ratelimit, the service's one limiter, on the clock now; nil (no
// limit) when perSecond is 0 or less. Its policy "operations" has q = the
// burst and w = the time an empty bucket takes to fill.
func newOperationLimiter(perSecond float64, burst int, now func() time.Time) *ratelimit.Limiter {
	if perSecond <= 0 {
		return nil
	}
	if burst < 1 {
		burst = int(math.Ceil(perSecond))
	}
	fill := time.Duration(float64(burst) / perSecond * float64(time.Second))
	return ratelimit.NewBucket(ratelimit.Policy{Name: "operations", Quota: burst, Window: fill}, now)
}

// rateLimitError is returned when a client is over its operation budget.
type rateLimitError struct{ retryAfter int }

func (e *rateLimitError) Error() string {
	return fmt.Sprintf("rate limited; retry after %ds", e.retryAfter)
}

// takeOperations takes n calls of key from the operation budget l: the
// state for the RateLimit fields (r = whole calls left, t = seconds until
// the bucket is full again; on a refusal r=0 and t the Retry-After) and,
// over the budget, a *rateLimitError that says how many whole seconds to
// wait. A nil l limits nothing and adds no fields.
func takeOperations(l *ratelimit.Limiter, key string, n int) (ratelimit.State, error) {
	if l == nil {
		return ratelimit.State{}, nil
	}
	st := l.TakeN(key, n)
	if !st.OK {
		return st, &rateLimitError{retryAfter: st.ResetSeconds()}
	}
	return st, nil
}

type clientKeyCtx struct{}

// clientKey identifies an anonymous caller for rate limiting: the remote IP.
// A signed-in caller is keyed by its user instead (see authenticate); a
// request with an invalid credential is refused before it is counted (and
// costs from the network's failure budget, Options.Failures). X-Forwarded-For
// is not read here: serve sets RemoteAddr from it for --trusted-proxies
// (ratelimit.TrustProxies).
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "ip:" + host
}

func authKey(authorization string) string {
	sum := sha256.Sum256([]byte(authorization))
	return "auth:" + hex.EncodeToString(sum[:12])
}

// withClientKey stores the caller's rate-limit key in the request context, so
// that MCP tool handlers (which do not see the http.Request) can use it.
func withClientKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), clientKeyCtx{}, clientKey(r))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// clientKeyFrom returns the key stored by withClientKey, or derives one from
// the request headers an MCP handler sees.
func clientKeyFrom(ctx context.Context, h http.Header) string {
	if k, ok := ctx.Value(clientKeyCtx{}).(string); ok {
		return k
	}
	if h != nil {
		if a := h.Get("Authorization"); a != "" {
			return authKey(a)
		}
	}
	return "unknown"
}

// writeLimited answers a request refused by a per-network budget: 429 with
// Retry-After, the RateLimit fields and the problem+json body.
func writeLimited(w http.ResponseWriter, st ratelimit.State) { ratelimit.WriteTooMany(w, st) }

// limitSession counts a /mcp request that is not only tools/call
// (initialize, tools/list, ping, notifications, responses, GET, DELETE)
// against the per-network session budget. Over the budget it answers 429
// itself and returns false; otherwise the response carries the RateLimit
// fields. tools/call is counted per client by the operation limiter; calls
// is toolCalls of the request's body (s.mcpCalls).
func (s *Server) limitSession(w http.ResponseWriter, r *http.Request, calls int) bool {
	if s.session == nil || (r.Method == http.MethodPost && calls > 0) {
		return true
	}
	st := s.session.Take(ratelimit.Network(r))
	if !st.OK {
		writeLimited(w, st)
		return false
	}
	st.SetHeaders(w.Header())
	return true
}

// mcpCalls is toolCalls of the body of an /mcp request, read once for
// limitSession and limitToolCalls; 0, unread, when neither budget is set or
// the request is not a POST.
func (s *Server) mcpCalls(r *http.Request, body []byte) int {
	if r.Method != http.MethodPost || (s.session == nil && s.limiter == nil) {
		return 0
	}
	return toolCalls(body)
}

// prepaidKey marks the context of an /mcp request whose tools/call messages
// limitToolCalls already counted against the operation budget.
type prepaidKey struct{}

// limitToolCalls counts the tools/call messages of an /mcp POST that holds
// nothing else against the caller's operation budget (ctx carries the
// caller's key, set by authenticate), before the MCP server reads them: over
// the budget the request is answered HTTP 429 with Retry-After and the
// RateLimit fields of "operations", as REST is; within
// it the answer carries the fields, and handle does not count the calls
// again. It returns the context for the MCP server, or false when it
// answered. calls is toolCalls of the body (s.mcpCalls).
func (s *Server) limitToolCalls(w http.ResponseWriter, r *http.Request, ctx context.Context, calls int) (context.Context, bool) {
	if s.limiter == nil || r.Method != http.MethodPost {
		return ctx, true
	}
	if calls == 0 {
		return ctx, true
	}
	st, err := takeOperations(s.limiter, clientKeyFrom(ctx, r.Header), calls)
	st.SetHeaders(w.Header())
	if err != nil {
		writeProblem(w, problemFor(ctx, s.log, "tools/call", err))
		return ctx, false
	}
	prepaid := new(atomic.Int32)
	prepaid.Store(int32(calls))
	return context.WithValue(ctx, prepaidKey{}, prepaid), true
}

// prepaidCall says whether ctx holds a tools/call that limitToolCalls
// counted already, and uses it up.
func prepaidCall(ctx context.Context) bool {
	p, ok := ctx.Value(prepaidKey{}).(*atomic.Int32)
	return ok && p.Add(-1) >= 0
}

// toolCalls is the number of messages of a JSON-RPC body (one message or a
// batch) when all of them are tools/call requests, else 0.
func toolCalls(body []byte) int {
	if !bytes.Contains(body, []byte("tools/call")) {
		return 0
	}
	type message struct {
		Method string `json:"method"`
	}
	var msgs []message
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return 0
		}
	} else {
		var m message
		if json.Unmarshal(body, &m) != nil {
			return 0
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.Method != "tools/call" {
			return 0
		}
	}
	return len(msgs)
}
