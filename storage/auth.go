package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth"
)

// AuthStore implements auth.Store over SQLite (tables of migration
// 0002_auth.sql). Secrets are only ever stored as the hashes auth passes in.
type AuthStore struct{ db *DB }

var _ auth.Store = (*AuthStore)(nil)

// NewAuthStore returns the auth.Store over db.
func NewAuthStore(db *DB) *AuthStore { return &AuthStore{db: db} }

// authNotFound is auth.ErrNotFound naming what was looked for.
func authNotFound(kind string) error { return fmt.Errorf("storage: %s: %w", kind, auth.ErrNotFound) }

// authErr maps sql.ErrNoRows to auth.ErrNotFound and wraps anything else.
func authErr(err error, op string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return authNotFound(op)
	}
	if errors.Is(err, auth.ErrNotFound) {
		return err
	}
	return fmt.Errorf("storage: %s: %w", op, err)
}

// authUnix is the column value of t: Unix seconds, or NULL for the zero time.
func authUnix(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

// authTime converts a nullable Unix-seconds column to a UTC time (zero for NULL).
func authTime(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.Unix(v.Int64, 0).UTC()
}

// authScopes joins scopes into the space-separated column value.
func authScopes(s []string) string { return strings.Join(s, " ") }

// authSplitScopes splits the column value (nil for none).
func authSplitScopes(s string) []string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil
	}
	return f
}

// authRequireTime rejects a zero time where the column is NOT NULL (an
// expiry left unset must not mean "never expires").
func authRequireTime(t time.Time, op, field string) error {
	if t.IsZero() {
		return fmt.Errorf("storage: %s: %s is not set", op, field)
	}
	return nil
}

// authExecOne runs a statement that must change exactly one row; no row is
// auth.ErrNotFound.
func authExecOne(ctx context.Context, ex interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, op, query string, args ...any) error {
	res, err := ex.ExecContext(ctx, query, args...)
	if err != nil {
		return authErr(err, op)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return authErr(err, op)
	}
	if n == 0 {
		return authNotFound(op)
	}
	return nil
}

// ---- users

const userCols = `id, issuer, subject, email, name, created_at`

func scanUser(row interface{ Scan(...any) error }) (auth.User, error) {
	var u auth.User
	var created sql.NullInt64
	if err := row.Scan(&u.ID, &u.Issuer, &u.Subject, &u.Email, &u.Name, &created); err != nil {
		return auth.User{}, err
	}
	u.CreatedAt = authTime(created)
	return u, nil
}

// UpsertUser returns the user keyed by (issuer, subject), creating it, and
// updating email and name when they changed.
func (s *AuthStore) UpsertUser(ctx context.Context, issuer, subject, email, name string, now time.Time) (auth.User, error) {
	if issuer == "" || subject == "" {
		return auth.User{}, fmt.Errorf("storage: upsert user: issuer and subject are required")
	}
	u, err := scanUser(s.db.sql.QueryRowContext(ctx, `INSERT INTO users (issuer, subject, email, name, created_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, name = excluded.name
		WHERE users.email IS NOT excluded.email OR users.name IS NOT excluded.name
		RETURNING `+userCols, issuer, subject, email, name, now.Unix()))
	if errors.Is(err, sql.ErrNoRows) {
		// The user exists and nothing changed (the conditional update wrote nothing).
		u, err = scanUser(s.db.sql.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE issuer = ? AND subject = ?`,
			issuer, subject))
	}
	return u, authErr(err, "upsert user")
}

// UserByID returns the user with id.
func (s *AuthStore) UserByID(ctx context.Context, id int64) (auth.User, error) {
	u, err := scanUser(s.db.sql.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, authErr(err, "user")
}

// UserByEmail finds a user by email address (case-insensitive); with several,
// the oldest.
func (s *AuthStore) UserByEmail(ctx context.Context, email string) (auth.User, error) {
	if strings.TrimSpace(email) == "" {
		return auth.User{}, authNotFound("user by email")
	}
	u, err := scanUser(s.db.sql.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE lower(email) = lower(?)
		ORDER BY created_at, id LIMIT 1`, email))
	return u, authErr(err, "user by email")
}

