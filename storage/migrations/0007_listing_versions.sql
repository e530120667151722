-- 0007_listing_versions: owner edits of live listings (update_my_listing), their
-- version history and the site team's review queue (issue 6, docs/owner-edits.md).
--
-- Conventions as in 0001: *_at columns are INTEGER Unix seconds UTC; JSON is TEXT.

-- This site's own copy of a listing, written by update_my_listing and carried to
-- the same company's listings on other sites by apply_to (with seo_title and
-- seo_description of 0003).
ALTER TABLE listings ADD COLUMN headline TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN summary TEXT NOT NULL DEFAULT '';

-- listing_versions: one row per change of a listing's editable fields. fields names
-- what changed (JSON ["tagline","faqs"]); before and after hold the JSON value of
-- each of those fields only ({"tagline":"old"} / {"tagline":"new"}). A call that
-- changes nothing stores no row.
--   kind edit:     update_my_listing on this listing;
--   kind apply_to: the headline/summary/SEO fields carried from source_listing_id;
--   kind revert:   the site team put back the before values of version reverts_id.
-- by_email is who made the change, as it was then; user_id their account (NULL
-- when the account is gone, or for a team member without one).
CREATE TABLE listing_versions (
    id                 INTEGER PRIMARY KEY,
    listing_id         INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    version            INTEGER NOT NULL CHECK (version >= 1),  -- 1, 2, ... per listing
    kind               TEXT NOT NULL CHECK (kind IN ('edit', 'apply_to', 'revert')),
    user_id            INTEGER REFERENCES users (id) ON DELETE SET NULL,
    by_email           TEXT NOT NULL,
    fields             TEXT NOT NULL,
    before             TEXT NOT NULL,
    after              TEXT NOT NULL,
    source_listing_id  INTEGER REFERENCES listings (id) ON DELETE SET NULL,
    reverts_id         INTEGER REFERENCES listing_versions (id) ON DELETE SET NULL,
    created_at         INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    -- The site team's review: NULL until someone marks it reviewed (or reverts it).
    reviewed_by        TEXT,
    reviewed_at        INTEGER CHECK (reviewed_at IS NULL OR typeof(reviewed_at) = 'integer'),
    UNIQUE (listing_id, version)
);
-- The review queue reads unreviewed versions newest first.
CREATE INDEX listing_versions_queue ON listing_versions (reviewed_at, created_at);
