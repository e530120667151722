package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// Sign-in rate limits: emailed links per address and sign-in POSTs per
// remote IP, as token buckets (burst, refilled evenly over the window).
const (
	linksPerAddress = 5
	linksPerIP      = 20
	linkWindow      = 15 * time.Minute
	maxEmailLen     = 254
	signinFormBytes = 64 << 10
)

// signIn holds the sign-in pages' in-memory state: the rate limiters and
// the pending OpenID Connect sign-ins. Register creates one per Auth.
type signIn struct {
	a      *Auth
	byAddr *ratelimit.Limiter
	byIP   *ratelimit.Limiter
	oidc   *oidcFlow // nil without Config.OIDC
}

// registerSignIn adds the sign-in pages.
func (a *Auth) registerSignIn(mux *http.ServeMux) {
	s := &signIn{
		a:      a,
		byAddr: newSigninLimiter("signin-email", linksPerAddress, linkWindow, a.now),
		byIP:   newSigninLimiter("signin", linksPerIP, linkWindow, a.now),
	}
	if a.cfg.OIDC != nil {
		s.oidc = newOIDCFlow(a)
	}
	a.signin = s
	mux.HandleFunc("GET /signin", s.page)
	mux.Handle("POST /signin", form(s.post))
	mux.Handle("GET /signin/email", a.cfg.Failures.GuardKeyed(http.HandlerFunc(s.email), invalidLink, linkKey))
	mux.HandleFunc("GET /signin/oidc", s.oidcStart)
	mux.HandleFunc("GET /callback", s.oidcCallback)
	mux.Handle("POST /signout", form(s.signOut))
}

// linkKey is the failed-credential budget of a sign-in link: its network and
// its token (a person re-opening an old link spends only that link's budget).
func linkKey(r *http.Request) string {
	return ratelimit.CredentialKey(r, "signin-link", r.URL.Query().Get("token"))
}

// invalidLink says whether a /signin/email answer refused the link.
func invalidLink(status int) bool { return status == pageStatus(domain.EInvalid) }

// signinPage is the data of signin.html.
type signinPage struct {
	Next     string
	Email    string
	Error    string
	OIDCName string // "" without an OpenID Connect provider
}

func (s *signIn) form(next, email, msg string) signinPage {
	p := signinPage{Next: safeNext(next), Email: email, Error: msg}
	if o := s.a.cfg.OIDC; o != nil {
		p.OIDCName = o.Name
		if p.OIDCName == "" {
			p.OIDCName = "single sign-on"
		}
	}
	return p
}

// page shows the sign-in form.
func (s *signIn) page(w http.ResponseWriter, r *http.Request) {
	s.a.render(w, r, statusOK, "signin.html", s.form(r.URL.Query().Get("next"), "", ""))
}

// post sends a sign-in link to the address given. The answer is the same
// whether or not the address has an account.
func (s *signIn) post(w http.ResponseWriter, r *http.Request) {
	a := s.a
	r.Body = http.MaxBytesReader(w, r.Body, signinFormBytes)
	if err := r.ParseForm(); err != nil {
		a.problemPage(w, r, domain.EInvalid, "Bad request", "The form could not be read.")
		return
	}
	now := a.now()
	next := safeNext(r.PostFormValue("next"))
	byIP := s.byIP.Take(signinRemoteIP(r))
	if !byIP.OK {
		s.tooMany(w, r, byIP)
		return
	}
	byIP.SetHeaders(w.Header())
	raw := strings.TrimSpace(r.PostFormValue("email"))
	addr, ok := parseSigninEmail(raw)
	if !ok {
		msg := "Enter a valid email address, like name@example.com."
		if raw == "" {
			msg = "Enter your email address."
		}
		a.render(w, r, pageStatus(domain.EInvalid), "signin.html", s.form(next, raw, msg))
		return
	}
	byAddr := s.byAddr.Take(strings.ToLower(addr))
	if !byAddr.OK {
		s.tooMany(w, r, byAddr)
		return
	}
	byAddr.SetHeaders(w.Header())
	token := NewSecret("")
	link := LoginLink{Hash: Hash(token), Email: addr, Next: next, CreatedAt: now, ExpiresAt: now.Add(LoginLinkTTL)}
	if err := a.store.CreateLoginLink(r.Context(), link); err != nil {
		a.log.Error("create login link", "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The sign-in link could not be created. Try again in a moment.")
		return
	}
	site := a.siteName(r.Context())
	body := fmt.Sprintf("Hello,\n\nuse this link to sign in to %s:\n\n%s/signin/email?token=%s\n\n"+
		"The link works once and expires in %d minutes. If you did not ask to sign in, ignore this message.\n",
		site, a.origin(r.Context()), token, int(LoginLinkTTL/time.Minute))
	if err := a.outbox.SendMail(r.Context(), addr, "Sign in to "+site, body); err != nil {
		a.log.Error("send sign-in link", "to", addr, "err", err)
		a.errorPage(w, r, statusUpstream, "The email could not be sent", "Try again in a moment.")
		return
	}
	a.render(w, r, statusOK, "signin_sent.html", map[string]any{"Email": addr, "Minutes": int(LoginLinkTTL / time.Minute)})
}

