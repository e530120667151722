-- PostgreSQL form of ../0026_checkout_key.sql (same tables, columns and rules; see storage/dialect.go).
-- 0026_checkout_key: the key checkout links are derived from (issue 28 item 2,
-- docs/orders.md "The checkout link").
CREATE TABLE checkout_key (
    id          BIGINT PRIMARY KEY CHECK (id = 1),
    key         BYTEA NOT NULL CHECK (length(key) = 32),
    created_at  BIGINT NOT NULL
);
