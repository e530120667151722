package auth

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
)

// scopeSentences say on the consent page what each scope allows.
var scopeSentences = map[string]string{
	domain.ScopeAccountRead:   "See your account: your email address and name, your drafts, listings, claims and orders.",
	domain.ScopeListingsWrite: "Submit, edit and update your drafts and listings, and claim listings in your name.",
	domain.ScopeOrdersWrite:   "Get quotes and start checkouts for orders in your name.",
}

// consentScope is a scope as the consent page shows it.
type consentScope struct {
	Name     string
	Sentence string
}

// consentPage is the data of consent.html.
type consentPage struct {
	ClientName   string
	ClientID     string
	ClientHost   string // the host of a metadata document client_id
	ClientURI    string
	Dynamic      bool // registered at /register: the name is the app's own claim
	RedirectHost string
	Resource     string
	ResourceName string
	Scopes       []consentScope
	LocalOnly    bool // every redirect URI is loopback: a local app
	Email        string
	Request      string
	CSRF         string
}

// authorize serves GET and POST /authorize (OAuth 2.1 §4.1.1).
func (s *server) authorize(w http.ResponseWriter, r *http.Request) {
	a := s.a
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	}
	if err := r.ParseForm(); err != nil {
		a.problemPage(w, r, domain.EInvalid, "Invalid authorization request", "The request could not be read.")
		return
	}
	for _, k := range []string{"client_id", "redirect_uri"} {
		if len(r.Form[k]) > 1 {
			a.problemPage(w, r, domain.EInvalid, "Invalid authorization request", "The request repeats "+k+".")
			return
		}
	}
	clientID := r.Form.Get("client_id")
	if clientID == "" {
		a.problemPage(w, r, domain.EInvalid, "Invalid authorization request", "The request names no application (client_id is missing).")
		return
	}
	c, err := s.resolveClient(r.Context(), clientID)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			a.problemPage(w, r, domain.EInvalid, "Unknown application",
				"The application that sent you here is not registered with "+a.siteName(r.Context())+". Nothing was shared.")
			return
		}
		a.log.Info("client metadata document refused", "client_id", truncate(clientID, 200), "err", err)
		a.problemPage(w, r, domain.EInvalid, "The application could not be verified",
			"The application's client ID metadata document at "+truncate(clientID, 200)+" could not be used: "+cimdReason(err)+". Nothing was shared.")
		return
	}
	redirect, ok := r.Form.Get("redirect_uri"), false
	if redirect == "" && len(c.RedirectURIs) == 1 {
		redirect, ok = c.RedirectURIs[0], true
	} else {
		redirect, ok = matchRedirectURI(c.RedirectURIs, redirect)
	}
	if !ok {
		a.problemPage(w, r, domain.EInvalid, "Invalid redirect address",
			"The application asked to send you to an address it did not register, so "+a.siteName(r.Context())+" will not send you there. Nothing was shared.")
		return
	}

	// The redirect URI is trusted: from here on errors go back to the client.
	state := r.Form.Get("state")
	fail := func(e *oauthError) { s.redirectError(w, r, redirect, state, e) }
	for k, v := range r.Form {
		if len(v) > 1 && k != "resource" {
			fail(errorf("invalid_request", "Parameter %s is repeated.", truncate(k, 40)))
			return
		}
	}
	switch rt := r.Form.Get("response_type"); rt {
	case "code":
	case "":
		fail(errorf("invalid_request", "response_type is required; use code."))
		return
	default:
		fail(errorf("unsupported_response_type", "Only response_type code is supported."))
		return
	}
	if len(state) > 2000 {
		fail(errorf("invalid_request", "state is longer than 2000 characters."))
		return
	}
	challenge, method := r.Form.Get("code_challenge"), r.Form.Get("code_challenge_method")
	switch {
	case challenge == "":
		fail(errorf("invalid_request", "PKCE is required: send code_challenge with code_challenge_method S256."))
		return
	case method != "S256":
		fail(errorf("invalid_request", "code_challenge_method must be S256 (plain is not allowed)."))
		return
	case !validChallenge(challenge):
		fail(errorf("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters)."))
		return
	}
	scopes, oerr := parseScopes(r.Form.Get("scope"))
	if oerr != nil {
		fail(oerr)
		return
	}
	resource, oerr := a.parseResource(r.Context(), r.Form["resource"])
	if oerr != nil {
		fail(oerr)
		return
	}
	now := a.now()
	req := AuthRequest{ClientID: c.ID, RedirectURI: redirect, State: state, CodeChallenge: challenge,
		Scopes: scopes, Resource: resource, CreatedAt: now, ExpiresAt: now.Add(AuthRequestTTL)}
	sess, u, signedIn := a.currentSession(r)
	if !signedIn {
		handle := NewSecret("")
		req.ID = Hash(handle)
		if err := a.store.CreateAuthRequest(r.Context(), req); err != nil {
			s.pageError(w, r, "create auth request", err)
			return
		}
		http.Redirect(w, r, signInURL("/authorize/continue?request="+handle), statusSeeOther)
		return
	}
	s.consentOrIssue(w, r, c, req, sess, u)
}

