-- 0009_free_queue: the free launch (issue 6). A free listing joins the queue with
-- choose_free_listing: it gets a launch week (listings.launch_week, the Monday) and status
-- awaiting_badge, and a job reads its homepage for a link to its page here
-- (docs/free-launch.md). The weeks' capacity and the check interval are site settings
-- (sites.settings: free_week_capacity, badge_check_hours, free_weeks_min, free_weeks_max).
--
-- Conventions as in 0001: *_at columns are INTEGER Unix seconds UTC (NULL = never).

-- free_queue: one row per listing that joined the free queue with choose_free_listing.
-- queued_at orders a week's listings (queue_position); next_check_at is the one badge
-- check due (the job listing.badge_check keyed "<id>@<next_check_at>" runs only when its
-- time is still this one, so a listing never has two chains of checks); NULL: no more
-- checks. misses counts the checks in a row without the badge; moves the times the
-- listing was moved to a later week because its week started without the badge.
CREATE TABLE free_queue (
    listing_id     INTEGER PRIMARY KEY REFERENCES listings (id) ON DELETE CASCADE,
    queued_at      INTEGER NOT NULL CHECK (typeof(queued_at) = 'integer'),
    next_check_at  INTEGER CHECK (next_check_at IS NULL OR typeof(next_check_at) = 'integer'),
    misses         INTEGER NOT NULL DEFAULT 0,
    moves          INTEGER NOT NULL DEFAULT 0
);

-- badge_checks: every read of a free listing's homepage. found: a link to the listing's
-- page here was on it (link is that link); error is the fetch error (a check that could
-- not read the page is not found); status is the listing's status after the check.
CREATE TABLE badge_checks (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    checked_at  INTEGER NOT NULL CHECK (typeof(checked_at) = 'integer'),
    page_url    TEXT NOT NULL DEFAULT '',
    found       INTEGER NOT NULL CHECK (found IN (0, 1)),
    link        TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX badge_checks_listing ON badge_checks (listing_id, id);