// ---- sessions

// CreateSession stores a session.
func (s *AuthStore) CreateSession(ctx context.Context, se auth.Session) error {
	if err := authRequireTime(se.ExpiresAt, "create session", "ExpiresAt"); err != nil {
		return err
	}
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO sessions (hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		se.Hash, se.UserID, se.CSRF, se.CreatedAt.Unix(), se.ExpiresAt.Unix())
	return authErr(err, "create session")
}

// SessionByHash returns an unexpired session.
func (s *AuthStore) SessionByHash(ctx context.Context, hash string, now time.Time) (auth.Session, error) {
	var se auth.Session
	var created, expires sql.NullInt64
	err := s.db.sql.QueryRowContext(ctx, `SELECT hash, user_id, csrf, created_at, expires_at FROM sessions
		WHERE hash = ? AND expires_at > ?`, hash, now.Unix()).Scan(&se.Hash, &se.UserID, &se.CSRF, &created, &expires)
	if err != nil {
		return auth.Session{}, authErr(err, "session")
	}
	se.CreatedAt, se.ExpiresAt = authTime(created), authTime(expires)
	return se, nil
}

// DeleteSession deletes a session; deleting an absent one is not an error.
func (s *AuthStore) DeleteSession(ctx context.Context, hash string) error {
	_, err := s.db.sql.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash)
	return authErr(err, "delete session")
}

// ---- login links

// CreateLoginLink stores a sign-in link.
func (s *AuthStore) CreateLoginLink(ctx context.Context, l auth.LoginLink) error {
	if err := authRequireTime(l.ExpiresAt, "create login link", "ExpiresAt"); err != nil {
		return err
	}
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO login_links (hash, email, next, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		l.Hash, l.Email, l.Next, l.CreatedAt.Unix(), l.ExpiresAt.Unix())
	return authErr(err, "create login link")
}

// UseLoginLink consumes an unexpired, unused link: exactly one call succeeds,
// every other (and any call on an expired or unknown link) is ErrNotFound.
func (s *AuthStore) UseLoginLink(ctx context.Context, hash string, now time.Time) (auth.LoginLink, error) {
	const op = "use login link"
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return auth.LoginLink{}, authErr(err, op)
	}
	defer tx.Rollback()
	if err := authExecOne(ctx, tx, op, `UPDATE login_links SET used_at = ?
		WHERE hash = ? AND used_at IS NULL AND expires_at > ?`, now.Unix(), hash, now.Unix()); err != nil {
		return auth.LoginLink{}, err
	}
	var l auth.LoginLink
	var created, expires sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT hash, email, next, created_at, expires_at FROM login_links WHERE hash = ?`,
		hash).Scan(&l.Hash, &l.Email, &l.Next, &created, &expires); err != nil {
		return auth.LoginLink{}, authErr(err, op)
	}
	l.CreatedAt, l.ExpiresAt = authTime(created), authTime(expires)
	if err := tx.Commit(); err != nil {
		return auth.LoginLink{}, authErr(err, op)
	}
	return l, nil
}

// ---- outbox

// AddMail appends a message to the outbox and returns its id.
func (s *AuthStore) AddMail(ctx context.Context, m auth.Mail) (int64, error) {
	var id int64
	err := s.db.sql.QueryRowContext(ctx, `INSERT INTO outbox (to_addr, subject, body, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		m.To, m.Subject, m.Body, m.CreatedAt.Unix()).Scan(&id)
	return id, authErr(err, "add mail")
}

