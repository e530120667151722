-- 0001_init: the public side of launchdir.
--
-- Conventions (enforced by CHECK constraints where cheap):
--   * Timestamps (*_at) are INTEGER Unix seconds, UTC. Never bind a time.Time: use t.Unix().
--   * Dates are TEXT 'YYYY-MM-DD' (launch_week is always a Monday); months are TEXT 'YYYY-MM'.
--   * Money is INTEGER cents with a currency (ISO 4217, upper case).
--   * Booleans are INTEGER 0/1. JSON columns hold JSON text ('[]', '{}' or NULL where stated).
--   * Counters on listings are maintained by triggers below: inserting a vote, view or follow,
--     or a billboard contribution updates votes_count/views_count/follows_count/billboard_cents.
--     Do not also add to the counter yourself. (Synthetic data without vote rows may set the
--     counters directly.) trending_score is NOT maintained by a trigger: compute it with
--     storage.TrendingAdd (or use Store.RecordVote, which does both in one transaction).
--   * Every change of a listing (or of what its summary shows) appends to search_log, which
--     the in-memory search index polls.

CREATE TABLE sites (
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    purpose     TEXT NOT NULL DEFAULT '',
    settings    TEXT NOT NULL DEFAULT '{}',  -- JSON: {"free_weeks_min":6,"free_weeks_max":8,...}
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);

-- Business stages (global). Listings reference them by slug.
CREATE TABLE stages (
    slug      TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    position  INTEGER NOT NULL
);
INSERT INTO stages (slug, name, position) VALUES
    ('idea', 'Idea', 1), ('pre-launch', 'Pre-launch', 2), ('beta', 'Beta', 3), ('launched', 'Launched', 4),
    ('growing', 'Growing', 5), ('profitable', 'Profitable', 6), ('acquired', 'Acquired', 7);

