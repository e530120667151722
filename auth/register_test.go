package auth_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
)

// #7 registration: what is accepted and what is refused.
func TestRegisterValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *auth.Config) { c.RegisterPerHour = 1000 })
	resp, m := e.asRegister(map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb", "https://app.test/cb", "http://[::1]:8080/x", "http://localhost/cb"}})
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v %v", resp.StatusCode, m, resp.Header)
	}
	if id, _ := m["client_id"].(string); !strings.HasPrefix(id, auth.PrefixClient) || m["client_name"] != "Unnamed client" ||
		m["token_endpoint_auth_method"] != "none" || m["client_secret"] != nil || m["client_id_issued_at"] == nil ||
		len(m["grant_types"].([]any)) != 2 || len(m["response_types"].([]any)) != 1 {
		t.Errorf("registered %v", m)
	}
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = "https://app.test/cb" + strings.Repeat("x", i)
	}
	for name, tc := range map[string]struct {
		meta map[string]any
		code string
	}{
		"no redirect":          {map[string]any{"client_name": "x"}, "invalid_redirect_uri"},
		"eleven redirects":     {map[string]any{"redirect_uris": eleven}, "invalid_redirect_uri"},
		"non-loopback http":    {map[string]any{"redirect_uris": []string{"http://example.com/cb"}}, "invalid_redirect_uri"},
		"custom scheme":        {map[string]any{"redirect_uris": []string{"com.example.app:/cb"}}, "invalid_redirect_uri"},
		"javascript":           {map[string]any{"redirect_uris": []string{"javascript:alert(1)"}}, "invalid_redirect_uri"},
		"fragment":             {map[string]any{"redirect_uris": []string{"https://app.test/cb#x"}}, "invalid_redirect_uri"},
		"userinfo":             {map[string]any{"redirect_uris": []string{"https://u:p@app.test/cb"}}, "invalid_redirect_uri"},
		"relative":             {map[string]any{"redirect_uris": []string{"/cb"}}, "invalid_redirect_uri"},
		"long name":            {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "client_name": strings.Repeat("n", 201)}, "invalid_client_metadata"},
		"control in name":      {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "client_name": "a\u202eb"}, "invalid_client_metadata"},
		"jwks_uri":             {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "jwks_uri": "https://a.test/jwks"}, "invalid_client_metadata"},
		"jwks":                 {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "jwks": map[string]any{"keys": []any{}}}, "invalid_client_metadata"},
		"private_key_jwt":      {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata"},
		"implicit":             {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "grant_types": []string{"implicit"}}, "invalid_client_metadata"},
		"client_credentials":   {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "grant_types": []string{"authorization_code", "client_credentials"}}, "invalid_client_metadata"},
		"token response":       {map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "response_types": []string{"token"}}, "invalid_client_metadata"},
		"redirect_uris string": {map[string]any{"redirect_uris": "https://a.test/cb"}, "invalid_client_metadata"},
	} {
		resp, m := e.asRegister(tc.meta)
		t.Run(name, func(t *testing.T) { asOAuthError(t, resp, m, 400, tc.code) })
	}
	// exactly 200 characters is fine
	if resp, m := e.asRegister(map[string]any{"redirect_uris": []string{"https://a.test/cb"}, "client_name": strings.Repeat("n", 200)}); resp.StatusCode != 201 {
		t.Errorf("200-character name: %v", m)
	}
}

// #7 the 21st registration from one address within an hour is 429.
func TestRegisterRateLimit(t *testing.T) {
	e := newEnv(t, nil)
	meta := map[string]any{"redirect_uris": []string{"https://a.test/cb"}}
	for i := range 20 {
		if resp, m := e.asRegister(meta); resp.StatusCode != 201 {
			t.Fatalf("registration %d: %d %v", i+1, resp.StatusCode, m)
		}
	}
	resp, m := e.asRegister(meta)
	asOAuthError(t, resp, m, http.StatusTooManyRequests, "too_many_requests")
	if resp.Header.Get("Retry-After") == "" || resp.Header.Get("Retry-After") == "0" {
		t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	// like every other limit's 429 (docs/ratelimits.md): the policy and r=0
	items, err := ratelimit.ParseItems(resp.Header, "RateLimit")
	if err != nil || len(items) != 1 || items[0].Name != "register" || items[0].Params["r"] != 0 {
		t.Errorf("RateLimit %q (%v): want one item \"register\" with r=0", resp.Header.Values("RateLimit"), err)
	}
	if p := resp.Header.Get("RateLimit-Policy"); !strings.HasPrefix(p, `"register";q=20;w=3600`) {
		t.Errorf("RateLimit-Policy %q, want \"register\";q=20;w=3600", p)
	}
	e.advance(3 * 60e9) // one registration per 3 minutes comes back
	if resp, m := e.asRegister(meta); resp.StatusCode != 201 {
		t.Errorf("after waiting: %d %v", resp.StatusCode, m)
	}
}