// Outbox returns the newest messages first, at most limit (no limit when
// limit <= 0), only those to one address (case-insensitive) unless to is "".
func (s *AuthStore) Outbox(ctx context.Context, to string, limit int) ([]auth.Mail, error) {
	if limit <= 0 {
		limit = -1
	}
	q := `SELECT id, to_addr, subject, body, created_at FROM outbox`
	args := []any{}
	if to != "" {
		q += ` WHERE lower(to_addr) = lower(?)`
		args = append(args, to)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, authErr(err, "outbox")
	}
	defer rows.Close()
	out := []auth.Mail{}
	for rows.Next() {
		var m auth.Mail
		var created sql.NullInt64
		if err := rows.Scan(&m.ID, &m.To, &m.Subject, &m.Body, &created); err != nil {
			return nil, authErr(err, "outbox")
		}
		m.CreatedAt = authTime(created)
		out = append(out, m)
	}
	return out, authErr(rows.Err(), "outbox")
}

// ---- clients

const clientCols = `id, secret_hash, name, uri, redirect_uris, auth_method, kind, created_at, last_used_at`

func scanClient(row interface{ Scan(...any) error }) (auth.Client, error) {
	var c auth.Client
	var uris string
	var created, used sql.NullInt64
	if err := row.Scan(&c.ID, &c.SecretHash, &c.Name, &c.URI, &uris, &c.AuthMethod, &c.Kind, &created, &used); err != nil {
		return auth.Client{}, err
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return auth.Client{}, fmt.Errorf("client %s: redirect_uris: %w", c.ID, err)
	}
	c.CreatedAt, c.LastUsedAt = authTime(created), authTime(used)
	return c, nil
}

// clientArgs returns the values of clientCols for c.
func clientArgs(c auth.Client) ([]any, error) {
	uris := c.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	b, err := json.Marshal(uris)
	if err != nil {
		return nil, err
	}
	method := c.AuthMethod
	if method == "" {
		method = "none"
	}
	return []any{c.ID, c.SecretHash, c.Name, c.URI, string(b), method, c.Kind, c.CreatedAt.Unix(), authUnix(c.LastUsedAt)}, nil
}

// CreateClient stores a new client (an existing id is an error).
func (s *AuthStore) CreateClient(ctx context.Context, c auth.Client) error {
	args, err := clientArgs(c)
	if err != nil {
		return authErr(err, "create client")
	}
	_, err = s.db.sql.ExecContext(ctx, `INSERT INTO oauth_clients (`+clientCols+`) VALUES (`+placeholders(9)+`)`, args...)
	return authErr(err, "create client")
}

// ClientByID returns a client.
func (s *AuthStore) ClientByID(ctx context.Context, id string) (auth.Client, error) {
	c, err := scanClient(s.db.sql.QueryRowContext(ctx, `SELECT `+clientCols+` FROM oauth_clients WHERE id = ?`, id))
	return c, authErr(err, "client")
}

// UpsertClient creates the client or replaces its metadata. An existing
// client keeps its created_at and, when c.LastUsedAt is zero, its
// last_used_at; its grants, codes and tokens are kept (the row is updated in
// place, never deleted).
func (s *AuthStore) UpsertClient(ctx context.Context, c auth.Client) error {
	args, err := clientArgs(c)
	if err != nil {
		return authErr(err, "upsert client")
	}
	_, err = s.db.sql.ExecContext(ctx, `INSERT INTO oauth_clients (`+clientCols+`) VALUES (`+placeholders(9)+`)
		ON CONFLICT (id) DO UPDATE SET secret_hash = excluded.secret_hash, name = excluded.name, uri = excluded.uri,
			redirect_uris = excluded.redirect_uris, auth_method = excluded.auth_method, kind = excluded.kind,
			last_used_at = COALESCE(excluded.last_used_at, oauth_clients.last_used_at)`, args...)
	return authErr(err, "upsert client")
}

