-- 0035_webhooks: signed webhooks with a durable outbox (issue 34, docs/webhooks.md).
--
-- webhook_endpoints are an account's receivers: events is a JSON array of
-- event types, listing_ids a JSON array of listing ids (empty: every
-- listing). secret is the signing secret, encrypted with the server key
-- ("enc1:" prefix) or as it is when serve has no key; prev_secret signs
-- beside it until prev_until after a rotation. failing_since is the time of
-- the first failed attempt since the last success (NULL: not failing).
-- webhook_events is the outbox: written in the same transaction as the
-- change it reports, with a webhook_fanout job. webhook_deliveries are one
-- event to one endpoint; webhook_attempts their log.

CREATE TABLE webhook_endpoints (
    id              INTEGER PRIMARY KEY,
    site_id         INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    description     TEXT NOT NULL DEFAULT '',
    events          TEXT NOT NULL,
    listing_ids     TEXT NOT NULL DEFAULT '[]',
    secret          TEXT NOT NULL,
    secret_prefix   TEXT NOT NULL,
    prev_secret     TEXT NOT NULL DEFAULT '',
    prev_until      INTEGER NOT NULL DEFAULT 0,
    enabled         INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_reason TEXT NOT NULL DEFAULT '',
    failing_since   INTEGER CHECK (failing_since IS NULL OR typeof(failing_since) = 'integer'),
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at      INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer')
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (site_id, user_id);

CREATE TABLE webhook_events (
    id          INTEGER PRIMARY KEY,
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    msg_id      TEXT NOT NULL UNIQUE,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    listing_id  INTEGER,
    endpoint_id INTEGER REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    payload     TEXT NOT NULL,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);

CREATE TABLE webhook_deliveries (
    id           INTEGER PRIMARY KEY,
    endpoint_id  INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id     INTEGER NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    state        TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    manual       INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1)),
    next_at      INTEGER,
    created_at   INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

CREATE TABLE webhook_attempts (
    id          INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    at          INTEGER NOT NULL CHECK (typeof(at) = 'integer'),
    status      INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
