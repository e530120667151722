package tools

import (
	"strings"
	"testing"
)

// descMaxTokens is the length budget of one tool description (Summary).
const descMaxTokens = 80

// descFacts are what a description must say for an assistant to get the
// flow right the first time (issue 15 item 6): the words each must contain.
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
// budget, to the facts above, and to naming the operation's error codes.
func TestToolDescriptions(t *testing.T) {
	t.Parallel()
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
			if !strings.Contains(d, string(c)) {
				t.Errorf("%s: description does not name error code %s", op.Name, c)
			}
		}
		if op.Scope != "" && !strings.Contains(d, "unauthenticated") {
			t.Errorf("%s needs sign-in but its description does not name unauthenticated", op.Name)
		}
		if len(op.PathParams) > 0 && !strings.Contains(d, "not_found") {
			t.Errorf("%s has path parameters but its description does not name not_found", op.Name)
		}
	}
	for name := range descFacts {
		if !seen[name] {
			t.Errorf("descFacts names %s, which is no tool", name)
		}
	}
}
