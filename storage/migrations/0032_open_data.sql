-- 0032_open_data: the latest open-data export of each site (issue 34 item 4,
-- docs/feeds.md "Open data"): the JSON document the weekly job (or the first
-- request) built, with its build time. Only public data is in it.
CREATE TABLE open_data_exports (
    site_id   INTEGER PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    built_at  INTEGER NOT NULL CHECK (typeof(built_at) = 'integer'),
    body      TEXT NOT NULL
);
