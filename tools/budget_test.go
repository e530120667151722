package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The budgets of the tool definitions (issue 19; decided in issue 28,
// docs/tool-budgets.md), counted with the o200k_base tokenizer on ModelView
// (name, title, description and input schema as tools/list sends them).
const (
	budgetAllTokens     = 6200   // the 41 tools of issue 28 (budgetToday)
	budgetEveryTokens   = 8800   // every tool: budgetAllTokens plus 900 for the trophies toolset, 600 for its 4 programme tools and 1100 for the webhooks toolset (docs/tool-budgets.md)
	budgetPublicTokens  = 2700   // the public tools (no scope): 2500, plus 200 for list_programmes and get_programme
	budgetToolTokens    = 450    // any one of today's tools but update_draft
	budgetNewToolTokens = 300    // an operation added after issue 28
	budgetListBytes     = 50_000 // one tools/list answer of the 41 tools of issue 28, as the endpoint sends it, on every protocol version
	budgetListBytesNew  = 1_000  // and this much more per operation added later (issue 33: 47 tools, 56,000)
)

// budgetToolCeilings are the tools held to their own ceiling instead of
// budgetToolTokens: update_draft may stay near 650 (issue 28: it is not split).
var budgetToolCeilings = map[string]int{"update_draft": 650}

// budgetToday are the 41 operations of issue 28; any other tool is a new
// operation and is held to budgetNewToolTokens.
var budgetToday = strings.Fields(`get_site_info search_listings get_listing get_alternatives compare_listings
	list_categories get_category get_launch_week list_launches get_leaderboard list_founders get_founder
	list_blog_posts get_blog_post list_awards get_badges list_interview_questions get_account submit_listing
	list_my_drafts get_draft update_draft invite_cofounder submit_draft list_my_listings get_my_listing
	update_my_listing post_listing_update add_milestone delete_milestone set_founder_story answer_interview
	choose_free_listing list_products quote_order create_checkout list_my_orders get_order claim_listing
	verify_claim list_my_claims`)

type budgetRow struct {
	name, tag string
	public    bool
	tokens    int
}

// TestToolBudgets measures every tool's model-visible definition with the
// tokenizer, prints tokens per tool, per Tag, public/protected and in total
// with the biggest offenders, and fails when a budget is broken.
func TestToolBudgets(t *testing.T) {
	t.Parallel()
	var rows []budgetRow
	total, public, today := 0, 0, 0
	byTag := map[string]int{}
	for _, op := range Catalog() {
		r := budgetRow{op.Name, op.Tag, op.Scope == "", ToolTokens(op)}
		rows = append(rows, r)
		total += r.tokens
		if slices.Contains(budgetToday, r.name) {
			today += r.tokens
		}
		byTag[r.tag] += r.tokens
		if r.public {
			public += r.tokens
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tokens (%s) of name+title+description+inputSchema per tool:\n", TokenEncoding)
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-26s %-12s %-9s %5d\n", r.name, r.tag, map[bool]string{true: "public", false: "protected"}[r.public], r.tokens)
	}
	tags := make([]string, 0, len(byTag))
	for k := range byTag {
		tags = append(tags, k)
	}
	sort.Strings(tags)
	b.WriteString("per Tag:\n")
	for _, k := range tags {
		fmt.Fprintf(&b, "  %-14s %5d\n", k, byTag[k])
	}
	fmt.Fprintf(&b, "public %d (budget %d), protected %d, issue 28's 41 tools %d (budget %d), total %d (budget %d)\n",
		public, budgetPublicTokens, total-public, today, budgetAllTokens, total, budgetEveryTokens)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].tokens > rows[j].tokens })
	b.WriteString("biggest offenders:")
	for _, r := range rows[:5] {
		fmt.Fprintf(&b, " %s %d;", r.name, r.tokens)
	}
	t.Log(b.String())
	if today > budgetAllTokens {
		t.Errorf("the 41 tools of issue 28: %d tokens, over %d", today, budgetAllTokens)
	}
	if total > budgetEveryTokens {
		t.Errorf("all tools: %d tokens, over %d", total, budgetEveryTokens)
	}
	if public > budgetPublicTokens {
		t.Errorf("public tools: %d tokens, over %d", public, budgetPublicTokens)
	}
	for _, r := range rows {
		limit := budgetNewToolTokens
		if slices.Contains(budgetToday, r.name) {
			limit = budgetToolTokens
		}
		if c, ok := budgetToolCeilings[r.name]; ok {
			limit = c
		}
		if r.tokens > limit {
			t.Errorf("%s: %d tokens, over %d", r.name, r.tokens, limit)
		}
	}
	for name := range budgetToolCeilings {
		if !budgetHas(rows, name) {
			t.Errorf("budgetToolCeilings names %s, which is no tool", name)
		}
	}
	if len(budgetToday) != 41 {
		t.Errorf("budgetToday has %d names, want the 41 operations of issue 28", len(budgetToday))
	}
	for _, name := range budgetToday {
		if !budgetHas(rows, name) {
			t.Errorf("budgetToday names %s, which is no tool", name)
		}
	}
}

