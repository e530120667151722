package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"
)

// fatalRecorder is a testing.TB whose Fatal and Fatalf record the message
// and end the calling goroutine (as the real ones do) instead of failing
// the test: a test of a helper's failure runs the helper with it.
type fatalRecorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *fatalRecorder) Fatal(args ...any) { r.record(fmt.Sprint(args...)) }

func (r *fatalRecorder) Fatalf(format string, args ...any) { r.record(fmt.Sprintf(format, args...)) }

func (r *fatalRecorder) record(msg string) {
	r.mu.Lock()
	r.msg = msg
	r.mu.Unlock()
	runtime.Goexit()
}

// fatalOf runs f with a fatalRecorder on t and returns the message f failed
// with ("" if it returned), and how long f took.
func fatalOf(t *testing.T, f func(tb testing.TB)) (string, time.Duration) {
	t.Helper()
	r := &fatalRecorder{TB: t}
	began := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msg, time.Since(began)
}

// TestStartServe_ExitBeforeBannerFailsFast: a serve that ends before its
// banner (here: its listen address is taken, and an unknown flag) fails the
// test at once, naming how it ended and with what it wrote to stderr,
// instead of waiting out the bound for the banner (a load-tolerant bound of
// minutes, serveReadyBound).
func TestStartServe_ExitBeforeBannerFailsFast(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, c := range []struct {
		name string
		args []string
		want []string // in the failure message
	}{
		// serve's own error: the address is in use.
		{"address taken", []string{"--addr", taken.Addr().String()}, []string{"address already in use"}},
		// The flag package's complaint and the usage it prints to stderr.
		{"unknown flag", []string{"--no-such-flag"}, []string{"flag provided but not defined: -no-such-flag", "listen address"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, took := fatalOf(t, func(tb testing.TB) { startServeAt(tb, time.Now, c.args...) })
			if msg == "" {
				t.Fatal("startServe returned for a serve that ended")
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the failure does not say %q:\n%s", w, msg)
				}
			}
			if took > time.Minute {
				t.Errorf("it failed after %v: not fast", took)
			}
		})
	}
}

// serveReadyBound is how long a test waits for a serve to print its banner
// (printBanner, written once its listener is bound and the service is open:
// the process is ready). It is a bound, not a speed check: with --demo,
// serve seeds the demo before its banner, which takes seconds alone and
// minutes on a 2-core machine shared with other test binaries (a 90 s bound
// failed there). A serve that ends before its banner fails at once instead
// (awaitBanner).
const serveReadyBound = 5 * time.Minute

// awaitBanner reads a serve's stdout until its banner is in (the line with
// "Admin:", printBanner's last) and returns it; after that it keeps
// draining stdout. It fails fast when stdout ends first (the process or
// in-process run ended: the caller adds how, and its stderr) and after bound.
// The error holds what stdout had.
func awaitBanner(stdout io.Reader, bound time.Duration) (string, error) {
	type result struct {
		out string
		err error
	}
	got := make(chan result, 1)
	out := &syncBuffer{}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := stdout.Read(buf)
			out.Write(buf[:n])
			if s := out.String(); reBannerEnd.MatchString(s) {
				got <- result{out: s}
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
			if err != nil {
				got <- result{out: out.String(), err: fmt.Errorf("stdout ended before the banner (%v)", err)}
				return
			}
		}
	}()
	select {
	case r := <-got:
		if r.err != nil {
			return "", fmt.Errorf("%w; stdout:\n%s", r.err, r.out)
		}
		return r.out, nil
	case <-time.After(bound):
		return "", fmt.Errorf("no banner in %v; stdout so far:\n%s", bound, out)
	}
}

// reBannerEnd matches a whole banner: its last line, "Admin:", ended.
var reBannerEnd = regexp.MustCompile(`(?m)^\s*Admin:.*\n`)

// goroutines is every goroutine's stack, grouped (pprof's debug=1 text): for
// a serve run in the test binary that is still silent after the bound, where
// it waits.
func goroutines() string {
	var b strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
	return b.String()
}

// TestAwaitBanner: the banner is read whole from a stdout that writes it in
// pieces; a stdout silent past the bound, or one that ends first, is an
// error that holds what it wrote.
func TestAwaitBanner(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, "launchdir is serving x on 127.0.0.1:1\n  Admin:    http://127.0.0.1:1/")
		io.WriteString(pw, "admin\n  more\n")
		io.WriteString(pw, "a log line after the banner\n") // drained
		pw.Close()
	}()
	if b, err := awaitBanner(pr, time.Minute); err != nil || !strings.HasSuffix(b, "/admin\n  more\n") {
		t.Errorf("banner %q, %v", b, err)
	}

	silent, w, err := os.Pipe() // the kernel's buffer holds the line before the wait starts
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	defer w.Close()
	io.WriteString(w, "half a banner\n")
	if _, err := awaitBanner(silent, 200*time.Millisecond); err == nil || !strings.Contains(err.Error(), "no banner in 200ms; stdout so far:\nhalf a banner") {
		t.Errorf("silent stdout: %v", err)
	}

	ended, w2 := io.Pipe()
	go func() { io.WriteString(w2, "half a banner\n"); w2.Close() }()
	if _, err := awaitBanner(ended, time.Minute); err == nil || !strings.Contains(err.Error(), "half a banner") {
		t.Errorf("ended stdout: %v", err)
	}
}
