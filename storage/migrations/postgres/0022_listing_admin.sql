-- PostgreSQL form of ../0022_listing_admin.sql (same tables, columns and rules; see storage/dialect.go).
-- 0022_listing_admin: the site team's console for listings (issue 16 item 5,
-- docs/console.md "Listings").
--
-- Hide: the listing's status becomes 'hidden' (not public, so every public
-- read - pages, get_listing, search, boards, categories, launch weeks -
-- leaves it out, and the search index drops it through the
-- search_log trigger of 0001); hidden_status keeps the status it had, which
-- unhiding puts back. hidden_reason (1-500 characters) is shown to the
-- owners in get_my_listing, list_my_listings and on /account.
--
-- Unpublish (admins): the listing's status becomes 'archived' (down for
-- good), with a reason the owners see (unpublished_*).
--
-- Merge (admins): a duplicate listing of the same company is merged into a
-- survivor; it keeps its row with status 'merged' and merged_into, so its
-- old slug answers a 301 to the survivor's page and get_listing resolves it
-- to the survivor. What is not moved (rows no survivor may hold twice, such
-- as a second vote by the same person) stays on the merged row: nothing is
-- deleted.
--
-- Team edits: a site team member's edit of a listing is a version like an
-- owner's (kind edit) with by_team = 1; it is reviewed at once.
ALTER TABLE listings ADD COLUMN hidden_at BIGINT;
ALTER TABLE listings ADD COLUMN hidden_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN hidden_by TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN hidden_status TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN unpublished_at BIGINT;
ALTER TABLE listings ADD COLUMN unpublished_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN unpublished_by TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN merged_into BIGINT REFERENCES listings (id) ON DELETE SET NULL;
ALTER TABLE listings ADD COLUMN merged_at BIGINT;
CREATE INDEX listings_merged_into ON listings (merged_into) WHERE merged_into IS NOT NULL;

ALTER TABLE listing_versions ADD COLUMN by_team BIGINT NOT NULL DEFAULT 0 CHECK (by_team IN (0, 1));
