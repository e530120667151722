-- PostgreSQL form of ../0024_team_email.sql (same tables, columns and rules; see storage/dialect.go).
-- 0024_team_email: one team member per address whatever its case (issue 18).
--
-- team_members.email is plain TEXT here, so the key (site_id, email) alone
-- would keep Ann@x.test beside ann@x.test; the store looks members up with
-- lower(email) (eqNoCase) and writes addresses in lower case. Of two rows
-- for one address in different cases, the one granted last stays.
DELETE FROM team_members t WHERE EXISTS (SELECT 1 FROM team_members o
    WHERE o.site_id = t.site_id AND lower(o.email) = lower(t.email) AND o.email <> t.email
    AND (o.granted_at > t.granted_at OR (o.granted_at = t.granted_at AND o.email < t.email)));
UPDATE team_members SET email = lower(email) WHERE email <> lower(email);
CREATE UNIQUE INDEX team_members_email ON team_members (site_id, lower(email));
