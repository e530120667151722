package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// served is one `launchdir serve` run by the test on 127.0.0.1 with a free
// port: the banner it printed, its log, and a client that reaches it under
// any Host name.
type served struct {
	port   string
	banner string
	logs   *syncBuffer
	dial   func(ctx context.Context, network, addr string) (net.Conn, error)
}

// startServe runs serve with args (after --addr 127.0.0.1:0 --data TMP
// --rate-limit 0) until the test ends, and reads its banner.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	return startServeAt(t, time.Now, args...)
}

// startServeAt is startServe on the clock now.
func startServeAt(t testing.TB, now func() time.Time, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &served{logs: &syncBuffer{}}
	ended := make(chan struct{}) // closed when run has returned, runErr set
	var runErr error
	// The data folder is made here, before the cleanup below: cleanups run
	// last-in first-out, so serve has stopped writing into it (its search
	// snapshot) before the folder is removed.
	data := t.TempDir()
	go func() {
		runErr = run(ctx, now, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0"}, args...), pw, s.logs)
		pw.Close()
		close(ended)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ended:
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
	})
	// Ready when the banner is in; a serve that ends first fails at once
	// with its error and stderr (awaitBanner).
	banner, err := awaitBanner(pr, serveReadyBound)
	if err != nil {
		select {
		case <-ended:
			t.Fatalf("serve ended before its banner: %v\n%v\nstderr:\n%s", runErr, err, s.logs)
		default:
			t.Fatalf("serve (still running): %v\nstderr so far:\n%s\ngoroutines:\n%s", err, s.logs, goroutines())
		}
	}
	s.banner = banner
	m := regexp.MustCompile(`on 127\.0\.0\.1:(\d+)\n`).FindStringSubmatch(s.banner)
	if m == nil {
		t.Fatalf("serve printed no listen address:\n%s", s.banner)
	}
	s.port = m[1]
	addr := "127.0.0.1:" + s.port
	var d net.Dialer
	s.dial = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	return s
}

// client is a browser-like client (own cookie jar, redirects not followed)
// that connects to the server whatever host a URL names.
func (s *served) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: &http.Transport{DialContext: s.dial},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches u with the Host header host ("" keeps u's host) and decodes a
// JSON body into v when v is not nil.
func (s *served) get(t *testing.T, u, host, bearer string, v any) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if host != "" {
		req.Host = host
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := s.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if v != nil {
		if err := json.NewDecoder(res.Body).Decode(v); err != nil {
			t.Fatalf("GET %s (Host %s): %v", u, host, err)
		}
	}
	return res
}

// TestServe_LoopbackOrigins: without --base-url, one serve on 127.0.0.1
// answers a client that uses http://127.0.0.1:PORT and one that uses
// http://localhost:PORT each with URLs of its own origin (the TypeScript SDK
// refuses protected-resource metadata naming another origin than the one it
// connected to), a foreign Host gets the default origin (no Host-header
// injection), and a whole OAuth sign-in works through each origin.
func TestServe_LoopbackOrigins(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	def := "http://127.0.0.1:" + s.port
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1:" + s.port, "http://127.0.0.1:" + s.port},
		{"localhost:" + s.port, "http://localhost:" + s.port},
		{"LOCALHOST:" + s.port, "http://localhost:" + s.port},
		{"[::1]:" + s.port, "http://[::1]:" + s.port},
		{"evil.example", def},
		{"evil.example:" + s.port, def},
		{"localhost:1", def},
		{"localhost", def},
	} {
		t.Run(tc.host, func(t *testing.T) {
			var prm struct {
				Resource             string   `json:"resource"`
				AuthorizationServers []string `json:"authorization_servers"`
			}
			s.get(t, def+"/.well-known/oauth-protected-resource/mcp", tc.host, "", &prm)
			if prm.Resource != tc.want+"/mcp" || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != tc.want {
				t.Errorf("protected resource metadata %+v, want resource %s/mcp and issuer %s", prm, tc.want, tc.want)
			}
			var as struct {
				Issuer                string `json:"issuer"`
				AuthorizationEndpoint string `json:"authorization_endpoint"`
				TokenEndpoint         string `json:"token_endpoint"`
				RegistrationEndpoint  string `json:"registration_endpoint"`
				RevocationEndpoint    string `json:"revocation_endpoint"`
			}
			s.get(t, def+"/.well-known/oauth-authorization-server", tc.host, "", &as)
			if as.Issuer != tc.want || as.AuthorizationEndpoint != tc.want+"/authorize" || as.TokenEndpoint != tc.want+"/token" ||
				as.RegistrationEndpoint != tc.want+"/register" || as.RevocationEndpoint != tc.want+"/revoke" {
				t.Errorf("authorization server metadata %+v, want every URL at %s", as, tc.want)
			}
			var site struct {
				MCPURL     string `json:"mcp_url"`
				APIBaseURL string `json:"api_base_url"`
			}
			s.get(t, def+"/v1/site", tc.host, "", &site)
			if site.MCPURL != tc.want+"/mcp" || site.APIBaseURL != tc.want+"/v1" {
				t.Errorf("get_site_info %+v, want URLs at %s", site, tc.want)
			}
			res := s.get(t, def+"/v1/me", tc.host, "", nil)
			if wa := res.Header.Get("WWW-Authenticate"); res.StatusCode != 401 ||
				!strings.Contains(wa, `resource_metadata="`+tc.want+`/.well-known/oauth-protected-resource/v1"`) {
				t.Errorf("GET /v1/me anonymous: %d %q, want 401 naming %s's metadata", res.StatusCode, wa, tc.want)
			}
		})
	}

	tokens := map[string]string{}
	for _, origin := range []string{"http://127.0.0.1:" + s.port, "http://localhost:" + s.port} {
		tokens[origin] = s.oauthSignIn(t, origin, "person@example.com")
		var me struct {
			Email string `json:"email"`
		}
		if res := s.get(t, origin+"/v1/me", "", tokens[origin], &me); res.StatusCode != 200 || me.Email != "person@example.com" {
			t.Errorf("GET %s/v1/me with the token issued there: %d %+v", origin, res.StatusCode, me)
		}
	}
	// A token is bound to the resource the client asked for: the one of the
	// origin it signed in through (docs/auth.md).
	if res := s.get(t, "http://localhost:"+s.port+"/v1/me", "", tokens["http://127.0.0.1:"+s.port], nil); res.StatusCode != 401 {
		t.Errorf("a token for http://127.0.0.1:%s/v1 at http://localhost:%s/v1: %d, want 401", s.port, s.port, res.StatusCode)
	}
}

