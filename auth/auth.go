// Package auth is launchdir's sign-in and OAuth 2.1 authorization server:
// people sign in by an emailed link or through an OpenID Connect provider,
// MCP clients register (dynamic registration or client ID metadata
// documents) and get opaque, audience-bound tokens, and scripts use API keys.
// Every secret (tokens, codes, keys, sessions, links, client secrets) is
// stored only as its SHA-256 hash. Verify turns a bearer credential into a
// domain.Caller for the transports in tools.
package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// Credential prefixes: they let secret scanners find leaked credentials and
// let Verify tell an API key from an access token.
const (
	PrefixAccess  = "ld_at_"
	PrefixRefresh = "ld_rt_"
	PrefixAPIKey  = "ld_sk_"
	PrefixClient  = "ld_client_"
	PrefixSecret  = "ld_cs_"
)

// Lifetimes.
const (
	CodeTTL        = 60 * time.Second
	AccessTTL      = time.Hour
	RefreshTTL     = 30 * 24 * time.Hour
	SessionTTL     = 30 * 24 * time.Hour
	LoginLinkTTL   = 15 * time.Minute
	AuthRequestTTL = 10 * time.Minute
	ClientIdleTTL  = 90 * 24 * time.Hour
)

// OIDCProvider configures sign-in through an OpenID Connect provider.
type OIDCProvider struct {
	// Issuer is the provider's issuer URL (discovery at
	// Issuer/.well-known/openid-configuration).
	Issuer       string
	ClientID     string
	ClientSecret string
	// Name is shown on the sign-in button ("Sign in with <Name>").
	Name string
	// MaxPending is how many sign-ins may be pending at once in this
	// process (begun at /signin/oidc, not yet back at /callback; each is
	// kept in memory for up to 10 minutes); past it /signin/oidc answers
	// "Sign-in is busy" (503, Retry-After). 0 means 10,000.
	MaxPending int
}

// Mailer sends a message. The default writes it to the outbox (and the log).
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Config configures the auth service.
type Config struct {
	// Origin is the public origin (scheme://host[:port], no path). It is the
	// issuer, and the resources are Origin+"/mcp" and Origin+"/v1".
	Origin string
	// SiteName is the start-up name, used only when SiteNameNow is nil or
	// answers "".
	SiteName string
	// SiteNameNow, when set, is the site's name in effect at each use (the
	// site_name setting the site team may change): every page, mail and the
	// protected resource metadata read it per request.
	SiteNameNow func(context.Context) string
	Store       Store
	// Outbox delivers mail; nil: one over Store with Mailer and MailLog.
	Outbox *Outbox
	// Mailer sends sign-in links; nil means the outbox (Store.AddMail) and the log.
	Mailer Mailer
	// MailLog, without a Mailer, receives each message in full as plain
	// text after its log record, so that a link stands alone on a line and
	// can be copied (serve passes stderr). nil puts the body into the log
	// record instead (quoted, with escaped newlines).
	MailLog io.Writer
	// OIDC, when set, adds "Sign in with <Name>" next to the email link.
	OIDC *OIDCProvider
	// Now returns the current time (required).
	Now    func() time.Time
	Logger *slog.Logger
	// MetadataClient fetches client ID metadata documents. nil means a client
	// with the SSRF guard (no private, loopback or link-local addresses).
	// Tests pass a client that may reach loopback.
	MetadataClient *http.Client
	// RegisterPerHour limits dynamic registrations per remote address
	// (default 20).
	RegisterPerHour int
	// OAuthLimit, when set, limits /authorize (and its continue and
	// decision steps), /token, /register and /revoke per network.
	OAuthLimit *ratelimit.Limiter
	// Failures, when set, is the budget of failed credentials per network,
	// shared with the bearer check of /v1 and /mcp: a refused /token or
	// /revoke client credential, code or refresh token and an invalid
	// sign-in link cost one each; when none is left these requests get 429
	// before anything is checked.
	Failures *ratelimit.Limiter
	// Invites, when set, serves the co-founder invite page that
	// invite_cofounder mails link to (domain.InvitePath + "/" + token).
	Invites InvitePages
	// Account, when set, serves /account/export and /account/delete
	// (account_data.go, docs/privacy.md). It needs Listings.
	Account AccountData
	// Listings lists the account's listings on /account, with what the site
	// team did to them and why (docs/console.md "Listings"); required with
	// Account (New refuses Account without it), else optional: unset, the
	// page has no listings section.
	Listings AccountListings
	// Orders, when set, lists the person's orders on /account, with the
	// checkout link of each one that can still be paid (account_orders.go).
	Orders AccountOrders
	// Webhooks, when set, serves the Webhooks section of /account and its
	// forms (account_webhooks.go, docs/webhooks.md); unset: no section.
	Webhooks AccountWebhooks
}

// Auth is the sign-in service, the authorization server and the verifier.
type Auth struct {
	cfg    Config
	outbox *Outbox
	store  Store
	log    *slog.Logger
	now    func() time.Time
	// signin is the sign-in pages' state, made by Register.
	signin *signIn
}