// TouchClient records that the client was used at now.
func (s *AuthStore) TouchClient(ctx context.Context, id string, now time.Time) error {
	return authExecOne(ctx, s.db.sql, "touch client", `UPDATE oauth_clients SET last_used_at = ? WHERE id = ?`, now.Unix(), id)
}

// DeleteIdleClients deletes dynamically registered clients last used (or,
// never used, created) before the cutoff and without grants, with their
// pending requests, codes and tokens. It returns how many clients it deleted.
func (s *AuthStore) DeleteIdleClients(ctx context.Context, before time.Time) (int, error) {
	res, err := s.db.sql.ExecContext(ctx, `DELETE FROM oauth_clients
		WHERE kind = ? AND COALESCE(last_used_at, created_at) < ?
		AND NOT EXISTS (SELECT 1 FROM grants g WHERE g.client_id = oauth_clients.id)`, auth.ClientDynamic, before.Unix())
	if err != nil {
		return 0, authErr(err, "delete idle clients")
	}
	n, err := res.RowsAffected()
	return int(n), authErr(err, "delete idle clients")
}

// ---- authorization requests

// CreateAuthRequest stores a pending /authorize request.
func (s *AuthStore) CreateAuthRequest(ctx context.Context, r auth.AuthRequest) error {
	if err := authRequireTime(r.ExpiresAt, "create auth request", "ExpiresAt"); err != nil {
		return err
	}
	var user any
	if r.UserID != 0 {
		user = r.UserID
	}
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO auth_requests (id, client_id, redirect_uri, state, code_challenge,
		scopes, resource, user_id, created_at, expires_at) VALUES (`+placeholders(10)+`)`,
		r.ID, r.ClientID, r.RedirectURI, r.State, r.CodeChallenge, authScopes(r.Scopes), r.Resource, user,
		r.CreatedAt.Unix(), r.ExpiresAt.Unix())
	return authErr(err, "create auth request")
}

// AuthRequestByID returns an unexpired request.
func (s *AuthStore) AuthRequestByID(ctx context.Context, id string, now time.Time) (auth.AuthRequest, error) {
	var r auth.AuthRequest
	var scopes string
	var user, created, expires sql.NullInt64
	err := s.db.sql.QueryRowContext(ctx, `SELECT id, client_id, redirect_uri, state, code_challenge, scopes, resource,
		user_id, created_at, expires_at FROM auth_requests WHERE id = ? AND expires_at > ?`, id, now.Unix()).Scan(
		&r.ID, &r.ClientID, &r.RedirectURI, &r.State, &r.CodeChallenge, &scopes, &r.Resource, &user, &created, &expires)
	if err != nil {
		return auth.AuthRequest{}, authErr(err, "auth request")
	}
	r.Scopes = authSplitScopes(scopes)
	r.UserID = user.Int64
	r.CreatedAt, r.ExpiresAt = authTime(created), authTime(expires)
	return r, nil
}

// DeleteAuthRequest deletes a request; deleting an absent one is not an error.
func (s *AuthStore) DeleteAuthRequest(ctx context.Context, id string) error {
	_, err := s.db.sql.ExecContext(ctx, `DELETE FROM auth_requests WHERE id = ?`, id)
	return authErr(err, "delete auth request")
}

// ---- grants

const grantCols = `g.id, g.user_id, g.client_id, c.name, g.scopes, g.resource, g.created_at, g.updated_at`
const grantFrom = `grants g JOIN oauth_clients c ON c.id = g.client_id`

func scanGrant(row interface{ Scan(...any) error }) (auth.Grant, error) {
	var g auth.Grant
	var scopes string
	var created, updated sql.NullInt64
	if err := row.Scan(&g.ID, &g.UserID, &g.ClientID, &g.ClientName, &scopes, &g.Resource, &created, &updated); err != nil {
		return auth.Grant{}, err
	}
	g.Scopes = authSplitScopes(scopes)
	g.CreatedAt, g.UpdatedAt = authTime(created), authTime(updated)
	return g, nil
}

// SaveGrant creates or updates the (user, client) grant with g's scopes and
// resource (replacing the stored ones: the caller passes the widened set) and
// returns it with ClientName.
func (s *AuthStore) SaveGrant(ctx context.Context, g auth.Grant, now time.Time) (auth.Grant, error) {
	const op = "save grant"
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return auth.Grant{}, authErr(err, op)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO grants (user_id, client_id, scopes, resource, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes, resource = excluded.resource,
			updated_at = excluded.updated_at`,
		g.UserID, g.ClientID, authScopes(g.Scopes), g.Resource, now.Unix(), now.Unix()); err != nil {
		return auth.Grant{}, authErr(err, op)
	}
	out, err := scanGrant(tx.QueryRowContext(ctx, `SELECT `+grantCols+` FROM `+grantFrom+` WHERE g.user_id = ? AND g.client_id = ?`,
		g.UserID, g.ClientID))
	if err != nil {
		return auth.Grant{}, authErr(err, op)
	}
	return out, authErr(tx.Commit(), op)
}

