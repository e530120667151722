// Package ratelimit is the service's one rate limiter: the per-network
// budgets (failed credentials, the OAuth endpoints, MCP session calls, web
// pages) as fixed windows, the per-client operation budget and auth's
// sign-in and registration budgets as token buckets, and the
// RateLimit-Policy / RateLimit response fields of the IETF draft "RateLimit
// header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-11).
//
// It imports no project package but the leaf internal/problem (the one error
// body), so that tools, auth and web can all use the one limiter that cmd
// builds (see docs/ratelimits.md).
package ratelimit

import (
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/launchdir/launchdir/internal/problem"
)

// Policy is a quota of Quota requests per Window for each network.
type Policy struct {
	// Name identifies the policy in the RateLimit-Policy and RateLimit fields.
	Name   string
	Quota  int
	Window time.Duration
}

// Limiter counts requests per key (a network, a client, an address) under
// one Policy, with one of two algorithms:
//
//   - fixed windows (New): a key's window starts at its first counted
//     request and lasts Policy.Window; within it at most Policy.Quota
//     requests are counted;
//   - a token bucket (NewBucket): a key holds at most Policy.Quota tokens
//     (the burst), refilled evenly over Policy.Window; a request takes one.
//
// It is the service's one limiter: the per-network budgets, the per-client
// operation budget of tools and auth's sign-in and registration budgets all
// use it. A nil *Limiter limits nothing.
type Limiter struct {
	policy Policy
	now    func() time.Time
	refill rate.Limit // > 0: a token bucket refilled at this many tokens a second

	mu        sync.Mutex
	windows   map[string]*window
	buckets   map[string]*bucket
	lastSweep time.Time
}

type window struct {
	start time.Time
	used  int
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a limiter for p on the clock now, or nil (no limit) when
// p.Quota is 0 or less. The clock is required: a limiter on another clock
// than the service's would not follow a test's time.
func New(p Policy, now func() time.Time) *Limiter {
	if p.Quota <= 0 || p.Window <= 0 {
		return nil
	}
	if now == nil {
		panic("ratelimit: New without a clock")
	}
	return &Limiter{policy: p, now: now, windows: map[string]*window{}}
}

// NewBucket returns a token-bucket limiter for p on the clock now: each key
// holds at most p.Quota tokens, refilled evenly over p.Window (one token
// every p.Window/p.Quota), or nil (no limit) when p.Quota or p.Window is 0
// or less. The clock is required, as for New.
func NewBucket(p Policy, now func() time.Time) *Limiter {
	if p.Quota <= 0 || p.Window <= 0 {
		return nil
	}
	if now == nil {
		panic("ratelimit: NewBucket without a clock")
	}
	return &Limiter{policy: p, now: now, refill: rate.Every(p.Window / time.Duration(p.Quota)), buckets: map[string]*bucket{}}
}

// State is the service limit of one key after a request: whether the request
// is within the quota, how many requests remain and when the window ends.
type State struct {
	Policy    Policy
	OK        bool
	Remaining int
	// Reset is the time left in the window.
	Reset time.Duration
}

// ResetSeconds is Reset in whole seconds, rounded up, at least 1.
func (s State) ResetSeconds() int {
	return max(1, int(math.Ceil(s.Reset.Seconds())))
}

// Take counts one request of key and returns the state after it. When the
// quota is used up the request is not counted and State.OK is false.
func (l *Limiter) Take(key string) State { return l.TakeN(key, 1) }

// TakeN counts n requests of key at once (the tools/call messages of one
// MCP request): all of them, or none and State.OK is false.
func (l *Limiter) TakeN(key string, n int) State { return l.at(key, n) }

// Peek returns key's state without counting a request: State.OK says
// whether one more request would be within the quota.
func (l *Limiter) Peek(key string) State { return l.at(key, 0) }

func (l *Limiter) at(key string, n int) State {
	if l == nil {
		return State{OK: true}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	if l.refill > 0 {
		return l.fromBucket(key, n, now)
	}
	w := l.windows[key]
	if w == nil || !now.Before(w.start.Add(l.policy.Window)) {
		if n == 0 {
			return State{Policy: l.policy, OK: true, Remaining: l.policy.Quota, Reset: l.policy.Window}
		}
		w = &window{start: now}
		l.windows[key] = w
	}
	st := State{Policy: l.policy, Reset: w.start.Add(l.policy.Window).Sub(now)}
	if w.used+max(n, 1) > l.policy.Quota {
		return st
	}
	st.OK = true
	w.used += n
	st.Remaining = l.policy.Quota - w.used
	return st
}

// fromBucket takes n tokens from key's bucket at now (none for a Peek). On
// a refusal Remaining is 0 and Reset the time until enough tokens are back
// (the Retry-After; 1 s when n is more than the bucket holds); otherwise
// Remaining is the whole tokens left and Reset the time until the bucket
// is full again.
func (l *Limiter) fromBucket(key string, n int, now time.Time) State {
	st := State{Policy: l.policy}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.refill, l.policy.Quota)}
		l.buckets[key] = b
	}
	b.seen = now
	if n > 0 {
		r := b.lim.ReserveN(now, n)
		if !r.OK() {
			st.Reset = time.Second
			return st
		}
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			st.Reset = d
			return st
		}
	}
	tokens := max(0, b.lim.TokensAt(now))
	if n == 0 && tokens < 1 {
		st.Reset = time.Duration((1 - tokens) / float64(l.refill) * float64(time.Second))
		return st
	}
	st.OK, st.Remaining = true, int(tokens)
	st.Reset = time.Duration((float64(l.policy.Quota) - tokens) / float64(l.refill) * float64(time.Second))
	return st
}