-- Companies are global: one company may have listings on several sites.
CREATE TABLE companies (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    domain      TEXT NOT NULL DEFAULT '',     -- lower case host without www.
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX companies_domain ON companies (domain);

-- Categories form a tree per site (two levels in practice).
CREATE TABLE categories (
    id           INTEGER PRIMARY KEY,
    site_id      INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    parent_id    INTEGER REFERENCES categories (id) ON DELETE CASCADE,
    slug         TEXT NOT NULL,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    faqs         TEXT NOT NULL DEFAULT '[]',  -- JSON [{"question":..,"answer":..}]
    position     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (site_id, slug)
);
CREATE INDEX categories_parent ON categories (parent_id, position);
CREATE INDEX categories_site_position ON categories (site_id, position);

-- Comparison attributes of a category, and the values listings state for them.
CREATE TABLE category_attributes (
    category_id  INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    label        TEXT NOT NULL,
    position     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (category_id, key)
);

CREATE TABLE listings (
    id                    INTEGER PRIMARY KEY,
    site_id               INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    company_id            INTEGER REFERENCES companies (id) ON DELETE SET NULL,
    slug                  TEXT NOT NULL,
    name                  TEXT NOT NULL,
    tagline               TEXT NOT NULL DEFAULT '',
    short_description     TEXT NOT NULL DEFAULT '',
    description           TEXT NOT NULL DEFAULT '',
    url                   TEXT NOT NULL DEFAULT '',
    domain                TEXT NOT NULL DEFAULT '',  -- lower case host without www.
    logo_url              TEXT NOT NULL DEFAULT '',
    -- draft | submitted | awaiting_badge | scheduled | live | rejected | archived.
    -- Only live and scheduled listings are public.
    status                TEXT NOT NULL DEFAULT 'draft',
    plan                  TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'paid')),
    launch_week           TEXT CHECK (launch_week IS NULL OR launch_week GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    launched_at           INTEGER CHECK (launched_at IS NULL OR typeof(launched_at) = 'integer'),
    scheduled_at          INTEGER CHECK (scheduled_at IS NULL OR typeof(scheduled_at) = 'integer'),
    featured              INTEGER NOT NULL DEFAULT 0 CHECK (featured IN (0, 1)),
    stage                 TEXT REFERENCES stages (slug),
    pricing_model         TEXT NOT NULL DEFAULT '',  -- lower case: free, freemium, subscription, one-time, open-source ...
    pricing_summary       TEXT NOT NULL DEFAULT '',
    country               TEXT NOT NULL DEFAULT '',  -- ISO 3166 alpha-2, upper case
    city                  TEXT NOT NULL DEFAULT '',
    founded_year          INTEGER,
    contact_email         TEXT NOT NULL DEFAULT '',
    demo_video_url        TEXT NOT NULL DEFAULT '',
    keywords              TEXT NOT NULL DEFAULT '[]',  -- JSON ["..."]
    features              TEXT NOT NULL DEFAULT '[]',  -- JSON ["..."]
    usps                  TEXT NOT NULL DEFAULT '[]',  -- JSON ["..."]
    faqs                  TEXT NOT NULL DEFAULT '[]',  -- JSON [{"question":..,"answer":..}]
    socials               TEXT NOT NULL DEFAULT '{}',  -- JSON {"linkedin":"https://..", ...}
    story                 TEXT,                        -- JSON domain.Story; paid section
    unlocked_sections     TEXT NOT NULL DEFAULT '[]',  -- JSON subset of ["story","milestones","media"]
    not_found_on_website  TEXT NOT NULL DEFAULT '[]',  -- JSON ["pricing", "founded_year", ...]
    verified              INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1)),
    votes_count           INTEGER NOT NULL DEFAULT 0,
    views_count           INTEGER NOT NULL DEFAULT 0,
    follows_count         INTEGER NOT NULL DEFAULT 0,
    trending_score        REAL NOT NULL DEFAULT 0,     -- storage.TrendingAdd over vote times; 0 = no votes
    billboard_cents       INTEGER NOT NULL DEFAULT 0,
    created_at            INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    updated_at            INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer'),
    UNIQUE (site_id, slug)
);
CREATE INDEX listings_company ON listings (company_id);
-- Feed indexes: each ORDER BY of storage/launches.go is an index order (read backwards), so
-- a page is read without sorting; the rowid (id) is the last tie-break.
CREATE INDEX listings_site_status_week ON listings (site_id, status, launch_week, scheduled_at);
CREATE INDEX listings_site_status_launched ON listings (site_id, status, launched_at);
CREATE INDEX listings_site_status_votes ON listings (site_id, status, votes_count, launched_at);
CREATE INDEX listings_site_status_views ON listings (site_id, status, views_count, votes_count);
CREATE INDEX listings_site_status_follows ON listings (site_id, status, follows_count, votes_count);
CREATE INDEX listings_site_status_trending ON listings (site_id, status, trending_score, votes_count);
CREATE INDEX listings_domain ON listings (domain);

-- A listing's categories: exactly one primary plus up to 3 extra.
CREATE TABLE listing_categories (
    listing_id   INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    category_id  INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    is_primary   INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
    PRIMARY KEY (listing_id, category_id)
);
CREATE UNIQUE INDEX listing_categories_one_primary ON listing_categories (listing_id) WHERE is_primary = 1;
CREATE INDEX listing_categories_category ON listing_categories (category_id, is_primary);

CREATE TABLE listing_attributes (
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (listing_id, key)
);

