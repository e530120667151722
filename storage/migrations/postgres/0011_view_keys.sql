-- PostgreSQL form of ../0011_view_keys.sql (same tables, columns and rules; see storage/dialect.go).
-- 0011_view_keys: the daily keys of listing page views (issue 13, docs/views.md).
--
-- A view of a listing page is stored as views.viewer_key = HMAC-SHA256 of the
-- visitor's network, user agent and UTC day under that day's key, so that one
-- visitor counts once per listing and day without a cookie. The key of a day is
-- random, created by the first view of the day (every process and a restart use
-- the same one) and deleted once it is older than yesterday: then nobody,
-- this service included, can link a stored hash to a network and user agent.

CREATE TABLE view_keys (
    day         TEXT PRIMARY KEY CHECK (length(day) = 10), -- UTC date, YYYY-MM-DD
    key         BYTEA NOT NULL CHECK (length(key) = 32),
    created_at  BIGINT NOT NULL
);

-- Finds a visitor's view of a listing (at most one a day).
CREATE INDEX views_listing_viewer ON views (listing_id, viewer_key);