// GrantFor returns the user's grant to the client, with ClientName.
func (s *AuthStore) GrantFor(ctx context.Context, userID int64, clientID string) (auth.Grant, error) {
	g, err := scanGrant(s.db.sql.QueryRowContext(ctx, `SELECT `+grantCols+` FROM `+grantFrom+` WHERE g.user_id = ? AND g.client_id = ?`,
		userID, clientID))
	return g, authErr(err, "grant")
}

// ListGrants returns a user's grants, newest (last updated) first, with ClientName.
func (s *AuthStore) ListGrants(ctx context.Context, userID int64) ([]auth.Grant, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+grantCols+` FROM `+grantFrom+` WHERE g.user_id = ?
		ORDER BY g.updated_at DESC, g.id DESC`, userID)
	if err != nil {
		return nil, authErr(err, "list grants")
	}
	defer rows.Close()
	out := []auth.Grant{}
	for rows.Next() {
		g, err := scanGrant(rows)
		if err != nil {
			return nil, authErr(err, "list grants")
		}
		out = append(out, g)
	}
	return out, authErr(rows.Err(), "list grants")
}

// RevokeGrant deletes the grant and revokes every token of that user and
// client, in one transaction. ErrNotFound when the user has no such grant.
func (s *AuthStore) RevokeGrant(ctx context.Context, userID int64, clientID string, now time.Time) error {
	const op = "revoke grant"
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return authErr(err, op)
	}
	defer tx.Rollback()
	if err := authExecOne(ctx, tx, op, `DELETE FROM grants WHERE user_id = ? AND client_id = ?`, userID, clientID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = ?
		WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL`, now.Unix(), userID, clientID); err != nil {
		return authErr(err, op)
	}
	return authErr(tx.Commit(), op)
}

// ---- authorization codes

const codeCols = `hash, client_id, user_id, redirect_uri, code_challenge, scopes, resource, family, created_at, expires_at, used_at`

func scanCode(row interface{ Scan(...any) error }) (auth.AuthCode, error) {
	var c auth.AuthCode
	var scopes string
	var created, expires, used sql.NullInt64
	if err := row.Scan(&c.Hash, &c.ClientID, &c.UserID, &c.RedirectURI, &c.CodeChallenge, &scopes, &c.Resource,
		&c.Family, &created, &expires, &used); err != nil {
		return auth.AuthCode{}, err
	}
	c.Scopes = authSplitScopes(scopes)
	c.CreatedAt, c.ExpiresAt, c.UsedAt = authTime(created), authTime(expires), authTime(used)
	return c, nil
}

// CreateCode stores an authorization code.
func (s *AuthStore) CreateCode(ctx context.Context, c auth.AuthCode) error {
	if err := authRequireTime(c.ExpiresAt, "create code", "ExpiresAt"); err != nil {
		return err
	}
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO auth_codes (`+codeCols+`) VALUES (`+placeholders(11)+`)`,
		c.Hash, c.ClientID, c.UserID, c.RedirectURI, c.CodeChallenge, authScopes(c.Scopes), c.Resource, c.Family,
		c.CreatedAt.Unix(), c.ExpiresAt.Unix(), authUnix(c.UsedAt))
	return authErr(err, "create code")
}

