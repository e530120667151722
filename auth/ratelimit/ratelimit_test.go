package ratelimit

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/testclock"
)

func newTestClock() *testclock.Clock {
	return testclock.New(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC))
}

func TestLimiter_WindowOnTestClock(t *testing.T) {
	if New(Policy{Name: "x", Quota: 0, Window: time.Minute}, nil) != nil {
		t.Fatal("quota 0 must mean no limiter")
	}
	var off *Limiter
	if st := off.Take("k"); !st.OK {
		t.Fatal("a nil limiter allows everything")
	}
	clk := newTestClock()
	l := New(Policy{Name: "p", Quota: 2, Window: time.Minute}, clk.Now)
	if st := l.Peek("a"); !st.OK || st.Remaining != 2 {
		t.Fatalf("peek before any request: %+v", st)
	}
	for want := 1; want >= 0; want-- {
		if st := l.Take("a"); !st.OK || st.Remaining != want {
			t.Fatalf("take: %+v, want ok with %d left", st, want)
		}
	}
	clk.Advance(20 * time.Second)
	st := l.Take("a")
	if st.OK || st.Remaining != 0 || st.ResetSeconds() != 40 {
		t.Fatalf("third take: %+v, want refused with 40 s left", st)
	}
	if st := l.Take("b"); !st.OK {
		t.Fatalf("another key is not limited by a's window: %+v", st)
	}
	clk.Advance(40 * time.Second)
	if st := l.Take("a"); !st.OK || st.Remaining != 1 {
		t.Fatalf("after the window: %+v, want a fresh window", st)
	}
	clk.Advance(2 * time.Minute)
	l.Take("c") // sweeps the ended windows of a and b
	if n := l.size(); n != 1 {
		t.Fatalf("%d windows held after the sweep, want 1", n)
	}
}

// TestHeaders_Syntax parses the fields as structured fields: one item per
// policy, q and w on the policy, r and t on the service limit.
func TestHeaders_Syntax(t *testing.T) {
	clk := newTestClock()
	a := New(Policy{Name: "mcp", Quota: 3, Window: time.Minute}, clk.Now)
	b := New(Policy{Name: "failures", Quota: 20, Window: 15 * time.Minute}, clk.Now)
	h := http.Header{}
	a.Take("k").SetHeaders(h)
	b.Take("k").SetHeaders(h)
	pol, err := ParseItems(h, "RateLimit-Policy")
	if err != nil {
		t.Fatal(err)
	}
	lim, err := ParseItems(h, "RateLimit")
	if err != nil {
		t.Fatal(err)
	}
	wantPol := []Item{{"mcp", map[string]int{"q": 3, "w": 60}}, {"failures", map[string]int{"q": 20, "w": 900}}}
	wantLim := []Item{{"mcp", map[string]int{"r": 2, "t": 60}}, {"failures", map[string]int{"r": 19, "t": 900}}}
	if fmt.Sprint(pol) != fmt.Sprint(wantPol) || fmt.Sprint(lim) != fmt.Sprint(wantLim) {
		t.Fatalf("RateLimit-Policy %v, RateLimit %v; want %v, %v", pol, lim, wantPol, wantLim)
	}
	bad := http.Header{}
	bad.Set("RateLimit", `"x";r=1;t`)
	if _, err := ParseItems(bad, "RateLimit"); err == nil {
		t.Fatal("the parser must refuse a parameter without value")
	}
}

