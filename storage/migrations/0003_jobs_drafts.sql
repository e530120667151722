-- 0003_jobs_drafts: durable background jobs, drafts built from a submitted URL, co-founder
-- invites, and who owns a listing (domain.JobStore and the draft methods of storage.Store).
--
-- Conventions as in 0001/0002: *_at columns are INTEGER Unix seconds UTC (NULL = never);
-- JSON documents are TEXT.

-- jobs: work that outlives a request. A worker leases a job by setting lease_owner and
-- lease_until in one UPDATE; another worker (or replica) may take it only when the lease
-- has run out, so a job is never run by two workers at once, and a job whose worker died
-- is taken up again. (kind, key) is unique among jobs not finished, so enqueueing the same
-- work twice is one job.
CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,
    key          TEXT NOT NULL,
    payload      TEXT NOT NULL DEFAULT '{}',
    state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    run_at       INTEGER NOT NULL CHECK (typeof(run_at) = 'integer'),
    lease_owner  TEXT NOT NULL DEFAULT '',
    lease_until  INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at   INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer')
);
CREATE UNIQUE INDEX jobs_pending_key ON jobs (kind, key) WHERE state = 'queued';
CREATE INDEX jobs_due ON jobs (state, run_at) WHERE state = 'queued';

-- drafts: one per submit_listing. doc is the editable profile (domain.DraftDoc JSON);
-- ai is the drafter's last grounded output (domain.Drafted JSON), kept for restore;
-- crawl is what the fetcher read (domain.SiteCrawl JSON), kept for regenerate.
CREATE TABLE drafts (
    id                TEXT PRIMARY KEY,  -- UUID
    site_id           INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url               TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('crawling', 'drafting', 'ready', 'failed')),
    phase             TEXT NOT NULL DEFAULT '',
    pages_done        INTEGER NOT NULL DEFAULT 0,
    pages_planned     INTEGER NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',   -- JSON domain.DraftError when failed
    doc               TEXT NOT NULL DEFAULT '{}',
    ai                TEXT NOT NULL DEFAULT '{}',
    crawl             TEXT NOT NULL DEFAULT '',
    listing_id        INTEGER REFERENCES listings (id) ON DELETE SET NULL,
    version           INTEGER NOT NULL DEFAULT 1,  -- optimistic concurrency: every write checks and bumps it
    created_at        INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at        INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer')
);
CREATE INDEX drafts_user_created ON drafts (user_id, created_at DESC, id);

-- draft_invites: co-founders invited to add their own founder profile. token is stored
-- only as its SHA-256 hex (hash), like every secret.
CREATE TABLE draft_invites (
    id           INTEGER PRIMARY KEY,
    draft_id     TEXT NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE,
    accepted_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at   INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    accepted_at  INTEGER
);
CREATE INDEX draft_invites_draft ON draft_invites (draft_id);

-- The user a listing belongs to (NULL for the directory's own demo listings).
ALTER TABLE listings ADD COLUMN owner_id INTEGER REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX listings_owner ON listings (owner_id, created_at DESC);
-- The listing page's search engine title and meta description (draft seo, editable listing fields).
ALTER TABLE listings ADD COLUMN seo_title TEXT NOT NULL DEFAULT '';
ALTER TABLE listings ADD COLUMN seo_description TEXT NOT NULL DEFAULT '';
