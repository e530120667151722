package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// oauthStack is the whole service as cmd/launchdir serves it: the auth
// routes, the REST API and /mcp on one mux behind a real HTTP server.
type oauthStack struct {
	srv   *httptest.Server
	auth  *auth.Auth
	store auth.Store
}

func newOAuthStack(t *testing.T, world func(*wiring.Adapters)) *oauthStack {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	// The service and auth as serve wires them (internal/wiring), on the
	// real clock; world changes the outside world (the client-metadata
	// documents' client).
	core := wiredCore(t, fixtures.MigratedFile(t), srv.URL, time.Now, newTestWorld(t),
		func(_ *wiring.Config, ad *wiring.Adapters) {
			if world != nil {
				world(ad)
			}
		})
	a, as := core.Auth, storage.NewAuthStore(core.DB)
	api := New(core.Service, Options{Auth: a, Now: core.DB.Now}).Handler()
	a.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/mcp", api)
	return &oauthStack{srv: srv, auth: a, store: as}
}

var (
	reHidden = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)
	reLink   = regexp.MustCompile(`https?://[^\s"<>]+/signin/email\?token=[A-Za-z0-9_\-]+`)
)

// browser plays the person for go-sdk's AuthorizationCodeFetcher: it opens
// the authorization URL, signs in by the emailed link (read from the
// outbox) when asked, allows access on the consent page, and returns what
// the redirect to the client's redirect URI carries. consents counts the
// consent pages it saw.
func (s *oauthStack) browser(t *testing.T, email, redirect string, consents *atomic.Int32) sdkauth.AuthorizationCodeFetcher {
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return func(ctx context.Context, args *sdkauth.AuthorizationArgs) (*sdkauth.AuthorizationResult, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
		for step := 0; step < 12; step++ {
			res, err := cl.Do(req)
			if err != nil {
				return nil, err
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			page := string(body)
			switch {
			case res.StatusCode == http.StatusFound || res.StatusCode == http.StatusSeeOther:
				loc, err := res.Request.URL.Parse(res.Header.Get("Location"))
				if err != nil {
					return nil, err
				}
				if strings.HasPrefix(loc.String(), redirect) {
					q := loc.Query()
					if e := q.Get("error"); e != "" {
						return nil, fmt.Errorf("authorization error %s: %s", e, q.Get("error_description"))
					}
					return &sdkauth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
				}
				req, _ = http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
			case res.StatusCode == http.StatusOK && strings.Contains(page, `action="/signin"`):
				form := hiddenFields(page)
				form.Set("email", email)
				if _, err := s.post(ctx, cl, "/signin", form); err != nil {
					return nil, err
				}
				mails, err := s.store.Outbox(ctx, email, 1)
				if err != nil || len(mails) == 0 {
					return nil, fmt.Errorf("no sign-in mail to %s: %v", email, err)
				}
				link := reLink.FindString(mails[0].Body)
				if link == "" {
					return nil, fmt.Errorf("no sign-in link in %q", mails[0].Body)
				}
				req, _ = http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
			case res.StatusCode == http.StatusOK && strings.Contains(page, `action="/authorize/decision"`):
				consents.Add(1)
				form := hiddenFields(page)
				form.Set("action", "allow")
				req, _ = http.NewRequestWithContext(ctx, http.MethodPost, s.srv.URL+"/authorize/decision", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			default:
				return nil, fmt.Errorf("unexpected page %d at %s: %.300s", res.StatusCode, res.Request.URL, page)
			}
		}
		return nil, errors.New("too many steps")
	}
}

func (s *oauthStack) post(ctx context.Context, cl *http.Client, path string, form url.Values) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := cl.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("POST %s: %d", path, res.StatusCode)
	}
	return res, nil
}

func hiddenFields(page string) url.Values {
	v := url.Values{}
	for _, m := range reHidden.FindAllStringSubmatch(page, -1) {
		v.Set(m[1], html.UnescapeString(m[2]))
	}
	return v
}

