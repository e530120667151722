-- PostgreSQL form of ../0037_votes_voter.sql (same index; see storage/dialect.go).
-- 0037_votes_voter: one person's votes by their voter_key (VotedSlugs: the
-- vote buttons of every page a signed-in person sees). Before, no index led
-- on voter_key (votes' UNIQUE is (listing_id, voter_key)), so the query
-- searched the votes of every listing of the site one by one.
CREATE INDEX votes_voter ON votes (voter_key, listing_id);
