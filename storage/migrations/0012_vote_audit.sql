-- 0012_vote_audit: votes cast by people on the site, counted or held (issue 13, docs/votes.md).
--
-- A vote of a signed-in person has user_id and voter_key 'user:<id>'; the
-- demo data's votes have a voter_key and no account. Every vote keeps its
-- audit data: the account, the time (created_at) and HMAC-SHA256 hashes of
-- the network and user agent it came from (never the raw values).
--
-- status is 'counted' or 'held'. Only counted votes are counted anywhere:
-- listings.votes_count (the triggers below), trending_score (the store),
-- weekly counts, boards, sorts and awards. A held vote carries its reason:
-- new_account (counts once the account is old enough: count_at), owner
-- (never counts) or burst (stays held for the site team). Existing rows
-- are counted (the defaults).

ALTER TABLE votes ADD COLUMN user_id INTEGER REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE votes ADD COLUMN status TEXT NOT NULL DEFAULT 'counted' CHECK (status IN ('counted', 'held'));
ALTER TABLE votes ADD COLUMN held_reason TEXT NOT NULL DEFAULT '' CHECK (held_reason IN ('', 'new_account', 'owner', 'burst'));
ALTER TABLE votes ADD COLUMN count_at INTEGER CHECK (count_at IS NULL OR typeof(count_at) = 'integer');
ALTER TABLE votes ADD COLUMN ip_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE votes ADD COLUMN ua_hash TEXT NOT NULL DEFAULT '';

-- The burst rule looks up recent votes of a listing from one network.
CREATE INDEX votes_listing_ip_created ON votes (listing_id, ip_hash, created_at);
-- The per-account lookups (has this person voted, their recent votes).
CREATE INDEX votes_user ON votes (user_id, listing_id);

-- votes_count counts counted votes only.
DROP TRIGGER votes_count_ins;
DROP TRIGGER votes_count_del;
CREATE TRIGGER votes_count_ins AFTER INSERT ON votes WHEN NEW.status = 'counted' BEGIN
    UPDATE listings SET votes_count = votes_count + 1 WHERE id = NEW.listing_id;
END;
CREATE TRIGGER votes_count_del AFTER DELETE ON votes WHEN OLD.status = 'counted' BEGIN
    UPDATE listings SET votes_count = votes_count - 1 WHERE id = OLD.listing_id;
END;
CREATE TRIGGER votes_count_upd AFTER UPDATE OF status ON votes WHEN OLD.status <> NEW.status BEGIN
    UPDATE listings SET votes_count = votes_count + (CASE WHEN NEW.status = 'counted' THEN 1 ELSE -1 END)
        WHERE id = NEW.listing_id;
END;

-- The key of the vote audit hashes: one random key, created by the first
-- vote cast on the site (so that a fresh database has no row), kept so
-- that hashes of one network compare across time (the burst rule, the
-- site team's review).
CREATE TABLE vote_key (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    key         BLOB NOT NULL CHECK (length(key) = 32),
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