func TestWriteTooMany(t *testing.T) {
	clk := newTestClock()
	l := New(Policy{Name: "pages", Quota: 1, Window: time.Minute}, clk.Now)
	l.Take("k")
	clk.Advance(15 * time.Second)
	w := httptest.NewRecorder()
	WriteTooMany(w, l.Take("k"))
	if w.Code != 429 || w.Header().Get("Retry-After") != "45" || w.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("status %d headers %v", w.Code, w.Header())
	}
	lim, err := ParseItems(w.Header(), "RateLimit")
	if err != nil || len(lim) != 1 || lim[0].Params["r"] != 0 || lim[0].Params["t"] != 45 {
		t.Fatalf("RateLimit %v %v, want r=0;t=45 (not before Retry-After)", lim, err)
	}
	var p struct {
		Status     int    `json:"status"`
		Code       string `json:"code"`
		Detail     string `json:"detail"`
		RetryAfter int    `json:"retry_after"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != 429 || p.Code != "rate_limited" || p.RetryAfter != 45 || p.Detail == "" {
		t.Fatalf("body %s: %+v %v", w.Body, p, err)
	}
}

func TestNetwork(t *testing.T) {
	for _, c := range []struct{ remote, want string }{
		{"203.0.113.7:5000", "203.0.113.7"},
		{"[::ffff:203.0.113.7]:5000", "203.0.113.7"},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::1]:1", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:1", "2001:db8:1:3::/64"},
		{"[fe80::1%eth0]:1", "fe80::/64"},
		{"not-an-address", "not-an-address"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if got := Network(r); got != c.want {
			t.Errorf("Network(%s) = %s, want %s", c.remote, got, c.want)
		}
	}
}

func TestHandler_PerNetwork(t *testing.T) {
	clk := newTestClock()
	l := New(Policy{Name: "pages", Quota: 2, Window: time.Minute}, clk.Now)
	h := l.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	get := func(remote string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	// Two hosts of one /64 share the budget; the next /64 has its own.
	if w := get("[2001:db8:1:2::1]:1"); w.Code != 200 || w.Header().Get("RateLimit") != `"pages";r=1;t=60` {
		t.Fatalf("first: %d %v", w.Code, w.Header())
	}
	get("[2001:db8:1:2::2]:1")
	if w := get("[2001:db8:1:2:ffff::3]:1"); w.Code != 429 {
		t.Fatalf("third request from one /64: %d, want 429", w.Code)
	}
	if w := get("[2001:db8:1:3::1]:1"); w.Code != 200 {
		t.Fatalf("another /64: %d, want 200", w.Code)
	}
	// IPv4: each address is its own network.
	get("198.51.100.1:1")
	get("198.51.100.1:2")
	if w := get("198.51.100.1:3"); w.Code != 429 {
		t.Fatalf("third request from 198.51.100.1: %d, want 429", w.Code)
	}
	if w := get("198.51.100.2:1"); w.Code != 200 {
		t.Fatalf("198.51.100.2: %d, want 200", w.Code)
	}
}

func TestGuard_CountsOnlyFailures(t *testing.T) {
	clk := newTestClock()
	l := New(Policy{Name: "failures", Quota: 2, Window: 10 * time.Minute}, clk.Now)
	checked := 0
	h := l.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checked++
		if r.URL.Query().Get("good") == "" {
			http.Error(w, "bad", http.StatusBadRequest)
		}
	}), func(status int) bool { return status == http.StatusBadRequest })
	do := func(q string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/"+q, nil)
		r.RemoteAddr = "192.0.2.1:1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for i := 0; i < 3; i++ {
		if w := do("?good=1"); w.Code != 200 || w.Header().Get("RateLimit") != "" {
			t.Fatalf("good request %d: %d %v", i, w.Code, w.Header())
		}
	}
	if w := do(""); w.Code != 400 || w.Header().Get("RateLimit") != `"failures";r=1;t=600` {
		t.Fatalf("first failure: %d %v", w.Code, w.Header())
	}
	do("")
	n := checked
	if w := do("?good=1"); w.Code != 429 || w.Header().Get("Retry-After") != "600" || checked != n {
		t.Fatalf("after the budget: %d %v, checked %d times (want %d)", w.Code, w.Header(), checked, n)
	}
	clk.Advance(10 * time.Minute)
	if w := do("?good=1"); w.Code != 200 {
		t.Fatalf("after the window: %d", w.Code)
	}
}

func TestTrustProxies(t *testing.T) {
	trusted, err := ParsePrefixes("10.0.0.0/8, ::1")
	if err != nil || len(trusted) != 2 {
		t.Fatalf("%v %v", trusted, err)
	}
	if _, err := ParsePrefixes("10.0.0.0/8,nonsense"); err == nil {
		t.Fatal("a bad prefix must be refused")
	}
	var got string
	h := TrustProxies(trusted, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = Network(r) }))
	for _, c := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"10.1.2.3:1", []string{"198.51.100.9"}, "198.51.100.9"},
		{"10.1.2.3:1", []string{"1.1.1.1, 198.51.100.9", "10.2.2.2"}, "198.51.100.9"}, // a forged left-most hop is ignored
		{"[::1]:1", []string{"2001:db8:5:6::7"}, "2001:db8:5:6::/64"},
		{"203.0.113.5:1", []string{"198.51.100.9"}, "203.0.113.5"}, // not a proxy: the header is ignored
		{"10.1.2.3:1", nil, "10.1.2.3"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		if got != c.want {
			t.Errorf("%s with %q: network %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

// TestNew_NeedsClock: a limiter is never on a clock of its own: New
// without one panics (a limiter on the wall clock would not follow the
// service's clock, nor a test's).
func TestNew_NeedsClock(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New without a clock made a limiter")
		}
	}()
	New(Policy{Name: "votes", Quota: 60, Window: time.Hour}, nil)
}
