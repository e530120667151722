//go:build e2e

// Package browsertest drives a real headless Chromium from Go tests: it finds
// Chromium (installing Debian's chromium package when it is missing, the way
// the MCP conformance test installs Node), starts it with the flags this
// project's machines need, opens pages at desktop and phone sizes, saves a
// screenshot of every step as test output (the page's top ShotMaxHeight CSS
// pixels, and a longer page's last screen), and collects console errors and
// broken images.
//
// It is for tests only: no non-test code imports it
// (cmd/launchdir/deps_test.go holds that), and it builds only with the e2e
// tag, so the default tier's `go test ./...` compiles neither it nor chromedp
// (about 10 s of compile CPU on a cold build cache).
package browsertest

import (
	"context"
	"fmt"
	"github.com/launchdir/launchdir/internal/testtier"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// SkipEnv skips every browser test when set to "1" (offline work; CI never sets it).
	SkipEnv = "LAUNCHDIR_SKIP_BROWSER"
	// ChromiumEnv names the Chromium binary to use instead of /usr/bin/chromium.
	ChromiumEnv = "LAUNCHDIR_CHROMIUM"
	// ScreenshotEnv is the directory screenshots are written under.
	ScreenshotEnv = "LAUNCHDIR_SCREENSHOT_DIR"
	// debianChromium is where Debian's chromium package puts the browser.
	debianChromium = "/usr/bin/chromium"
)

// Chromium returns the Chromium binary the browser tests run: $LAUNCHDIR_CHROMIUM,
// else /usr/bin/chromium, which it installs from Debian's packages
// (apt-get install chromium, as root or through sudo -n) when it is missing.
// It skips the test only when LAUNCHDIR_SKIP_BROWSER=1; a Chromium that cannot
// be found or installed fails the test, saying what to install.
func Chromium(t testing.TB) string {
	t.Helper()
	testtier.Skip(t, "browser")
	if os.Getenv(SkipEnv) == "1" {
		t.Skipf("%s=1: browser test skipped", SkipEnv)
	}
	if p := os.Getenv(ChromiumEnv); p != "" {
		if err := runs(p); err != nil {
			t.Fatalf("%s=%s does not run: %v", ChromiumEnv, p, err)
		}
		return p
	}
	if runs(debianChromium) == nil {
		return debianChromium
	}
	install(t)
	if err := runs(debianChromium); err != nil {
		t.Fatalf("%s does not run after installing Debian's chromium package: %v", debianChromium, err)
	}
	return debianChromium
}

// runs checks that the binary at path answers --version.
func runs(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %v %s", path, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// install installs Debian's chromium package. go test runs packages in
// parallel processes, so an exclusive lock on a file in the temporary
// directory lets one process install while the others wait, and find it
// installed.
func install(t testing.TB) {
	t.Helper()
	lockPath := filepath.Join(os.TempDir(), "launchdir-chromium-install.lock")
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("browser tests: open the install lock %s: %v", lockPath, err)
	}
	defer f.Close()
	t.Logf("browser tests: %s is missing; waiting for the install lock %s", debianChromium, lockPath)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("browser tests: lock %s: %v", lockPath, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if runs(debianChromium) == nil {
		t.Logf("browser tests: another test process installed %s", debianChromium)
		return
	}

	var prefix []string
	if os.Geteuid() != 0 {
		sudo, err := exec.LookPath("sudo")
		if err != nil {
			t.Fatalf("browser tests need Chromium: %s is missing and this user (uid %d) is not root and has no sudo to install it.\n"+
				"Install Debian's package as root: apt-get install -y --no-install-recommends chromium\n"+
				"(or point %s at a Chromium binary, or set %s=1 to skip the browser tests)", debianChromium, os.Geteuid(), ChromiumEnv, SkipEnv)
		}
		prefix = []string{sudo, "-n", "env", "DEBIAN_FRONTEND=noninteractive"}
	}
	apt := func(args ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		argv := append(append([]string{}, prefix...), append([]string{"apt-get"}, args...)...)
		start := time.Now()
		t.Logf("browser tests: running %s", strings.Join(argv, " "))
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdin = nil
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(out, 40))
		}
		t.Logf("browser tests: %s took %v", strings.Join(argv, " "), time.Since(start).Round(time.Second))
		return nil
	}
	installArgs := []string{"install", "-y", "--no-install-recommends", "chromium"}
	start := time.Now()
	// The package lists may be missing (a fresh image) or stale: update first.
	err = apt("update")
	if err == nil {
		err = apt(installArgs...)
	}
	if err != nil {
		t.Fatalf("browser tests need Chromium and could not install it: %v\n"+
			"Install Debian's package: apt-get install -y --no-install-recommends chromium\n"+
			"(or point %s at a Chromium binary, or set %s=1 to skip the browser tests)", err, ChromiumEnv, SkipEnv)
	}
	t.Logf("browser tests: installed Debian's chromium in %v", time.Since(start).Round(time.Second))
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
