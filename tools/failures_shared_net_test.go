package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestRateLimit_BadTokenDoesNotLockOutNetwork: one
// client on loopback (every client of an office behind NAT shares one
// address) retries a stale bearer token on a public read far past the
// failure budget. It gets 401, then 429 for that token only. Another
// client on the same address then signs in with OAuth through go-sdk's own
// client (registration, sign-in link, consent, the /token exchange) and
// calls a protected tool; a third client's API key works; another stale
// token is still answered 401, not 429. Before, the first client's failures
// spent the budget of the whole network and /token, the sign-in link and
// every credential from it were refused for 15 minutes.
func TestRateLimit_BadTokenDoesNotLockOutNetwork(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	const redirect = "http://127.0.0.1:33419/callback"
	clk := testclock.New(catNow)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	// The service and auth as serve wires them (internal/wiring), with
	// serve's default failure budget (the one this test is about); the
	// tools front end shares that limiter, as internal/app does.
	core := wiredCore(t, fixtures.MigratedFile(t), srv.URL, clk.Now, newTestWorld(t), func(c *wiring.Config, _ *wiring.Adapters) {
		c.RateFailures = ratelimit.DefaultFailures.Quota
	})
	svc, a := core.Service, core.Auth
	failures := core.Limits.Failures
	as := storage.NewAuthStore(core.DB)
	api := New(svc, Options{Auth: a, Failures: failures, Now: clk.Now}).Handler()
	a.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/mcp", api)
	stack := &oauthStack{srv: srv, auth: a, store: as}
	get := func(path, token string) catResp {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body json.RawMessage
		_ = json.NewDecoder(res.Body).Decode(&body)
		return catResp{res.StatusCode, res.Header, body}
	}

	stale := auth.NewSecret(auth.PrefixAccess) // a token the server never issued, or long expired
	quota := ratelimit.DefaultFailures.Quota
	for i := range 3 * quota {
		r := get("/v1/site", stale)
		switch {
		case i < quota && r.status != http.StatusUnauthorized:
			t.Fatalf("stale token, read %d: %d, want 401; %s", i+1, r.status, r.body)
		case i >= quota && r.status != http.StatusTooManyRequests:
			t.Fatalf("stale token, read %d: %d, want 429 (its own budget is spent); %s", i+1, r.status, r.body)
		}
	}
	wantLimited(t, get("/v1/site", stale), "failures", 900)
	// Guesses are one budget each: the arithmetic of docs/ratelimits.md
	// keeps them hopeless; each is a 401, never a 429 for the others.
	if r := get("/v1/site", auth.NewSecret(auth.PrefixAccess)); r.status != http.StatusUnauthorized {
		t.Fatalf("another stale token from the same address: %d, want 401; %s", r.status, r.body)
	}

	// A person on the same address signs in through a real OAuth client.
	var consents atomic.Int32
	h, err := sdkauth.NewAuthorizationCodeHandler(&sdkauth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: stack.browser(t, "colleague@example.com", redirect, &consents),
		Client:                   srv.Client(),
		DynamicClientRegistrationConfig: &sdkauth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Colleague's Assistant", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "colleague", Version: "1.0.0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: srv.Client(), OAuthHandler: h},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	r, text := catCall(t, cs, "get_account", nil)
	if r.IsError || !strings.Contains(text, "colleague@example.com") || consents.Load() != 1 {
		t.Fatalf("get_account of a client on the same address after the sign-in: %s (consents %d)", text, consents.Load())
	}
	// Its refresh token is exchanged at /token from the same address too.
	ts, err := h.TokenSource(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token()
	if err != nil || tok.RefreshToken == "" {
		t.Fatalf("token: %v %+v", err, tok)
	}
	var acct domain.Account
	if err := json.Unmarshal([]byte(text), &acct); err != nil || acct.Client == nil {
		t.Fatalf("account %s: %v", text, err)
	}
	res, err := srv.Client().PostForm(srv.URL+"/token", url.Values{"grant_type": {"refresh_token"},
		"refresh_token": {tok.RefreshToken}, "client_id": {acct.Client.ClientID}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("refresh at /token from the same address: %d", res.StatusCode)
	}

	// An API key from the same address works, and the stale token is still
	// refused until its own window ends, then checked again (401).
	u, err := as.UpsertUser(context.Background(), auth.EmailIssuer, "script@example.com", "script@example.com", "", catNow)
	if err != nil {
		t.Fatal(err)
	}
	key := auth.NewSecret(auth.PrefixAPIKey)
	if _, err := as.CreateAPIKey(context.Background(), auth.APIKey{UserID: u.ID, Name: "script", Prefix: key[:12], Hash: auth.Hash(key), CreatedAt: catNow}); err != nil {
		t.Fatal(err)
	}
	if r := get("/v1/me", key); r.status != http.StatusOK {
		t.Fatalf("API key from the same address: %d %s", r.status, r.body)
	}
	clk.Advance(15 * time.Minute)
	if r := get("/v1/site", stale); r.status != http.StatusUnauthorized {
		t.Fatalf("stale token after its window: %d, want 401", r.status)
	}
}
