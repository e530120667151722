-- 0024_team_email: one team member per address whatever its case (issue 18).
--
-- team_members.email is COLLATE NOCASE here, so the key (site_id, email)
-- already ignores case; this index is the twin of PostgreSQL's unique index
-- on lower(email) (same name on both engines). Addresses are kept in lower
-- case, as the store writes them.
UPDATE team_members SET email = lower(email);
CREATE UNIQUE INDEX team_members_email ON team_members (site_id, email COLLATE NOCASE);
