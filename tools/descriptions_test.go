package tools

import (
	"strings"
	"testing"
)

// descMaxTokens is the length budget of one tool description (Summary).
const descMaxTokens = 80

// descFacts are what a description must say for an assistant to get the
// flow right the first time: the words each must contain.
var descFacts = map[string][]string{
	"submit_listing":  {"get_draft", "poll_after_seconds"},
	"get_draft":       {"poll_after_seconds", "not_found_on_website"},
	"create_checkout": {"checkout_url", "card details", "get_order"},
	"get_order":       {"paid"},
	"list_products":   {"PAID", "billboard"},
	"get_leaderboard": {"PAID", "billboard"},
	"get_listing":     {"PAID", "not_found_on_website"},
	"quote_order":     {"create_checkout"},
	"claim_listing":   {"verify_claim"},
	"submit_draft":    {"choose_free_listing", "create_checkout"},
}

// TestToolDescriptions holds every MCP tool description to its length
// budget and to the facts above, and the server instructions, as the real
// /mcp endpoint sends them, to naming every error code of every tool
// (ErrorCodes): the codes are named there once (option C of
// docs/tool-budgets.md, issue 28), not in each description.
func TestToolDescriptions(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	cs := catConnect(t, env.URL, "2025-11-25", nil)
	instr := cs.InitializeResult().Instructions
	seen := map[string]bool{}
	for _, op := range Catalog() {
		if n := Tokens(op.Summary); n > descMaxTokens {
			t.Errorf("%s: summary is %d tokens, over %d", op.Name, n, descMaxTokens)
		}
		d := mcpTool(op).Description
		for _, w := range descFacts[op.Name] {
			if !strings.Contains(d, w) {
				t.Errorf("%s: description does not mention %q: %s", op.Name, w, d)
			}
		}
		seen[op.Name] = true
		for _, c := range ErrorCodes(op) {
			if !strings.Contains(instr, string(c)) {
				t.Errorf("%s may answer %s, which the server instructions do not name", op.Name, c)
			}
		}
		if strings.Contains(d, "Errors:") {
			t.Errorf("%s: description lists its error codes; the server instructions name them once", op.Name)
		}
	}
	for _, c := range []string{"invalid", "rate_limited", "internal", "not_found", "unauthenticated", "forbidden", "conflict", "idempotency_key_reused"} {
		if !strings.Contains(instr, c) {
			t.Errorf("the server instructions do not name %s: %s", c, instr)
		}
	}
	for name := range descFacts {
		if !seen[name] {
			t.Errorf("descFacts names %s, which is no tool", name)
		}
	}
}
