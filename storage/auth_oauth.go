package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/auth"
)

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
	var out auth.Grant
	err := s.db.inTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO grants (user_id, client_id, scopes, resource, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes, resource = excluded.resource,
			updated_at = excluded.updated_at`,
			g.UserID, g.ClientID, authScopes(g.Scopes), g.Resource, now.Unix(), now.Unix()); err != nil {
			return err
		}
		var err error
		out, err = scanGrant(tx.QueryRowContext(ctx, `SELECT `+grantCols+` FROM `+grantFrom+` WHERE g.user_id = ? AND g.client_id = ?`,
			g.UserID, g.ClientID))
		return err
	})
	if err != nil {
		return auth.Grant{}, authErr(err, op)
	}
	return out, nil
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
	return authErr(s.db.inTx(ctx, func(tx *Tx) error {
		if err := authExecOne(ctx, tx, op, `DELETE FROM grants WHERE user_id = ? AND client_id = ?`, userID, clientID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = ?
		WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL`, now.Unix(), userID, clientID)
		return err
	}), op)
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
	var c auth.AuthCode
	err := s.db.inTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE auth_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL`, now.Unix(), hash)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if c, err = scanCode(tx.QueryRowContext(ctx, `SELECT `+codeCols+` FROM auth_codes WHERE hash = ?`, hash)); err != nil {
			return err
		}
		if n == 1 {
			c.UsedAt = now
		}
		return nil
	})
	if err != nil {
		return auth.AuthCode{}, authErr(err, op)
	}
	return c, nil
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
	var t auth.Token
	err := s.db.inTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET used_at = ? WHERE hash = ? AND kind = ? AND used_at IS NULL`,
			now.Unix(), hash, auth.TokenRefresh)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if t, err = scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ? AND kind = ?`,
			hash, auth.TokenRefresh)); err != nil {
			return err
		}
		if n == 1 {
			t.UsedAt = now
		}
		return nil
	})
	if err != nil {
		return auth.Token{}, authErr(err, op)
	}
	return t, nil
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
