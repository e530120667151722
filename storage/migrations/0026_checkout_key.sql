-- 0026_checkout_key: the key checkout links are derived from (issue 28 item 2,
-- docs/orders.md "The checkout link").
--
-- A pending order's checkout_url is shown to its owner again (get_order,
-- list_my_orders, /account) while it can be paid, yet the link's token is
-- still stored only as its SHA-256 (orders.token_hash). The token is
-- HMAC-SHA256(key, "checkout" NUL order number) under this one random key,
-- created by the first checkout (so a fresh database has no row) and shared
-- by every process over the database: the owner's read derives it again and
-- shows it only when its hash is the order's.
CREATE TABLE checkout_key (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    key         BLOB NOT NULL CHECK (length(key) = 32),
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