// TestOAuth_GoSDKClient drives go-sdk's own OAuth client
// (auth.AuthorizationCodeHandler) against the running service: anonymous
// connect and public tools, then the first protected call gets the 401
// challenge, the client discovers the protected resource and authorization
// server metadata, registers (dynamic registration, or a client ID metadata
// document), sends the person through email-link sign-in and consent with
// PKCE, exchanges the code, and the call goes through. After the token is
// revoked, the next call goes through the flow again: the browser session
// is still signed in, and consent is asked again because the client's
// redirect URI is on loopback (local apps are never auto-approved).
func TestOAuth_GoSDKClient(t *testing.T) {
	t.Parallel()
	const redirect = "http://127.0.0.1:33418/callback"
	cimdDoc := httptest.NewTLSServer(nil)
	t.Cleanup(cimdDoc.Close)
	cimdURL := cimdDoc.URL + "/oauth/client.json"
	cimdDoc.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"client_id": cimdURL, "client_name": "Metadata Assistant", "redirect_uris": []string{redirect},
			"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
			"token_endpoint_auth_method": "none",
		})
	})

	for _, tc := range []struct {
		name, version, clientName string
		cfg                       func(*sdkauth.AuthorizationCodeHandlerConfig)
	}{
		{"DynamicRegistration", "2025-11-25", "DCR Assistant", func(c *sdkauth.AuthorizationCodeHandlerConfig) {
			c.DynamicClientRegistrationConfig = &sdkauth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName: "DCR Assistant", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
				GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}}
		}},
		{"ClientIDMetadataDocument", "2026-07-28", "Metadata Assistant", func(c *sdkauth.AuthorizationCodeHandlerConfig) {
			c.ClientIDMetadataDocumentConfig = &sdkauth.ClientIDMetadataDocumentConfig{URL: cimdURL}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newOAuthStack(t, func(ad *wiring.Adapters) { ad.MetadataClient = cimdDoc.Client() })
			email := strings.ToLower(tc.name) + "@example.com"
			var consents atomic.Int32
			hc := &sdkauth.AuthorizationCodeHandlerConfig{
				RedirectURL:              redirect,
				AuthorizationCodeFetcher: s.browser(t, email, redirect, &consents),
				Client:                   s.srv.Client(),
			}
			tc.cfg(hc)
			h, err := sdkauth.NewAuthorizationCodeHandler(hc)
			if err != nil {
				t.Fatal(err)
			}
			c := mcp.NewClient(&mcp.Implementation{Name: "oauth-e2e", Version: "1.0.0"}, nil)
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
				Endpoint: s.srv.URL + "/mcp", HTTPClient: s.srv.Client(), OAuthHandler: h,
			}, &mcp.ClientSessionOptions{ProtocolVersion: tc.version})
			if err != nil {
				t.Fatalf("anonymous connect: %v", err)
			}
			defer cs.Close()
			if r, text := catCall(t, cs, "get_site_info", nil); r.IsError || consents.Load() != 0 {
				t.Fatalf("public tool before sign-in: %s (consents %d)", text, consents.Load())
			}

			account := func() domain.Account {
				t.Helper()
				r, text := catCall(t, cs, "get_account", nil)
				if r.IsError {
					t.Fatalf("get_account: %s", text)
				}
				var a domain.Account
				if err := json.Unmarshal([]byte(text), &a); err != nil {
					t.Fatal(err)
				}
				return a
			}
			a := account()
			if a.Email != email || a.SignedInWith != "oauth" || a.Client == nil || a.Client.Name != tc.clientName ||
				strings.Join(a.Scopes, " ") != "account:read" || consents.Load() != 1 {
				t.Fatalf("account after sign-in %+v (consents %d)", a, consents.Load())
			}

			// Revoke the access token (RFC 7009) as the client would; the next
			// call signs in again, and the remembered consent is not asked again.
			ts, err := h.TokenSource(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tok, err := ts.Token()
			if err != nil {
				t.Fatal(err)
			}
			if tok.RefreshToken == "" || !strings.HasPrefix(tok.AccessToken, auth.PrefixAccess) {
				t.Errorf("token %q / refresh %q: want an ld_at_ access token and a refresh token", tok.AccessToken[:6], tok.RefreshToken)
			}
			form := url.Values{"token": {tok.AccessToken}, "client_id": {a.Client.ClientID}}
			res, err := s.srv.Client().PostForm(s.srv.URL+"/revoke", form)
			if err != nil || res.StatusCode != 200 {
				t.Fatalf("revoke: %v %v", err, res)
			}
			res.Body.Close()
			if _, err := s.auth.Verify(context.Background(), tok.AccessToken, s.auth.MCPResource()); !errors.Is(err, auth.ErrInvalidToken) {
				t.Fatalf("revoked token still verifies: %v", err)
			}
			if a2 := account(); a2.Email != email || consents.Load() != 2 {
				t.Errorf("after revoke: %+v, consents %d (want a second consent for a local app)", a2, consents.Load())
			}
			if mails, _ := s.store.Outbox(context.Background(), email, 10); len(mails) != 1 {
				t.Errorf("%d sign-in mails, want 1: the browser session stays signed in", len(mails))
			}
		})
	}
}
