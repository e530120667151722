package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// tokenResponse is a successful token response (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// clientRequest starts /token and /revoke alike: the API headers, the form,
// and the client's authentication; it answers the error itself when false.
func (s *server) clientRequest(w http.ResponseWriter, r *http.Request) (Client, bool) {
	apiHeaders(w)
	if e := parseForm(w, r); e != nil {
		writeOAuthError(w, e)
		return Client{}, false
	}
	c, e := s.authenticateClient(r)
	if e != nil {
		writeClientError(w, r, e)
		return Client{}, false
	}
	return c, true
}

// token serves POST /token.
func (s *server) token(w http.ResponseWriter, r *http.Request) {
	c, ok := s.clientRequest(w, r)
	if !ok {
		return
	}
	var resp tokenResponse
	var e *oauthError
	switch gt := r.PostFormValue("grant_type"); gt {
	case grantCode:
		resp, e = s.exchangeCode(r, c)
	case grantRefresh:
		resp, e = s.refresh(r, c)
	case "":
		e = errorf("invalid_request", "grant_type is required.")
	default:
		e = errorf("unsupported_grant_type", "Supported grant types: authorization_code and refresh_token.")
	}
	if e != nil {
		if e.Code == "server_error" {
			s.serverError(w, "token", errors.New(e.Description))
			return
		}
		writeOAuthError(w, e)
		return
	}
	if err := s.a.store.TouchClient(r.Context(), c.ID, s.a.now()); err != nil {
		s.a.log.Warn("touch client", "err", err)
	}
	writeJSON(w, statusOK, resp)
}

func internal(what string, err error) *oauthError {
	return &oauthError{Code: "server_error", Description: what + ": " + err.Error()}
}

// useTime returns now within its second with a random fraction: the store
// returns exactly this time as UsedAt when this call marked a code or
// refresh token used, and the earlier time when it was used before, so the
// two are told apart even when both happen within one second.
func useTime(now time.Time) time.Time {
	b := domain.RandomBytes(8)
	return now.Truncate(time.Second).Add(time.Duration(1 + binary.LittleEndian.Uint64(b)%uint64(time.Second-1)))
}

// exchangeCode redeems an authorization code (OAuth 2.1 §4.1.3). A code
// presented a second time revokes every token issued from it.
func (s *server) exchangeCode(r *http.Request, c Client) (tokenResponse, *oauthError) {
	a, ctx := s.a, r.Context()
	code, verifier := r.PostFormValue("code"), r.PostFormValue("code_verifier")
	if code == "" {
		return tokenResponse{}, errorf("invalid_request", "code is required.")
	}
	now := a.now()
	at := useTime(now)
	ac, err := a.store.UseCode(ctx, Hash(code), at)
	if errors.Is(err, ErrNotFound) {
		return tokenResponse{}, errorf("invalid_grant", "The authorization code is invalid.")
	}
	if err != nil {
		return tokenResponse{}, internal("use code", err)
	}
	if !ac.UsedAt.Equal(at) {
		if err := a.store.RevokeFamily(ctx, ac.Family, now); err != nil {
			return tokenResponse{}, internal("revoke family", err)
		}
		a.log.Warn("authorization code replayed; its tokens are revoked", "client_id", ac.ClientID, "user", ac.UserID)
		return tokenResponse{}, errorf("invalid_grant", "The authorization code was already used.")
	}
	switch {
	case ac.ClientID != c.ID:
		return tokenResponse{}, errorf("invalid_grant", "The authorization code was issued to another client.")
	case !now.Before(ac.ExpiresAt):
		return tokenResponse{}, errorf("invalid_grant", "The authorization code has expired.")
	}
	if ru := r.PostFormValue("redirect_uri"); ru != "" {
		if ru != ac.RedirectURI {
			return tokenResponse{}, errorf("invalid_grant", "redirect_uri is not the one of the authorization request.")
		}
	} else if len(c.RedirectURIs) != 1 || c.RedirectURIs[0] != ac.RedirectURI {
		return tokenResponse{}, errorf("invalid_grant", "redirect_uri is required.")
	}
	if !validVerifier(verifier) {
		return tokenResponse{}, errorf("invalid_grant", "code_verifier is missing or malformed (43 to 128 characters of A-Z a-z 0-9 - . _ ~).")
	}
	sum := sha256.Sum256([]byte(verifier))
	if !Equal(base64.RawURLEncoding.EncodeToString(sum[:]), ac.CodeChallenge) {
		return tokenResponse{}, errorf("invalid_grant", "code_verifier does not match the code challenge.")
	}
	if res := r.PostForm["resource"]; len(res) > 0 {
		got, e := a.parseResource(ctx, res)
		if e != nil || got != ac.Resource {
			return tokenResponse{}, errorf("invalid_target", "resource is not the one of the authorization request (%s).", ac.Resource)
		}
	}
	// A person who disconnected the app after the code was issued has
	// withdrawn consent: the code is worth nothing.
	if _, err := a.store.GrantFor(ctx, ac.UserID, c.ID); errors.Is(err, ErrNotFound) {
		return tokenResponse{}, errorf("invalid_grant", "Access for this app was withdrawn; authorize again.")
	} else if err != nil {
		return tokenResponse{}, internal("grant", err)
	}
	return s.issueTokens(ctx, ac.UserID, c.ID, ac.Family, ac.Scopes, ac.Scopes, ac.Resource, now.Add(RefreshTTL))
}