// New returns the auth service for cfg.
func New(cfg Config) (*Auth, error) {
	if cfg.Store == nil {
		return nil, errors.New("auth: no store")
	}
	if cfg.Origin == "" || strings.HasSuffix(cfg.Origin, "/") {
		return nil, errors.New("auth: origin must be scheme://host without a trailing slash")
	}
	if cfg.Account != nil && cfg.Listings == nil {
		// An account that can export and delete its data sees its listings
		// and what the site team did to them: wire both or neither.
		return nil, errors.New("auth: Config.Account without Config.Listings (the account page's listings)")
	}
	a := &Auth{cfg: cfg, store: cfg.Store, log: cfg.Logger, now: cfg.Now}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if a.now == nil {
		return nil, errors.New("auth: no clock (Config.Now)")
	}
	a.outbox = cfg.Outbox
	if a.outbox == nil {
		a.outbox = &Outbox{Store: cfg.Store, Transport: cfg.Mailer, MailLog: cfg.MailLog, Logger: a.log, Now: a.now}
	}
	if a.cfg.RegisterPerHour == 0 {
		a.cfg.RegisterPerHour = 20
	}
	return a, nil
}

// Issuer is the authorization server's issuer at the default origin (the
// configured one); IssuerFor gives a request's.
func (a *Auth) Issuer() string { return a.cfg.Origin }

// MCPResource and APIResource are the two protected resources (RFC 8707) at
// the default origin; tokens are bound to one of them. A request without
// resource gets the MCP server. MCPResourceFor and APIResourceFor give them
// at a request's origin.
func (a *Auth) MCPResource() string { return a.cfg.Origin + domain.MCPPath }

// APIResource is the REST API's resource identifier at the default origin.
func (a *Auth) APIResource() string { return a.cfg.Origin + domain.APIPrefix }

// ResourceMetadataURL is the RFC 9728 metadata URL of a resource
// (path-insert), at the resource's own origin.
func (a *Auth) ResourceMetadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil || u.Host == "" {
		return a.cfg.Origin + wellKnownResource + strings.TrimPrefix(resource, a.cfg.Origin)
	}
	return u.Scheme + "://" + u.Host + wellKnownResource + u.EscapedPath()
}

// wellKnownResource is the RFC 9728 well-known prefix.
const wellKnownResource = "/.well-known/oauth-protected-resource"

// NewSecret returns prefix + 32 random bytes in base64url (domain.NewSecret).
func NewSecret(prefix string) string { return domain.NewSecret(prefix) }

// Hash is the SHA-256 (hex) of a secret: the only form a secret is stored
// in (domain.SecretHash).
func Hash(secret string) string { return domain.SecretHash(secret) }

// Equal compares two secrets (or hashes) in constant time.
func Equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// ErrInvalidToken is returned by Verify for a credential that is unknown,
// expired, revoked, or issued for another resource.
var ErrInvalidToken = errors.New("auth: invalid token")

// Verify resolves a bearer credential sent to resource (MCPResource or
// APIResource) to the caller. An API key is valid on both resources; an
// access token only on the resource it was issued for.
func (a *Auth) Verify(ctx context.Context, bearer, resource string) (domain.Caller, error) {
	now := a.now()
	switch {
	case strings.HasPrefix(bearer, PrefixAPIKey):
		k, err := a.store.APIKeyByHash(ctx, Hash(bearer))
		if errors.Is(err, ErrNotFound) || (err == nil && !k.RevokedAt.IsZero()) {
			return domain.Caller{}, ErrInvalidToken
		}
		if err != nil {
			return domain.Caller{}, err
		}
		u, err := a.store.UserByID(ctx, k.UserID)
		if err != nil {
			return domain.Caller{}, err
		}
		if u.Suspended { // docs/console.md "People"
			return domain.Caller{}, ErrInvalidToken
		}
		if k.LastUsedAt.IsZero() || now.Sub(k.LastUsedAt) > time.Minute {
			if err := a.store.TouchAPIKey(ctx, k.ID, now); err != nil {
				a.log.Warn("touch api key", "err", err)
			}
		}
		return domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, Via: domain.ViaAPIKey,
			KeyID: k.ID, KeyName: k.Name, UserCreated: u.CreatedAt}, nil
	case strings.HasPrefix(bearer, PrefixAccess):
		t, err := a.store.TokenByHash(ctx, Hash(bearer))
		if errors.Is(err, ErrNotFound) {
			return domain.Caller{}, ErrInvalidToken
		}
		if err != nil {
			return domain.Caller{}, err
		}
		if t.Kind != TokenAccess || !t.RevokedAt.IsZero() || !now.Before(t.ExpiresAt) || t.Resource != resource {
			return domain.Caller{}, ErrInvalidToken
		}
		u, err := a.store.UserByID(ctx, t.UserID)
		if err != nil {
			return domain.Caller{}, err
		}
		if u.Suspended { // docs/console.md "People"
			return domain.Caller{}, ErrInvalidToken
		}
		c := domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, Via: domain.ViaOAuth,
			Scopes: t.Scopes, ClientID: t.ClientID, UserCreated: u.CreatedAt}
		if cl, err := a.store.ClientByID(ctx, t.ClientID); err == nil {
			c.ClientName = cl.Name
		}
		return c, nil
	}
	return domain.Caller{}, ErrInvalidToken
}
