-- PostgreSQL form of ../0004_idempotency.sql (same tables, columns and rules; see storage/dialect.go).
-- 0004_idempotency: the answers of calls made with an Idempotency-Key (domain.IdemStore,
-- storage/idempotency.go; the mechanism is tools/idempotency.go, described in docs/idempotency.md).
--
-- Conventions as in 0001/0002: *_at columns are BIGINT Unix seconds UTC.
--
-- A key is scoped to the user who sent it: (user_id, key) is the primary key, so two users
-- may use the same key for different calls. A row is claimed 'pending' by the one call that
-- runs the operation (claim is its token) and becomes 'done' with the answer (status, body)
-- that every retry with the same key and the same request (op, fingerprint) gets back.
-- Rows past expires_at are replaced on the next use of the key and swept lazily.
CREATE TABLE idempotency_keys (
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    op           TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,          -- SHA-256 hex of op and the canonical JSON arguments
    state        TEXT NOT NULL CHECK (state IN ('pending', 'done')),
    claim        TEXT NOT NULL DEFAULT '',  -- token of the pending claim; '' once done
    status       BIGINT NOT NULL DEFAULT 0,
    body         BYTEA,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