var (
	reHiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)
	// reLinkLine is a sign-in link alone on a line of the log.
	reLinkLine = regexp.MustCompile(`(?m)^(http://\S+/signin/email\?token=[A-Za-z0-9_-]+)$`)
)

// oauthSignIn plays an OAuth client and the person behind it through
// origin: dynamic registration, /authorize with PKCE for the REST API,
// email-link sign-in (the link read from its own line of the log), consent,
// and the code exchange. It checks every URL the flow is given names origin
// and returns the access token.
func (s *served) oauthSignIn(t *testing.T, origin, email string) string {
	t.Helper()
	const redirect = "http://127.0.0.1:9/callback"
	c := s.client()
	reg := struct{ ClientID string }{registerClient(t, c, origin, "Origin test", redirect)}
	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"state": {"st"}, "scope": {"account:read"}, "resource": {origin + "/v1"}}
	next := origin + "/authorize?" + q.Encode()
	req, _ := http.NewRequest(http.MethodGet, next, nil)
	var code string
	for step := 0; step < 12 && code == ""; step++ {
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := string(b)
		form := url.Values{}
		for _, m := range reHiddenField.FindAllStringSubmatch(page, -1) {
			form.Set(m[1], html.UnescapeString(m[2]))
		}
		switch {
		case res.StatusCode == http.StatusFound || res.StatusCode == http.StatusSeeOther:
			loc, _ := res.Request.URL.Parse(res.Header.Get("Location"))
			if strings.HasPrefix(loc.String(), redirect) {
				if loc.Query().Get("iss") != origin || loc.Query().Get("error") != "" {
					t.Fatalf("authorization response %s, want a code and iss %s", loc, origin)
				}
				code = loc.Query().Get("code")
				break
			}
			if loc.Scheme+"://"+loc.Host != origin {
				t.Fatalf("redirected from %s to %s, another origin", res.Request.URL, loc)
			}
			req, _ = http.NewRequest(http.MethodGet, loc.String(), nil)
		case res.StatusCode == 200 && strings.Contains(page, `action="/signin"`):
			before := len(reLinkLine.FindAllString(s.logs.String(), -1))
			form.Set("email", email)
			res, err := c.PostForm(origin+"/signin", form)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			links := newLinks(s.logs, before)
			if res.StatusCode != 200 || len(links) != before+1 {
				t.Fatalf("sign-in at %s: %d, %d new links on a line of their own in the log:\n%s", origin, res.StatusCode, len(links)-before, s.logs.String())
			}
			link := links[len(links)-1]
			if !strings.HasPrefix(link, origin+"/signin/email?token=") {
				t.Fatalf("sign-in link %s, want one at %s", link, origin)
			}
			req, _ = http.NewRequest(http.MethodGet, link, nil)
		case res.StatusCode == 200 && strings.Contains(page, `action="/authorize/decision"`):
			form.Set("action", "allow")
			req, _ = http.NewRequest(http.MethodPost, origin+"/authorize/decision", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		default:
			t.Fatalf("unexpected page %d at %s: %.300s", res.StatusCode, res.Request.URL, page)
		}
	}
	if code == "" {
		t.Fatal("no authorization code")
	}
	res, err := c.PostForm(origin+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"redirect_uri": {redirect}, "client_id": {reg.ClientID}, "code_verifier": {verifier}, "resource": {origin + "/v1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(res.Body).Decode(&tok)
	if res.StatusCode != 200 || tok.AccessToken == "" {
		t.Fatalf("token at %s: %d", origin, res.StatusCode)
	}
	return tok.AccessToken
}

// TestServe_BannerNamesBothLoopbackOrigins: the banner prints URLs that
// work, and says that the other loopback name works too.
func TestServe_BannerNamesBothLoopbackOrigins(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	for _, want := range []string{
		"  MCP:      http://127.0.0.1:" + s.port + "/mcp\n",
		"http://localhost:" + s.port + "/mcp",
	} {
		if !strings.Contains(s.banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, s.banner)
		}
	}
}

// TestServe_SignInLinkOnItsOwnLine: without SMTP the sign-in mail is in the
// log with its link alone on a line (not inside a quoted field with escaped
// newlines), and that line, copied as it is, signs in.
func TestServe_SignInLinkOnItsOwnLine(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	c := s.client()
	res, err := c.PostForm(origin+"/signin", url.Values{"email": {"copy@example.com"}, "next": {"/account"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	lines := reLinkLine.FindAllString(s.logs.String(), -1)
	if res.StatusCode != 200 || len(lines) != 1 {
		t.Fatalf("POST /signin: %d; %d links alone on a line of the log, want 1:\n%s", res.StatusCode, len(lines), s.logs.String())
	}
	res, err = c.Get(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/account" {
		t.Fatalf("GET the copied link: %d to %q, want 303 to /account", res.StatusCode, res.Header.Get("Location"))
	}
	res, err = c.Get(origin + "/account")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), "copy@example.com") {
		t.Errorf("GET /account after the link: %d, want the signed-in account page", res.StatusCode)
	}
}

// newLinks returns the sign-in links alone on a line of logs, waiting up to
// 5 s for more than before: a server in another process writes its log
// through a pipe, after it answered.
func newLinks(logs *syncBuffer, before int) []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		links := reLinkLine.FindAllString(logs.String(), -1)
		if len(links) > before || time.Now().After(deadline) {
			return links
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signIn signs email in through origin by the link in the log, and
// returns the browser.
func (s *served) signIn(t *testing.T, origin, email string) *http.Client {
	t.Helper()
	c := s.client()
	before := len(reLinkLine.FindAllString(s.logs.String(), -1))
	res, err := c.PostForm(origin+"/signin", url.Values{"email": {email}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	links := reLinkLine.FindAllString(s.logs.String(), -1)
	if len(links) != before+1 {
		t.Fatalf("sign-in of %s mailed %d links", email, len(links)-before)
	}
	if res, err = c.Get(links[len(links)-1]); err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in link: %v %v", err, res)
	}
	res.Body.Close()
	return c
}

// adminPage fetches /admin with c.
func adminPage(t *testing.T, c *http.Client, origin string) (int, string) {
	t.Helper()
	res, err := c.Get(origin + "/admin")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestServe_BannerSaysHowToBecomeAdmin: without --admin-emails nobody can
// open /admin, so the banner says how to become admin, and on this local
// instance /admin's 404 page says it to a signed-in person (not to a
// visitor). With --admin-emails neither says it: a public instance does
// not reveal its admin page. The hint names the command as this process was
// started (selfCommand): "go run ./cmd/launchdir" under go test, the binary's
// path when the test binary is run by itself.
func TestServe_BannerSaysHowToBecomeAdmin(t *testing.T) {
	t.Parallel()
	hint := selfCommand() + " admin grant --email you@example.com --role admin"
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	if !strings.Contains(s.banner, hint) {
		t.Errorf("banner without --admin-emails does not say how to become admin:\n%s", s.banner)
	}
	if st, body := adminPage(t, s.signIn(t, origin, "me@example.com"), origin); st != 404 || !strings.Contains(body, hint) {
		t.Errorf("/admin for a signed-in person on a local instance without admins: %d, hint shown %t", st, strings.Contains(body, hint))
	}
	if st, body := adminPage(t, s.client(), origin); st != 404 || strings.Contains(body, hint) || strings.Contains(body, "admin") {
		t.Errorf("/admin for a visitor: %d, want the plain 404 page:\n%.500s", st, body)
	}

	s = startServe(t, "--admin-emails", "team@example.com")
	origin = "http://127.0.0.1:" + s.port
	if strings.Contains(s.banner, "you@example.com") || !strings.Contains(s.banner, "/admin (for the site team") {
		t.Errorf("banner with --admin-emails:\n%s", s.banner)
	}
	if st, body := adminPage(t, s.signIn(t, origin, "me@example.com"), origin); st != 404 || strings.Contains(body, hint) {
		t.Errorf("/admin for a signed-in non-admin with admins configured: %d, hint shown %t", st, strings.Contains(body, hint))
	}
}

// TestServe_PreflightOfMetadata: browser-based MCP clients send a CORS
// preflight before they read the metadata documents; each answers it as
// /mcp and /token do.
func TestServe_PreflightOfMetadata(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	for _, tc := range []struct{ path, method string }{
		{"/mcp", "POST"},
		{"/token", "POST"},
		{"/.well-known/oauth-protected-resource/mcp", "GET"},
		{"/.well-known/oauth-protected-resource/v1", "GET"},
		{"/.well-known/oauth-authorization-server", "GET"},
	} {
		req, _ := http.NewRequest(http.MethodOptions, origin+tc.path, nil)
		req.Header.Set("Origin", "https://inspector.example")
		req.Header.Set("Access-Control-Request-Method", tc.method)
		req.Header.Set("Access-Control-Request-Headers", "mcp-protocol-version")
		res, err := s.client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		if res.StatusCode/100 != 2 || h.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(h.Get("Access-Control-Allow-Methods"), tc.method) ||
			!strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "mcp-protocol-version") {
			t.Errorf("OPTIONS %s: %d %v, want 2xx allowing any origin, %s and Mcp-Protocol-Version", tc.path, res.StatusCode, h, tc.method)
		}
	}
}

// TestServe_BaseURLIsTheOnlyOrigin: with --base-url every request, whatever
// loopback name it used, gets URLs at that one origin.
func TestServe_BaseURLIsTheOnlyOrigin(t *testing.T) {
	t.Parallel()
	const base = "https://launchdir.example"
	s := startServe(t, "--base-url", base+"/")
	if !strings.Contains(s.banner, "  MCP:      "+base+"/mcp\n") || strings.Contains(s.banner, "Also:") {
		t.Errorf("banner with --base-url:\n%s", s.banner)
	}
	for _, host := range []string{"127.0.0.1:" + s.port, "localhost:" + s.port} {
		var prm struct {
			Resource string `json:"resource"`
		}
		s.get(t, "http://"+host+"/.well-known/oauth-protected-resource/mcp", "", "", &prm)
		if prm.Resource != base+"/mcp" {
			t.Errorf("Host %s: resource %q, want %s/mcp", host, prm.Resource, base)
		}
	}
}

// registerClient registers a public OAuth client (PKCE, no secret) named
// name with one redirect URI through origin's /register and returns its
// client_id.
func registerClient(t *testing.T, c *http.Client, origin, name, redirect string) string {
	t.Helper()
	body := `{"client_name":"` + name + `","redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none",` +
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"]}`
	res, err := c.Post(origin+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&reg); err != nil || res.StatusCode != 201 || reg.ClientID == "" {
		t.Fatalf("register at %s: %d (%v)", origin, res.StatusCode, err)
	}
	return reg.ClientID
}
