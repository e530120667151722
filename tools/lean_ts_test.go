//go:build e2e

package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// leanTSScript lists the tools with the TypeScript SDK client and calls every
// public tool: the SDK compiles each lean output schema (Ajv) and validates
// structuredContent against it, throwing on a mismatch (list_products is
// left out: the conformance server configures no ordering). It also checks that
// the lean shapes (patternProperties, no $schema) are what it was given.
const leanTSScript = `
import { Client } from "SDK/dist/esm/client/index.js";
import { StreamableHTTPClientTransport } from "SDK/dist/esm/client/streamableHttp.js";
const c = new Client({ name: "lean-check", version: "1.0.0" });
await c.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const { tools } = await c.listTools();
const lean = JSON.stringify(tools);
if (!lean.includes("patternProperties") || lean.includes("$schema")) { console.log("FAIL: not the lean schemas"); process.exit(1); }
const found = await c.callTool({ name: "search_listings", arguments: { per_page: 2 } });
const [x, y] = found.structuredContent.items.map((i) => i.slug);
const calls = [["get_site_info",{}],["search_listings",{q:"notes",per_page:3}],["get_listing",{slug:x}],
 ["get_alternatives",{slug:x}],["compare_listings",{a:x,b:y}],["list_categories",{}],
 ["get_launch_week",{week:"this"}],["list_launches",{}],["get_leaderboard",{board:"billboard"}],["list_founders",{}],
 ["list_blog_posts",{}],["list_awards",{}],["get_badges",{slug:x}],["list_interview_questions",{}]];
let bad = 0;
for (const [n, a] of calls) {
  try {
    const r = await c.callTool({ name: n, arguments: a });
    if (r.isError) { bad++; console.log("FAIL", n, JSON.stringify(r.content).slice(0, 300)); }
    else if (!r.structuredContent) { bad++; console.log("FAIL", n, "no structuredContent"); }
    else console.log("ok", n);
  } catch (e) { bad++; console.log("FAIL", n, e.message.slice(0, 300)); }
}
await c.close();
process.exit(bad ? 1 : 0);
`

// TestLeanSchemas_TypeScriptClient runs the TypeScript SDK client (installed
// with the conformance CLI) against the real /mcp endpoint of a demo server.
func TestLeanSchemas_TypeScriptClient(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	if os.Getenv(confSkipEnv) == "1" {
		t.Skipf("%s=1: skipped with the conformance suite", confSkipEnv)
	}
	inst := confInstall(t)
	url := confStartServer(t) // the /mcp URL
	// inst.cli is <dir>/node_modules/@modelcontextprotocol/conformance/dist/index.js.
	sdk := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(inst.cli))), "sdk")
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		t.Fatalf("TypeScript SDK not installed beside the conformance CLI: %v", err)
	}
	script := filepath.Join(t.TempDir(), "lean.mjs")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(leanTSScript, "SDK/", sdk+"/")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(inst.node, script, url).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("TypeScript SDK client: %v", err)
	}
}
