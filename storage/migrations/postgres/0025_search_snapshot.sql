-- PostgreSQL form of ../0025_search_snapshot.sql (same tables, columns and rules; see storage/dialect.go).
-- 0025_search_snapshot: the identity of the search index snapshot kept beside
-- a SQLite database (issue 17 item 2, docs/search.md "Snapshot at start-up").
--
-- PostgreSQL has no data directory to keep a snapshot in: a store over it
-- always builds its index from the database and never writes this row.
CREATE TABLE search_snapshot (
    id     BIGINT PRIMARY KEY CHECK (id = 1),
    token  TEXT NOT NULL
);
