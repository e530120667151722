package domain

import (
	"context"
	"time"
)

// Scopes of the spec's Authentication section. No scope implies another.
const (
	ScopeAccountRead   = "account:read"
	ScopeListingsWrite = "listings:write"
	ScopeOrdersWrite   = "orders:write"
)

// AllScopes lists every scope, in the spec's order.
var AllScopes = []string{ScopeAccountRead, ScopeListingsWrite, ScopeOrdersWrite}

// How a caller signed in.
const (
	ViaOAuth  = "oauth"   // an OAuth 2.1 access token issued by this service
	ViaAPIKey = "api_key" // an API key from the account area
)

// Caller is the signed-in identity of a request. Transports put it in the
// context after checking the credential; the domain never sees HTTP.
type Caller struct {
	UserID int64
	Email  string
	Name   string
	// Via is ViaOAuth or ViaAPIKey.
	Via string
	// Scopes are the scopes of an OAuth token. An API key carries no scope
	// list: it has the access of its user (HasScope is true for every scope).
	Scopes []string
	// ClientID and ClientName name the OAuth client (Via == ViaOAuth).
	ClientID   string
	ClientName string
	// KeyID and KeyName name the API key (Via == ViaAPIKey).
	KeyID   int64
	KeyName string
	// UserCreated is when the account was created.
	UserCreated time.Time
}

// HasScope reports whether the caller may use operations that need scope.
func (c Caller) HasScope(scope string) bool {
	if scope == "" || c.Via == ViaAPIKey {
		return true
	}
	for _, s := range c.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

type callerKey struct{}

// WithCaller returns ctx carrying the signed-in caller.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the signed-in caller of ctx, if any.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c.UserID != 0
}

// requireCaller returns the caller or an unauthenticated error.
func requireCaller(ctx context.Context) (Caller, error) {
	c, ok := CallerFrom(ctx)
	if !ok {
		return Caller{}, Errorf(EUnauthenticated, "Sign-in required: send an OAuth access token or an API key as Authorization: Bearer.")
	}
	return c, nil
}

// callerWith is the start of an operation on the caller's own rows: the
// signed-in caller and the store get returns (the store's getter answers an
// internal error when it is not configured).
func callerWith[S any](ctx context.Context, get func() (S, error)) (Caller, S, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		var none S
		return Caller{}, none, err
	}
	st, err := get()
	return c, st, err
}

// GetAccountInput has no fields.
type GetAccountInput struct{}

// Account is who the caller is and what the credential allows.
type Account struct {
	ID        int64     `json:"id" jsonschema_description:"The account's id."`
	Email     string    `json:"email" jsonschema_description:"The account's email address."`
	Name      string    `json:"name,omitempty" jsonschema_description:"The account's display name, when known."`
	CreatedAt time.Time `json:"created_at" jsonschema_description:"When the account was created."`
	// SignedInWith is "oauth" or "api_key".
	SignedInWith string `json:"signed_in_with" jsonschema:"enum=oauth,enum=api_key" jsonschema_description:"The credential of this request: an OAuth access token or an API key."`
	// Scopes are the scopes this request may use.
	Scopes []string `json:"scopes" jsonschema_description:"Scopes this credential may use. An API key has no scope list and the access of its user, so it lists every scope."`
	// Client is the OAuth client the token was issued to.
	Client *AccountClient `json:"client,omitempty" jsonschema_description:"The OAuth client the access token was issued to."`
	// APIKey is the key of this request.
	APIKey *AccountKey `json:"api_key,omitempty" jsonschema_description:"The API key of this request."`
	// AccountURL is the signed-in account page (API keys, connected apps).
	AccountURL string `json:"account_url" jsonschema_description:"The account page for people: API keys and connected apps."`
}

// AccountClient names an OAuth client.
type AccountClient struct {
	ClientID string `json:"client_id"`
	Name     string `json:"name"`
}

// AccountKey names an API key (never its secret).
type AccountKey struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// GetAccount is get_account: who the caller is and what the access allows.
func (s *Service) GetAccount(ctx context.Context, _ GetAccountInput) (Account, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return Account{}, err
	}
	a := Account{
		ID: c.UserID, Email: c.Email, Name: c.Name, CreatedAt: c.UserCreated.UTC(),
		SignedInWith: c.Via, AccountURL: s.Site.In(ctx).URL(AccountPath),
	}
	switch c.Via {
	case ViaAPIKey:
		a.Scopes = append([]string(nil), AllScopes...)
		a.APIKey = &AccountKey{ID: c.KeyID, Name: c.KeyName}
	default:
		a.Scopes = append([]string{}, c.Scopes...)
		a.Client = &AccountClient{ClientID: c.ClientID, Name: c.ClientName}
	}
	return a, nil
}
