-- 0025_search_snapshot: the identity of the search index snapshot kept beside
-- a SQLite database (issue 17 item 2, docs/search.md "Snapshot at start-up").
--
-- One row at most. A store writes a new random token here before it writes a
-- snapshot, and the snapshot carries it: a snapshot is loaded only when its
-- token is the database's. Seeding and applying a migration delete the row,
-- so that no snapshot written before them is loaded; so does restoring a
-- copy of the database taken before the snapshot was written (it holds an
-- older token, or none).
CREATE TABLE search_snapshot (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    token  TEXT NOT NULL
);