// UseCode marks the code used and returns it with UsedAt = now (exactly the
// value passed). When it was already used it marks nothing and returns the
// code with its earlier UsedAt (stored in whole seconds); ErrNotFound when no
// such code exists. The update is a single UPDATE ... WHERE used_at IS NULL,
// so of concurrent calls exactly one marks the code. Expiry is not checked
// here: the caller checks ExpiresAt.
func (s *AuthStore) UseCode(ctx context.Context, hash string, now time.Time) (auth.AuthCode, error) {
	const op = "use code"
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return auth.AuthCode{}, authErr(err, op)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE auth_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL`, now.Unix(), hash)
	if err != nil {
		return auth.AuthCode{}, authErr(err, op)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return auth.AuthCode{}, authErr(err, op)
	}
	c, err := scanCode(tx.QueryRowContext(ctx, `SELECT `+codeCols+` FROM auth_codes WHERE hash = ?`, hash))
	if err != nil {
		return auth.AuthCode{}, authErr(err, op)
	}
	if n == 1 {
		c.UsedAt = now
	}
	return c, authErr(tx.Commit(), op)
}

// ---- tokens

const tokenCols = `hash, kind, user_id, client_id, family, scopes, resource, created_at, expires_at, used_at, revoked_at`

func scanToken(row interface{ Scan(...any) error }) (auth.Token, error) {
	var t auth.Token
	var scopes string
	var created, expires, used, revoked sql.NullInt64
	if err := row.Scan(&t.Hash, &t.Kind, &t.UserID, &t.ClientID, &t.Family, &scopes, &t.Resource,
		&created, &expires, &used, &revoked); err != nil {
		return auth.Token{}, err
	}
	t.Scopes = authSplitScopes(scopes)
	t.CreatedAt, t.ExpiresAt, t.UsedAt, t.RevokedAt = authTime(created), authTime(expires), authTime(used), authTime(revoked)
	return t, nil
}

// CreateToken stores an access or refresh token.
func (s *AuthStore) CreateToken(ctx context.Context, t auth.Token) error {
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO tokens (`+tokenCols+`) VALUES (`+placeholders(11)+`)`,
		t.Hash, t.Kind, t.UserID, t.ClientID, t.Family, authScopes(t.Scopes), t.Resource,
		t.CreatedAt.Unix(), authUnix(t.ExpiresAt), authUnix(t.UsedAt), authUnix(t.RevokedAt))
	return authErr(err, "create token")
}