// sweep forgets windows that have ended and buckets idle long enough to be
// full again (the same as a new one), at most once per minute.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Minute {
		return
	}
	for k, w := range l.windows {
		if !now.Before(w.start.Add(l.policy.Window)) {
			delete(l.windows, k)
		}
	}
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= l.policy.Window {
			delete(l.buckets, k)
		}
	}
	l.lastSweep = now
}

// size is the number of windows or buckets held (for tests).
func (l *Limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.windows) + len(l.buckets)
}

// SetHeaders adds the policy and the current service limit to h, as the
// structured-field lists of draft-ietf-httpapi-ratelimit-headers-11:
//
//	RateLimit-Policy: "pages";q=600;w=60
//	RateLimit: "pages";r=599;t=60
//
// Several policies on one response add one item each (Add, not Set). A
// refused request gets r=0 and Retry-After (see WriteTooMany). The zero
// State (from a nil limiter) adds nothing.
func (s State) SetHeaders(h http.Header) {
	if s.Policy.Name == "" {
		return
	}
	h.Add("RateLimit-Policy", fmt.Sprintf("%q;q=%d;w=%d", s.Policy.Name, s.Policy.Quota, int(math.Ceil(s.Policy.Window.Seconds()))))
	h.Add("RateLimit", fmt.Sprintf("%q;r=%d;t=%d", s.Policy.Name, s.Remaining, s.ResetSeconds()))
}

// Detail is the sentence of a 429 answer for s.
func (s State) Detail() string {
	return fmt.Sprintf("Too many requests from your network (policy %s: %d per %d seconds); retry after %d seconds.",
		s.Policy.Name, s.Policy.Quota, int(math.Ceil(s.Policy.Window.Seconds())), s.ResetSeconds())
}

// WriteTooMany answers a refused request: 429 with Retry-After, the
// RateLimit fields and the service's problem+json body (code rate_limited,
// retry_after), written by internal/problem as every other error body is.
func WriteTooMany(w http.ResponseWriter, s State) {
	s.SetHeaders(w.Header())
	problem.Write(w, problem.RateLimited(s.Detail(), s.ResetSeconds()))
}

// The default per-network budgets of serve (docs/ratelimits.md); its flags
// change the quotas. The MCP session budget leaves room for several
// assistants behind one address and for a developer re-running the MCP
// conformance suite and Inspector: at 300 a minute, the suite run against
// 127.0.0.1 and then localhost of one serve was refused with 429s.
var (
	DefaultFailures = Policy{Name: "failures", Quota: 20, Window: 15 * time.Minute}
	DefaultOAuth    = Policy{Name: "oauth", Quota: 60, Window: time.Minute}
	DefaultMCP      = Policy{Name: "mcp", Quota: 1200, Window: time.Minute}
	DefaultPages    = Policy{Name: "pages", Quota: 600, Window: time.Minute}
)
