-- 0008_owner_content: what owners write besides the listing's fields (issue 6):
-- updates reach followers, and interview answers belong to the account.
--
-- listing_updates, milestones, listings.story and follows exist since 0001.
-- An update's followers are told once each: a notifications row per
-- (update, follower) is their in-site copy and the record that the mail was
-- sent (docs/owner-content.md).

-- Who posted an update (NULL for the demo data and deleted accounts).
ALTER TABLE listing_updates ADD COLUMN author_id INTEGER REFERENCES users (id) ON DELETE SET NULL;
-- The latest-updates page reads updates newest first across the site.
CREATE INDEX listing_updates_posted ON listing_updates (posted_at, id);

-- A signed-in person's notifications, newest first on /notifications.
CREATE TABLE notifications (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    update_id   INTEGER NOT NULL REFERENCES listing_updates (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    read_at     INTEGER CHECK (read_at IS NULL OR typeof(read_at) = 'integer'),
    -- Set just before the mail is handed to the mailer, cleared again when
    -- the mailer fails: a retried fan-out never mails anyone twice.
    mailed_at   INTEGER CHECK (mailed_at IS NULL OR typeof(mailed_at) = 'integer'),
    UNIQUE (update_id, user_id)
);
CREATE INDEX notifications_user ON notifications (user_id, created_at, id);

-- Interview answers belong to an account; questions are per site.
CREATE TABLE interview_answers (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    question_id  INTEGER NOT NULL REFERENCES interview_questions (id) ON DELETE CASCADE,
    answer       TEXT NOT NULL CHECK (answer <> ''),
    updated_at   INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer'),
    PRIMARY KEY (user_id, question_id)
);
CREATE INDEX interview_answers_question ON interview_answers (question_id);
