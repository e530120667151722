// Package ratelimit holds the per-network request budgets of the service
// (failed credentials, the OAuth endpoints, MCP session calls, web pages)
// and the RateLimit-Policy / RateLimit response fields of the IETF draft
// "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-11).
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

	"github.com/launchdir/launchdir/internal/problem"
)

// Policy is a quota of Quota requests per Window for each network.
type Policy struct {
	// Name identifies the policy in the RateLimit-Policy and RateLimit fields.
	Name   string
	Quota  int
	Window time.Duration
}

// Limiter counts requests per key (a network, see Network) in fixed windows:
// a key's window starts at its first counted request and lasts
// Policy.Window; within it at most Policy.Quota requests are counted. A nil
// *Limiter limits nothing.
type Limiter struct {
	policy Policy
	now    func() time.Time

	mu        sync.Mutex
	windows   map[string]*window
	lastSweep time.Time
}

type window struct {
	start time.Time
	used  int
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
func (l *Limiter) Take(key string) State { return l.at(key, true) }

// Peek returns key's state without counting a request: State.OK says
// whether one more request would be within the quota.
func (l *Limiter) Peek(key string) State { return l.at(key, false) }

func (l *Limiter) at(key string, take bool) State {
	if l == nil {
		return State{OK: true}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	w := l.windows[key]
	if w == nil || !now.Before(w.start.Add(l.policy.Window)) {
		if !take {
			return State{Policy: l.policy, OK: true, Remaining: l.policy.Quota, Reset: l.policy.Window}
		}
		w = &window{start: now}
		l.windows[key] = w
	}
	st := State{Policy: l.policy, Reset: w.start.Add(l.policy.Window).Sub(now)}
	if w.used >= l.policy.Quota {
		return st
	}
	st.OK = true
	if take {
		w.used++
	}
	st.Remaining = l.policy.Quota - w.used
	return st
}

// sweep forgets windows that have ended, at most once per minute.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Minute {
		return
	}
	for k, w := range l.windows {
		if !now.Before(w.start.Add(l.policy.Window)) {
			delete(l.windows, k)
		}
	}
	l.lastSweep = now
}

// size is the number of windows held (for tests).
func (l *Limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.windows)
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
