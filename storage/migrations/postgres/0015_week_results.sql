-- PostgreSQL form of ../0015_week_results.sql (same tables, columns and rules; see storage/dialect.go).
-- 0015_week_results: a finished week's ranking, frozen when the weekly clock
-- finalises it (issue 13, docs/weeks.md).
--
-- Written in the same transaction as the week's finalised_weeks row and its
-- awards: every live launch of the week with its rank and its week votes
-- (counted votes cast during the week, as counted at finalisation). From then
-- on get_launch_week, the week page and the weekly board read the week from
-- here, so a vote taken back, a held vote counted later or an account deleted
-- afterwards cannot reorder a week whose awards are decided: the awards stay
-- the top of the week's ranking forever.
CREATE TABLE week_results (
    site_id     BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    week        TEXT NOT NULL,  -- Monday, YYYY-MM-DD
    listing_id  BIGINT NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    rank        BIGINT NOT NULL CHECK (rank >= 1),
    votes       BIGINT NOT NULL CHECK (votes >= 0),
    PRIMARY KEY (site_id, week, listing_id)
);
CREATE INDEX week_results_rank ON week_results (site_id, week, rank);
