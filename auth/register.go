package auth

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/internal/problem"
)

// Limits of dynamic client registration.
const (
	maxRedirectURIs = 10
	maxClientName   = 200
	defaultName     = "Unnamed client"
)

// registration is the RFC 7591 client metadata we read.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
}

// registered is the RFC 7591 registration response.
type registered struct {
	ClientID                string   `json:"client_id"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	ClientSecretExpiresAt   *int64   `json:"client_secret_expires_at,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
}

// registerClient serves POST /register (RFC 7591).
func (s *server) registerClient(w http.ResponseWriter, r *http.Request) {
	apiHeaders(w)
	if st := s.register.Take(remoteIP(r)); !st.OK {
		st.SetHeaders(w.Header())
		problem.SetRetryAfter(w.Header(), st.ResetSeconds())
		writeOAuthError(w, &oauthError{Code: "too_many_requests",
			Description: "Too many registrations from this address; try again later."})
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeOAuthError(w, errorf("invalid_client_metadata", "Send the client metadata as application/json."))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil || raw == nil {
		writeOAuthError(w, errorf("invalid_client_metadata", "The body is not a JSON object."))
		return
	}
	body, _ := json.Marshal(raw)
	var m registration
	if err := json.Unmarshal(body, &m); err != nil {
		writeOAuthError(w, errorf("invalid_client_metadata", "A field has the wrong type: %v", err))
		return
	}
	for _, k := range []string{"jwks", "jwks_uri"} {
		if _, ok := raw[k]; ok {
			writeOAuthError(w, errorf("invalid_client_metadata", "%s is not supported: use token_endpoint_auth_method none, client_secret_basic or client_secret_post.", k))
			return
		}
	}
	c, resp, oerr := s.a.newDynamicClient(m)
	if oerr != nil {
		writeOAuthError(w, oerr)
		return
	}
	if err := s.a.store.CreateClient(r.Context(), c); err != nil {
		s.serverError(w, "create client", err)
		return
	}
	s.a.log.Info("client registered", "client_id", c.ID, "name", c.Name, "auth", c.AuthMethod)
	writeJSON(w, statusRegistered, resp)
}

// newDynamicClient validates registration metadata and returns the client
// to store and the response (with the secret, shown once).
func (a *Auth) newDynamicClient(m registration) (Client, registered, *oauthError) {
	if len(m.RedirectURIs) == 0 {
		return Client{}, registered{}, errorf("invalid_redirect_uri", "redirect_uris is required.")
	}
	if len(m.RedirectURIs) > maxRedirectURIs {
		return Client{}, registered{}, errorf("invalid_redirect_uri", "At most %d redirect_uris are allowed.", maxRedirectURIs)
	}
	for _, u := range m.RedirectURIs {
		if err := validRedirectURI(u); err != nil {
			return Client{}, registered{}, errorf("invalid_redirect_uri", "%s", truncate(err.Error(), 300))
		}
	}
	name := strings.TrimSpace(m.ClientName)
	if utf8.RuneCountInString(name) > maxClientName {
		return Client{}, registered{}, errorf("invalid_client_metadata", "client_name is longer than %d characters.", maxClientName)
	}
	if hasControl(name) {
		return Client{}, registered{}, errorf("invalid_client_metadata", "client_name has control characters.")
	}
	if name == "" {
		name = defaultName
	}
	if m.ClientURI != "" {
		u, err := url.Parse(m.ClientURI)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || len(m.ClientURI) > 2000 {
			return Client{}, registered{}, errorf("invalid_client_metadata", "client_uri must be an https URL.")
		}
	}
	method := m.TokenEndpointAuthMethod
	switch method {
	case "":
		method = authNone
	case authNone, authBasic, authPost:
	default:
		return Client{}, registered{}, errorf("invalid_client_metadata", "token_endpoint_auth_method %q is not supported; use none, client_secret_basic or client_secret_post.", truncate(method, 40))
	}
	grants := m.GrantTypes
	if len(grants) == 0 {
		grants = []string{grantCode, grantRefresh}
	}
	for _, g := range grants {
		if g != grantCode && g != grantRefresh {
			return Client{}, registered{}, errorf("invalid_client_metadata", "grant type %q is not supported; use authorization_code and refresh_token.", truncate(g, 40))
		}
	}
	if !slices.Contains(grants, grantCode) {
		return Client{}, registered{}, errorf("invalid_client_metadata", "grant_types must include authorization_code.")
	}
	responses := m.ResponseTypes
	if len(responses) == 0 {
		responses = []string{"code"}
	}
	for _, t := range responses {
		if t != "code" {
			return Client{}, registered{}, errorf("invalid_client_metadata", "response type %q is not supported; use code.", truncate(t, 40))
		}
	}
	now := a.now()
	id := NewSecret(PrefixClient)[:len(PrefixClient)+22] // 132 random bits
	c := Client{ID: id, Name: name, URI: m.ClientURI, RedirectURIs: m.RedirectURIs, AuthMethod: method,
		Kind: ClientDynamic, CreatedAt: now, LastUsedAt: now}
	resp := registered{ClientID: id, ClientIDIssuedAt: now.Unix(), RedirectURIs: m.RedirectURIs,
		ClientName: name, ClientURI: m.ClientURI, TokenEndpointAuthMethod: method,
		GrantTypes: grants, ResponseTypes: responses}
	if method != authNone {
		secret := NewSecret(PrefixSecret)
		c.SecretHash = Hash(secret)
		var never int64
		resp.ClientSecret, resp.ClientSecretExpiresAt = secret, &never
	}
	return c, resp, nil
}

// remoteIP is the request's peer address (without port).
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// newRegisterLimiter limits registrations per remote address to perHour
// (default 20) an hour: a token bucket of auth/ratelimit, the service's one
// limiter, of perHour tokens refilled over the hour, under the policy name
// "register" for the RateLimit fields, as every limit's 429 does
// (docs/ratelimits.md).
func newRegisterLimiter(perHour int, now func() time.Time) *ratelimit.Limiter {
	if perHour <= 0 {
		perHour = 20
	}
	return ratelimit.NewBucket(ratelimit.Policy{Name: "register", Quota: perHour, Window: time.Hour}, now)
}
