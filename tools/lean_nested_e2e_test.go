package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLeanInput_NestedBoundsOverMCP: the MCP copy of the input schemas
// leaves out the bounds of nested shapes (option A, issue 28), so a model
// may send a value over one; the server still refuses it before anything
// happens, with invalid naming the field and the rule, exactly as REST does.
// Through the go-sdk client against the real /mcp endpoint.
func TestLeanInput_NestedBoundsOverMCP(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "nested-bounds@example.com")
	cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]string{}
	for _, tl := range listed.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		sent[tl.Name] = string(b)
	}
	const draftID = "7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11"
	for _, c := range []struct {
		tool, args, field, rule, absent string // absent: the bound tools/list no longer shows
	}{
		{"quote_order", `{"items":[{"product":"billboard_min","amount_cents":0}]}`, "items[0].amount_cents", "minimum", `"minimum":1,`},
		{"quote_order", `{"items":[{"product":"","listing_id":1}]}`, "items[0].product", "minLength", `"minLength":1`},
		{"update_draft", `{"id":"` + draftID + `","fields":{"tagline":"` + strings.Repeat("a", 501) + `"}}`, "fields.tagline", "maxLength", `"maxLength":500`},
		{"update_draft", `{"id":"` + draftID + `","lock_fields":["` + strings.Repeat("a", 41) + `"]}`, "lock_fields[0]", "maxLength", `"maxLength":40`},
		{"update_my_listing", `{"listing_id":1,"fields":{"founded_year":1700}}`, "fields.founded_year", "minimum", `"minimum":1800`},
	} {
		if strings.Contains(sent[c.tool], c.absent) {
			t.Errorf("%s: tools/list still shows %s: %s", c.tool, c.absent, sent[c.tool])
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("%s: protocol error %v", c.tool, err)
		}
		if !res.IsError {
			t.Fatalf("%s %.80s: accepted, want invalid", c.tool, c.args)
		}
		var p map[string]any
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &p); err != nil {
			t.Fatal(err)
		}
		st, _ := p["status"].(float64)
		wantInvalid(t, c.tool+" "+c.field, int(st), p, c.field, c.rule)
	}
}
