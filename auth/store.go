package auth

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned by Store lookups that find nothing (or only an
// expired, used or revoked record where the method says so).
var ErrNotFound = errors.New("auth: not found")

// User is an account, keyed by (Issuer, Subject): the OpenID Connect issuer
// and subject, or EmailIssuer and the lower-cased address for email-link
// sign-in.
type User struct {
	ID        int64
	Issuer    string
	Subject   string
	Email     string
	Name      string
	CreatedAt time.Time
	// Suspended is set while the site team has suspended the account
	// (docs/console.md "People"): none of its sessions, tokens or keys
	// works and it cannot sign in.
	Suspended bool
}

// EmailIssuer is the issuer of users who sign in by an emailed link.
const EmailIssuer = "urn:launchdir:email"

// Session is a signed-in browser session. Hash is the SHA-256 (hex) of the
// cookie value; CSRF is the per-session token forms carry.
type Session struct {
	Hash   string
	UserID int64
	// CSRF is the session's CSRF token for the pages' forms (csrfFor of the
	// cookie) in what auth hands its handlers, and its Hash in the store:
	// like every other secret, it is never stored in plain text.
	CSRF      string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// LoginLink is a single-use email sign-in link. Hash is the SHA-256 (hex) of
// the token in the link; Next is the local path to return to.
type LoginLink struct {
	Hash      string
	Email     string
	Next      string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Mail is a message in the outbox (every message sent is kept there).
type Mail struct {
	ID        int64
	To        string
	Subject   string
	Body      string
	CreatedAt time.Time
}

// Client kinds.
const (
	ClientDynamic  = "dcr"  // registered at /register (RFC 7591)
	ClientMetadata = "cimd" // an https client_id whose metadata document we fetched
)

// Client is an OAuth client. SecretHash is the SHA-256 (hex) of the client
// secret of a confidential client, "" for public clients.
type Client struct {
	ID           string
	SecretHash   string
	Name         string
	URI          string // client_uri, shown on consent when set
	RedirectURIs []string
	AuthMethod   string // none, client_secret_basic, client_secret_post
	Kind         string // ClientDynamic or ClientMetadata
	CreatedAt    time.Time
	LastUsedAt   time.Time
}

// AuthRequest is a pending /authorize request, stored server-side between
// the authorize GET and the consent POST, so that the decision cannot be
// tampered with. ID is the SHA-256 (hex) of the random request handle.
type AuthRequest struct {
	ID            string
	ClientID      string
	RedirectURI   string
	State         string
	CodeChallenge string
	Scopes        []string
	Resource      string
	UserID        int64 // set once the person is signed in
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// Grant is the consent record: a user allowed a client these scopes for a
// resource. One per (user, client); a new consent widens it.
type Grant struct {
	ID         int64
	UserID     int64
	ClientID   string
	ClientName string // filled by lookups, from the client
	Scopes     []string
	Resource   string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// AuthCode is an authorization code (single use, short-lived). Hash is the
// SHA-256 (hex) of the code.
type AuthCode struct {
	Hash          string
	ClientID      string
	UserID        int64
	RedirectURI   string
	CodeChallenge string // S256 challenge
	Scopes        []string
	Resource      string
	Family        string // the token family its tokens will join
	CreatedAt     time.Time
	ExpiresAt     time.Time
	UsedAt        time.Time // zero until redeemed
}

// Token kinds.
const (
	TokenAccess  = "access"
	TokenRefresh = "refresh"
)

// Token is an access or refresh token. Hash is the SHA-256 (hex) of the
// token. Family groups every token issued from one authorization code, so a
// replayed refresh token or code revokes them all.
type Token struct {
	Hash      string
	Kind      string
	UserID    int64
	ClientID  string
	Family    string
	Scopes    []string
	Resource  string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // refresh tokens: when it was exchanged (zero until then)
	RevokedAt time.Time // zero unless revoked
}

// APIKey is an API key. Hash is the SHA-256 (hex) of the key; Prefix is its
// first characters, shown in lists so a person can tell keys apart.
type APIKey struct {
	ID         int64
	UserID     int64
	Name       string
	Prefix     string
	Hash       string
	CreatedAt  time.Time
	LastUsedAt time.Time // zero until used
	RevokedAt  time.Time // zero unless revoked
}

// Store keeps the accounts and the authorization server's state. storage
// implements it over SQLite. Methods return ErrNotFound for absent records.
type Store interface {
	// UpsertUser returns the user keyed by (issuer, subject), creating it,
	// and updating email and name when they changed.
	UpsertUser(ctx context.Context, issuer, subject, email, name string, now time.Time) (User, error)
	UserByID(ctx context.Context, id int64) (User, error)
	// UserByEmail finds a user by email address (case-insensitive); with
	// several, the oldest.
	UserByEmail(ctx context.Context, email string) (User, error)

	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns an unexpired session.
	SessionByHash(ctx context.Context, hash string, now time.Time) (Session, error)
	DeleteSession(ctx context.Context, hash string) error

	CreateLoginLink(ctx context.Context, l LoginLink) error
	// UseLoginLink consumes an unexpired, unused link (atomically: a second
	// call returns ErrNotFound).
	UseLoginLink(ctx context.Context, hash string, now time.Time) (LoginLink, error)

	// AddMail appends a message to the outbox and returns its id.
	AddMail(ctx context.Context, m Mail) (int64, error)
	// Outbox returns the newest messages first, at most limit, optionally
	// only those to one address ("" for all).
	Outbox(ctx context.Context, to string, limit int) ([]Mail, error)

	CreateClient(ctx context.Context, c Client) error
	ClientByID(ctx context.Context, id string) (Client, error)
	// UpsertClient creates or replaces a client (metadata document clients
	// are refreshed when their document is fetched again).
	UpsertClient(ctx context.Context, c Client) error
	TouchClient(ctx context.Context, id string, now time.Time) error
	// DeleteIdleClients deletes dynamically registered clients unused since
	// before and without grants, returning how many.
	DeleteIdleClients(ctx context.Context, before time.Time) (int, error)

	CreateAuthRequest(ctx context.Context, r AuthRequest) error
	// AuthRequestByID returns an unexpired request.
	AuthRequestByID(ctx context.Context, id string, now time.Time) (AuthRequest, error)
	DeleteAuthRequest(ctx context.Context, id string) error

	// SaveGrant creates or updates the (user, client) grant with g's scopes
	// and resource and returns it.
	SaveGrant(ctx context.Context, g Grant, now time.Time) (Grant, error)
	GrantFor(ctx context.Context, userID int64, clientID string) (Grant, error)
	// ListGrants returns a user's grants, newest first, with ClientName.
	ListGrants(ctx context.Context, userID int64) ([]Grant, error)
	// RevokeGrant deletes the grant and revokes every token of that user
	// and client. ErrNotFound when the user has no such grant.
	RevokeGrant(ctx context.Context, userID int64, clientID string, now time.Time) error

	CreateCode(ctx context.Context, c AuthCode) error
	// UseCode marks the code used and returns it. When it was already used
	// it returns the code with its earlier UsedAt (the caller then revokes the
	// family); ErrNotFound when no such code exists.
	UseCode(ctx context.Context, hash string, now time.Time) (AuthCode, error)

	CreateToken(ctx context.Context, t Token) error
	// TokenByHash returns the token whatever its state (callers check
	// expiry, revocation and use).
	TokenByHash(ctx context.Context, hash string) (Token, error)
	// UseRefreshToken marks a refresh token used and returns it; when it was
	// already used it returns it with its earlier UsedAt and marks nothing.
	UseRefreshToken(ctx context.Context, hash string, now time.Time) (Token, error)
	RevokeToken(ctx context.Context, hash string, now time.Time) error
	// RevokeFamily revokes every token of a family.
	RevokeFamily(ctx context.Context, family string, now time.Time) error

	CreateAPIKey(ctx context.Context, k APIKey) (APIKey, error)
	// APIKeyByHash returns the key whatever its state.
	APIKeyByHash(ctx context.Context, hash string) (APIKey, error)
	// ListAPIKeys returns a user's keys, newest first, revoked ones included.
	ListAPIKeys(ctx context.Context, userID int64) ([]APIKey, error)
	// RevokeAPIKey revokes the user's key. ErrNotFound when the user has no
	// such key.
	RevokeAPIKey(ctx context.Context, userID, id int64, now time.Time) error
	TouchAPIKey(ctx context.Context, id int64, now time.Time) error
}
