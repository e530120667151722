//go:build e2e

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/web/browsertest"
)

const (
	// lintSkipEnv skips TestOpenAPI_Lint when set to "1".
	lintSkipEnv = "LAUNCHDIR_SKIP_REDOCLY"
	// lintTestdata holds package.json, package-lock.json and redocly.yaml.
	lintTestdata = "testdata/openapi-lint"
	// lintMinNode is the lowest Node version the Redocly CLI runs on (its engines: >=20.19).
	lintMinNode = 20
)

// TestOpenAPI_Lint holds the OpenAPI document the real server serves at
// /v1/openapi.json to two independent tools, pinned in
// testdata/openapi-lint/package-lock.json and installed once with npm ci into
// <os.UserCacheDir()>/launchdir/openapi-lint (as the conformance suite is):
//
//   - the Redocly CLI (`redocly lint`, the recommended ruleset from
//     testdata/openapi-lint/redocly.yaml, which also checks every example
//     against its schema): no error and no warning;
//   - @seriousme/openapi-schema-validator (`validate-api`), the OpenAPI
//     3.1 JSON Schema of the OpenAPI Initiative: valid.
//
// Both first lint a broken copy of the document and must report it, so a tool
// that silently checks nothing fails the test. npm must be on PATH and the
// registry reachable; set LAUNCHDIR_SKIP_REDOCLY=1 to skip it.
func TestOpenAPI_Lint(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(lintSkipEnv) == "1" {
		t.Skipf("%s=1: OpenAPI lint skipped", lintSkipEnv)
	}
	dir := browsertest.NpmInstall(t, "openapi-lint", lintTestdata, lintSkipEnv)
	node := lintNode(t, dir)
	redocly := filepath.Join(dir, "node_modules", "@redocly", "cli", "bin", "cli.js")
	validator := filepath.Join(dir, "node_modules", "@seriousme", "openapi-schema-validator", "bin", "validate-api-cli.js")
	config, err := filepath.Abs(filepath.Join(lintTestdata, "redocly.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	env := e2eNewEnv(t, Options{}, false)
	r := env.do(t, http.MethodGet, "/v1/openapi.json", nil, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json: %d", r.status)
	}
	work := t.TempDir()
	good := filepath.Join(work, "openapi.json")
	if err := os.WriteFile(good, r.body, 0o644); err != nil {
		t.Fatal(err)
	}
	// The broken copy: no info, and one operation without responses.
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "info")
	delete(doc["paths"].(map[string]any)["/site"].(map[string]any)["get"].(map[string]any), "responses")
	broken := filepath.Join(work, "broken.json")
	b, _ := json.Marshal(doc)
	if err := os.WriteFile(broken, b, 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("redocly", func(t *testing.T) {
		if rep := lintRedocly(t, node, redocly, config, broken); rep.Totals.Errors == 0 {
			t.Fatalf("redocly lint finds no error in the broken copy (no info, an operation without responses): %+v", rep.Totals)
		}
		rep := lintRedocly(t, node, redocly, config, good)
		for _, p := range rep.Problems {
			var at []string
			for _, l := range p.Location {
				at = append(at, l.Pointer)
			}
			t.Errorf("redocly %s %s at %s: %s", p.Severity, p.RuleID, strings.Join(at, ", "), p.Message)
		}
		t.Logf("redocly lint %s (recommended): %d errors, %d warnings, %d ignored", rep.Version,
			rep.Totals.Errors, rep.Totals.Warnings, rep.Totals.Ignored)
	})
	t.Run("openapi-schema-validator", func(t *testing.T) {
		if out, err := lintRun(t, node, validator, broken); err == nil || !strings.Contains(out, `"valid": false`) {
			t.Fatalf("validate-api accepts the broken copy (err %v):\n%s", err, out)
		}
		out, err := lintRun(t, node, validator, good)
		if err != nil || !strings.Contains(out, `"valid": true`) {
			t.Fatalf("validate-api rejects /v1/openapi.json (err %v):\n%s", err, out)
		}
		t.Logf("validate-api: valid")
	})
}

// lintReport is the JSON output of `redocly lint --format json`.
type lintReport struct {
	Totals struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Ignored  int `json:"ignored"`
	} `json:"totals"`
	Version  string `json:"version"`
	Problems []struct {
		RuleID   string `json:"ruleId"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Location []struct {
			Pointer string `json:"pointer"`
		} `json:"location"`
	} `json:"problems"`
}

func lintRedocly(t *testing.T, node, cli, config, file string) lintReport {
	t.Helper()
	out, err := lintRun(t, node, cli, "lint", "--config", config, "--format", "json", file)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("run redocly: %v", err)
	}
	// The report is the JSON object on stdout; notices may come before it.
	start := strings.Index(out, "{\n")
	var rep lintReport
	if start < 0 || json.NewDecoder(strings.NewReader(out[start:])).Decode(&rep) != nil || rep.Version == "" {
		t.Fatalf("redocly lint printed no JSON report (exit %v):\n%s", err, out)
	}
	if (err != nil) != (rep.Totals.Errors > 0) {
		t.Errorf("redocly exit %v with %d errors", err, rep.Totals.Errors)
	}
	return rep
}

// lintRun runs a Node CLI and returns its standard output (standard error is
// appended when it fails).
func lintRun(t *testing.T, node, script string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"NO_COLOR=1", "FORCE_COLOR=0", "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "CI=true")
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + "\n" + stderr.String(), err
	}
	return string(out), nil
}

// lintNode is the pinned Node 22 on linux/x64, else a node >= 20 on PATH.
func lintNode(t *testing.T, dir string) string {
	t.Helper()
	pinned := filepath.Join(dir, "node_modules", confNodePackage, "bin", "node")
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && confNodeMajor(pinned) >= lintMinNode {
		return pinned
	}
	node, err := exec.LookPath("node")
	if err != nil || confNodeMajor(node) < lintMinNode {
		t.Fatalf("the Redocly CLI needs Node >= 20.19: none on PATH (found %q); install Node 22 or set %s=1",
			node, lintSkipEnv)
	}
	return node
}
