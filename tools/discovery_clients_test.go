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

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/browsertest"
)

// TestMCPClients_FromServerCard connects two real MCP clients to the real
// stack (auth, discovery, /mcp over the demo data) knowing only the site's
// origin, as docs/discovery.md describes:
//
//   - the TypeScript SDK v2 client (@modelcontextprotocol/client), run by
//     testdata/mcpclients/fromcard.mjs, reads /.well-known/ai-catalog.json,
//     follows it to the Server Card, connects to the card's streamable-http
//     remote with version negotiation and lists the tools;
//   - the MCP Inspector CLI runs the command of the client set-up docs
//     (npx @modelcontextprotocol/inspector --cli URL --transport http
//     --method tools/list), whose URL must be the one the card at
//     /.well-known/mcp/server-card.json names.
//
// Both must list every tool of the catalog; the protocol version the SDK
// negotiates must be one the card names. The clients and, on linux/x64,
// Node 22 are installed with npm ci like the conformance suite's; set
// LAUNCHDIR_SKIP_CONFORMANCE=1 to skip.
func TestMCPClients_FromServerCard(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: MCP client test skipped", confSkipEnv)
	}
	dir := browsertest.NpmInstall(t, "mcpclients", clientsTestdata, confSkipEnv)
	node := clientsNode(t, dir)
	origin := discServer(t)
	var catalog []string
	for _, op := range Catalog() {
		catalog = append(catalog, op.Name)
	}
	slices.Sort(catalog)
	var card ServerCard
	_, body := discGet(t, origin+WellKnownServerCardPath)
	if err := json.Unmarshal(body, &card); err != nil || len(card.Remotes) == 0 {
		t.Fatalf("card: %v %s", err, body)
	}

	t.Run("typescript-sdk", func(t *testing.T) {
		script, _ := filepath.Abs(filepath.Join(clientsTestdata, "fromcard.mjs"))
		out := clientsRun(t, node, "", script, origin, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "client"))
		var got struct {
			Card, MCPURL, Negotiated string
			Tools                    []string
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
			t.Fatalf("fromcard.mjs printed no result: %v\n%s", err, out)
		}
		t.Logf("TS SDK: card %s -> %s, negotiated %s, %d tools", got.Card, got.MCPURL, got.Negotiated, len(got.Tools))
		if got.MCPURL != origin+"/mcp" || got.Card != origin+ServerCardPath {
			t.Errorf("the client went card %s -> %s, want %s -> %s/mcp", got.Card, got.MCPURL, origin+ServerCardPath, origin)
		}
		if !slices.Contains(card.Remotes[0].SupportedProtocolVersions, got.Negotiated) {
			t.Errorf("negotiated %q, not among the card's %v", got.Negotiated, card.Remotes[0].SupportedProtocolVersions)
		}
		slices.Sort(got.Tools)
		if !slices.Equal(got.Tools, catalog) {
			t.Errorf("tools = %v, want %v", got.Tools, catalog)
		}
	})

	t.Run("inspector-cli", func(t *testing.T) {
		cli := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
		// The command of the client set-up docs, at this origin, whose URL
		// must be the card's.
		site := domain.Site{Name: "Launchdir", BaseURL: origin}
		const npx = "npx @modelcontextprotocol/inspector "
		var args []string
		for _, l := range strings.Split(ClientSetupMarkdown(site), "\n") {
			if strings.HasPrefix(l, npx+"--cli ") {
				args = strings.Fields(strings.TrimPrefix(l, npx))
			}
		}
		if len(args) < 2 || args[1] != card.Remotes[0].URL {
			t.Fatalf("the docs' Inspector command has arguments %q; want --cli %s ...", args, card.Remotes[0].URL)
		}
		out := clientsRun(t, node, t.TempDir(), append([]string{cli}, args...)...)
		var got struct {
			Tools []struct{ Name string }
		}
		i := strings.Index(out, "{")
		if i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&got) != nil {
			t.Fatalf("inspector printed no tools/list result:\n%s", confClip(out, 2000))
		}
		var names []string
		for _, tool := range got.Tools {
			names = append(names, tool.Name)
		}
		t.Logf("Inspector CLI: %s -> %d tools", card.Remotes[0].URL, len(names))
		slices.Sort(names)
		if !slices.Equal(names, catalog) {
			t.Errorf("tools = %v, want %v", names, catalog)
		}
	})
}

// clientsNode is the pinned Node 22 of the install on linux/x64, else a
// node >= 22 on PATH (the Inspector needs 22.19 or later).
func clientsNode(t *testing.T, dir string) string {
	t.Helper()
	pinned := filepath.Join(dir, "node_modules", confNodePackage, "bin", "node")
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && confNodeMajor(pinned) >= confMinNode {
		return pinned
	}
	node, err := exec.LookPath("node")
	if err != nil || confNodeMajor(node) < confMinNode {
		t.Fatalf("the MCP clients need Node >= %d: none on PATH (found %q); install Node %d+ or set %s=1", confMinNode, node, confMinNode, confSkipEnv)
	}
	return node
}

// clientsRun runs node with args (HOME set to home when not "") and
// returns its output; a failure fails the test.
func clientsRun(t *testing.T, node, home string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1", "FORCE_COLOR=0")
	if home != "" {
		cmd.Env = append(cmd.Env, "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"))
	}
	cmd.Dir = t.TempDir()
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(node), strings.Join(args, " "), err, confClip(confStripANSI(out), 3000))
	}
	return confStripANSI(out)
}
