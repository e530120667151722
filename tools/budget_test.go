package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/schemas"
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
	budgetAllCeiling    = 6809
	budgetPublicCeiling = budgetPublicTokens
	budgetToolCeilings  = map[string]int{"update_draft": 804, "update_my_listing": 527}
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
	t.Parallel()
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
	t.Parallel()
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

// budgetView is the token cost of a tool definition as ModelView has it.
func budgetView(t *testing.T, name, title, desc string, in json.RawMessage) int {
	t.Helper()
	b, err := json.Marshal(struct {
		Name        string          `json:"name"`
		Title       string          `json:"title,omitempty"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}{name, title, desc, in})
	if err != nil {
		t.Fatal(err)
	}
	return Tokens(string(b))
}

// budgetBounds are the keywords option A leaves out below the root arguments.
var budgetBounds = map[string]bool{"maxLength": true, "minLength": true, "maxItems": true, "minItems": true,
	"pattern": true, "format": true, "maximum": true, "minimum": true}

// budgetStripNested is a schema without the bounds of its nested shapes
// ($defs and the members of the root arguments); types, enums, required and
// additionalProperties stay.
func budgetStripNested(t *testing.T, b json.RawMessage, depth int) json.RawMessage {
	t.Helper()
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return b
	}
	obj, err := orderedObject(b)
	if err != nil {
		t.Fatal(err)
	}
	out := obj[:0]
	for _, kv := range obj {
		if depth >= 2 && budgetBounds[kv.key] {
			continue
		}
		switch kv.key {
		case "properties", "$defs", "patternProperties":
			members, err := orderedObject(kv.val)
			if err != nil {
				t.Fatal(err)
			}
			d := depth + 1
			if kv.key == "$defs" {
				d = 2
			}
			for i := range members {
				members[i].val = budgetStripNested(t, members[i].val, d)
			}
			kv.val = members.marshal()
		case "items", "additionalProperties":
			kv.val = budgetStripNested(t, kv.val, max(depth+1, 2))
		}
		out = append(out, kv)
	}
	return out.marshal()
}

// budgetSubset is the input schema with only the named root arguments (and
// the $defs they use).
func budgetSubset(t *testing.T, full json.RawMessage, names ...string) json.RawMessage {
	t.Helper()
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	root, err := orderedObject(full)
	if err != nil {
		t.Fatal(err)
	}
	var used []byte
	for i, kv := range root {
		switch kv.key {
		case "properties":
			props, _ := orderedObject(kv.val)
			var kept orderedObj
			for _, p := range props {
				if keep[p.key] {
					kept = append(kept, p)
					used = append(used, p.val...)
				}
			}
			root[i].val = kept.marshal()
		case "required":
			var req, kept []string
			_ = json.Unmarshal(kv.val, &req)
			for _, r := range req {
				if keep[r] {
					kept = append(kept, r)
				}
			}
			root[i].val, _ = json.Marshal(kept)
		}
	}
	for i, kv := range root {
		if kv.key != "$defs" {
			continue
		}
		defs, _ := orderedObject(kv.val)
		var kept orderedObj
		for _, d := range defs {
			if bytes.Contains(used, []byte(`"`+schemas.DefsPrefix+d.key+`"`)) {
				kept = append(kept, d)
			}
		}
		root[i].val = kept.marshal()
	}
	return root.marshal()
}

// budgetErrorsNow is the sentence of the server instructions (tools/mcp.go)
// about error codes; budgetErrorsProposal is what option C would put there.
const (
	budgetErrorsNow      = "Any tool may answer invalid, rate_limited or internal; each tool's description names its other codes."
	budgetErrorsProposal = "Any tool may answer invalid, rate_limited or internal; one that needs sign-in unauthenticated or forbidden; " +
		"one given an id, slug or number not_found; one taking idempotency_key conflict (its description says when) or idempotency_key_reused."
)

// TestToolBudgets_Options measures, without shipping them, the ways
// docs/tool-budgets.md offers the product owner to bring update_draft and
// update_my_listing under the per-tool budget and the total under its
// budget: A, the MCP copy without the bounds of nested shapes (the server
// still validates with the full schema); B, each tool split into tools by
// section (a change of the spec's operations); C, the "Errors:" lines named
// once in the server instructions (tools/mcp.go) instead. It fails when an
// option no longer does what the document says, and logs the numbers.
func TestToolBudgets_Options(t *testing.T) {
	t.Parallel()
	ops := map[string]Operation{}
	now := 0
	for _, op := range Catalog() {
		ops[op.Name] = op
		now += ToolTokens(op)
	}
	lean := func(full json.RawMessage, summary string) json.RawMessage {
		b, err := leanInput(full, summary)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	withErrors := func(op Operation, summary string) string {
		op.Summary = summary
		return mcpDescription(op)
	}
	totalA := now
	for _, name := range []string{"update_draft", "update_my_listing"} {
		op := ops[name]
		a := budgetView(t, op.Name, op.Title, mcpDescription(op), lean(budgetStripNested(t, op.InputSchema, 0), op.Summary))
		totalA += a - ToolTokens(op)
		t.Logf("A (no nested bounds in the MCP copy): %s %d tokens (now %d)", name, a, ToolTokens(op))
		if a >= ToolTokens(op) {
			t.Errorf("A: %s is %d tokens, not under the %d of now", name, a, ToolTokens(op))
		}
		if name == "update_my_listing" && a > budgetToolTokens {
			t.Errorf("A: %s is %d tokens, over %d", name, a, budgetToolTokens)
		}
	}
	t.Logf("A: all tools %d tokens (now %d)", totalA, now)
	split := []struct {
		from, name, title, summary string
		args                       []string
	}{
		{"update_draft", "update_draft", "Edit a draft",
			"Edits a ready draft's fields; send only what changes. fields set values (null removes); lock_fields, restore and regenerate steer the AI; seo merges. A submitted draft updates its listing too. update_draft_team and update_draft_story edit the rest.",
			[]string{"id", "fields", "lock_fields", "regenerate", "restore", "competitor_url", "seo", idemArgument}},
		{"update_draft", "update_draft_team", "Edit a draft's founders and links",
			"Edits a ready draft's founders, milestones (each replaces its list) and company_socials and founder_socials (merged). A submitted draft updates its listing too.",
			[]string{"id", "founders", "founder_socials", "company_socials", "milestones", idemArgument}},
		{"update_draft", "update_draft_story", "Edit a draft's story and FAQs",
			"Edits a ready draft's story (sections merged; empty clears one) and faqs (replaces the list). A submitted draft updates its listing too.",
			[]string{"id", "story", "faqs", idemArgument}},
		{"update_my_listing", "update_my_listing", "Edit my listing",
			"Edits one of your listings, public at once and kept as a version; send only the fields that change (empty clears). apply_to also writes headline, summary and SEO to the company's listings on other sites. The site team may revert edits.",
			[]string{"listing_id", "fields", "apply_to", idemArgument}},
		{"update_my_listing", "set_listing_links", "Set my listing's links and FAQs",
			"Replaces all socials and/or all faqs of one of your listings, public at once. The site team may revert edits.",
			[]string{"listing_id", "socials", "faqs", idemArgument}},
	}
	totalB := now - ToolTokens(ops["update_draft"]) - ToolTokens(ops["update_my_listing"])
	for _, s := range split {
		op := ops[s.from]
		n := budgetView(t, s.name, s.title, withErrors(op, s.summary), lean(budgetSubset(t, op.InputSchema, s.args...), s.summary))
		totalB += n
		t.Logf("B (split by section): %s %d tokens", s.name, n)
		if n > budgetToolTokens {
			t.Errorf("B: %s is %d tokens, over %d", s.name, n, budgetToolTokens)
		}
	}
	t.Logf("B: all tools %d tokens (now %d)", totalB, now)
	without := 0
	for _, op := range Catalog() {
		without += budgetView(t, op.Name, op.Title, op.Summary, op.MCPInputSchema())
	}
	t.Logf("C (error codes in the instructions): all tools %d tokens (now %d: the Errors: lines cost %d); A and C %d; the instructions +%d",
		without, now, now-without, totalA-(now-without), Tokens(budgetErrorsProposal)-Tokens(budgetErrorsNow))
	if without >= now {
		t.Errorf("C: the Errors: lines cost nothing (%d, %d)", now, without)
	}
}
