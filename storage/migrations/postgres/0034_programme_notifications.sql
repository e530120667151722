-- PostgreSQL form of ../0034_programme_notifications.sql (same tables, columns and rules; see storage/dialect.go).
-- 0034_programme_notifications: a programme win is notified to the winner's
-- owners and followers on the existing path (notifications), as Launch of
-- the Week awards are (docs/trophies.md). A notification is now of exactly
-- one of: an update, an award, a programme win. PostgreSQL changes the
-- table in place (the CHECK of 0013 was made on notifications_new).

ALTER TABLE notifications ADD COLUMN programme_win_id BIGINT REFERENCES programme_winners (id) ON DELETE CASCADE;
ALTER TABLE notifications DROP CONSTRAINT notifications_new_check;
ALTER TABLE notifications ADD CHECK (num_nonnulls(update_id, award_id, programme_win_id) = 1);
ALTER TABLE notifications ADD UNIQUE (programme_win_id, user_id);