// authorizeContinue serves GET /authorize/continue: after signing in, the
// person comes back to the stored request.
func (s *server) authorizeContinue(w http.ResponseWriter, r *http.Request) {
	a := s.a
	sess, u, ok := a.currentSession(r)
	if !ok {
		http.Redirect(w, r, signInURL(r.URL.RequestURI()), statusSeeOther)
		return
	}
	handle := r.URL.Query().Get("request")
	req, err := a.store.AuthRequestByID(r.Context(), Hash(handle), a.now())
	if err != nil || handle == "" || (req.UserID != 0 && req.UserID != u.ID) {
		if err != nil && !errors.Is(err, ErrNotFound) {
			a.log.Error("auth request", "err", err)
		}
		a.problemPage(w, r, domain.EInvalid, "This request has expired",
			"Go back to the application and connect again.")
		return
	}
	if err := a.store.DeleteAuthRequest(r.Context(), req.ID); err != nil && !errors.Is(err, ErrNotFound) {
		s.pageError(w, r, "delete auth request", err)
		return
	}
	c, err := s.resolveClient(r.Context(), req.ClientID)
	if err == nil {
		if _, ok := matchRedirectURI(c.RedirectURIs, req.RedirectURI); !ok {
			err = ErrNotFound
		}
	}
	if err != nil {
		a.problemPage(w, r, domain.EInvalid, "The application could not be verified",
			"The application is no longer registered, or no longer lists this redirect address. Nothing was shared.")
		return
	}
	req.CreatedAt = a.now()
	req.ExpiresAt = req.CreatedAt.Add(AuthRequestTTL)
	s.consentOrIssue(w, r, c, req, sess, u)
}

// consentOrIssue issues a code at once when the person already granted
// this client these scopes for this resource (and the redirect URI, being
// https, proves the client); else it stores the request and asks.
func (s *server) consentOrIssue(w http.ResponseWriter, r *http.Request, c Client, req AuthRequest, sess Session, u User) {
	a := s.a
	req.UserID = u.ID
	g, err := a.store.GrantFor(r.Context(), u.ID, c.ID)
	switch {
	case err == nil && g.Resource == req.Resource && subset(req.Scopes, g.Scopes) && !isLoopbackRedirect(req.RedirectURI):
		s.issueCode(w, r, req)
		return
	case err != nil && !errors.Is(err, ErrNotFound):
		s.pageError(w, r, "grant lookup", err)
		return
	}
	handle := NewSecret("")
	req.ID = Hash(handle)
	if err := a.store.CreateAuthRequest(r.Context(), req); err != nil {
		s.pageError(w, r, "create auth request", err)
		return
	}
	p := consentPage{ClientName: c.Name, ClientID: c.ID, ClientURI: c.URI, Dynamic: c.Kind != ClientMetadata,
		Resource: req.Resource, Email: u.Email, Request: handle, CSRF: sess.CSRF, LocalOnly: true}
	if c.Kind == ClientMetadata {
		if cu, err := url.Parse(c.ID); err == nil {
			p.ClientHost = cu.Host
		}
	}
	ru, _ := url.Parse(req.RedirectURI)
	p.RedirectHost = ru.Host
	for _, x := range c.RedirectURIs {
		if !isLoopbackRedirect(x) {
			p.LocalOnly = false
		}
	}
	site := a.siteName(r.Context())
	p.ResourceName = site + " MCP server"
	if req.Resource == a.APIResourceFor(r.Context()) {
		p.ResourceName = site + " REST API"
	}
	for _, sc := range req.Scopes {
		p.Scopes = append(p.Scopes, consentScope{Name: sc, Sentence: scopeSentences[sc]})
	}
	s.renderConsent(w, r, p, formActionSource(ru))
}

// renderConsent renders consent.html like Auth.render, but lets the form's
// redirect go to the client: browsers apply CSP form-action to the
// redirects that follow a form submission.
func (s *server) renderConsent(w http.ResponseWriter, r *http.Request, p consentPage, source string) {
	body, err := s.a.execute(r, "consent.html", shell.Page{Title: "Connect " + p.ClientName + "?", Status: statusOK, Data: p})
	if err != nil {
		s.pageError(w, r, "render consent", err)
		return
	}
	pageHeaders(w)
	if source != "" {
		h := w.Header()
		h.Set("Content-Security-Policy", strings.Replace(h.Get("Content-Security-Policy"),
			"form-action 'self'", "form-action 'self' "+source, 1))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(statusOK)
	w.Write(body)
}

// formActionSource is the CSP source of a redirect URI's origin, or "" when
// it has characters a CSP source must not contain.
func formActionSource(u *url.URL) string {
	if u == nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	for _, c := range u.Host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return ""
		}
	}
	return u.Scheme + "://" + u.Host
}

