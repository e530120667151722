package auth

import (
	"net/http"
)

// Register adds every endpoint of the auth service to mux:
//
//   - the authorization server (server.go and its files): RFC 8414 metadata at
//     /.well-known/oauth-authorization-server, /authorize with consent,
//     /token, /register, /revoke;
//   - the protected resource metadata of /mcp and /v1 (resource.go);
//   - sign-in for people (signin.go): /signin (email link), /signin/email,
//     /signin/oidc and its /callback, /signout;
//   - the account pages (account.go): /account with API keys and
//     connected apps; /account/export and /account/delete (account_data.go)
//     when Config.Account is set;
//   - the co-founder invite page (invites.go): /invites/{token}, when
//     Config.Invites is set.
func (a *Auth) Register(mux *http.ServeMux) {
	a.registerServer(mux)
	a.registerResource(mux)
	a.registerSignIn(mux)
	a.registerAccount(mux)
	a.registerAccountData(mux)
	a.registerInvites(mux)
}

// form wraps a handler of a page's form POST: cross-origin requests
// (Sec-Fetch-Site, Origin) are refused with 403 before h runs; h itself
// checks the session's CSRF token.
func form(h http.HandlerFunc) http.Handler {
	return http.NewCrossOriginProtection().Handler(h)
}
