package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// server is the authorization server: its handlers share the client ID
// metadata document cache and the registration rate limiter.
type server struct {
	a        *Auth
	cimd     *cimdCache
	register *ratelimit.Limiter
}

// registerServer adds the authorization server's endpoints.
func (a *Auth) registerServer(mux *http.ServeMux) {
	s := &server{a: a, cimd: newCIMDCache(a), register: newRegisterLimiter(a.cfg.RegisterPerHour, a.now)}
	// Per network: the OAuth budget for every step of a sign-in, and the
	// failed-credential budget where a client secret, code or token is checked.
	limit := a.cfg.OAuthLimit.Handler
	failures := func(next http.Handler, failed func(int) bool) http.Handler {
		return a.cfg.Failures.GuardKeyed(next, failed, clientCredentialKey)
	}
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("OPTIONS /.well-known/oauth-authorization-server", preflightGET)
	mux.Handle("GET /authorize", limit(http.HandlerFunc(s.authorize)))
	mux.Handle("POST /authorize", limit(http.HandlerFunc(s.authorize)))
	mux.Handle("GET /authorize/continue", limit(http.HandlerFunc(s.authorizeContinue)))
	mux.Handle("POST /authorize/decision", limit(form(s.decision)))
	mux.Handle("POST /token", withAPIHeaders(limit(failures(http.HandlerFunc(s.token), refused))))
	mux.Handle("POST /register", withAPIHeaders(limit(http.HandlerFunc(s.registerClient))))
	mux.Handle("POST /revoke", withAPIHeaders(limit(failures(http.HandlerFunc(s.revoke), unauthorized))))
	for _, p := range []string{"/token", "/register", "/revoke"} {
		mux.HandleFunc("OPTIONS "+p, preflight)
	}
}

// clientCredentialKey is the failed-credential budget of a /token or /revoke
// request: its network and the credentials it sends (Basic header, client_id
// and client_secret, code, refresh_token, token; not the PKCE verifier, so
// that guessing the verifier of one code spends one budget). A client
// retrying a bad code or a stale refresh token spends its own budget and
// never refuses another client of the same network (docs/ratelimits.md).
// The body is read here, at most 64 KB as parseForm reads, and put back
// whole for the handler, which checks it.
func clientCredentialKey(r *http.Request) string {
	var form url.Values
	if r.Body != nil {
		head, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		if err == nil {
			form, _ = url.ParseQuery(string(head))
		}
	}
	return ratelimit.CredentialKey(r, "client", r.Header.Get("Authorization"), form.Get("client_id"),
		form.Get("client_secret"), form.Get("code"), form.Get("refresh_token"), form.Get("token"))
}

// Grant types and client authentication methods.
const (
	grantCode    = "authorization_code"
	grantRefresh = "refresh_token"

	authNone  = "none"
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"

	scopeOffline = "offline_access"
)

// oauthError is an OAuth error (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2);
// its HTTP status follows from its code (oauthStatus).
type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// status is the HTTP status of e's response.
func (e *oauthError) status() int { return oauthStatus(e.Code) }

func (e *oauthError) Error() string { return e.Code + ": " + e.Description }

func errorf(code, format string, args ...any) *oauthError {
	return &oauthError{Code: code, Description: fmt.Sprintf(format, args...)}
}

// apiHeaders are set on every response of /token, /register and /revoke:
// never cached, readable by browser-based clients of any origin (they
// authenticate with their own credentials, never with cookies).
func apiHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
}

// withAPIHeaders sets the JSON endpoints' headers before h, so that a 429
// of the rate limiters in front of the handler reaches browser clients too.
func withAPIHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiHeaders(w)
		h.ServeHTTP(w, r)
	})
}

// preflight answers a CORS preflight of the JSON endpoints.
func preflight(w http.ResponseWriter, _ *http.Request) {
	answerPreflight(w, "POST, OPTIONS")
}

// preflightGET answers a CORS preflight of the public metadata documents,
// which browser-based MCP clients read (with Mcp-Protocol-Version) before
// they sign in.
func preflightGET(w http.ResponseWriter, _ *http.Request) {
	answerPreflight(w, "GET, OPTIONS")
}

func answerPreflight(w http.ResponseWriter, methods string) {
	apiHeaders(w)
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Protocol-Version")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(statusPreflight)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", pageStatus(domain.EInternal))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func writeOAuthError(w http.ResponseWriter, e *oauthError) {
	writeJSON(w, e.status(), e)
}