// TokenByHash returns the token whatever its state.
func (s *AuthStore) TokenByHash(ctx context.Context, hash string) (auth.Token, error) {
	t, err := scanToken(s.db.sql.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ?`, hash))
	return t, authErr(err, "token")
}

// UseRefreshToken marks a refresh token used and returns it with UsedAt =
// now; when it was already used it returns it with its earlier UsedAt and
// marks nothing. ErrNotFound when there is no refresh token with that hash
// (an access token's hash included). Expiry and revocation are the caller's
// to check.
func (s *AuthStore) UseRefreshToken(ctx context.Context, hash string, now time.Time) (auth.Token, error) {
	const op = "use refresh token"
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return auth.Token{}, authErr(err, op)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE tokens SET used_at = ? WHERE hash = ? AND kind = ? AND used_at IS NULL`,
		now.Unix(), hash, auth.TokenRefresh)
	if err != nil {
		return auth.Token{}, authErr(err, op)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return auth.Token{}, authErr(err, op)
	}
	t, err := scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ? AND kind = ?`,
		hash, auth.TokenRefresh))
	if err != nil {
		return auth.Token{}, authErr(err, op)
	}
	if n == 1 {
		t.UsedAt = now
	}
	return t, authErr(tx.Commit(), op)
}

// RevokeToken revokes one token (a revoked token keeps its first
// revocation time). ErrNotFound when there is no such token.
func (s *AuthStore) RevokeToken(ctx context.Context, hash string, now time.Time) error {
	return authExecOne(ctx, s.db.sql, "revoke token", `UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE hash = ?`,
		now.Unix(), hash)
}

// RevokeFamily revokes every token of a family (none is not an error).
func (s *AuthStore) RevokeFamily(ctx context.Context, family string, now time.Time) error {
	_, err := s.db.sql.ExecContext(ctx, `UPDATE tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL`,
		now.Unix(), family)
	return authErr(err, "revoke family")
}

// ---- API keys

const apiKeyCols = `id, user_id, name, prefix, hash, created_at, last_used_at, revoked_at`

func scanAPIKey(row interface{ Scan(...any) error }) (auth.APIKey, error) {
	var k auth.APIKey
	var created, used, revoked sql.NullInt64
	if err := row.Scan(&k.ID, &k.UserID, &k.Name, &k.Prefix, &k.Hash, &created, &used, &revoked); err != nil {
		return auth.APIKey{}, err
	}
	k.CreatedAt, k.LastUsedAt, k.RevokedAt = authTime(created), authTime(used), authTime(revoked)
	return k, nil
}

// CreateAPIKey stores a key and returns it as stored, with its ID.
func (s *AuthStore) CreateAPIKey(ctx context.Context, k auth.APIKey) (auth.APIKey, error) {
	out, err := scanAPIKey(s.db.sql.QueryRowContext(ctx, `INSERT INTO api_keys (user_id, name, prefix, hash, created_at,
		last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING `+apiKeyCols,
		k.UserID, k.Name, k.Prefix, k.Hash, k.CreatedAt.Unix(), authUnix(k.LastUsedAt), authUnix(k.RevokedAt)))
	return out, authErr(err, "create api key")
}

// APIKeyByHash returns the key whatever its state.
func (s *AuthStore) APIKeyByHash(ctx context.Context, hash string) (auth.APIKey, error) {
	k, err := scanAPIKey(s.db.sql.QueryRowContext(ctx, `SELECT `+apiKeyCols+` FROM api_keys WHERE hash = ?`, hash))
	return k, authErr(err, "api key")
}

// ListAPIKeys returns a user's keys, newest first, revoked ones included.
func (s *AuthStore) ListAPIKeys(ctx context.Context, userID int64) ([]auth.APIKey, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+apiKeyCols+` FROM api_keys WHERE user_id = ?
		ORDER BY created_at DESC, id DESC`, userID)
	if err != nil {
		return nil, authErr(err, "list api keys")
	}
	defer rows.Close()
	out := []auth.APIKey{}
	for rows.Next() {
		k, err := scanAPIKey(rows)
		if err != nil {
			return nil, authErr(err, "list api keys")
		}
		out = append(out, k)
	}
	return out, authErr(rows.Err(), "list api keys")
}

// RevokeAPIKey revokes the user's key (a revoked key keeps its first
// revocation time). ErrNotFound when the user has no such key.
func (s *AuthStore) RevokeAPIKey(ctx context.Context, userID, id int64, now time.Time) error {
	return authExecOne(ctx, s.db.sql, "revoke api key", `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?)
		WHERE id = ? AND user_id = ?`, now.Unix(), id, userID)
}

// TouchAPIKey records that the key was used at now. ErrNotFound when there is
// no such key.
func (s *AuthStore) TouchAPIKey(ctx context.Context, id int64, now time.Time) error {
	return authExecOne(ctx, s.db.sql, "touch api key", `UPDATE api_keys SET last_used_at = ? WHERE id = ?`, now.Unix(), id)
}
