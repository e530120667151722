-- 0033_programmes: award programmes to enter (issue 33 item 4, docs/trophies.md).
--
-- The site team creates a programme in the console: its categories (slugs of
-- the site's categories, comma-separated; '' is one category, Overall), the
-- eligibility (launch dates launched_from..launched_to, '' = open; and the
-- categories), the entry window and the voting window (unix seconds, from
-- *_opens to *_closes) and the winners per category. Owners enter their
-- listings during the entry window (programme_entries; category is the
-- programme category the entry competes in). People vote on the programme's
-- page: a programme vote is an ordinary vote (table votes, the same rules)
-- cast during the voting window. When it closes the clock writes the
-- winners (programme_winners) and finalised_at in one transaction, once.

CREATE TABLE programmes (
    id              INTEGER PRIMARY KEY,
    site_id         INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    slug            TEXT NOT NULL,
    name            TEXT NOT NULL CHECK (name <> ''),
    description     TEXT NOT NULL DEFAULT '',
    categories      TEXT NOT NULL DEFAULT '',
    launched_from   TEXT NOT NULL DEFAULT '',
    launched_to     TEXT NOT NULL DEFAULT '',
    entry_opens     INTEGER NOT NULL CHECK (typeof(entry_opens) = 'integer'),
    entry_closes    INTEGER NOT NULL CHECK (typeof(entry_closes) = 'integer'),
    voting_opens    INTEGER NOT NULL CHECK (typeof(voting_opens) = 'integer'),
    voting_closes   INTEGER NOT NULL CHECK (typeof(voting_closes) = 'integer'),
    winners         INTEGER NOT NULL CHECK (winners BETWEEN 1 AND 10),
    created_by      TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    finalised_at    INTEGER CHECK (finalised_at IS NULL OR typeof(finalised_at) = 'integer'),
    CHECK (entry_opens < entry_closes AND voting_opens < voting_closes AND entry_closes <= voting_closes),
    UNIQUE (site_id, slug)
);

CREATE TABLE programme_entries (
    id              INTEGER PRIMARY KEY,
    programme_id    INTEGER NOT NULL REFERENCES programmes (id) ON DELETE CASCADE,
    listing_id      INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    category        TEXT NOT NULL DEFAULT '',
    entered_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    UNIQUE (programme_id, listing_id)
);
CREATE INDEX programme_entries_listing ON programme_entries (listing_id);

CREATE TABLE programme_winners (
    id              INTEGER PRIMARY KEY,
    programme_id    INTEGER NOT NULL REFERENCES programmes (id) ON DELETE CASCADE,
    listing_id      INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    category        TEXT NOT NULL DEFAULT '',
    rank            INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 10),
    votes           INTEGER NOT NULL,
    UNIQUE (programme_id, category, rank)
);
CREATE INDEX programme_winners_listing ON programme_winners (listing_id);
