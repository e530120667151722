package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/internal/testtier"
)

// TestSearchPageTokens measures what a search_listings page costs a model
// (the matched field is measured against it), in
// o200k_base tokens, on the seeded demo: for every query of the relevance
// development set (storage/search/testdata/relevance/dev.json) and no query,
// the first page at the default page size, as the REST body of GET
// /v1/listings and as the MCP result of the go-sdk client against /mcp (its
// text content, which carries the same JSON, and the whole result with
// structuredContent). docs/search.md ("Token cost of a search page")
// records the figures:
//
//	go test ./tools -run 'TestSearchPageTokens$' -v -count=1
func TestSearchPageTokens(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	// Only figures for docs/search.md (and REST and MCP pages of equal length):
	// 149 s under -race at load 40, the o200k tokenizer over ~100 pages.
	testtier.SkipRace(t, "token counts of the search pages over the relevance dev set")
	env := catTestServer(t, Options{}, true)
	b, err := os.ReadFile("../storage/search/testdata/relevance/dev.json")
	if err != nil {
		t.Fatal(err)
	}
	var set []struct {
		Q string `json:"q"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	queries := []string{""}
	for _, q := range set {
		queries = append(queries, q.Q)
	}
	cs := catConnect(t, env.URL, MCPProtocolVersions[0], nil)
	var pages, items, restTok, restBytes, textTok, resultTok, maxRest int
	var full [3]int // the page without q: 20 items by votes
	for _, q := range queries {
		r := catDo(t, env, "GET", "/v1/listings?q="+url.QueryEscape(q), nil, nil)
		if r.status != 200 {
			t.Fatalf("GET /v1/listings?q=%q: %d %s", q, r.status, r.body)
		}
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(r.body, &page); err != nil {
			t.Fatal(err)
		}
		args := map[string]any{}
		if q != "" {
			args["q"] = q
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_listings", Arguments: args})
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Fatalf("MCP search_listings %q: %v %v", q, res, err)
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		if !ok {
			t.Fatalf("MCP search_listings %q: content %T, want text", q, res.Content[0])
		}
		var mpage struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal([]byte(text.Text), &mpage); err != nil || len(mpage.Items) != len(page.Items) {
			t.Fatalf("MCP search_listings %q: %d items (%v), REST %d", q, len(mpage.Items), err, len(page.Items))
		}
		whole, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) == 0 {
			continue
		}
		pages++
		items += len(page.Items)
		n := Tokens(string(r.body))
		if q == "" {
			full = [3]int{len(page.Items), n, Tokens(string(whole))}
		}
		restTok += n
		maxRest = max(maxRest, n)
		restBytes += len(r.body)
		textTok += Tokens(text.Text)
		resultTok += Tokens(string(whole))
	}
	if pages == 0 || items == 0 {
		t.Fatal("no query answered a page with items")
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%d queries, %d pages with items, %d items (%.1f a page); %s tokens:\n", len(queries), pages, items, float64(items)/float64(pages), TokenEncoding)
	row := func(name string, tok int) {
		fmt.Fprintf(&out, "  %-44s %7.0f a page %6.1f an item\n", name, float64(tok)/float64(pages), float64(tok)/float64(items))
	}
	row("REST body (GET /v1/listings)", restTok)
	row("MCP text content", textTok)
	row("MCP result (text + structuredContent)", resultTok)
	fmt.Fprintf(&out, "  REST body bytes: %.0f a page; largest page %d tokens\n", float64(restBytes)/float64(pages), maxRest)
	fmt.Fprintf(&out, "  the page without q (%d items): REST %d tokens, MCP result %d", full[0], full[1], full[2])
	t.Log(out.String())
}
