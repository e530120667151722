package auth

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/launchdir/launchdir/domain"
)

// OpenID Connect sign-in. /signin/oidc starts an authorization code flow
// with PKCE (S256), a state and a nonce; the pending sign-in is kept in
// memory, keyed by the hash of its state, and bound to the browser by a
// short-lived HttpOnly SameSite=Lax cookie. /callback takes the pending
// sign-in out (so a state works once), checks the cookie, exchanges the
// code with the verifier, verifies the ID token (signature, issuer,
// audience = client id, expiry, nonce) and signs the person in as the user
// keyed by (issuer, subject). The provider's tokens are discarded.

const (
	oidcFlowTTL    = 10 * time.Minute
	oidcMaxPending = 10000
	oidcTimeout    = 10 * time.Second
)

// oidcFlow is the OpenID Connect client: the lazily discovered provider
// and the pending sign-ins.
type oidcFlow struct {
	a      *Auth
	client *http.Client

	mu       sync.Mutex // guards provider, verifier, config
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	config   oauth2.Config

	pmu     sync.Mutex
	pending map[string]oidcPending // by Hash(state)
	// maxPending is how many sign-ins may be pending at once
	// (OIDCProvider.MaxPending, else oidcMaxPending).
	maxPending int
}

// oidcPending is a sign-in between /signin/oidc and /callback.
type oidcPending struct {
	browser  string // Hash of the browser cookie's value
	nonce    string
	verifier string // PKCE code verifier
	next     string
	expires  time.Time
}

func newOIDCFlow(a *Auth) *oidcFlow {
	n := oidcMaxPending
	if p := a.cfg.OIDC; p != nil && p.MaxPending > 0 {
		n = p.MaxPending
	}
	return &oidcFlow{
		a:          a,
		client:     &http.Client{Timeout: oidcTimeout},
		pending:    map[string]oidcPending{},
		maxPending: n,
	}
}

// oidcCookie is the name of the cookie that binds a pending sign-in to the
// browser (__Host- on https, like the session cookie).
func (a *Auth) oidcCookie() string {
	if a.secure() {
		return "__Host-launchdir_oidc"
	}
	return "launchdir_oidc"
}

// setup discovers the provider on first use (so that New needs no
// network); a failed discovery is tried again on the next sign-in.
func (f *oidcFlow) setup(ctx context.Context) (oauth2.Config, *oidc.IDTokenVerifier, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.provider == nil {
		ctx, cancel := context.WithTimeout(ctx, oidcTimeout)
		defer cancel()
		p, err := oidc.NewProvider(oidc.ClientContext(ctx, f.client), f.a.cfg.OIDC.Issuer)
		if err != nil {
			return oauth2.Config{}, nil, err
		}
		o := f.a.cfg.OIDC
		f.provider = p
		f.verifier = p.Verifier(&oidc.Config{ClientID: o.ClientID, Now: f.a.now})
		f.config = oauth2.Config{
			ClientID:     o.ClientID,
			ClientSecret: o.ClientSecret,
			Endpoint:     p.Endpoint(), // AuthStyle auto-detected (header, then form)
			Scopes:       []string{oidc.ScopeOpenID, "email", "profile"},
		}
	}
	cfg := f.config
	// The callback is at the origin the sign-in started from, so the
	// pending sign-in's cookie comes back with it (the provider must allow
	// each origin's /callback; with --base-url there is one).
	cfg.RedirectURL = f.a.origin(ctx) + "/callback"
	return cfg, f.verifier, nil
}

// add stores a pending sign-in under its state, dropping expired ones. When
// too many are pending it stores nothing and returns how long until the
// first of them expires, which frees a place (ok false).
func (f *oidcFlow) add(state string, p oidcPending, now time.Time) (wait time.Duration, ok bool) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	if len(f.pending) >= f.maxPending/2 {
		for k, v := range f.pending {
			if !now.Before(v.expires) {
				delete(f.pending, k)
			}
		}
	}
	if len(f.pending) >= f.maxPending {
		wait = oidcFlowTTL
		for _, v := range f.pending {
			wait = min(wait, v.expires.Sub(now))
		}
		return wait, false
	}
	f.pending[Hash(state)] = p
	return 0, true
}

// take removes and returns the pending sign-in of state (single use).
func (f *oidcFlow) take(state string) (oidcPending, bool) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	k := Hash(state)
	p, ok := f.pending[k]
	delete(f.pending, k)
	return p, ok
}

