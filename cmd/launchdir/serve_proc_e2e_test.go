//go:build e2e

package main

import (
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startServeProcess starts cmd (a `launchdir serve` of the built binary)
// with its stderr in logs and waits until it is ready: its banner is in
// (awaitBanner, serveReadyBound). A process that exits first fails the test
// at once with its exit status, stdout and stderr; one still silent after
// the bound is killed and fails with the same. It returns the banner;
// stdout is drained from then on.
func startServeProcess(t testing.TB, cmd *exec.Cmd, logs *syncBuffer) string {
	t.Helper()
	cmd.Stderr = logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	banner, err := awaitBanner(stdout, serveReadyBound)
	if err != nil {
		_ = cmd.Process.Kill() // a no-op if it exited
		state := cmd.Wait()
		t.Fatalf("%s: %v\nexit: %v\nstderr:\n%s", strings.Join(cmd.Args, " "), err, state, logs)
	}
	return banner
}

// TestServeProcess_ExitBeforeBannerFailsFast: a serve process that exits
// before its banner (its listen address is taken) fails the test at once
// with its exit status and its stderr, not after the bound for the banner.
func TestServeProcess_ExitBeforeBannerFailsFast(t *testing.T) {
	t.Parallel() // owns its process, data and port
	bin := builtBinary(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	msg, took := fatalOf(t, func(tb testing.TB) {
		startServeProcess(tb, exec.Command(bin, "serve", "--addr", taken.Addr().String(), "--data", t.TempDir()), &syncBuffer{})
	})
	if msg == "" {
		t.Fatal("startServeProcess returned for a process that exited")
	}
	for _, w := range []string{"exit status 1", "address already in use"} {
		if !strings.Contains(msg, w) {
			t.Errorf("the failure does not say %q:\n%s", w, msg)
		}
	}
	if took > time.Minute {
		t.Errorf("it failed after %v: not fast", took)
	}
}
