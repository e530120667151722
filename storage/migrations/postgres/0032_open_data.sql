-- PostgreSQL form of ../0032_open_data.sql (same tables, columns and rules; see storage/dialect.go).
-- 0032_open_data: the latest open-data export of each site (issue 34 item 4,
-- docs/feeds.md "Open data"): the JSON document the weekly job (or the first
-- request) built, with its build time. Only public data is in it.
CREATE TABLE open_data_exports (
    site_id   BIGINT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    built_at  BIGINT NOT NULL,
    body      TEXT NOT NULL
);