// refresh exchanges a refresh token for a new pair (rotation). A refresh
// token presented again after use revokes its whole family.
func (s *server) refresh(r *http.Request, c Client) (tokenResponse, *oauthError) {
	a, ctx := s.a, r.Context()
	raw := r.PostFormValue("refresh_token")
	if raw == "" {
		return tokenResponse{}, errorf("invalid_request", "refresh_token is required.")
	}
	now := a.now()
	t, err := a.store.TokenByHash(ctx, Hash(raw))
	if errors.Is(err, ErrNotFound) || (err == nil && t.Kind != TokenRefresh) {
		return tokenResponse{}, errorf("invalid_grant", "The refresh token is invalid.")
	}
	if err != nil {
		return tokenResponse{}, internal("token", err)
	}
	replayed := func() (tokenResponse, *oauthError) {
		if err := a.store.RevokeFamily(ctx, t.Family, now); err != nil {
			return tokenResponse{}, internal("revoke family", err)
		}
		a.log.Warn("refresh token replayed; its family is revoked", "client_id", t.ClientID, "user", t.UserID)
		return tokenResponse{}, errorf("invalid_grant", "The refresh token was already used.")
	}
	switch {
	case t.ClientID != c.ID:
		return tokenResponse{}, errorf("invalid_grant", "The refresh token was issued to another client.")
	case !t.RevokedAt.IsZero():
		return tokenResponse{}, errorf("invalid_grant", "The refresh token was revoked.")
	case !t.UsedAt.IsZero():
		return replayed()
	case !now.Before(t.ExpiresAt):
		return tokenResponse{}, errorf("invalid_grant", "The refresh token has expired.")
	}
	scopes := t.Scopes
	if sp := r.PostFormValue("scope"); sp != "" {
		want, e := parseScopes(sp)
		if e != nil {
			return tokenResponse{}, e
		}
		if !subset(want, t.Scopes) {
			return tokenResponse{}, errorf("invalid_scope", "The scope is wider than the one granted (%s).", strings.Join(t.Scopes, " "))
		}
		scopes = want
	}
	if res := r.PostForm["resource"]; len(res) > 0 {
		got, e := a.parseResource(ctx, res)
		if e != nil || got != t.Resource {
			return tokenResponse{}, errorf("invalid_target", "resource is not the one the refresh token was issued for (%s).", t.Resource)
		}
	}
	if _, err := a.store.GrantFor(ctx, t.UserID, c.ID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return tokenResponse{}, errorf("invalid_grant", "Access was revoked.")
		}
		return tokenResponse{}, internal("grant", err)
	}
	at := useTime(now)
	used, err := a.store.UseRefreshToken(ctx, t.Hash, at)
	if err != nil {
		return tokenResponse{}, internal("use refresh token", err)
	}
	if !used.UsedAt.Equal(at) { // a concurrent request used it first
		return replayed()
	}
	// The new refresh token keeps the original scopes (RFC 6749 §6) and the
	// family's absolute expiry.
	return s.issueTokens(ctx, t.UserID, c.ID, t.Family, scopes, t.Scopes, t.Resource, t.ExpiresAt)
}

// issueTokens creates an access token with scopes and a refresh token with
// refreshScopes in family.
func (s *server) issueTokens(ctx context.Context, userID int64, clientID, family string, scopes, refreshScopes []string,
	resource string, refreshExpires time.Time) (tokenResponse, *oauthError) {
	a := s.a
	// A suspended account gets no new tokens (docs/console.md "People").
	if u, err := a.store.UserByID(ctx, userID); err != nil {
		return tokenResponse{}, internal("user", err)
	} else if u.Suspended {
		return tokenResponse{}, errorf("invalid_grant", "The account is suspended by the site team.")
	}
	now := a.now()
	access, refresh := NewSecret(PrefixAccess), NewSecret(PrefixRefresh)
	for _, t := range []Token{
		{Hash: Hash(access), Kind: TokenAccess, UserID: userID, ClientID: clientID, Family: family, Scopes: scopes,
			Resource: resource, CreatedAt: now, ExpiresAt: now.Add(AccessTTL)},
		{Hash: Hash(refresh), Kind: TokenRefresh, UserID: userID, ClientID: clientID, Family: family, Scopes: refreshScopes,
			Resource: resource, CreatedAt: now, ExpiresAt: refreshExpires},
	} {
		if err := a.store.CreateToken(ctx, t); err != nil {
			return tokenResponse{}, internal("create token", err)
		}
	}
	return tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(AccessTTL / time.Second),
		RefreshToken: refresh, Scope: strings.Join(scopes, " ")}, nil
}

// validVerifier checks a PKCE code verifier (RFC 7636 §4.1).
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, c := range v {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~", c)) {
			return false
		}
	}
	return true
}
