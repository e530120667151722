package web

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestDocs_ClientSetUp: /docs has a client set-up section for each client,
// its JSON snippets parse and name the live MCP URL, the commands name it,
// and the Cursor install link carries it.
func TestDocs_ClientSetUp(t *testing.T) {
	t.Parallel()
	info := must(demo().svc.GetSiteInfo(context.Background(), domain.Empty{})).get(t)
	res := demo().get(t, "/docs")
	if res.status != 200 {
		t.Fatalf("GET /docs: %d", res.status)
	}
	page := res.body
	i := strings.Index(page, `<section id="clients">`)
	if i < 0 {
		t.Fatal("/docs has no client set-up section")
	}
	sec := page[i : i+strings.Index(page[i:], "</section>")]
	for _, client := range []string{"Claude Code", "Claude (desktop and claude.ai)", "ChatGPT", "VS Code", "Cursor", "MCP Inspector"} {
		if !strings.Contains(sec, "<h3>"+html.EscapeString(client)) {
			t.Errorf("no set-up for %s", client)
		}
	}
	u := info.MCPURL
	codes := regexp.MustCompile(`(?s)<pre><code>(.*?)</code></pre>`).FindAllStringSubmatch(sec, -1)
	var jsons int
	for _, c := range codes {
		text := html.UnescapeString(c[1])
		if !strings.Contains(text, u) {
			t.Errorf("snippet does not name %s:\n%s", u, text)
		}
		if strings.HasPrefix(text, "{") {
			jsons++
			var v map[string]map[string]map[string]string
			if err := json.Unmarshal([]byte(text), &v); err != nil {
				t.Errorf("JSON snippet does not parse: %v\n%s", err, text)
			}
			for _, servers := range v {
				if servers["launchdir"]["url"] != u {
					t.Errorf("JSON snippet's launchdir url = %q, want %s", servers["launchdir"]["url"], u)
				}
			}
		}
	}
	if len(codes) != 5 || jsons != 2 {
		t.Errorf("%d snippets (%d JSON), want 5 (2 JSON)", len(codes), jsons)
	}
	m := regexp.MustCompile(`code --add-mcp '([^']+)'`).FindStringSubmatch(html.UnescapeString(sec))
	var add struct{ Name, Type, URL string }
	if m == nil || json.Unmarshal([]byte(m[1]), &add) != nil || add.URL != u || add.Type != "http" {
		t.Errorf("code --add-mcp argument: %v %+v", m, add)
	}
	link := regexp.MustCompile(`href="(cursor://[^"]+)"`).FindStringSubmatch(sec)
	if link == nil {
		t.Fatal("no Cursor install link")
	}
	lu, err := url.Parse(html.UnescapeString(link[1]))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := base64.StdEncoding.DecodeString(lu.Query().Get("config"))
	if string(cfg) != `{"url":"`+u+`"}` {
		t.Errorf("Cursor link config = %s", cfg)
	}
}