-- Founders are people, global like companies; listing_founders ties them to listings.
CREATE TABLE founders (
    id          INTEGER PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    title       TEXT NOT NULL DEFAULT '',
    bio         TEXT NOT NULL DEFAULT '',
    country     TEXT NOT NULL DEFAULT '',  -- ISO 3166 alpha-2, upper case
    city        TEXT NOT NULL DEFAULT '',
    avatar_url  TEXT NOT NULL DEFAULT '',
    socials     TEXT NOT NULL DEFAULT '{}',  -- JSON {"linkedin":"https://..", ...}
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX founders_name ON founders (name COLLATE NOCASE);

CREATE TABLE listing_founders (
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    founder_id  INTEGER NOT NULL REFERENCES founders (id) ON DELETE CASCADE,
    role        TEXT NOT NULL DEFAULT '',
    is_primary  INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
    PRIMARY KEY (listing_id, founder_id)
);
CREATE INDEX listing_founders_founder ON listing_founders (founder_id);

CREATE TABLE listing_updates (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    body        TEXT NOT NULL DEFAULT '',
    posted_at   INTEGER NOT NULL CHECK (typeof(posted_at) = 'integer')
);
CREATE INDEX listing_updates_listing ON listing_updates (listing_id, posted_at);

-- Paid section: milestones.
CREATE TABLE milestones (
    id           INTEGER PRIMARY KEY,
    listing_id   INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    date         TEXT NOT NULL,  -- YYYY-MM-DD
    title        TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    url          TEXT NOT NULL DEFAULT ''
);
CREATE INDEX milestones_listing ON milestones (listing_id, date);

-- Paid section: media.
CREATE TABLE media (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('image', 'video')),
    url         TEXT NOT NULL,
    caption     TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX media_listing ON media (listing_id, position);

CREATE TABLE blog_posts (
    id            INTEGER PRIMARY KEY,
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    slug          TEXT NOT NULL,
    title         TEXT NOT NULL,
    excerpt       TEXT NOT NULL DEFAULT '',
    markdown      TEXT NOT NULL DEFAULT '',
    author        TEXT NOT NULL DEFAULT '',
    tags          TEXT NOT NULL DEFAULT '[]',  -- JSON ["..."]
    faqs          TEXT NOT NULL DEFAULT '[]',  -- JSON [{"question":..,"answer":..}]
    published_at  INTEGER CHECK (published_at IS NULL OR typeof(published_at) = 'integer'),  -- NULL = unpublished
    UNIQUE (site_id, slug)
);
CREATE INDEX blog_posts_site_published ON blog_posts (site_id, published_at);

-- One vote per voter per listing.
CREATE TABLE votes (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    voter_key   TEXT NOT NULL,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    UNIQUE (listing_id, voter_key)
);
CREATE INDEX votes_created ON votes (created_at, listing_id);
CREATE INDEX votes_listing_created ON votes (listing_id, created_at);

CREATE TABLE views (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    viewer_key  TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX views_listing ON views (listing_id, created_at);

CREATE TABLE follows (
    listing_id    INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    follower_key  TEXT NOT NULL,
    created_at    INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    PRIMARY KEY (listing_id, follower_key)
);

-- Reviews: the community rating counts genuine ones only.
CREATE TABLE reviews (
    id           INTEGER PRIMARY KEY,
    listing_id   INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    author_name  TEXT NOT NULL DEFAULT '',
    stars        INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5),
    body         TEXT NOT NULL DEFAULT '',
    genuine      INTEGER NOT NULL DEFAULT 1 CHECK (genuine IN (0, 1)),
    created_at   INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX reviews_listing ON reviews (listing_id, genuine);

-- Launch of the Week awards: ranks 1-3 per site and week.
CREATE TABLE awards (
    id          INTEGER PRIMARY KEY,
    site_id     INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    week        TEXT NOT NULL,  -- Monday, YYYY-MM-DD
    rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 3),
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    votes       INTEGER NOT NULL DEFAULT 0,
    UNIQUE (site_id, week, rank)
);
CREATE INDEX awards_listing ON awards (listing_id, week);

-- Billboard (PAID ranking) contributions.
CREATE TABLE billboard_contributions (
    id            INTEGER PRIMARY KEY,
    listing_id    INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    amount_cents  INTEGER NOT NULL CHECK (amount_cents > 0),
    currency      TEXT NOT NULL DEFAULT 'USD',
    created_at    INTEGER NOT NULL CHECK (typeof(created_at) = 'integer')
);
CREATE INDEX billboard_contributions_listing ON billboard_contributions (listing_id);

-- Monthly revenue reported by founders.
CREATE TABLE revenue_figures (
    listing_id    INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    month         TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
    amount_cents  INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency      TEXT NOT NULL DEFAULT 'USD',
    PRIMARY KEY (listing_id, month)
);

-- Domain Rating readings by domain (lower case host without www.); listing_id optional.
CREATE TABLE domain_ratings (
    id          INTEGER PRIMARY KEY,
    domain      TEXT NOT NULL,
    listing_id  INTEGER REFERENCES listings (id) ON DELETE SET NULL,
    date        TEXT NOT NULL,  -- YYYY-MM-DD
    value       INTEGER NOT NULL CHECK (value BETWEEN 0 AND 100),
    source      TEXT NOT NULL DEFAULT '',
    UNIQUE (domain, date, source)
);
CREATE INDEX domain_ratings_domain_date ON domain_ratings (domain, date);

CREATE TABLE interview_questions (
    id        INTEGER PRIMARY KEY,
    site_id   INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    question  TEXT NOT NULL,
    topic     TEXT NOT NULL DEFAULT '',
    position  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX interview_questions_site ON interview_questions (site_id, position);

-- Alternatives a listing's owner approved (approved_by_owner = 1) or suggested.
CREATE TABLE alternatives (
    listing_id         INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    alternative_id     INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    approved_by_owner  INTEGER NOT NULL DEFAULT 0 CHECK (approved_by_owner IN (0, 1)),
    position           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (listing_id, alternative_id),
    CHECK (listing_id <> alternative_id)
);

-- Counters maintained from their rows.
CREATE TRIGGER votes_count_ins AFTER INSERT ON votes BEGIN
    UPDATE listings SET votes_count = votes_count + 1 WHERE id = NEW.listing_id;
END;
CREATE TRIGGER votes_count_del AFTER DELETE ON votes BEGIN
    UPDATE listings SET votes_count = votes_count - 1 WHERE id = OLD.listing_id;
END;
CREATE TRIGGER views_count_ins AFTER INSERT ON views BEGIN
    UPDATE listings SET views_count = views_count + 1 WHERE id = NEW.listing_id;
END;
CREATE TRIGGER follows_count_ins AFTER INSERT ON follows BEGIN
    UPDATE listings SET follows_count = follows_count + 1 WHERE id = NEW.listing_id;
END;
CREATE TRIGGER follows_count_del AFTER DELETE ON follows BEGIN
    UPDATE listings SET follows_count = follows_count - 1 WHERE id = OLD.listing_id;
END;
CREATE TRIGGER billboard_cents_ins AFTER INSERT ON billboard_contributions BEGIN
    UPDATE listings SET billboard_cents = billboard_cents + NEW.amount_cents WHERE id = NEW.listing_id;
END;

-- Change log polled by the in-memory search index (see storage/searchsync.go).
CREATE TABLE search_log (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    listing_id  INTEGER NOT NULL
);
CREATE TRIGGER search_log_listing_ins AFTER INSERT ON listings BEGIN
    INSERT INTO search_log (listing_id) VALUES (NEW.id);
END;
CREATE TRIGGER search_log_listing_upd AFTER UPDATE ON listings BEGIN
    INSERT INTO search_log (listing_id) VALUES (NEW.id);
END;
CREATE TRIGGER search_log_listing_del AFTER DELETE ON listings BEGIN
    INSERT INTO search_log (listing_id) VALUES (OLD.id);
END;
CREATE TRIGGER search_log_lc_ins AFTER INSERT ON listing_categories BEGIN
    INSERT INTO search_log (listing_id) VALUES (NEW.listing_id);
END;
CREATE TRIGGER search_log_lc_del AFTER DELETE ON listing_categories BEGIN
    INSERT INTO search_log (listing_id) VALUES (OLD.listing_id);
END;
CREATE TRIGGER search_log_category_upd AFTER UPDATE OF slug, name ON categories BEGIN
    INSERT INTO search_log (listing_id)
        SELECT listing_id FROM listing_categories WHERE category_id = NEW.id AND is_primary = 1;
END;
-- A row with listing_id 0 marks a change of the category tree (cached counts are refreshed).
CREATE TRIGGER search_log_category_ins AFTER INSERT ON categories BEGIN
    INSERT INTO search_log (listing_id) VALUES (0);
END;
CREATE TRIGGER search_log_category_any_upd AFTER UPDATE ON categories BEGIN
    INSERT INTO search_log (listing_id) VALUES (0);
END;
CREATE TRIGGER search_log_category_del AFTER DELETE ON categories BEGIN
    INSERT INTO search_log (listing_id) VALUES (0);
END;
