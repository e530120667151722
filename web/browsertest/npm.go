//go:build e2e

package browsertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/launchdir/launchdir/internal/testtier"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// NpmInstall installs the npm packages pinned by pkgDir's package.json and
// package-lock.json (npm ci, no install scripts) into the user cache,
// <cache>/launchdir/<name>/cli-<hash of both files>, once per lock file, and
// returns that folder (its node_modules holds the packages). A missing npm or
// a failed install fails the test, naming skipEnv, the variable that skips it.
// Concurrent runs install into a temporary folder and rename it, so none sees
// half an install; installs from older lock files are removed.
func NpmInstall(t testing.TB, name, pkgDir, skipEnv string) string {
	t.Helper()
	testtier.Skip(t, name)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm is not on PATH: this test installs %s with npm "+
			"(install Node.js and npm, or set %s=1 to skip this test)", name, skipEnv)
	}
	cacheDir, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no user cache directory for the %s install: %v", name, err)
	}
	root := filepath.Join(cacheDir, "launchdir", name)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatalf("create %s: %v", root, err)
	}
	var files [2][]byte
	for i, f := range []string{"package.json", "package-lock.json"} {
		if files[i], err = os.ReadFile(filepath.Join(pkgDir, f)); err != nil {
			t.Fatalf("%s install: %v", name, err)
		}
	}
	sum := sha256.Sum256(append(append([]byte{}, files[0]...), files[1]...))
	dir := filepath.Join(root, "cli-"+hex.EncodeToString(sum[:])[:12])
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(root, "install-")
	if err != nil {
		t.Fatalf("%s install: %v", name, err)
	}
	defer os.RemoveAll(tmp)
	for i, f := range []string{"package.json", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(tmp, f), files[i], 0o644); err != nil {
			t.Fatalf("%s install: %v", name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", tmp, "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Env = append(os.Environ(),
		"npm_config_cache="+filepath.Join(root, "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci of the pinned %s failed (is the npm registry reachable?): %v\n%s\n(set %s=1 to skip this test)",
			name, err, tail(out, 40), skipEnv)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".installed"), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		t.Fatalf("%s install: %v", name, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err == nil {
		return dir // another test process finished the same install meanwhile
	}
	_ = os.RemoveAll(dir) // a leftover without the marker
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, ".installed")); statErr != nil {
			t.Fatalf("%s install: %v", name, err)
		}
	}
	t.Logf("installed %s into %s in %v", name, dir, time.Since(start).Round(time.Millisecond))
	if old, err := filepath.Glob(filepath.Join(root, "cli-*")); err == nil {
		for _, o := range old {
			if o != dir && !strings.HasSuffix(o, ".installed") {
				os.RemoveAll(o)
			}
		}
	}
	return dir
}
