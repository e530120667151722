//go:build e2e

package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
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

// clientsSelection is one toolset selection the real clients connect to:
// its URL (the signed-in listener when none of its tools is public), extra
// headers, the tools it serves, a tool to call with no arguments and one
// outside it.
type clientsSelection struct {
	name, url string
	hdr       map[string]string
	want      []string
	call      string
	outside   string
}

// clientsSelections are the default selection, every toolset alone
// (ToolsetNames: docs/toolsets.md), the selection without the paid tools
// (docs/apps.md) and public,drafts by the X-MCP-Toolsets header. The tool
// called is the first read-only one of the selection (public first, as
// tools/list orders them) that needs no argument; the outside tool is the
// first of the catalog not served.
func clientsSelections(t *testing.T, anonymous, signedIn string) []clientsSelection {
	t.Helper()
	ops := Catalog()
	sels := []clientsSelection{{name: "default", url: anonymous}}
	for _, name := range append(ToolsetNames(), paidFreeSelection) {
		sels = append(sels, clientsSelection{name: name, url: anonymous + "?" + ToolsetsParam + "=" + name})
	}
	sels = append(sels, clientsSelection{name: "header public,drafts", url: anonymous, hdr: map[string]string{ToolsetsHeader: "public,drafts"}})
	for i := range sels {
		c := &sels[i]
		spec := strings.TrimPrefix(strings.TrimPrefix(c.url, anonymous), "?"+ToolsetsParam+"=")
		if c.hdr != nil {
			spec = c.hdr[ToolsetsHeader]
		}
		sel := defaultSelection
		if spec != "" {
			var fe *domain.FieldError
			if sel, fe = parseToolsetList(ToolsetsParam, spec); fe != nil {
				t.Fatal(fe)
			}
		}
		var public, private []string // candidates to call, public first
		for _, op := range ops {
			if !sel.has(op.Spec) {
				if c.outside == "" {
					c.outside = op.Name
				}
				continue
			}
			c.want = append(c.want, op.Name)
			var in struct{ Required []string }
			if err := json.Unmarshal(op.MCPInputSchema(), &in); err != nil {
				t.Fatal(err)
			}
			switch {
			case !op.ReadOnly || len(in.Required) > 0:
			case op.Scope == "":
				public = append(public, op.Name)
			default:
				private = append(private, op.Name)
			}
		}
		slices.Sort(c.want)
		if len(public) == 0 {
			c.url = strings.Replace(c.url, anonymous, signedIn, 1)
		}
		callable := slices.Concat(public, private)
		if len(callable) == 0 {
			t.Fatalf("%s: no read-only tool without arguments to call", c.name)
		}
		c.call = callable[0]
	}
	return sels
}

// TestMCPClients_Toolsets connects the TypeScript SDK client and the MCP
// Inspector CLI to the real /mcp (the stack of the conformance test, one
// per subtest, the subtests in parallel; one install for all, and one
// process of the TypeScript client for its twelve sessions) on every
// selection of clientsSelections: the default, each of the nine toolsets
// alone, the selection without the paid tools, and public,drafts by the
// X-MCP-Toolsets header. Each client lists exactly the selection's tools
// and calls one of them (the TypeScript SDK validates its
// structuredContent against the output schema); the TypeScript client's
// call of a tool outside the selection fails as an unknown tool. The log
// reports tools/list per selection: the tools and the bytes of the result
// as the Inspector prints it, compacted.
// Skipped with LAUNCHDIR_SKIP_CONFORMANCE=1.
func TestMCPClients_Toolsets(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: MCP client tests skipped", confSkipEnv)
	}
	inst := clientsInstall(t)
	// The selections are computed once against placeholder origins; each
	// subtest runs in parallel on a stack of its own (confStartStack: a copy
	// of the seeded template, its own server and per-network budgets, as
	// TestMCPConformance's parts do) and points the selection's URL at it.
	const anonBase, signedBase = "http://anonymous.invalid", "http://signed-in.invalid"
	own := func(t *testing.T, tc clientsSelection) clientsSelection {
		t.Helper()
		anonymous, signedIn := confStartStack(t)
		switch {
		case strings.HasPrefix(tc.url, anonBase):
			tc.url = anonymous + strings.TrimPrefix(tc.url, anonBase)
		case strings.HasPrefix(tc.url, signedBase):
			tc.url = signedIn + strings.TrimPrefix(tc.url, signedBase)
		default:
			t.Fatalf("%s: URL %q on neither placeholder origin", tc.name, tc.url)
		}
		return tc
	}
	ts := startTSClients(t, inst)
	for _, sel := range clientsSelections(t, anonBase, signedBase) {
		t.Run("TypeScriptSDK/"+sel.name, func(t *testing.T) {
			t.Parallel()
			tc := own(t, sel)
			out, err := ts.session(t, tc.url, tc.call, tc.outside, tc.hdr)
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
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("TypeScript client output %q: %v", out, err)
			}
			if got := slices.Sorted(slices.Values(res.Tools)); !slices.Equal(got, tc.want) {
				t.Errorf("tools/list = %v\nwant %v", got, tc.want)
			}
			if res.Call.IsError || !strings.HasPrefix(res.Call.Text, "{") {
				t.Errorf("%s: %+v", tc.call, res.Call)
			}
			if tc.outside != "" && (res.Outside == nil || !strings.Contains(res.Outside.Error, "unknown tool")) {
				t.Errorf("%s outside the selection: %+v, want an unknown tool error", tc.outside, res.Outside)
			}
			t.Logf("protocol %s, %d tools, called %s, outside %q", res.Protocol, len(res.Tools), tc.call, tc.outside)
		})
		t.Run("Inspector/"+sel.name, func(t *testing.T) {
			t.Parallel()
			tc := own(t, sel)
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
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(out)); err != nil {
				t.Fatal(err)
			}
			t.Logf("tools/list: %d tools, %d bytes", len(got), compact.Len())
			out, err = inst.run(t, nil, append(slices.Clone(args[:3]), append([]string{"--method", "tools/call", "--tool-name", tc.call}, args[5:]...)...)...)
			if err != nil || strings.Contains(out, `"isError": true`) || !strings.Contains(out, `"structuredContent"`) {
				t.Errorf("inspector tools/call %s on %s: %v\n%s", tc.call, tc.url, err, confClip(out, 1000))
			}
		})
	}
}

