package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestInput_BadText: a NUL character, bytes that are not
// UTF-8 and lone UTF-16 surrogate escapes in any text of an input are a 400
// naming the field (rule format), over REST (body, query) and over the real
// /mcp endpoint, and nothing is stored. Before, encoding/json replaced the
// last two with U+FFFD and the edit was stored; NUL was stored on SQLite
// and a 500 on PostgreSQL. The refusal is in the one input reader
// (decodeJSON, coerceQuery), before any stage that reaches the store, so it
// is the same on both engines; this test runs on SQLite only.
func TestInput_BadText(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	id := env.ownedListing(t, "owner@example.com")
	rows := []struct {
		name, args, field string // args: the JSON arguments without listing_id
	}{
		{"NUL escape", `{"fields":{"tagline":"Notes\u0000that write"}}`, "fields.tagline"},
		{"NUL in a list item", `{"fields":{"features":["Sync","Se\u0000arch"]}}`, "fields.features[1]"},
		{"byte that is not UTF-8", "{\"fields\":{\"tagline\":\"Notes \xff that write\"}}", "fields.tagline"},
		{"truncated UTF-8", "{\"fields\":{\"city\":\"Berl\xc3\"}}", "fields.city"},
		{"encoded surrogate bytes", "{\"fields\":{\"tagline\":\"A \xed\xa0\x80 B\"}}", "fields.tagline"},
		{"lone high surrogate", `{"fields":{"tagline":"A \ud800 B"}}`, "fields.tagline"},
		{"high surrogate at the end", `{"fields":{"tagline":"A \ud83d"}}`, "fields.tagline"},
		{"lone low surrogate", `{"fields":{"tagline":"A \udc00 B"}}`, "fields.tagline"},
		{"two highs", `{"fields":{"tagline":"\ud83d\ud83d"}}`, "fields.tagline"},
		{"in an array object", `{"faqs":[{"question":"Q?","answer":"A\ud800"}]}`, "faqs[0].answer"},
		{"in a key", "{\"fields\":{\"tag\xffline\":\"x\"}}", "fields.tag\ufffdline"},
	}
	check := func(t *testing.T, what string, st int, p map[string]any, field string) {
		t.Helper()
		wantInvalid(t, what, st, p, field, RuleText)
		if got := listingColumn(t, env, id, "tagline"); got != "" {
			t.Fatalf("%s: tagline stored %q", what, got)
		}
		if n := versionCount(t, env, id); n != "0" {
			t.Fatalf("%s: %s versions stored", what, n)
		}
	}
	auth := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"}
	t.Run("rest", func(t *testing.T) {
		for _, r := range rows {
			res := catDo(t, env, "PATCH", fmt.Sprintf("/v1/me/listings/%d", id), []byte(r.args), auth)
			var p map[string]any
			if err := json.Unmarshal(res.body, &p); err != nil {
				t.Fatalf("%s: %d %s", r.name, res.status, res.body)
			}
			check(t, r.name, res.status, p, r.field)
		}
	})
	t.Run("rest query", func(t *testing.T) {
		for _, q := range []string{"q=note%00wise", "q=note%FFwise", "q=%ED%A0%80", "country=D%00E"} {
			res := catDo(t, env, "GET", "/v1/listings?"+q, nil, nil)
			var p map[string]any
			_ = json.Unmarshal(res.body, &p)
			wantInvalid(t, q, res.status, p, strings.SplitN(q, "=", 2)[0], RuleText)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		hdr := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json",
			"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"}
		for _, r := range rows {
			// The bytes go on the wire as written: no client library re-encodes them.
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_my_listing",`+
				`"arguments":{"listing_id":%d,%s}}`, id, r.args[1:])
			res := catDo(t, env, "POST", "/mcp", []byte(msg), hdr)
			m := e2eRPCMessage(t, e2eResp(res))
			result, _ := m["result"].(map[string]any)
			if result == nil || result["isError"] != true {
				t.Fatalf("%s: %d %s", r.name, res.status, res.body)
			}
			var p map[string]any
			text := result["content"].([]any)[0].(map[string]any)["text"].(string)
			if err := json.Unmarshal([]byte(text), &p); err != nil {
				t.Fatalf("%s: %v %s", r.name, err, text)
			}
			check(t, r.name, int(p["status"].(float64)), p, r.field)
		}
	})
	t.Run("good text still passes", func(t *testing.T) {
		// A surrogate pair, a U+FFFD the client means (as UTF-8 and escaped)
		// and an escaped backslash before a u are text.
		for _, r := range []struct{ body, want string }{
			{`{"fields":{"tagline":"Launch \ud83d\ude80 day"}}`, "Launch \U0001F680 day"},
			{`{"fields":{"tagline":"Replacement ` + "\ufffd" + ` and \ufffd"}}`, "Replacement \ufffd and \ufffd"},
			{`{"fields":{"tagline":"Path C:\\ud800 \ufffd"}}`, `Path C:\ud800 ` + "\ufffd"},
		} {
			res := catDo(t, env, "PATCH", fmt.Sprintf("/v1/me/listings/%d", id), []byte(r.body), auth)
			if res.status != 200 {
				t.Fatalf("%s: %d %s", r.body, res.status, res.body)
			}
			if got := listingColumn(t, env, id, "tagline"); got != r.want {
				t.Fatalf("%s: stored %q, want %q", r.body, got, r.want)
			}
		}
	})
}
