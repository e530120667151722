package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The budgets of the tool definitions (issue 19, docs/tool-budgets.md),
// counted with the o200k_base tokenizer on ModelView (name, title,
// description and input schema as tools/list sends them).
const (
	budgetAllTokens    = 6000      // all tools
	budgetPublicTokens = 2500      // the public tools (no scope)
	budgetToolTokens   = 450       // any one tool
	budgetListBytes    = 50 * 1024 // one tools/list answer, as the endpoint sends it
)

// budgetCeilings are the measured ceilings the test holds while a budget of
// the issue is not met yet (docs/tool-budgets.md says why): a change may lower
// them, never raise them. A tool listed here is held to its own ceiling
// instead of budgetToolTokens.
var (
	budgetAllCeiling    = 7150
	budgetPublicCeiling = budgetPublicTokens
	budgetToolCeilings  = map[string]int{"update_draft": 905, "update_my_listing": 580}
	budgetListCeiling   = budgetListBytes
)

type budgetRow struct {
	name, tag string
	public    bool
	tokens    int
}

// TestToolBudgets measures every tool's model-visible definition with the
// tokenizer, prints tokens per tool, per Tag, public/protected and in total
// with the biggest offenders, and fails when a budget is broken.
func TestToolBudgets(t *testing.T) {
	var rows []budgetRow
	total, public := 0, 0
	byTag := map[string]int{}
	for _, op := range Catalog() {
		r := budgetRow{op.Name, op.Tag, op.Scope == "", ToolTokens(op)}
		rows = append(rows, r)
		total += r.tokens
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
	fmt.Fprintf(&b, "public %d (budget %d), protected %d, total %d (budget %d)\n", public, budgetPublicTokens, total-public, total, budgetAllTokens)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].tokens > rows[j].tokens })
	b.WriteString("biggest offenders:")
	for _, r := range rows[:5] {
		fmt.Fprintf(&b, " %s %d;", r.name, r.tokens)
	}
	t.Log(b.String())
	if total > budgetAllTokens || public > budgetPublicTokens {
		t.Logf("NOT MET yet: the issue's budgets are %d (all) and %d (public); held to the ceilings %d and %d",
			budgetAllTokens, budgetPublicTokens, budgetAllCeiling, budgetPublicCeiling)
	}

	if total > budgetAllCeiling {
		t.Errorf("all tools: %d tokens, over %d", total, budgetAllCeiling)
	}
	if public > budgetPublicCeiling {
		t.Errorf("public tools: %d tokens, over %d", public, budgetPublicCeiling)
	}
	for _, r := range rows {
		limit := budgetToolTokens
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
}

func budgetHas(rows []budgetRow, name string) bool {
	for _, r := range rows {
		if r.name == name {
			return true
		}
	}
	return false
}

// budgetRecorder keeps the size of the HTTP answer to a tools/list request.
type budgetRecorder struct {
	mu    sync.Mutex
	sizes []int
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
	rec.sizes = append(rec.sizes, len(answer))
	rec.mu.Unlock()
	return res, nil
}

// TestToolBudgets_ListBytes lists the tools through the go-sdk client against
// the real /mcp endpoint and holds the size of the HTTP answer to budgetListBytes.
func TestToolBudgets_ListBytes(t *testing.T) {
	env := catTestServer(t, Options{}, false)
	rec := &budgetRecorder{}
	c := mcp.NewClient(&mcp.Implementation{Name: "budget-test", Version: "1.0.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: env.URL + "/mcp", HTTPClient: &http.Client{Transport: rec}, DisableStandaloneSSE: true}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(Catalog()) {
		t.Fatalf("tools/list has %d tools, the catalog %d", len(res.Tools), len(Catalog()))
	}
	if len(rec.sizes) != 1 {
		t.Fatalf("saw %d tools/list answers, want 1", len(rec.sizes))
	}
	t.Logf("tools/list answer: %d bytes for %d tools (budget %d)", rec.sizes[0], len(res.Tools), budgetListBytes)
	if rec.sizes[0] > budgetListCeiling {
		t.Errorf("tools/list answer is %d bytes, over %d", rec.sizes[0], budgetListCeiling)
	}
}
