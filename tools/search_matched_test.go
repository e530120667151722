package tools

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestSearch_Matched checks issue 30 items 1 and 4 through the real router
// and the real /mcp endpoint on the demo data: "invoicing app" finds the
// invoicing tools although "app" is not in their text (a generic word never
// excludes a listing), each item says which query words it matched and
// where, and the MCP result is the REST body.
func TestSearch_Matched(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	rest := catDo(t, env, "GET", "/v1/listings?q=invoicing+app&per_page=20", nil, nil)
	if rest.status != 200 {
		t.Fatalf("REST status %d: %s", rest.status, rest.body)
	}
	var out domain.SearchListingsOutput
	if err := json.Unmarshal(rest.body, &out); err != nil {
		t.Fatal(err)
	}
	invoicing := 0
	for i, it := range out.Items {
		if it.PrimaryCategory != nil && it.PrimaryCategory.Slug == "invoicing" {
			invoicing++
		}
		where, ok := it.Matched["invoicing"]
		if !ok {
			t.Errorf("item %d %s: matched %v lacks invoicing (every listing must match a non-generic word)", i, it.Slug, it.Matched)
			continue
		}
		for _, w := range where {
			if !slices.Contains([]string{"name", "tagline", "category", "text"}, w) {
				t.Errorf("item %s: place %q", it.Slug, w)
			}
		}
		if it.PrimaryCategory != nil && it.PrimaryCategory.Slug == "invoicing" && !slices.Contains(where, "category") {
			t.Errorf("item %s in Invoicing: matched %v, want category among the places", it.Slug, it.Matched)
		}
	}
	if invoicing < 10 {
		t.Errorf("%d listings of the Invoicing category on the first page of %q (total %d), want >= 10", invoicing, "invoicing app", out.Total)
	}
	// Without q, no matched words.
	browse := catDo(t, env, "GET", "/v1/listings?per_page=3", nil, nil)
	var b map[string]any
	json.Unmarshal(browse.body, &b)
	for _, it := range b["items"].([]any) {
		if _, ok := it.(map[string]any)["matched"]; ok {
			t.Errorf("a page without q has matched: %s", browse.body)
		}
	}
	// MCP: the same JSON.
	cs := catConnect(t, env.URL, MCPProtocolVersions[len(MCPProtocolVersions)-1], nil)
	r, text := catCall(t, cs, "search_listings", map[string]any{"q": "invoicing app", "per_page": 20})
	if r.IsError {
		t.Fatalf("isError: %s", text)
	}
	if text != string(rest.body) {
		t.Errorf("MCP text %s\n!= REST body %s", text, rest.body)
	}
}