// oidcStart sends the browser to the provider.
func (s *signIn) oidcStart(w http.ResponseWriter, r *http.Request) {
	a, f := s.a, s.oidc
	if f == nil {
		http.NotFound(w, r)
		return
	}
	cfg, _, err := f.setup(r.Context())
	if err != nil {
		a.log.Error("oidc discovery", "issuer", a.cfg.OIDC.Issuer, "err", err)
		a.errorPage(w, r, statusUpstream, "Sign-in is unavailable",
			"The sign-in provider could not be reached. Try again in a moment, or sign in by email.")
		return
	}
	now := a.now()
	// One browser cookie serves every pending sign-in of the browser, so
	// that two tabs do not undo each other.
	browser := ""
	if c, err := r.Cookie(a.oidcCookie()); err == nil && len(c.Value) == 43 {
		browser = c.Value
	} else {
		browser = NewSecret("")
	}
	state, nonce, verifier := NewSecret(""), NewSecret(""), oauth2.GenerateVerifier()
	p := oidcPending{browser: Hash(browser), nonce: nonce, verifier: verifier,
		next: safeNext(r.URL.Query().Get("next")), expires: now.Add(oidcFlowTTL)}
	if wait, ok := f.add(state, p, now); !ok {
		a.busyPage(w, r, wait)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: a.oidcCookie(), Value: browser, Path: "/", MaxAge: int(oidcFlowTTL / time.Second),
		Secure: a.secure(), HttpOnly: true, SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, cfg.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), statusFound)
}

// oidcCallback completes the sign-in the provider sent the browser back from.
func (s *signIn) oidcCallback(w http.ResponseWriter, r *http.Request) {
	a, f := s.a, s.oidc
	if f == nil {
		http.NotFound(w, r)
		return
	}
	bad := func(detail string) {
		a.problemPage(w, r, domain.EInvalid, "Sign-in failed", detail)
	}
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" || len(state) > 200 {
		bad("The sign-in request is missing or invalid. Start again.")
		return
	}
	p, ok := f.take(state)
	c, err := r.Cookie(a.oidcCookie())
	if !ok || err != nil || !Equal(Hash(c.Value), p.browser) || !a.now().Before(p.expires) {
		bad("This sign-in request is unknown, expired or already used, or was started in another browser. Start again.")
		return
	}
	if e := q.Get("error"); e != "" {
		a.log.Info("oidc sign-in refused by provider", "error", e)
		bad("The sign-in provider did not sign you in. Start again.")
		return
	}
	code := q.Get("code")
	if code == "" {
		bad("The sign-in provider sent no authorization code. Start again.")
		return
	}
	cfg, verifier, err := f.setup(r.Context())
	if err != nil {
		a.log.Error("oidc discovery", "issuer", a.cfg.OIDC.Issuer, "err", err)
		a.errorPage(w, r, statusUpstream, "Sign-in is unavailable", "The sign-in provider could not be reached. Try again in a moment.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), oidcTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, f.client)
	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(p.verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			a.log.Warn("oidc code exchange refused", "error", re.ErrorCode)
			bad("The sign-in provider refused the sign-in. Start again.")
			return
		}
		a.log.Error("oidc code exchange", "err", err)
		a.errorPage(w, r, statusUpstream, "Sign-in is unavailable", "The sign-in provider could not be reached. Try again in a moment.")
		return
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		bad("The sign-in provider sent no ID token.")
		return
	}
	idt, err := verifier.Verify(ctx, raw)
	if err != nil {
		a.log.Warn("oidc id token rejected", "err", err)
		bad("The sign-in provider's answer could not be verified. Start again.")
		return
	}
	if idt.Subject == "" || idt.Nonce == "" || !Equal(idt.Nonce, p.nonce) {
		a.log.Warn("oidc id token nonce mismatch")
		bad("The sign-in provider's answer could not be verified. Start again.")
		return
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified *bool  `json:"email_verified"`
		Name          string `json:"name"`
		Username      string `json:"preferred_username"`
	}
	if err := idt.Claims(&claims); err != nil {
		bad("The sign-in provider's answer could not be read.")
		return
	}
	// The email is only shown and used to reach the person; the account is
	// keyed by (issuer, subject). An unverified address is not kept.
	email := ""
	if claims.EmailVerified != nil && *claims.EmailVerified {
		if addr, ok := parseSigninEmail(claims.Email); ok {
			email = addr
		}
	}
	name := claims.Name
	if name == "" {
		name = claims.Username
	}
	if rs := []rune(name); len(rs) > 200 {
		name = string(rs[:200])
	}
	u, err := a.store.UpsertUser(r.Context(), idt.Issuer, idt.Subject, email, name, a.now())
	if err != nil {
		a.log.Error("upsert oidc user", "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Try again in a moment.")
		return
	}
	if a.refuseSuspended(w, r, u) {
		return
	}
	if _, err := a.startSession(w, r, u.ID); err != nil {
		a.log.Error("start session", "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Try again in a moment.")
		return
	}
	a.log.Info("signed in", "user", u.ID, "via", "oidc")
	http.Redirect(w, r, safeNext(p.next), statusSeeOther)
}
