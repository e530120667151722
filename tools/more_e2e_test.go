package tools

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// moreEntry is one entry of a result's more (domain.MoreData).
type moreEntry struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	What      string         `json:"what"`
	URL       string         `json:"url"`
}

// TestMore_ListingNamesToolsForItsLinks: get_listing's
// links.alternatives and links.badges are REST URLs a model connected over
// MCP only cannot follow; the result names, for each REST URL it gives, the
// tool and arguments that answer the same (more: tool first), and calling
// each over MCP (go-sdk client, real /mcp) answers what GET url answers over
// REST, for a live and a scheduled listing of the demo data. The owner's
// view of a listing not public yet (get_my_listing of a draft) names only
// calls that answer.
func TestMore_ListingNamesToolsForItsLinks(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	cs := catConnect(t, env.URL, "2025-11-25", nil)
	tools := map[string]bool{}
	for _, op := range Catalog() {
		tools[op.Name] = true
	}
	for _, status := range []string{"live", "upcoming"} {
		_, text := catCall(t, cs, "search_listings", map[string]any{"status": status, "per_page": 1})
		var page struct {
			Items []struct{ Slug, Status string } `json:"items"`
		}
		if err := json.Unmarshal([]byte(text), &page); err != nil || len(page.Items) != 1 {
			t.Fatalf("search_listings status=%s: %s", status, text)
		}
		slug := page.Items[0].Slug
		r, text := catCall(t, cs, "get_listing", map[string]any{"slug": slug})
		if r.IsError {
			t.Fatalf("get_listing %s: %s", slug, text)
		}
		var l struct {
			Links map[string]string `json:"links"`
			More  []moreEntry       `json:"more"`
		}
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(text[strings.Index(text, `"more":[`)+len(`"more":[`):], `{"tool":`) {
			t.Errorf("%s: more's entries do not name the tool first: %.200s", slug, text[strings.Index(text, `"more":`):])
		}
		byURL := map[string]moreEntry{}
		for _, m := range l.More {
			byURL[m.URL] = m
		}
		for k, u := range l.Links {
			if p, err := url.Parse(u); err == nil && strings.HasPrefix(p.Path, "/v1/") {
				if m, ok := byURL[u]; !ok {
					t.Errorf("%s (%s): links.%s is the REST URL %s, and no entry of more names a tool for it", slug, page.Items[0].Status, k, u)
				} else if m.What != k {
					t.Errorf("%s: more entry for links.%s says what=%q", slug, k, m.What)
				}
			}
		}
		if len(l.More) < 3 {
			t.Errorf("%s: more has %d entries, want alternatives, badges and category", slug, len(l.More))
		}
		for _, m := range l.More {
			moreResolves(t, env, cs, slug, m, tools, nil)
		}
	}

	// The owner's view of a listing that is not public yet.
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "more-owner@example.com")
	id := ownListing(t, env, restCaller(env, key), site.URL)
	owner := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
	r, text := catCall(t, owner, "get_my_listing", map[string]any{"listing_id": id})
	if r.IsError {
		t.Fatalf("get_my_listing: %s", text)
	}
	var mine struct {
		Status  string `json:"status"`
		Profile struct {
			More []moreEntry `json:"more"`
		} `json:"profile"`
	}
	if err := json.Unmarshal([]byte(text), &mine); err != nil {
		t.Fatal(err)
	}
	if mine.Status == "live" || mine.Status == "scheduled" {
		t.Fatalf("the owned listing is %s; want one not public yet", mine.Status)
	}
	for _, m := range mine.Profile.More {
		moreResolves(t, env, owner, "own listing "+mine.Status, m, tools, map[string]string{"Authorization": "Bearer " + key})
	}
}

// moreResolves calls an entry of more over MCP and its url over REST, and
// requires both to answer, the same JSON.
func moreResolves(t *testing.T, env *catEnv, cs *mcp.ClientSession, from string, m moreEntry, tools map[string]bool, hdr map[string]string) {
	t.Helper()
	if !tools[m.Tool] || m.What == "" || len(m.Arguments) == 0 {
		t.Errorf("%s: more entry %+v names no tool of the catalog, or no arguments", from, m)
		return
	}
	r, text := catCall(t, cs, m.Tool, m.Arguments)
	if r.IsError {
		t.Errorf("%s: more names %s %v, which answers %s", from, m.Tool, m.Arguments, text)
		return
	}
	u, err := url.Parse(m.URL)
	if err != nil || u.Scheme+"://"+u.Host != env.URL {
		t.Errorf("%s: more's url %q is not at this server (%s)", from, m.URL, env.URL)
		return
	}
	rest := catDo(t, env, "GET", u.RequestURI(), nil, hdr)
	if rest.status != 200 || string(rest.body) != text {
		t.Errorf("%s: GET %s answers %d, not what %s %v answers over MCP:\n%.300s\n%.300s", from, m.URL, rest.status, m.Tool, m.Arguments, rest.body, text)
	}
}
