-- 0023_dr_revenue: Domain Rating imports and the source of revenue figures
-- (issue 16 item 6, docs/console.md "Domain Rating and revenue").
--
-- revenue_figures gains its source: 'verified' (entered by the site team on
-- /admin/revenue) or 'owner' (stated by the listing's owner, not checked).
-- A month may have one figure of each source; readers take the verified one
-- when there is one. Figures stored before this migration were reported by
-- founders, so they become 'owner'. set_by is who entered the figure (an
-- email, or "command line"), set_at when (unix seconds, 0 when unknown).
CREATE TABLE revenue_figures_0023 (
    listing_id    INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    month         TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
    amount_cents  INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency      TEXT NOT NULL DEFAULT 'USD',
    source        TEXT NOT NULL DEFAULT 'owner' CHECK (source IN ('verified', 'owner')),
    set_by        TEXT NOT NULL DEFAULT '',
    set_at        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (listing_id, month, source)
);
INSERT INTO revenue_figures_0023 (listing_id, month, amount_cents, currency)
    SELECT listing_id, month, amount_cents, currency FROM revenue_figures;
DROP TABLE revenue_figures;
ALTER TABLE revenue_figures_0023 RENAME TO revenue_figures;

-- An upload of a Domain Rating CSV export. It is validated whole and kept
-- as 'pending' with its rows (rating_import_rows) until an admin confirms
-- it ('confirmed': the accepted rows are in domain_ratings) or discards it
-- ('discarded'). Nothing reaches domain_ratings before the confirmation.
-- added/updated/unchanged count what the confirmation did to domain_ratings.
CREATE TABLE rating_imports (
    id            INTEGER PRIMARY KEY,
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    file_name     TEXT NOT NULL,
    source        TEXT NOT NULL,
    actor         TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'discarded')),
    accepted      INTEGER NOT NULL DEFAULT 0,
    refused       INTEGER NOT NULL DEFAULT 0,
    added         INTEGER NOT NULL DEFAULT 0,
    updated       INTEGER NOT NULL DEFAULT 0,
    unchanged     INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    decided_by    TEXT NOT NULL DEFAULT '',
    decided_at    INTEGER
);
CREATE INDEX rating_imports_site ON rating_imports (site_id, id);

-- The rows of an import, accepted (domain, date, value set; reason '') or
-- refused (reason set; raw keeps the line as read, cut to 200 characters).
CREATE TABLE rating_import_rows (
    import_id  INTEGER NOT NULL REFERENCES rating_imports (id) ON DELETE CASCADE,
    line       INTEGER NOT NULL,
    domain     TEXT NOT NULL DEFAULT '',
    date       TEXT NOT NULL DEFAULT '',
    value      INTEGER NOT NULL DEFAULT 0,
    reason     TEXT NOT NULL DEFAULT '',
    raw        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (import_id, line)
);
