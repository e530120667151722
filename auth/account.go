package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
)

// API key limits.
const (
	maxKeyName       = 100
	maxActiveKeys    = 25
	apiKeyPrefixLen  = 12
	accountTimestamp = "2006-01-02 15:04 UTC"
)

var (
	errKeyName     = fmt.Errorf("auth: an API key name is 1 to %d characters, without control characters", maxKeyName)
	errTooManyKeys = fmt.Errorf("auth: at most %d active API keys per account; revoke one first", maxActiveKeys)
)

// registerAccount adds the account pages.
func (a *Auth) registerAccount(mux *http.ServeMux) {
	mux.HandleFunc("GET /account", a.requireSession(a.accountPage))
	mux.Handle("POST /account/keys", form(a.requireSession(a.accountCreateKey)))
	mux.Handle("POST /account/keys/{id}/revoke", form(a.requireSession(a.accountRevokeKey)))
	mux.Handle("POST /account/apps/revoke", form(a.requireSession(a.accountRevokeApp)))
	mux.Handle("POST /account/webhooks", form(a.requireSession(a.accountCreateHook)))
	mux.Handle("POST /account/webhooks/{id}/delete", form(a.requireSession(a.accountDeleteHook)))
}

// accountData is the data of account.html.
type accountData struct {
	User    User
	CSRF    string
	Keys    []keyView
	Apps    []appView
	KeyName string // the create form's value, after an error
	Error   string
	// Listings are the account's listings, with what the site team did to
	// them and why (when Config.Listings is set).
	Listings []ListingNote
	// Orders are the account's orders (when Config.Orders is set); Shop
	// says the section is shown at all.
	Orders []orderNote
	Shop   bool
	// Hooks is the Webhooks section (account_webhooks.go); nil: not served.
	Hooks *hookSection
}

// ListingNote is one of the account's listings as /account shows it:
// Action is hidden or unpublished when the site team did that, with the
// reason and when (docs/console.md "Listings"); ID links its owner's
// revenue page (/account/listings/{id}/revenue).
type ListingNote struct {
	ID                 int64
	Name, Slug, Status string
	Action, Reason     string
	At                 time.Time
	// Page is the listing's public page, "" while it has none (set by the
	// account page, not by AccountListings).
	Page string
}

// AccountListings lists the listings an account owns (any site, any status).
type AccountListings interface {
	AccountListings(ctx context.Context, userID int64) ([]ListingNote, error)
}

type keyView struct {
	ID        int64
	Name      string
	Prefix    string
	Created   string
	LastUsed  string // "" when never used
	Revoked   string // "" when active
	IsRevoked bool
}

type appView struct {
	ClientID string
	Name     string
	Host     string // the client id's host for metadata-document clients
	Scopes   string
	Since    string
}

func accountStamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(accountTimestamp)
}

// account loads the account page's data.
func (a *Auth) account(ctx context.Context, u User, s Session) (accountData, error) {
	d := accountData{User: u, CSRF: s.CSRF}
	keys, err := a.store.ListAPIKeys(ctx, u.ID)
	if err != nil {
		return d, err
	}
	for _, k := range keys {
		d.Keys = append(d.Keys, keyView{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Created: accountStamp(k.CreatedAt),
			LastUsed: accountStamp(k.LastUsedAt), Revoked: accountStamp(k.RevokedAt), IsRevoked: !k.RevokedAt.IsZero()})
	}
	if a.cfg.Listings != nil {
		if d.Listings, err = a.cfg.Listings.AccountListings(ctx, u.ID); err != nil {
			return d, err
		}
		for i := range d.Listings {
			d.Listings[i].Page = listingPage(d.Listings[i].Slug, d.Listings[i].Status)
		}
	}
	d.Shop = a.cfg.Orders != nil
	if d.Orders, err = a.accountOrders(ctx, u.ID); err != nil {
		return d, err
	}
	if d.Hooks, err = a.hookSectionFor(ctx, u); err != nil {
		return d, err
	}
	grants, err := a.store.ListGrants(ctx, u.ID)
	if err != nil {
		return d, err
	}
	for _, g := range grants {
		v := appView{ClientID: g.ClientID, Name: g.ClientName, Scopes: strings.Join(g.Scopes, " "), Since: accountStamp(g.CreatedAt)}
		if cu, err := url.Parse(g.ClientID); err == nil && cu.Scheme == "https" {
			v.Host = cu.Host
		}
		if v.Name == "" {
			v.Name = "Unnamed app"
		}
		d.Apps = append(d.Apps, v)
	}
	return d, nil
}