func budgetHas(rows []budgetRow, name string) bool {
	for _, r := range rows {
		if r.name == name {
			return true
		}
	}
	return false
}

// budgetRecorder keeps the HTTP answers to tools/list requests.
type budgetRecorder struct {
	mu      sync.Mutex
	answers [][]byte
}

func (rec *budgetRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !bytes.Contains(body, []byte(`"tools/list"`)) {
		return res, err
	}
	answer, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(answer))
	rec.mu.Lock()
	rec.answers = append(rec.answers, answer)
	rec.mu.Unlock()
	return res, nil
}

// budgetListTools is the JSON-RPC message of a tools/list answer: the body
// itself, or the data of its SSE event.
func budgetListTools(t *testing.T, answer []byte) []map[string]any {
	t.Helper()
	msg := answer
	if i := bytes.Index(answer, []byte("data: ")); i >= 0 && !bytes.HasPrefix(bytes.TrimSpace(answer), []byte("{")) {
		msg = answer[i+len("data: "):]
		if j := bytes.IndexByte(msg, '\n'); j >= 0 {
			msg = msg[:j]
		}
	}
	var rpc struct {
		Result struct {
			Tools []map[string]any `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &rpc); err != nil {
		t.Fatalf("tools/list answer is no JSON-RPC message: %v: %.200s", err, answer)
	}
	return rpc.Result.Tools
}

// TestToolBudgets_ListBytes lists the tools through the go-sdk client against
// the real /mcp endpoint on every protocol version the server speaks, holds
// the size of the HTTP answer to budgetListBytes, and checks that every tool
// keeps its title and all four annotation hints, as the catalog has them
// (directories reject tools without them).
func TestToolBudgets_ListBytes(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	byName := map[string]Operation{}
	for _, op := range Catalog() {
		byName[op.Name] = op
	}
	for _, version := range MCPProtocolVersions {
		t.Run(version, func(t *testing.T) {
			rec := &budgetRecorder{}
			c := mcp.NewClient(&mcp.Implementation{Name: "budget-test", Version: "1.0.0"}, nil)
			tr := &mcp.StreamableClientTransport{Endpoint: env.URL + "/mcp", HTTPClient: &http.Client{Transport: rec}, DisableStandaloneSSE: true}
			cs, err := c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != len(byName) {
				t.Fatalf("tools/list has %d tools, the catalog %d", len(res.Tools), len(byName))
			}
			if len(rec.answers) != 1 {
				t.Fatalf("saw %d tools/list answers, want 1", len(rec.answers))
			}
			size := len(rec.answers[0])
			limit := budgetListBytes + budgetListBytesNew*(len(res.Tools)-len(budgetToday))
			t.Logf("tools/list answer (%s): %d bytes for %d tools (budget %d)", version, size, len(res.Tools), limit)
			if size > limit {
				t.Errorf("tools/list answer is %d bytes, over %d", size, limit)
			}
			tools := budgetListTools(t, rec.answers[0])
			if len(tools) != len(byName) {
				t.Fatalf("the raw answer has %d tools, want %d", len(tools), len(byName))
			}
			for _, tl := range tools {
				name, _ := tl["name"].(string)
				op, ok := byName[name]
				if !ok {
					t.Errorf("tools/list names %q, no operation", name)
					continue
				}
				if title, _ := tl["title"].(string); title == "" || title != op.Title {
					t.Errorf("%s: title %q, want the catalog's %q", name, title, op.Title)
				}
				ann, _ := tl["annotations"].(map[string]any)
				if title, _ := ann["title"].(string); title != op.Title { // the only title a 2025-03-26 client reads
					t.Errorf("%s: annotations.title %q, want the catalog's %q", name, title, op.Title)
				}
				want := map[string]bool{"readOnlyHint": op.ReadOnly, "destructiveHint": op.Destructive,
					"idempotentHint": op.IdempotentHint, "openWorldHint": op.OpenWorld}
				for hint, w := range want {
					got, present := ann[hint].(bool)
					if !present || got != w {
						t.Errorf("%s: annotations.%s is %v (sent: %v), want %v", name, hint, ann[hint], present, w)
					}
				}
				// Hints that contradict each other are wrong whatever the catalog says:
				// a read-only tool deletes nothing and is idempotent.
				if op.ReadOnly && (op.Destructive || !op.IdempotentHint) {
					t.Errorf("%s: readOnlyHint with destructiveHint %v, idempotentHint %v", name, op.Destructive, op.IdempotentHint)
				}
			}
		})
	}
}
