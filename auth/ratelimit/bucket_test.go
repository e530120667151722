package ratelimit

import (
	"testing"
	"time"
)

// TestBucket_RefillAndRetry: a token-bucket policy takes one token a
// request from a burst of Quota refilled evenly over Window; a refusal
// counts nothing and says when the next token is back.
func TestBucket_RefillAndRetry(t *testing.T) {
	clk := newTestClock()
	l := NewBucket(Policy{Name: "signin", Quota: 4, Window: 2 * time.Second}, clk.Now) // 2 a second
	st := l.Take("k")
	if !st.OK || st.Remaining != 3 || st.ResetSeconds() != 1 || st.Policy.Name != "signin" {
		t.Fatalf("first: %+v", st)
	}
	for range 3 {
		l.Take("k")
	}
	if st := l.Take("k"); st.OK || st.Remaining != 0 || st.Reset != 500*time.Millisecond || st.ResetSeconds() != 1 {
		t.Fatalf("fifth: %+v", st)
	}
	if st := l.Take("other"); !st.OK || st.Remaining != 3 {
		t.Fatalf("another key has its own bucket: %+v", st)
	}
	clk.Advance(1500 * time.Millisecond) // 3 tokens back; the refused request took none
	if st := l.Peek("k"); !st.OK || st.Remaining != 3 {
		t.Fatalf("peek after 1.5 s: %+v", st)
	}
	if st := l.TakeN("k", 3); !st.OK || st.Remaining != 0 {
		t.Fatalf("three at once: %+v", st)
	}
	if st := l.TakeN("k", 5); st.OK || st.ResetSeconds() != 1 {
		t.Fatalf("more than the burst at once: %+v", st)
	}
	slow := NewBucket(Policy{Name: "register", Quota: 20, Window: time.Hour}, clk.Now) // one every 3 minutes
	for range 20 {
		slow.Take("ip")
	}
	if st := slow.Take("ip"); st.OK || st.ResetSeconds() != 180 {
		t.Fatalf("register: %+v", st)
	}
	if NewBucket(Policy{Name: "x"}, nil) != nil {
		t.Fatal("a quota of 0 means no limiter")
	}
	var none *Limiter
	if !none.Take("k").OK {
		t.Fatal("a nil limiter limits nothing")
	}
}

// TestBucket_Sweep: buckets idle long enough to be full again are forgotten
// (a new one is the same), the others are kept.
func TestBucket_Sweep(t *testing.T) {
	clk := newTestClock()
	l := NewBucket(Policy{Name: "operations", Quota: 40, Window: 2 * time.Second}, clk.Now)
	l.Take("a")
	l.Take("b")
	if l.size() != 2 {
		t.Fatalf("buckets = %d", l.size())
	}
	clk.Advance(time.Minute + time.Second)
	l.Take("c")
	if l.size() != 1 {
		t.Errorf("idle buckets not evicted: %d left", l.size())
	}
	long := NewBucket(Policy{Name: "register", Quota: 20, Window: time.Hour}, clk.Now)
	long.Take("a")
	clk.Advance(2 * time.Minute)
	long.Take("b")
	if st := long.Peek("a"); long.size() != 2 || st.Remaining != 19 {
		t.Errorf("a bucket not yet full was evicted: %d buckets, %+v", long.size(), st)
	}
}

// TestWindow_TakeN: a fixed window counts n requests at once, or none.
func TestWindow_TakeN(t *testing.T) {
	l := New(Policy{Name: "mcp", Quota: 5, Window: time.Minute}, newTestClock().Now)
	if st := l.TakeN("k", 3); !st.OK || st.Remaining != 2 {
		t.Fatalf("three: %+v", st)
	}
	if st := l.TakeN("k", 3); st.OK {
		t.Fatalf("three more: %+v", st)
	}
	if st := l.Take("k"); !st.OK || st.Remaining != 1 {
		t.Fatalf("the refusal counted: %+v", st)
	}
}
