package auth

import (
	"errors"
	"net/http"
)

// revoke serves POST /revoke (RFC 7009). The client authenticates as at
// /token; a token of this client is revoked (a refresh token with its whole
// family); unknown tokens and tokens of other clients are answered 200
// alike, so the endpoint tells nobody which tokens exist.
func (s *server) revoke(w http.ResponseWriter, r *http.Request) {
	c, ok := s.clientRequest(w, r)
	if !ok {
		return
	}
	raw := r.PostFormValue("token")
	if raw == "" {
		writeOAuthError(w, errorf("invalid_request", "token is required."))
		return
	}
	a, ctx, now := s.a, r.Context(), s.a.now()
	t, err := a.store.TokenByHash(ctx, Hash(raw))
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		s.serverError(w, "token", err)
		return
	case t.ClientID != c.ID:
		a.log.Info("revocation of another client's token ignored", "client_id", c.ID)
	case t.Kind == TokenRefresh:
		if err := a.store.RevokeFamily(ctx, t.Family, now); err != nil {
			s.serverError(w, "revoke family", err)
			return
		}
	default:
		if err := a.store.RevokeToken(ctx, t.Hash, now); err != nil && !errors.Is(err, ErrNotFound) {
			s.serverError(w, "revoke token", err)
			return
		}
	}
	w.WriteHeader(statusOK)
}