func (a *Auth) showAccount(w http.ResponseWriter, r *http.Request, status int, keyName, msg string) {
	u, s, _ := userFrom(r.Context())
	d, err := a.account(r.Context(), u, s)
	if err != nil {
		a.log.Error("load account", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Your account could not be loaded. Try again in a moment.")
		return
	}
	d.KeyName, d.Error = keyName, msg
	a.render(w, r, status, "account.html", d)
}

// showAccountHooks shows /account with the Webhooks form's outcome.
func (a *Auth) showAccountHooks(w http.ResponseWriter, r *http.Request, status int, extra *hookSection) {
	u, s, _ := userFrom(r.Context())
	d, err := a.account(r.Context(), u, s)
	if err != nil || d.Hooks == nil {
		a.log.Error("load account", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Your account could not be loaded. Try again in a moment.")
		return
	}
	d.Hooks.Secret, d.Hooks.URL, d.Hooks.Error = extra.Secret, extra.URL, extra.Error
	a.render(w, r, status, "account.html", d)
}

// accountPage shows the account: the email, API keys and connected apps.
func (a *Auth) accountPage(w http.ResponseWriter, r *http.Request) {
	a.showAccount(w, r, statusOK, "", "")
}

// checkForm reads a posted account form and checks its CSRF token, writing
// the error page and returning false when either fails.
func (a *Auth) checkForm(w http.ResponseWriter, r *http.Request) (User, bool) {
	u, s, _ := userFrom(r.Context())
	r.Body = http.MaxBytesReader(w, r.Body, signinFormBytes)
	if err := r.ParseForm(); err != nil {
		a.problemPage(w, r, domain.EInvalid, "Bad request", "The form could not be read.")
		return u, false
	}
	if !validCSRF(r, s) {
		a.problemPage(w, r, domain.EForbidden, "Forbidden", "The form has expired. Reload the page and try again.")
		return u, false
	}
	return u, true
}

// accountCreateKey creates an API key and shows it once.
func (a *Auth) accountCreateKey(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	name := r.PostFormValue("name")
	plain, k, err := a.createKey(r.Context(), u.ID, name)
	switch {
	case errors.Is(err, errKeyName):
		a.showAccount(w, r, problem.Status(domain.EInvalid), name, "Give the key a name of 1 to 100 characters.")
		return
	case errors.Is(err, errTooManyKeys):
		a.problemPage(w, r, domain.EInvalid, "Too many API keys",
			fmt.Sprintf("An account can have at most %d active API keys. Revoke one you no longer use first.", maxActiveKeys))
		return
	case err != nil:
		a.log.Error("create api key", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The key could not be created. Try again in a moment.")
		return
	}
	a.log.Info("api key created", "user", u.ID, "key", k.ID)
	a.render(w, r, statusOK, "key_created.html", map[string]any{"Key": plain, "Name": k.Name, "Prefix": k.Prefix})
}

// accountRevokeKey revokes one of the user's API keys.
func (a *Auth) accountRevokeKey(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err == nil {
		err = a.store.RevokeAPIKey(r.Context(), u.ID, id, a.now())
	} else {
		err = ErrNotFound
	}
	if errors.Is(err, ErrNotFound) {
		a.problemPage(w, r, domain.ENotFound, "No such key", "You have no API key with that id.")
		return
	}
	if err != nil {
		a.log.Error("revoke api key", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The key could not be revoked. Try again in a moment.")
		return
	}
	a.log.Info("api key revoked", "user", u.ID, "key", id)
	http.Redirect(w, r, "/account", statusSeeOther)
}

// accountRevokeApp disconnects an app: its grant and tokens are revoked.
func (a *Auth) accountRevokeApp(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	clientID := r.PostFormValue("client_id")
	err := ErrNotFound
	if clientID != "" {
		err = a.store.RevokeGrant(r.Context(), u.ID, clientID, a.now())
	}
	if errors.Is(err, ErrNotFound) {
		a.problemPage(w, r, domain.ENotFound, "No such app", "No app with that id is connected to your account.")
		return
	}
	if err != nil {
		a.log.Error("revoke grant", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "The app could not be disconnected. Try again in a moment.")
		return
	}
	a.log.Info("app disconnected", "user", u.ID, "client", clientID)
	http.Redirect(w, r, "/account", statusSeeOther)
}

// CreateAPIKey creates an API key named name for the email-link user of
// email, creating that user when needed (for the operator subcommand). The
// plaintext is returned once; only its hash is stored.
func (a *Auth) CreateAPIKey(ctx context.Context, email, name string) (plaintext string, key APIKey, err error) {
	addr, ok := parseSigninEmail(strings.TrimSpace(email))
	if !ok {
		return "", APIKey{}, fmt.Errorf("auth: invalid email address %q", email)
	}
	u, err := a.store.UpsertUser(ctx, EmailIssuer, strings.ToLower(addr), addr, "", a.now())
	if err != nil {
		return "", APIKey{}, err
	}
	return a.createKey(ctx, u.ID, name)
}

// createKey makes a key for userID: plaintext NewSecret(PrefixAPIKey), of
// which only the hash and the first characters are stored.
func (a *Auth) createKey(ctx context.Context, userID int64, name string) (string, APIKey, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n == 0 || n > maxKeyName || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, unicode.IsControl) {
		return "", APIKey{}, errKeyName
	}
	keys, err := a.store.ListAPIKeys(ctx, userID)
	if err != nil {
		return "", APIKey{}, err
	}
	active := 0
	for _, k := range keys {
		if k.RevokedAt.IsZero() {
			active++
		}
	}
	if active >= maxActiveKeys {
		return "", APIKey{}, errTooManyKeys
	}
	plain := NewSecret(PrefixAPIKey)
	k, err := a.store.CreateAPIKey(ctx, APIKey{UserID: userID, Name: name, Prefix: plain[:apiKeyPrefixLen],
		Hash: Hash(plain), CreatedAt: a.now()})
	if err != nil {
		return "", APIKey{}, err
	}
	return plain, k, nil
}
