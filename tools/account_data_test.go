package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAccountDeletion_APIAndMCP: once a demo reviewer's account is deleted
// (storage.DB.DeleteAccount, which POST /account/delete runs), its API key
// gets 401 on /v1 and /mcp, and get_listing over REST and MCP no longer
// shows its review, while its vote still counts.
func TestAccountDeletion_APIAndMCP(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	ctx := context.Background()
	reader := env.apiKey(t, "reader@example.test")
	getListing := func(slug string) string {
		t.Helper()
		r := catDo(t, env, "GET", "/v1/listings/"+slug, nil, map[string]string{"Authorization": "Bearer " + reader})
		if r.status != 200 {
			t.Fatalf("get_listing %s: %d %s", slug, r.status, r.body)
		}
		return string(r.body)
	}
	// A demo person's counted review that get_listing shows.
	reviews, err := env.db.Rows(ctx, "reviews", map[string]any{"status": "counted"})
	if err != nil {
		t.Fatal(err)
	}
	var uid, slug, body string
	for _, r := range reviews {
		if r["user_id"] == "" || r["body"] == "" {
			continue
		}
		l, err := env.db.Rows(ctx, "listings", map[string]any{"id": r["listing_id"]})
		if err != nil || len(l) != 1 || l[0]["status"] != "live" {
			continue
		}
		if strings.Contains(getListing(l[0]["slug"]), jsonText(r["body"])) {
			uid, slug, body = r["user_id"], l[0]["slug"], r["body"]
			break
		}
	}
	if uid == "" {
		t.Fatal("the demo data has no counted review of an account that get_listing shows")
	}
	users, err := env.db.Rows(ctx, "users", map[string]any{"id": uid})
	if err != nil || len(users) != 1 {
		t.Fatal(users, err)
	}
	email := users[0]["email"]
	key := env.apiKey(t, email)
	auth := map[string]string{"Authorization": "Bearer " + key}
	if r := catDo(t, env, "GET", "/v1/me", nil, auth); r.status != 200 || !strings.Contains(string(r.body), email) {
		t.Fatalf("get_account before deletion: %d %s", r.status, r.body)
	}
	if r := mcpPost(t, env.Client(), env, mcpInitialize, auth); r.status != 200 {
		t.Fatalf("MCP before deletion: %d %s", r.status, r.body)
	}

	id, _ := strconv.ParseInt(uid, 10, 64)
	if _, err := env.db.DeleteAccount(ctx, id); err != nil {
		t.Fatal(err)
	}
	if r := catDo(t, env, "GET", "/v1/me", nil, auth); r.status != 401 {
		t.Errorf("get_account with the deleted account's key: %d %s", r.status, r.body)
	}
	if r := mcpPost(t, env.Client(), env, mcpInitialize, auth); r.status != 401 {
		t.Errorf("MCP with the deleted account's key: %d %s", r.status, r.body)
	}
	if page := getListing(slug); strings.Contains(page, jsonText(body)) || strings.Contains(strings.ToLower(page), strings.ToLower(email)) {
		t.Errorf("get_listing %s still shows the deleted account's review", slug)
	}
	cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + reader})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_listing", Arguments: map[string]any{"slug": slug}})
	if err != nil || res.IsError {
		t.Fatalf("MCP get_listing: %v %v", res, err)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), jsonText(body)) {
		t.Errorf("MCP get_listing %s still shows the deleted account's review", slug)
	}
	for _, tb := range []string{"users", "reviews", "api_keys", "follows"} {
		rows, err := env.db.Rows(ctx, tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			for col, v := range r {
				if strings.EqualFold(v, email) || strings.Contains(v, "user:"+uid) && tb == "follows" {
					t.Errorf("%s.%s still holds %q", tb, col, v)
				}
			}
		}
	}
}

// jsonText is s as it appears inside a JSON string (without the quotes).
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
