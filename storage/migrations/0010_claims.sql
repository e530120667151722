-- 0010_claims: claims of existing listings (issue 6, docs/claims.md).
--
-- A signed-in user claims a public listing by proving control of its domain:
-- a DNS TXT record, a homepage meta tag, a /.well-known/ file (each showing
-- the claim's token), or a link mailed to an address at the domain. A
-- verified claim adds the claimant to listing_owners (0006).
--
-- status is pending, verified, expired or replaced. A pending claim whose
-- expires_at has passed reads as expired; it is written as expired when the
-- same person claims the listing again. One pending claim per person and
-- listing: a new claim with another method or address replaces it.

CREATE TABLE claims (
    id             INTEGER PRIMARY KEY,
    listing_id     INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method         TEXT NOT NULL CHECK (method IN ('dns', 'meta', 'file', 'email')),
    status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'expired', 'replaced')),
    -- token is what the claimant publishes (dns, meta, file). It is shown again
    -- by list_my_claims and is public once published, so it is kept as is.
    token          TEXT NOT NULL DEFAULT '',
    -- email claims: the address, and the SHA-256 hex of the mailed link's
    -- secret (the link itself is never stored).
    email          TEXT NOT NULL DEFAULT '',
    link_hash      TEXT UNIQUE,
    mailed_at      INTEGER CHECK (mailed_at IS NULL OR typeof(mailed_at) = 'integer'),
    -- the listing's domain and homepage when the claim was made: the proof
    -- must be for them (a claim of an old domain does not count).
    domain         TEXT NOT NULL,
    home_url       TEXT NOT NULL DEFAULT '',
    last_check_at  INTEGER CHECK (last_check_at IS NULL OR typeof(last_check_at) = 'integer'),
    last_check     TEXT NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at     INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer'),
    verified_at    INTEGER CHECK (verified_at IS NULL OR typeof(verified_at) = 'integer'),
    CHECK ((method = 'email') = (email != '')),
    CHECK ((method = 'email') = (token = ''))
);
CREATE INDEX claims_user ON claims (user_id, created_at, id);
CREATE INDEX claims_listing ON claims (listing_id, status);
CREATE UNIQUE INDEX claims_one_pending ON claims (listing_id, user_id) WHERE status = 'pending';
