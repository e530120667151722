package tools

import (
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolLike finds the snake_case words of a text; the ones that are catalog
// operations are the tools it names.
var toolLike = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

// namedTools are the catalog tools a text names.
func namedTools(text string) []string {
	var out []string
	for _, w := range toolLike.FindAllString(text, -1) {
		if _, ok := catalogByName()[w]; ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func catalogByName() map[string]Operation {
	m := map[string]Operation{}
	for _, op := range Catalog() {
		m[op.Name] = op
	}
	return m
}

// TestToolsets_NextNamesOnlyServedTools: what submit_draft and
// get_my_listing say to do next names only tools the connection serves. On
// the selection without the paid tools (docs/apps.md), by query and by
// header, submit_draft names choose_free_listing and not create_checkout; on
// drafts alone neither (the ways are named by their toolsets); on
// drafts,orders create_checkout only; without a selection both, as before.
// Through the go-sdk client on the real /mcp, a draft built from a local site.
func TestToolsets_NextNamesOnlyServedTools(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "maker@example.com")
	call := mcpCaller(env, key)(t)
	st, sub := call(t, "submit_listing", map[string]any{"url": site.URL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, sub)
	}
	id := sub["id"].(string)
	if d := builtDraft(t, env, call, id); d["status"] != "ready" {
		t.Fatalf("draft %v, want ready", d["status"])
	}
	signedIn := map[string]string{"Authorization": "Bearer " + key}
	for _, tc := range []struct {
		name, query string
		hdr         map[string]string
		named       []string // tools the answer must name
	}{
		{"without paid tools", "?toolsets=" + paidFreeSelection, nil, []string{"choose_free_listing"}},
		{"without paid tools, header", "", map[string]string{ToolsetsHeader: paidFreeSelection}, []string{"choose_free_listing"}},
		{"drafts", "?toolsets=drafts", nil, nil},
		{"drafts,orders", "?toolsets=drafts,orders", nil, []string{"create_checkout"}},
		{"default", "", nil, []string{"choose_free_listing", "create_checkout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := maps.Clone(signedIn)
			maps.Copy(hdr, tc.hdr)
			cs := tsConnect(t, env, tc.query, "", hdr)
			served, _ := tsList(t, cs)
			check := func(tool string, args map[string]any) map[string]any {
				t.Helper()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				text := res.Content[0].(*mcp.TextContent).Text
				var out map[string]any
				if err := json.Unmarshal([]byte(text), &out); err != nil || res.IsError {
					t.Fatalf("%s: %s", tool, text)
				}
				next, _ := out["next"].(string)
				for _, n := range namedTools(next) {
					if !slices.Contains(served, n) {
						t.Errorf("%s names %s, which this connection does not serve: %q", tool, n, next)
					}
				}
				t.Logf("%s: %s", tool, next)
				return out
			}
			out := check("submit_draft", map[string]any{"id": id})
			named := namedTools(out["next"].(string))
			for _, n := range tc.named {
				if !slices.Contains(named, n) {
					t.Errorf("submit_draft names %v, want %s among them: %q", named, n, out["next"])
				}
			}
			if !strings.Contains(out["next"].(string), "not published") {
				t.Errorf("submit_draft next %q does not say the listing is not published", out["next"])
			}
			if slices.Contains(served, "get_my_listing") {
				check("get_my_listing", map[string]any{"listing_id": out["listing_id"]})
			}
		})
	}
}
