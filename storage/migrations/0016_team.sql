-- 0016_team: the site team kept in the database, and its audit log (issue 16,
-- docs/console.md).
--
-- A member is an email address with a role: admins see the whole console,
-- moderators the review queues. The email is the sign-in address (the person
-- may not have signed in yet when granted). The first admin comes from
-- serve's --admin-emails or "launchdir admin grant".
CREATE TABLE team_members (
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    email       TEXT NOT NULL COLLATE NOCASE,
    role        TEXT NOT NULL CHECK (role IN ('admin', 'moderator')),
    granted_by  TEXT NOT NULL,
    granted_at  INTEGER NOT NULL,
    PRIMARY KEY (site_id, email)
);

-- Every change the site team makes: who (the member's email, or
-- "command line"), when, what (a dotted action such as price.set), on what
-- (a target such as "product:launch") and the values before and after as
-- JSON ('' when there is none).
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    target      TEXT NOT NULL DEFAULT '',
    before      TEXT NOT NULL DEFAULT '',
    after       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at ON audit_log (site_id, at DESC, id DESC);
CREATE INDEX audit_log_actor ON audit_log (site_id, actor, at DESC);
CREATE INDEX audit_log_action ON audit_log (site_id, action, at DESC);
