-- PostgreSQL form of ../0006_listing_owners.sql (same tables, columns and rules; see storage/dialect.go).
-- 0006_listing_owners: co-owners of a listing (issue 6).
--
-- listings.owner_id is the account that submitted the listing. Everyone else
-- who owns it (a person who proved control of its domain with a claim) has a
-- row here. "userID owns listing l" is always storage.ownedBy: owner_id or a
-- row in this table; every owner may do everything the submitter may.

CREATE TABLE listing_owners (
    listing_id  BIGINT NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    via         TEXT NOT NULL DEFAULT 'claim',  -- how they became an owner: claim
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (listing_id, user_id)
);
CREATE INDEX listing_owners_user ON listing_owners (user_id, listing_id);
