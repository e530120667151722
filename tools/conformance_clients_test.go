//go:build e2e

package tools

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/web/browsertest"
)

// clientsTestdata pins the real MCP clients (the TypeScript SDK 1.32 and
// the v2 client package, MCP Inspector 2.12 and Node 22 for linux/x64), one
// install shared by every client test, and holds their scripts (client.mjs
// here, fromcard.mjs for the server card).
const clientsTestdata = "testdata/mcpclients"

// clientsInstallation is the installed clients and the node that runs them.
type clientsInstallation struct {
	node, sdk, inspector, script string
}

// clientsInstall installs (once per lock file, into the user cache) the
// pinned clients and finds a Node >= 22 (Inspector 2.12 needs 22.19).
func clientsInstall(t *testing.T) clientsInstallation {
	t.Helper()
	dir := browsertest.NpmInstall(t, "mcpclients", clientsTestdata, confSkipEnv)
	mods := filepath.Join(dir, "node_modules")
	script, err := filepath.Abs(filepath.Join(clientsTestdata, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	inst := clientsInstallation{sdk: filepath.Join(mods, "@modelcontextprotocol", "sdk"), script: script,
		inspector: filepath.Join(mods, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")}
	for _, p := range []string{inst.sdk, inst.inspector} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s missing after install (remove %s to reinstall): %v", p, dir, err)
		}
	}
	pinned := filepath.Join(mods, confNodePackage, "bin", "node")
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && confNodeMajor(pinned) >= confMinNode {
		inst.node = pinned
		return inst
	}
	node, err := exec.LookPath("node")
	if err != nil || confNodeMajor(node) < confMinNode {
		t.Fatalf("the MCP clients need Node >= %d (none on PATH, found %q); install it or set %s=1", confMinNode, node, confSkipEnv)
	}
	inst.node = node
	return inst
}

// run runs node with args and env, in a temporary HOME (Inspector writes
// ~/.mcp-inspector), and returns its standard output.
func (c clientsInstallation) run(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.node, args...)
	cmd.Env = append(os.Environ(), append([]string{"HOME=" + t.TempDir(), "NO_COLOR=1", "FORCE_COLOR=0",
		"PATH=" + filepath.Dir(c.node) + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), &clientError{err: err, stderr: confClip(stderr.String(), 2000)}
	}
	return string(out), nil
}

type clientError struct {
	err    error
	stderr string
}

func (e *clientError) Error() string { return e.err.Error() + "; stderr: " + e.stderr }

// TestMCPClients_Toolsets connects the TypeScript SDK client and the MCP
// Inspector CLI to the real /mcp (the stack of the conformance test) on the
// default selection and on ?toolsets=public,drafts, and by the
// X-MCP-Toolsets header: each lists exactly the selection's tools and calls
// get_site_info; the TypeScript client's call of a tool outside the
// selection fails as an unknown tool. Skipped with LAUNCHDIR_SKIP_CONFORMANCE=1.
func TestMCPClients_Toolsets(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: MCP client tests skipped", confSkipEnv)
	}
	inst := clientsInstall(t)
	base := confStartServer(t)
	all := make([]string, 0, 41)
	for _, op := range Catalog() {
		all = append(all, op.Name)
	}
	slices.Sort(all)
	selected := tsUnion(tsGroups["public"], tsGroups["drafts"])

	for _, tc := range []struct {
		name, url string
		hdr       map[string]string
		want      []string
		outside   string
	}{
		{"default", base, nil, all, ""},
		{"public,drafts", base + "?toolsets=public,drafts", nil, selected, "get_account"},
		{"header", base, map[string]string{ToolsetsHeader: "public,drafts"}, selected, "list_my_orders"},
	} {
		t.Run("TypeScriptSDK/"+tc.name, func(t *testing.T) {
			hdr, _ := json.Marshal(tc.hdr)
			out, err := inst.run(t, []string{"MCP_SDK_DIR=" + inst.sdk, "MCP_HEADERS=" + string(hdr)},
				inst.script, tc.url, "get_site_info", tc.outside)
			if err != nil {
				t.Fatalf("TypeScript client on %s: %v\n%s", tc.url, err, out)
			}
			var res struct {
				Protocol string
				Tools    []string
				Call     struct {
					IsError bool
					Text    string
				}
				Outside *struct{ Error string }
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("TypeScript client output %q: %v", out, err)
			}
			if got := slices.Sorted(slices.Values(res.Tools)); !slices.Equal(got, tc.want) {
				t.Errorf("tools/list = %v\nwant %v", got, tc.want)
			}
			if res.Call.IsError || !strings.Contains(res.Call.Text, `"name"`) {
				t.Errorf("get_site_info: %+v", res.Call)
			}
			if tc.outside != "" && (res.Outside == nil || !strings.Contains(res.Outside.Error, "unknown tool")) {
				t.Errorf("%s outside the selection: %+v, want an unknown tool error", tc.outside, res.Outside)
			}
			t.Logf("protocol %s, %d tools", res.Protocol, len(res.Tools))
		})
		t.Run("Inspector/"+tc.name, func(t *testing.T) {
			args := []string{inst.inspector, "--cli", tc.url, "--method", "tools/list"}
			for k, v := range tc.hdr {
				args = append(args, "--header", k+": "+v)
			}
			out, err := inst.run(t, nil, args...)
			if err != nil {
				t.Fatalf("inspector tools/list on %s: %v\n%s", tc.url, err, confClip(out, 2000))
			}
			var list struct {
				Tools []struct{ Name string }
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatalf("inspector tools/list output %q: %v", confClip(out, 500), err)
			}
			var got []string
			for _, tl := range list.Tools {
				got = append(got, tl.Name)
			}
			if slices.Sort(got); !slices.Equal(got, tc.want) {
				t.Errorf("inspector tools/list = %v\nwant %v", got, tc.want)
			}
			out, err = inst.run(t, nil, append(slices.Clone(args[:3]), append([]string{"--method", "tools/call", "--tool-name", "get_site_info"}, args[5:]...)...)...)
			if err != nil || !strings.Contains(out, `\"name\"`) && !strings.Contains(out, `"name"`) || strings.Contains(out, `"isError": true`) {
				t.Errorf("inspector tools/call get_site_info on %s: %v\n%s", tc.url, err, confClip(out, 1000))
			}
		})
	}
}
