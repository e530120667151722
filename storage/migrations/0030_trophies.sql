-- 0030_trophies: trophy cabinets (issue 33, docs/trophies.md).
--
-- A trophy is an award a listing won on another launch site, added by one
-- of its owners with the URL of the award page. state is pending (not
-- checked yet), verified (the award page names the listing, or the site
-- team verified it by hand), rejected (reason says why) or unconfirmed (a
-- verified trophy whose page no longer names the listing or is gone, since
-- unconfirmed_since). method is how it was last decided: page (the award
-- page was read) or site_team. next_check_at is when the check job acts
-- next (NULL: no check is due); the job acts only while its due time
-- equals it, so two processes never decide the same check twice.
-- Launch of the Week awards (awards) are not copied here: the cabinet reads
-- them from their own table.

CREATE TABLE trophies (
    id                INTEGER PRIMARY KEY,
    site_id           INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    listing_id        INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    platform          TEXT NOT NULL,
    title             TEXT NOT NULL,
    rank              INTEGER CHECK (rank IS NULL OR rank BETWEEN 1 AND 1000),
    won_on            TEXT NOT NULL,  -- YYYY-MM-DD
    award_url         TEXT NOT NULL,
    state             TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'verified', 'rejected', 'unconfirmed')),
    method            TEXT NOT NULL DEFAULT '' CHECK (method IN ('', 'page', 'site_team')),
    reason            TEXT NOT NULL DEFAULT '',
    evidence          TEXT NOT NULL DEFAULT '',
    failures          INTEGER NOT NULL DEFAULT 0,
    added_by          INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at        INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    checked_at        INTEGER CHECK (checked_at IS NULL OR typeof(checked_at) = 'integer'),
    verified_at       INTEGER CHECK (verified_at IS NULL OR typeof(verified_at) = 'integer'),
    unconfirmed_since INTEGER CHECK (unconfirmed_since IS NULL OR typeof(unconfirmed_since) = 'integer'),
    next_check_at     INTEGER CHECK (next_check_at IS NULL OR typeof(next_check_at) = 'integer'),
    UNIQUE (listing_id, award_url)
);
CREATE INDEX trophies_state ON trophies (site_id, state, won_on);
