-- 0034_programme_notifications: a programme win is notified to the winner's
-- owners and followers on the existing path (notifications), as Launch of
-- the Week awards are (docs/trophies.md). A notification is now of exactly
-- one of: an update, an award, a programme win. SQLite cannot change a
-- CHECK in place: the table is rebuilt with the same rows.

CREATE TABLE notifications_new (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    update_id   INTEGER REFERENCES listing_updates (id) ON DELETE CASCADE,
    award_id    INTEGER REFERENCES awards (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    read_at     INTEGER CHECK (read_at IS NULL OR typeof(read_at) = 'integer'),
    mailed_at   INTEGER CHECK (mailed_at IS NULL OR typeof(mailed_at) = 'integer'),
    programme_win_id INTEGER REFERENCES programme_winners (id) ON DELETE CASCADE,
    CHECK ((update_id IS NOT NULL) + (award_id IS NOT NULL) + (programme_win_id IS NOT NULL) = 1),
    UNIQUE (update_id, user_id),
    UNIQUE (award_id, user_id),
    UNIQUE (programme_win_id, user_id)
);
INSERT INTO notifications_new (id, user_id, listing_id, update_id, award_id, created_at, read_at, mailed_at)
    SELECT id, user_id, listing_id, update_id, award_id, created_at, read_at, mailed_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user ON notifications (user_id, created_at, id);
