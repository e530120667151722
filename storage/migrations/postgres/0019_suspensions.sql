-- PostgreSQL form of ../0019_suspensions.sql (same tables, columns and rules; see storage/dialect.go).
-- 0019_suspensions: the site team suspends an account (issue 16 item 7,
-- docs/console.md "People").
--
-- A suspended account (suspended_at set) cannot use any session, OAuth token
-- or API key, and cannot sign in again; auth checks users.suspended_at where
-- it resolves each kind of credential. Its counted votes and reviews (and
-- those held only until the account is old enough) are held while it is
-- suspended: suspension_holds keeps what each was before, so that
-- unsuspending puts it back, unless the site team decided it in the queue
-- meanwhile. The queue shows such an item with the reason "suspended".
ALTER TABLE users ADD COLUMN suspended_at BIGINT;
ALTER TABLE users ADD COLUMN suspended_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN suspended_by TEXT NOT NULL DEFAULT '';

CREATE TABLE suspension_holds (
    user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind           TEXT NOT NULL CHECK (kind IN ('vote', 'review')),
    item_id        BIGINT NOT NULL,  -- votes.id or reviews.id
    prev_status    TEXT NOT NULL,
    prev_reason    TEXT NOT NULL DEFAULT '',
    prev_count_at  BIGINT,
    PRIMARY KEY (kind, item_id)
);
CREATE INDEX suspension_holds_user ON suspension_holds (user_id);
