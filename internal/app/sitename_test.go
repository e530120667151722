package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestOpen_AuthNamesTheSiteNow: auth's pages and its protected resource
// metadata name the site as the site_name setting says at each request
// (docs/console.md "Site settings"), not the name serve started with.
func TestOpen_AuthNamesTheSiteNow(t *testing.T) {
	t.Parallel()
	a := open(t, testConfig(t), Adapters{})
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	get := func(path string) string {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
		}
		return string(b)
	}
	if body := get("/signin"); !strings.Contains(body, "<title>Sign in · Launchdir</title>") {
		t.Fatalf("the sign-in page before the rename: %.600s", body)
	}
	if err := a.Console.SetSiteSettings(context.Background(), "ops@example.com", map[string]string{domain.SettingSiteName: "Rocket Board"}); err != nil {
		t.Fatal(err)
	}
	body := get("/signin")
	for _, want := range []string{"<title>Sign in · Rocket Board</title>", `class="brand" href="/">Rocket Board<`} {
		if !strings.Contains(body, want) {
			t.Errorf("the sign-in page after the rename lacks %q: %.600s", want, body)
		}
	}
	for path, want := range map[string]string{
		"/.well-known/oauth-protected-resource/mcp": "Rocket Board MCP server",
		"/.well-known/oauth-protected-resource/v1":  "Rocket Board REST API",
	} {
		var md struct {
			ResourceName string `json:"resource_name"`
		}
		if err := json.Unmarshal([]byte(get(path)), &md); err != nil || md.ResourceName != want {
			t.Errorf("GET %s: resource_name %q (%v), want %q", path, md.ResourceName, err, want)
		}
	}
}
