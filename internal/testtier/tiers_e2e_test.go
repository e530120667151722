//go:build e2e

package testtier

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTiers_GoTest builds testdata/tierpkg with the real go test, once per
// tier (go test -c, with and without the tag), and runs the two binaries in
// the package's directory as go test does: the e2e tier runs the test of the
// tagged file (all its parts) and the engine table's postgres part, not the
// plain test nor the sqlite part that ran in the default tier; AllEnv runs
// everything; and in the default tier a test that reaches Skip by a path the
// selection cannot see fails, naming the selection, instead of skipping its
// outside part in both tiers.
//
// It is in the e2e tier because it builds two test binaries with the go
// command and runs them (about 4 s of CPU), the multi-process kind of test
// that tier holds; TestSelect and TestSelect_Module check the selection
// in-process in the default tier.
func TestTiers_GoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/tierpkg with go test")
	}
	t.Parallel()
	dir := t.TempDir()
	build := func(name string, args ...string) string {
		exe := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"test", "-c", "-o", exe}, args...), "./testdata/tierpkg")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test -c %q: %v\n%s", args, err, out)
		}
		return exe
	}
	e2e, def := build("e2e.test", "-tags", Tag), build("default.test")
	// run runs a binary as go test -count=1 -v does; passed is its exit status.
	run := func(exe string, env []string, args ...string) (out string, passed bool) {
		cmd := exec.Command(exe, append([]string{"-test.count=1", "-test.v=true"}, args...)...)
		cmd.Dir = filepath.Join("testdata", "tierpkg")
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		return string(b), err == nil
	}
	check := func(name string, out string, passed, wantPass bool, want, notWant []string) {
		t.Helper()
		if passed != wantPass {
			t.Errorf("%s: passed %v, want %v:\n%s", name, passed, wantPass, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", name, w, out)
			}
		}
		for _, w := range notWant {
			if strings.Contains(out, w) {
				t.Errorf("%s: output has %q:\n%s", name, w, out)
			}
		}
	}
	out, passed := run(e2e, []string{AllEnv + "="})
	check("e2e tier", out, passed, true,
		[]string{"--- PASS: TestTagged/sqlite", "ran tagged sqlite", "--- PASS: TestTagged/postgres",
			"--- SKIP: TestEngines/sqlite", "--- PASS: TestEngines/postgres", "ran postgres",
			"e2e tier: 2 of 4 top-level tests", "\nPASS\n"},
		[]string{"=== RUN   TestPlain", "=== RUN   TestHidden", "ran plain", "--- PASS: TestEngines/sqlite"})
	out, passed = run(e2e, []string{AllEnv + "=1"})
	check("e2e tier, "+AllEnv+"=1", out, passed, true,
		[]string{"ran plain", "--- PASS: TestEngines/sqlite", "--- PASS: TestTagged", "\nPASS\n"}, nil)
	out, passed = run(def, nil, "-test.run", "^(TestPlain|TestEngines)$")
	check("default tier", out, passed, true,
		[]string{"ran plain", "--- PASS: TestEngines/sqlite", "--- SKIP: TestEngines/postgres", "\nPASS\n"},
		[]string{"TestTagged"})
	out, passed = run(def, nil, "-test.run", "^TestHidden$")
	check("default tier, a test the selection misses", out, passed, false,
		[]string{"--- FAIL: TestHidden", "TestHidden reaches PostgreSQL, which runs in the e2e tier, but the e2e tier does not select it"},
		[]string{"\nPASS\n"})
}