// serverError logs err and answers 500 server_error in JSON.
func (s *server) serverError(w http.ResponseWriter, what string, err error) {
	s.a.log.Error(what, "err", err)
	writeOAuthError(w, &oauthError{Code: "server_error", Description: "Internal error; try again."})
}

// parseForm reads a form-encoded POST body (at most 64 KB) and refuses
// repeated parameters (RFC 6749 §3.1, §3.2).
func parseForm(w http.ResponseWriter, r *http.Request) *oauthError {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/x-www-form-urlencoded") {
		return errorf("invalid_request", "The request body must be application/x-www-form-urlencoded.")
	}
	if err := r.ParseForm(); err != nil {
		return errorf("invalid_request", "The request body could not be read as a form.")
	}
	for k, v := range r.PostForm {
		if len(v) > 1 {
			return errorf("invalid_request", "Parameter %s is repeated.", k)
		}
	}
	return nil
}

// isLoopbackHost reports whether host (without port) is a loopback name.
func isLoopbackHost(host string) bool {
	return host == "127.0.0.1" || host == "::1" || host == "localhost"
}

// validRedirectURI checks a redirect URI at registration (and in metadata
// documents): https, or http on a loopback host; absolute; no fragment and
// no userinfo.
func validRedirectURI(raw string) error {
	if raw == "" || len(raw) > 2000 {
		return errors.New("a redirect URI is empty or too long")
	}
	if strings.Contains(raw, "#") {
		return fmt.Errorf("redirect URI %q has a fragment", raw)
	}
	if strings.ContainsAny(raw, " \t\r\n\\<>\"") {
		return fmt.Errorf("redirect URI %q has characters that are not allowed", raw)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" {
		return fmt.Errorf("redirect URI %q is not an absolute URL", raw)
	}
	if u.User != nil {
		return fmt.Errorf("redirect URI %q has user information", raw)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("redirect URI %q has no host", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopbackHost(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("redirect URI %q uses http on a host that is not loopback; use https, or http://127.0.0.1, http://[::1] or http://localhost", raw)
	}
	return fmt.Errorf("redirect URI %q has scheme %q; only https and http on loopback are allowed", raw, u.Scheme)
}

// isLoopbackRedirect reports whether raw is an http URI on a loopback host.
func isLoopbackRedirect(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "http" && isLoopbackHost(u.Hostname())
}

// matchRedirectURI returns the registered redirect URI that requested
// matches: exactly, or for loopback http URIs with any port (RFC 8252 §7.3).
func matchRedirectURI(registered []string, requested string) (string, bool) {
	for _, r := range registered {
		if r == requested {
			return requested, true
		}
	}
	q, err := url.Parse(requested)
	if err != nil || q.Scheme != "http" || !isLoopbackHost(q.Hostname()) || q.User != nil ||
		q.Fragment != "" || strings.Contains(requested, "#") {
		return "", false
	}
	if p := q.Port(); p != "" {
		for _, c := range p {
			if c < '0' || c > '9' {
				return "", false
			}
		}
	}
	for _, r := range registered {
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "http" || !isLoopbackHost(u.Hostname()) {
			continue
		}
		if u.Hostname() == q.Hostname() && u.EscapedPath() == q.EscapedPath() && u.RawQuery == q.RawQuery &&
			u.ForceQuery == q.ForceQuery {
			return requested, true
		}
	}
	return "", false
}

// withParams returns redirectURI with params added to its query.
func withParams(redirectURI string, params url.Values) string {
	u, err := url.Parse(redirectURI)
	if err != nil {
		return redirectURI // validated before; cannot happen
	}
	q := u.Query()
	for k, v := range params {
		if len(v) > 0 && v[0] != "" {
			q.Set(k, v[0])
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// parseScopes turns a scope parameter into the scopes to grant, in the
// order of domain.AllScopes: none means every scope; offline_access is
// accepted and ignored (refresh tokens are always issued).
func parseScopes(param string) ([]string, *oauthError) {
	want := map[string]bool{}
	for _, s := range strings.Fields(param) {
		if s == scopeOffline {
			continue
		}
		if !slices.Contains(domain.AllScopes, s) {
			return nil, errorf("invalid_scope", "Unknown scope %q; the scopes are %s.", truncate(s, 60), strings.Join(domain.AllScopes, ", "))
		}
		want[s] = true
	}
	if len(want) == 0 {
		return slices.Clone(domain.AllScopes), nil
	}
	var out []string
	for _, s := range domain.AllScopes {
		if want[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

// subset reports whether every scope of a is in b.
func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// union returns the scopes of a and b in the order of domain.AllScopes.
func union(a, b []string) []string {
	var out []string
	for _, s := range domain.AllScopes {
		if slices.Contains(a, s) || slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// parseResource returns the resource a request names (RFC 8707): one of
// the two resources at the request's origin, byte-equal but for one
// trailing slash; none means the MCP server.
func (a *Auth) parseResource(ctx context.Context, values []string) (string, *oauthError) {
	mcp, api := a.MCPResourceFor(ctx), a.APIResourceFor(ctx)
	switch len(values) {
	case 0:
		return mcp, nil
	case 1:
	default:
		return "", errorf("invalid_target", "Name one resource: %s or %s.", mcp, api)
	}
	v := values[0]
	if v == "" {
		return mcp, nil
	}
	v = strings.TrimSuffix(v, "/")
	if _, ok := strings.CutPrefix(v, mcp+"?"); ok {
		// /mcp?toolsets=...: a toolset selection of the one MCP resource
		// (docs/toolsets.md); the token is for /mcp, whatever the selection.
		return mcp, nil
	}
	switch v {
	case mcp, api:
		return v, nil
	}
	return "", errorf("invalid_target", "Unknown resource %q; the resources are %s and %s.", truncate(values[0], 100), mcp, api)
}

// truncate shortens s to at most n runes, for error messages.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// resolveClient finds a client: an https client_id is a client ID metadata
// document, fetched (or cached); anything else is a registered client.
// ErrNotFound when there is no such client; other errors say why a metadata
// document was refused.
func (s *server) resolveClient(ctx context.Context, id string) (Client, error) {
	if isURLClientID(id) {
		return s.cimd.get(ctx, id)
	}
	if id == "" || len(id) > 200 {
		return Client{}, ErrNotFound
	}
	c, err := s.a.store.ClientByID(ctx, id)
	if err == nil && c.Kind == ClientMetadata {
		// metadata clients are only trusted through a fresh document
		return Client{}, ErrNotFound
	}
	return c, err
}

// authenticateClient authenticates the client of a /token or /revoke
// request by its registered method: none (client_id in the form),
// client_secret_basic or client_secret_post.
func (s *server) authenticateClient(r *http.Request) (Client, *oauthError) {
	basicID, basicSecret, basic := r.BasicAuth()
	formID, formSecret := r.PostFormValue("client_id"), r.PostFormValue("client_secret")
	fail := func(desc string) *oauthError {
		return &oauthError{Code: "invalid_client", Description: desc}
	}
	var id, secret, method string
	switch {
	case basic:
		var err1, err2 error
		id, err1 = url.QueryUnescape(basicID)
		secret, err2 = url.QueryUnescape(basicSecret)
		if err1 != nil || err2 != nil {
			return Client{}, fail("The Basic credentials are not form-encoded (RFC 6749 §2.3.1).")
		}
		if formSecret != "" {
			return Client{}, errorf("invalid_request", "Use one client authentication method, not Basic and client_secret together.")
		}
		if formID != "" && formID != id {
			return Client{}, errorf("invalid_request", "client_id differs from the Basic credentials.")
		}
		method = authBasic
	case formSecret != "":
		id, secret, method = formID, formSecret, authPost
	default:
		id, method = formID, authNone
	}
	if id == "" {
		return Client{}, fail("Client authentication is required: send client_id (public clients) or the client's credentials.")
	}
	c, err := s.resolveClient(r.Context(), id)
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			s.a.log.Info("client resolution failed", "client_id", truncate(id, 200), "err", err)
		}
		return Client{}, fail("Unknown client, or its metadata document could not be used.")
	}
	registered := c.AuthMethod
	if registered == "" {
		registered = authNone
	}
	if registered != method {
		return Client{}, fail(fmt.Sprintf("This client authenticates with %s.", registered))
	}
	if method != authNone && (c.SecretHash == "" || !Equal(Hash(secret), c.SecretHash)) {
		return Client{}, fail("Client authentication failed.")
	}
	return c, nil
}

// writeClientError writes an error of authenticateClient: 401 with a Basic
// challenge when the client used Basic.
func writeClientError(w http.ResponseWriter, r *http.Request, e *oauthError) {
	if e.status() == statusOAuthClient {
		if _, _, ok := r.BasicAuth(); ok {
			w.Header().Set("WWW-Authenticate", `Basic realm="launchdir", charset="UTF-8"`)
		}
	}
	writeOAuthError(w, e)
}

// validChallenge reports whether c is an S256 code challenge: the
// unpadded base64url encoding of 32 bytes.
func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil && len(b) == 32
}
