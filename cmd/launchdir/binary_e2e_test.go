//go:build e2e

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/testtier"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// builtBinary is the launchdir binary built from this package (go build, no
// race detector) once per test binary for the tests that run it as separate
// processes (TestMultiProcess, TestRestartResumesDraft, BenchmarkProcesses):
// they used to build it one after another, a link each. It is removed when
// TestMain ends (testtier.RunAtExit, through pgtest.Main).
func builtBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "launchdir-bin-")
		if err != nil {
			binErr = err
			return
		}
		testtier.AtExit(func() { _ = os.RemoveAll(dir) })
		began := time.Now()
		bin := filepath.Join(dir, "launchdir")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			binErr = &buildError{err: err, out: string(out)}
			return
		}
		binPath = bin
		t.Logf("go build: %v", time.Since(began).Round(time.Millisecond))
	})
	if binErr != nil {
		t.Fatalf("go build: %v", binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