// tsClients is one process of the TypeScript client script (client.mjs) that
// runs the sessions of every TypeScriptSDK subtest: each session is a new
// client and transport, as a process of its own was, without a Node start
// and the SDK's loading per selection (about a second of CPU each). It ends
// when the test that started it does.
type tsClients struct {
	mu      sync.Mutex
	in      io.WriteCloser
	next    int
	waiting map[int]chan []byte
	done    chan struct{} // closed when the process's output ends
	errMu   sync.Mutex
	stderr  strings.Builder
}

// startTSClients starts the client script for t's subtests.
func startTSClients(t *testing.T, inst clientsInstallation) *tsClients {
	t.Helper()
	// No deadline for the process: its sessions run when their subtests
	// get a parallel slot, which in the e2e tier may be many minutes after
	// the parent starts it. Each session has its own (session), and the
	// process is killed if it outlives its input by 30 s.
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, inst.node, inst.script)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "NO_COLOR=1", "FORCE_COLOR=0", "MCP_SDK_DIR="+inst.sdk,
		"PATH="+filepath.Dir(inst.node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.WaitDelay = 10 * time.Second
	c := &tsClients{waiting: map[int]chan []byte{}, done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{w: &c.stderr, mu: &c.errMu}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("TypeScript client: %v", err)
	}
	c.in = in
	go func() {
		defer close(c.done)
		lines := bufio.NewScanner(out)
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			var id struct{ ID int }
			if json.Unmarshal(lines.Bytes(), &id) != nil {
				continue // not an answer: the test reports a missing one
			}
			c.mu.Lock()
			ch := c.waiting[id.ID]
			delete(c.waiting, id.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- slices.Clone(lines.Bytes())
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		kill := time.AfterFunc(30*time.Second, cancel)
		defer kill.Stop()
		if err := cmd.Wait(); err != nil {
			t.Errorf("TypeScript client process: %v; stderr: %s", err, confClip(c.stderrText(), 2000))
		}
		cancel()
	})
	return c
}

// session runs one client session (connect to url with hdr, list the tools,
// call tool and outside) and returns its answer line.
func (c *tsClients) session(t *testing.T, url, tool, outside string, hdr map[string]string) ([]byte, error) {
	t.Helper()
	ch := make(chan []byte, 1)
	c.mu.Lock()
	c.next++
	id := c.next
	c.waiting[id] = ch
	line, err := json.Marshal(map[string]any{"id": id, "url": url, "tool": tool, "outside": outside, "headers": hdr})
	if err == nil {
		_, err = c.in.Write(append(line, '\n'))
	}
	c.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("sending the session: %v; stderr: %s", err, confClip(c.stderrText(), 2000))
	}
	select {
	case out := <-ch:
		var failed struct{ Error string }
		if json.Unmarshal(out, &failed) == nil && failed.Error != "" {
			return out, fmt.Errorf("session failed: %s", confClip(failed.Error, 2000))
		}
		return out, nil
	case <-c.done:
		return nil, fmt.Errorf("the process ended without an answer; stderr: %s", confClip(c.stderrText(), 2000))
	case <-time.After(2 * time.Minute):
		return nil, fmt.Errorf("no answer in 2 minutes; stderr: %s", confClip(c.stderrText(), 2000))
	}
}

func (c *tsClients) stderrText() string {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.stderr.String()
}

// lockedWriter writes to w holding mu.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
