-- 0013_reviews_weeks: reviews written by people on the site, the weekly
-- clock, and the site team's review queue (issue 13; docs/reviews.md,
-- docs/weeks.md, docs/moderation.md).

-- Reviews ------------------------------------------------------------------
-- A review of a signed-in person has user_id (one review per person and
-- listing); the demo data's reviews have an author name and no account.
-- status replaces the old genuine flag, with the holding rules of votes:
--   counted    counts in community_rating and is shown;
--   held       waits (held_reason new_account until count_at, burst or
--              flagged until the site team decides; owner never counts);
--   discarded  a held review the site team discarded: never shown;
--   hidden     a review the site team hid: never shown, never counted.
-- The owner of the listing may answer a review once (answer, answered_by).
CREATE TABLE reviews_new (
    id           INTEGER PRIMARY KEY,
    listing_id   INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    user_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,
    author_name  TEXT NOT NULL DEFAULT '',
    stars        INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
    body         TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'counted' CHECK (status IN ('counted', 'held', 'discarded', 'hidden')),
    held_reason  TEXT NOT NULL DEFAULT '' CHECK (held_reason IN ('', 'new_account', 'owner', 'burst', 'flagged')),
    count_at     INTEGER CHECK (count_at IS NULL OR typeof(count_at) = 'integer'),
    ip_hash      TEXT NOT NULL DEFAULT '',
    ua_hash      TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at   INTEGER CHECK (updated_at IS NULL OR typeof(updated_at) = 'integer'),
    answer       TEXT NOT NULL DEFAULT '',
    answered_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    answered_at  INTEGER CHECK (answered_at IS NULL OR typeof(answered_at) = 'integer')
);
INSERT INTO reviews_new (id, listing_id, author_name, stars, body, status, held_reason, created_at)
    SELECT id, listing_id, author_name, stars, body,
           CASE WHEN genuine = 1 THEN 'counted' ELSE 'held' END,
           CASE WHEN genuine = 1 THEN '' ELSE 'flagged' END,
           created_at
    FROM reviews;
DROP TABLE reviews;
ALTER TABLE reviews_new RENAME TO reviews;
CREATE INDEX reviews_listing ON reviews (listing_id, status, created_at);
CREATE UNIQUE INDEX reviews_user ON reviews (user_id, listing_id) WHERE user_id IS NOT NULL;
CREATE INDEX reviews_held ON reviews (status, created_at) WHERE status = 'held';

-- Votes: the site team discards a held vote (it stays held, so the person
-- cannot vote again, and leaves the queue) or counts it (status counted).
ALTER TABLE votes ADD COLUMN discarded_at INTEGER CHECK (discarded_at IS NULL OR typeof(discarded_at) = 'integer');
CREATE INDEX votes_held ON votes (status, created_at) WHERE status = 'held';

-- The weekly clock ---------------------------------------------------------
-- A week of a site is finalised once: its awards rows and this row are
-- written in one transaction by the weekly clock job alone. skipped is a
-- JSON list of the listings left out because the site team disqualified
-- them, each with its reason: [{"listing_id":..,"slug":..,"reason":..}].
CREATE TABLE finalised_weeks (
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    week          TEXT NOT NULL,  -- Monday, YYYY-MM-DD
    finalised_at  INTEGER NOT NULL CHECK (typeof(finalised_at) = 'integer'),
    skipped       TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (site_id, week)
);

-- A listing the site team disqualified from a week before it was finalised.
CREATE TABLE week_disqualifications (
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    week        TEXT NOT NULL,  -- Monday, YYYY-MM-DD
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL CHECK (reason <> ''),
    decided_by  TEXT NOT NULL,  -- the site team member's email
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    PRIMARY KEY (site_id, week, listing_id)
);

-- Notifications: besides an update of a followed listing, an award won by
-- a listing the person owns or follows. Exactly one of update_id and
-- award_id is set.
CREATE TABLE notifications_new (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    update_id   INTEGER REFERENCES listing_updates (id) ON DELETE CASCADE,
    award_id    INTEGER REFERENCES awards (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    read_at     INTEGER CHECK (read_at IS NULL OR typeof(read_at) = 'integer'),
    mailed_at   INTEGER CHECK (mailed_at IS NULL OR typeof(mailed_at) = 'integer'),
    CHECK ((update_id IS NULL) <> (award_id IS NULL)),
    UNIQUE (update_id, user_id),
    UNIQUE (award_id, user_id)
);
INSERT INTO notifications_new (id, user_id, listing_id, update_id, created_at, read_at, mailed_at)
    SELECT id, user_id, listing_id, update_id, created_at, read_at, mailed_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user ON notifications (user_id, created_at, id);

-- The site team's decisions ------------------------------------------------
-- Every decision of the review queue, with who and when: counting or
-- discarding a held vote or review, hiding a review, disqualifying a
-- listing from a week (and lifting it).
CREATE TABLE moderation_log (
    id          INTEGER PRIMARY KEY,
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    actor       TEXT NOT NULL CHECK (actor <> ''),  -- the site team member's email
    action      TEXT NOT NULL CHECK (action IN ('count_vote', 'discard_vote', 'count_review', 'discard_review',
                                                'hide_review', 'unhide_review', 'disqualify', 'requalify')),
    vote_id     INTEGER,  -- no foreign keys: the log outlives what it names
    review_id   INTEGER,
    listing_id  INTEGER,
    week        TEXT NOT NULL DEFAULT '',
    reason      TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX moderation_log_site ON moderation_log (site_id, created_at, id);
