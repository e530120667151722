package storage

import (
	"context"
	"database/sql"
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

// suspended_at (0019_suspensions): auth refuses every credential of a
// suspended account.
const userCols = `id, issuer, subject, email, name, created_at, suspended_at IS NOT NULL`

func scanUser(row interface{ Scan(...any) error }) (auth.User, error) {
	var u auth.User
	var created sql.NullInt64
	if err := row.Scan(&u.ID, &u.Issuer, &u.Subject, &u.Email, &u.Name, &created, &u.Suspended); err != nil {
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
		WHERE `+s.db.eng.differs("users.email", "excluded.email")+` OR `+s.db.eng.differs("users.name", "excluded.name")+`
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
	var l auth.LoginLink
	err := s.db.inTx(ctx, func(tx *Tx) error {
		if err := authExecOne(ctx, tx, op, `UPDATE login_links SET used_at = ?
		WHERE hash = ? AND used_at IS NULL AND expires_at > ?`, now.Unix(), hash, now.Unix()); err != nil {
			return err
		}
		var created, expires sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT hash, email, next, created_at, expires_at FROM login_links WHERE hash = ?`,
			hash).Scan(&l.Hash, &l.Email, &l.Next, &created, &expires); err != nil {
			return err
		}
		l.CreatedAt, l.ExpiresAt = authTime(created), authTime(expires)
		return nil
	})
	if err != nil {
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
	q := `SELECT id, to_addr, subject, body, created_at FROM outbox`
	args := []any{}
	if to != "" {
		q += ` WHERE lower(to_addr) = lower(?)`
		args = append(args, to)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, s.db.eng.limit(limit))
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
