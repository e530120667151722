package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/testclock"
)

// TestServe_BlogSchedule runs serve --demo on a test clock: an admin
// writes a post on /admin/blog and schedules it an hour ahead. Until the
// clock passes that time the post is on none of the public reads (GET
// /v1/blog and /v1/blog/{slug}, the MCP tools list_blog_posts and
// get_blog_post, the /blog pages); at its time it is on all of them; once
// unpublished it leaves all of them again.
func TestServe_BlogSchedule(t *testing.T) {
	t.Parallel()
	clk := testclock.New(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC))
	s := startServeDemoCopy(t, clk.Now, "--admin-emails", "ops@example.com")
	origin := "http://127.0.0.1:" + s.port
	ops := s.signIn(t, origin, "ops@example.com")
	post := func(path string, form url.Values) *http.Response {
		t.Helper()
		res, err := ops.PostForm(origin+path, form)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d, want 303", path, res.StatusCode)
		}
		return res
	}
	res := post("/admin/blog/new", url.Values{"title": {"Scheduled notes"}, "slug": {"scheduled-notes"}, "author": {"Ops"},
		"markdown": {"Coming **soon**."}, "faq_question": {"When?"}, "faq_answer": {"At one."}, "action": {"save"}})
	postPath := strings.TrimSuffix(res.Header.Get("Location"), "?done=created")
	at := clk.Now().Add(time.Hour)
	post(postPath+"/schedule", url.Values{"publish_at": {at.Format("2006-01-02T15:04")}})

	anon := s.client()
	get := func(path string) (int, string) {
		t.Helper()
		res, err := anon.Get(origin + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	mcpID := 0
	mcp := func(tool string, args map[string]any) string {
		t.Helper()
		mcpID++
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": mcpID, "method": "tools/call",
			"params": map[string]any{"name": tool, "arguments": args}})
		req, _ := http.NewRequest(http.MethodPost, origin+"/mcp", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		res, err := anon.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("MCP %s: %d %.300s", tool, res.StatusCode, b)
		}
		return string(b)
	}
	visible := func(when string, want bool) {
		t.Helper()
		checks := map[string]bool{}
		st, body := get("/v1/blog?q=scheduled")
		checks["GET /v1/blog"] = st == 200 && strings.Contains(body, "scheduled-notes")
		st, _ = get("/v1/blog/scheduled-notes")
		checks["GET /v1/blog/scheduled-notes"] = st == 200
		checks["list_blog_posts"] = strings.Contains(mcp("list_blog_posts", map[string]any{"q": "scheduled"}), "scheduled-notes")
		got := mcp("get_blog_post", map[string]any{"slug": "scheduled-notes"})
		checks["get_blog_post"] = strings.Contains(got, "Coming **soon**") && !strings.Contains(got, `"isError":true`)
		st, body = get("/blog")
		checks["/blog"] = st == 200 && strings.Contains(body, "Scheduled notes")
		st, body = get("/blog/scheduled-notes")
		checks["/blog/scheduled-notes"] = st == 200 && strings.Contains(body, "<strong>soon</strong>")
		for what, seen := range checks {
			if seen != want {
				t.Errorf("%s: the post on %s is %v, want %v", when, what, seen, want)
			}
		}
	}
	visible("scheduled", false)
	clk.Set(at.Add(-time.Second))
	visible("a second before its time", false)
	clk.Set(at)
	visible("at its time", true)
	post(postPath+"/unpublish", url.Values{})
	visible("unpublished", false)
	if st, _ := get(postPath); st != 404 {
		t.Errorf("GET %s signed out: %d, want 404", postPath, st)
	}
}
