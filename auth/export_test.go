package auth

// SetOIDCMaxPending sets how many OpenID Connect sign-ins a's pages keep
// pending at once (10,000 in the service), so that a test reaches the bound
// with a few requests. Call it after Register, before any request.
func SetOIDCMaxPending(a *Auth, n int) { a.signin.oidc.maxPending = n }