// decision serves POST /authorize/decision: the consent form's Allow or
// Deny (behind cross-origin protection, with the session's CSRF token).
func (s *server) decision(w http.ResponseWriter, r *http.Request) {
	a := s.a
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	sess, u, ok := a.currentSession(r)
	if !ok {
		a.problemPage(w, r, domain.EForbidden, "Signed out", "Your session has ended. Go back to the application and connect again.")
		return
	}
	if !validCSRF(r, sess) {
		a.problemPage(w, r, domain.EForbidden, "Request refused", "This form has expired or did not come from "+a.siteName(r.Context())+". Go back to the application and connect again.")
		return
	}
	handle := r.PostFormValue("request")
	req, err := a.store.AuthRequestByID(r.Context(), Hash(handle), a.now())
	if err != nil || handle == "" || req.UserID != u.ID {
		if err != nil && !errors.Is(err, ErrNotFound) {
			a.log.Error("auth request", "err", err)
		}
		a.problemPage(w, r, domain.EInvalid, "This request has expired", "Go back to the application and connect again.")
		return
	}
	action := r.PostFormValue("action")
	if action != "allow" && action != "deny" {
		a.problemPage(w, r, domain.EInvalid, "Invalid decision", "Choose Allow or Deny.")
		return
	}
	if err := a.store.DeleteAuthRequest(r.Context(), req.ID); err != nil {
		if errors.Is(err, ErrNotFound) { // a concurrent decision took it
			a.problemPage(w, r, domain.EInvalid, "This request has expired", "Go back to the application and connect again.")
			return
		}
		s.pageError(w, r, "delete auth request", err)
		return
	}
	if _, err := a.store.ClientByID(r.Context(), req.ClientID); err != nil {
		a.problemPage(w, r, domain.EInvalid, "Unknown application", "The application is no longer registered. Nothing was shared.")
		return
	}
	if action == "deny" {
		s.redirectTo(w, withParams(req.RedirectURI, url.Values{"error": {"access_denied"},
			"error_description": {"The person denied access."}, "state": {req.State}, "iss": {issuerOf(req.Resource)}}))
		return
	}
	g := Grant{UserID: u.ID, ClientID: req.ClientID, Scopes: req.Scopes, Resource: req.Resource}
	if old, err := a.store.GrantFor(r.Context(), u.ID, req.ClientID); err == nil && old.Resource == req.Resource {
		g.Scopes = union(old.Scopes, req.Scopes)
	}
	if _, err := a.store.SaveGrant(r.Context(), g, a.now()); err != nil {
		s.pageError(w, r, "save grant", err)
		return
	}
	s.issueCode(w, r, req)
}

// issueCode creates an authorization code for req and sends the person
// back to the client with it (303).
func (s *server) issueCode(w http.ResponseWriter, r *http.Request, req AuthRequest) {
	a := s.a
	now := a.now()
	code := NewSecret("")
	c := AuthCode{Hash: Hash(code), ClientID: req.ClientID, UserID: req.UserID, RedirectURI: req.RedirectURI,
		CodeChallenge: req.CodeChallenge, Scopes: req.Scopes, Resource: req.Resource, Family: NewSecret(""),
		CreatedAt: now, ExpiresAt: now.Add(CodeTTL)}
	if err := a.store.CreateCode(r.Context(), c); err != nil {
		s.pageError(w, r, "create code", err)
		return
	}
	a.log.Info("authorization code issued", "client_id", req.ClientID, "user", req.UserID, "scopes", strings.Join(req.Scopes, " "))
	s.redirectTo(w, withParams(req.RedirectURI, url.Values{"code": {code}, "state": {req.State}, "iss": {issuerOf(req.Resource)}}))
}

// redirectError sends an authorization error to the client's (trusted)
// redirect URI, with iss (RFC 9207).
func (s *server) redirectError(w http.ResponseWriter, r *http.Request, redirectURI, state string, e *oauthError) {
	u := withParams(redirectURI, url.Values{"error": {e.Code}, "error_description": {e.Description},
		"state": {state}, "iss": {s.a.IssuerFor(r.Context())}})
	h := w.Header()
	h.Set("Location", u)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(statusFound)
}

// redirectTo answers 303 See Other to u (never 307, which would repeat a
// POST and its form at the client).
func (s *server) redirectTo(w http.ResponseWriter, u string) {
	h := w.Header()
	h.Set("Location", u)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(statusSeeOther)
}

// pageError logs err and shows a 500 page.
func (s *server) pageError(w http.ResponseWriter, r *http.Request, what string, err error) {
	s.a.log.Error(what, "err", err)
	s.a.problemPage(w, r, domain.EInternal, "Something went wrong", "Please go back to the application and try again.")
}
