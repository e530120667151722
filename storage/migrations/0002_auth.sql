-- 0002_auth: accounts and the authorization server's state (auth.Store, storage/auth.go).
--
-- Conventions (as in 0001_init):
--   * Timestamps (*_at) are INTEGER Unix seconds, UTC; NULL is the zero time.Time
--     (never used, never revoked, ...).
--   * Every secret (session cookie, login link token, client secret, authorization code,
--     access/refresh token, API key) is stored only as the SHA-256 hex string auth.Hash
--     gives, in a column named hash (secret_hash for clients). There is no plaintext column.
--   * Scopes are one space-separated TEXT ('' for none); redirect_uris is JSON ["..."].
--   * A user's rows go with the user (ON DELETE CASCADE); a client's grants, requests,
--     codes and tokens go with the client.

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    issuer      TEXT NOT NULL,   -- OpenID Connect issuer, or urn:launchdir:email
    subject     TEXT NOT NULL,   -- its subject, or the lower-cased email address
    email       TEXT NOT NULL DEFAULT '',
    name        TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    UNIQUE (issuer, subject)
);
CREATE INDEX users_email ON users (lower(email));

CREATE TABLE sessions (
    hash        TEXT PRIMARY KEY,  -- SHA-256 hex of the cookie value
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf        TEXT NOT NULL,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at  INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer')
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Single-use email sign-in links.
CREATE TABLE login_links (
    hash        TEXT PRIMARY KEY,  -- SHA-256 hex of the link token
    email       TEXT NOT NULL,
    next        TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at  INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer'),
    used_at     INTEGER CHECK (used_at IS NULL OR typeof(used_at) = 'integer')
);
CREATE INDEX login_links_expires ON login_links (expires_at);

-- Every mail sent is kept here.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    to_addr     TEXT NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX outbox_to ON outbox (lower(to_addr), created_at);
CREATE INDEX outbox_created ON outbox (created_at);

CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY,                -- generated id, or the metadata document URL
    secret_hash    TEXT NOT NULL DEFAULT '',        -- SHA-256 hex of the client secret; '' = public
    name           TEXT NOT NULL DEFAULT '',
    uri            TEXT NOT NULL DEFAULT '',
    redirect_uris  TEXT NOT NULL DEFAULT '[]',      -- JSON ["..."]
    auth_method    TEXT NOT NULL DEFAULT 'none',
    kind           TEXT NOT NULL CHECK (kind IN ('dcr', 'cimd')),
    created_at     INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    last_used_at   INTEGER CHECK (last_used_at IS NULL OR typeof(last_used_at) = 'integer')
);
CREATE INDEX oauth_clients_kind_used ON oauth_clients (kind, last_used_at);

-- Pending /authorize requests; id is the SHA-256 hex of the request handle.
CREATE TABLE auth_requests (
    id              TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    redirect_uri    TEXT NOT NULL,
    state           TEXT NOT NULL DEFAULT '',
    code_challenge  TEXT NOT NULL DEFAULT '',
    scopes          TEXT NOT NULL DEFAULT '',
    resource        TEXT NOT NULL DEFAULT '',
    user_id         INTEGER REFERENCES users (id) ON DELETE CASCADE,  -- NULL until signed in
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at      INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer')
);
CREATE INDEX auth_requests_client ON auth_requests (client_id);
CREATE INDEX auth_requests_user ON auth_requests (user_id);
CREATE INDEX auth_requests_expires ON auth_requests (expires_at);

-- Consent: one per (user, client).
CREATE TABLE grants (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    scopes      TEXT NOT NULL DEFAULT '',
    resource    TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at  INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer'),
    UNIQUE (user_id, client_id)
);
CREATE INDEX grants_client ON grants (client_id);

CREATE TABLE auth_codes (
    hash            TEXT PRIMARY KEY,  -- SHA-256 hex of the code
    client_id       TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL DEFAULT '',
    scopes          TEXT NOT NULL DEFAULT '',
    resource        TEXT NOT NULL DEFAULT '',
    family          TEXT NOT NULL,
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at      INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer'),
    used_at         INTEGER CHECK (used_at IS NULL OR typeof(used_at) = 'integer')
);
CREATE INDEX auth_codes_client ON auth_codes (client_id);
CREATE INDEX auth_codes_user ON auth_codes (user_id);
CREATE INDEX auth_codes_expires ON auth_codes (expires_at);

-- Access and refresh tokens; family groups the tokens issued from one code.
CREATE TABLE tokens (
    hash        TEXT PRIMARY KEY,  -- SHA-256 hex of the token
    kind        TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    family      TEXT NOT NULL,
    scopes      TEXT NOT NULL DEFAULT '',
    resource    TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at  INTEGER CHECK (expires_at IS NULL OR typeof(expires_at) = 'integer'),
    used_at     INTEGER CHECK (used_at IS NULL OR typeof(used_at) = 'integer'),
    revoked_at  INTEGER CHECK (revoked_at IS NULL OR typeof(revoked_at) = 'integer')
);
CREATE INDEX tokens_family ON tokens (family);
CREATE INDEX tokens_user_client ON tokens (user_id, client_id);
CREATE INDEX tokens_client ON tokens (client_id);
CREATE INDEX tokens_expires ON tokens (expires_at);

CREATE TABLE api_keys (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT NOT NULL DEFAULT '',
    prefix        TEXT NOT NULL DEFAULT '',  -- first characters of the key, shown in lists
    hash          TEXT NOT NULL UNIQUE,      -- SHA-256 hex of the key
    created_at    INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    last_used_at  INTEGER CHECK (last_used_at IS NULL OR typeof(last_used_at) = 'integer'),
    revoked_at    INTEGER CHECK (revoked_at IS NULL OR typeof(revoked_at) = 'integer')
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);
