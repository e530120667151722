package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// sessionCookie is the session cookie's name: with the __Host- prefix (and
// Secure) on an https origin; plain on an http origin, which only local
// development uses (browsers and cookie jars drop Secure cookies on http).
func (a *Auth) sessionCookie() string {
	if a.secure() {
		return "__Host-launchdir_session"
	}
	return "launchdir_session"
}

func (a *Auth) secure() bool { return strings.HasPrefix(a.cfg.Origin, "https://") }

// currentSession returns the signed-in session of r and its user.
func (a *Auth) currentSession(r *http.Request) (Session, User, bool) {
	c, err := r.Cookie(a.sessionCookie())
	if err != nil || c.Value == "" {
		return Session{}, User{}, false
	}
	s, err := a.store.SessionByHash(r.Context(), Hash(c.Value), a.now())
	if err != nil {
		return Session{}, User{}, false
	}
	s.CSRF = csrfFor(c.Value) // the store holds only its hash
	u, err := a.store.UserByID(r.Context(), s.UserID)
	// A suspended account's sessions are signed out (docs/console.md "People").
	if err != nil || u.Suspended {
		return Session{}, User{}, false
	}
	return s, u, true
}

// startSession signs userID in: any session the request carried is deleted
// (the session id rotates at sign-in) and a new cookie is set.
func (a *Auth) startSession(w http.ResponseWriter, r *http.Request, userID int64) (Session, error) {
	if c, err := r.Cookie(a.sessionCookie()); err == nil && c.Value != "" {
		if err := a.store.DeleteSession(r.Context(), Hash(c.Value)); err != nil && !errors.Is(err, ErrNotFound) {
			return Session{}, err
		}
	}
	now := a.now()
	raw := NewSecret("")
	csrf := csrfFor(raw)
	s := Session{Hash: Hash(raw), UserID: userID, CSRF: Hash(csrf), CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := a.store.CreateSession(r.Context(), s); err != nil {
		return Session{}, err
	}
	s.CSRF = csrf
	// Max-Age, not an Expires date: the browser counts the lifetime from
	// receipt on its own clock, so a browser whose clock differs from the
	// server's keeps the cookie as long as the session lasts here.
	http.SetCookie(w, &http.Cookie{
		Name: a.sessionCookie(), Value: raw, Path: "/", MaxAge: int(SessionTTL / time.Second),
		Secure: a.secure(), HttpOnly: true, SameSite: http.SameSiteLaxMode,
	})
	return s, nil
}

// endSession signs the request's session out.
func (a *Auth) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(a.sessionCookie()); err == nil && c.Value != "" {
		if err := a.store.DeleteSession(r.Context(), Hash(c.Value)); err != nil && !errors.Is(err, ErrNotFound) {
			a.log.Warn("delete session", "err", err)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: a.sessionCookie(), Value: "", Path: "/", MaxAge: -1,
		Secure: a.secure(), HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// CSRFToken is the CSRF token of the session whose cookie holds cookie (the
// pages' forms carry it; tests that make a session in the store use it).
func CSRFToken(cookie string) string { return csrfFor(cookie) }

// csrfFor is the CSRF token of the session whose cookie holds raw: a
// SHA-256 of the cookie under its own label, so that it is known again on
// every request without being stored (the store keeps its Hash, as it keeps
// every secret's), and the page that shows it reveals nothing of the cookie.
// Tokens of sessions from before (stored in plain text) are not accepted:
// a form shown then is refused once and shown again with this one.
func csrfFor(raw string) string {
	sum := sha256.Sum256([]byte("launchdir csrf\x00" + raw))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// validCSRF reports whether the form's "csrf" field is the session's token.
// POST handlers also run behind http.CrossOriginProtection (see Register).
func validCSRF(r *http.Request, s Session) bool {
	got := r.PostFormValue("csrf")
	return got != "" && Equal(got, s.CSRF)
}

// signInURL is the sign-in page that returns to next (a local path) after.
func signInURL(next string) string {
	return "/signin?" + url.Values{"next": {safeNext(next)}}.Encode()
}

// safeNext returns next when it is a local path on this origin, else "/account".
// It refuses scheme-relative ("//host"), backslash and absolute URLs, so
// that no sign-in link can redirect elsewhere.
func safeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.ContainsAny(next, "\\\r\n\t") {
		return "/account"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/account"
	}
	return next
}

// userFrom returns the signed-in user of a context set by requireSession.
func userFrom(ctx context.Context) (User, Session, bool) {
	v, ok := ctx.Value(sessionKey{}).(sessionVal)
	return v.u, v.s, ok
}

type sessionKey struct{}

type sessionVal struct {
	u User
	s Session
}

// requireSession runs h for signed-in people and sends everybody else to the
// sign-in page, returning to this page afterwards (GET) or to /account.
func (a *Auth) requireSession(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, u, ok := a.currentSession(r)
		if !ok {
			next := "/account"
			if r.Method == http.MethodGet {
				next = r.URL.RequestURI()
			}
			http.Redirect(w, r, signInURL(next), statusSeeOther)
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, sessionVal{u: u, s: s})))
	}
}

// SignedInEmail returns the email of the person signed in to the site's pages
// with r's session cookie (false when nobody is). Other pages (the admin page)
// use it to decide who may see them.
func (a *Auth) SignedInEmail(r *http.Request) (string, bool) {
	_, u, ok := a.currentSession(r)
	if !ok || u.Email == "" {
		return "", false
	}
	return u.Email, true
}

// SignedInUser returns the id and email of the person signed in to the site's
// pages with r's session cookie (false when nobody is). Pages that act for
// the person (following a listing, their notifications) use it.
func (a *Auth) SignedInUser(r *http.Request) (userID int64, email string, ok bool) {
	_, u, ok := a.currentSession(r)
	if !ok {
		return 0, "", false
	}
	return u.ID, u.Email, true
}