// tooMany answers a sign-in refused by a limit: 429 with Retry-After and
// the RateLimit fields of the policy (r=0, t = Retry-After), as every limit
// of the service answers (docs/ratelimits.md); the body is a page.
func (s *signIn) tooMany(w http.ResponseWriter, r *http.Request, st ratelimit.State) {
	st.SetHeaders(w.Header())
	problem.SetRetryAfter(w.Header(), st.ResetSeconds())
	s.a.problemPage(w, r, domain.ERateLimited, "Too many sign-in requests",
		"Too many sign-in links were asked for. Wait a few minutes, then try again.")
}

// email signs in with an emailed link: the link is consumed (single use),
// the email user is created or updated, and a new session starts.
func (s *signIn) email(w http.ResponseWriter, r *http.Request) {
	a := s.a
	token := r.URL.Query().Get("token")
	if token == "" || len(token) > 200 {
		a.problemPage(w, r, domain.EInvalid, "Invalid sign-in link", "This sign-in link is not valid. Ask for a new one.")
		return
	}
	link, err := a.store.UseLoginLink(r.Context(), Hash(token), a.now())
	if errors.Is(err, ErrNotFound) {
		a.problemPage(w, r, domain.EInvalid, "Invalid sign-in link",
			"This sign-in link is unknown, expired or already used. Ask for a new one.")
		return
	}
	if err != nil {
		a.log.Error("use login link", "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Try again in a moment.")
		return
	}
	u, err := a.store.UpsertUser(r.Context(), EmailIssuer, strings.ToLower(link.Email), link.Email, "", a.now())
	if err != nil {
		a.log.Error("upsert email user", "err", err)
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
	a.log.Info("signed in", "user", u.ID, "via", "email")
	http.Redirect(w, r, safeNext(link.Next), statusSeeOther)
}

// signOut ends the session (the form carries its CSRF token).
func (s *signIn) signOut(w http.ResponseWriter, r *http.Request) {
	a := s.a
	r.Body = http.MaxBytesReader(w, r.Body, signinFormBytes)
	sess, _, ok := a.currentSession(r)
	if ok && !validCSRF(r, sess) {
		a.problemPage(w, r, domain.EForbidden, "Forbidden", "The form has expired. Reload the page and try again.")
		return
	}
	a.endSession(w, r)
	http.Redirect(w, r, "/", statusSeeOther)
}

// parseSigninEmail returns the bare address of s, or false when s is not a
// single plain address (no display name) of at most 254 characters.
func parseSigninEmail(s string) (string, bool) {
	if s == "" || len(s) > maxEmailLen {
		return "", false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s || !strings.Contains(addr.Address, "@") {
		return "", false
	}
	return addr.Address, true
}

// siteName is the site's name in effect now: the site_name setting the site
// team may change (Config.SiteNameNow), read at each use, else the start-up
// name (Config.SiteName). Pages, mail and the OAuth metadata all show it.
func (a *Auth) siteName(ctx context.Context) string {
	if a.cfg.SiteNameNow != nil {
		if n := a.cfg.SiteNameNow(ctx); n != "" {
			return n
		}
	}
	if a.cfg.SiteName != "" {
		return a.cfg.SiteName
	}
	return "launchdir"
}

// signinRemoteIP is the request's remote address without the port.
// (X-Forwarded-For is not read here: serve sets RemoteAddr from it for
// --trusted-proxies, see ratelimit.TrustProxies.)
func signinRemoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// newSigninLimiter allows n sign-in links per window per key (a token
// bucket of auth/ratelimit, the service's one limiter: a burst of n,
// refilled evenly over the window); name is its policy in the RateLimit
// fields.
func newSigninLimiter(name string, n int, window time.Duration, now func() time.Time) *ratelimit.Limiter {
	return ratelimit.NewBucket(ratelimit.Policy{Name: name, Quota: n, Window: window}, now)
}
