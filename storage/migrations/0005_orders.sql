-- 0005_orders: products' admin prices, orders and their lines, payment events, booked
-- relaunches and the site team's work items (domain.OrderStore, storage/orders.go).
--
-- Conventions as in 0001: *_at columns are INTEGER Unix seconds UTC (NULL = not yet);
-- money is INTEGER cents with an ISO 4217 upper-case currency; weeks are the TEXT
-- 'YYYY-MM-DD' of a Monday; booleans are INTEGER 0/1; JSON documents are TEXT.

-- product_prices: an operator's price for a product of a site (launchdir admin prices set,
-- the admin page). No row means the product's default price, which lives in domain code:
-- this table holds overrides only, so a new product needs no migration.
CREATE TABLE product_prices (
    site_id      INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    code         TEXT NOT NULL CHECK (length(code) BETWEEN 1 AND 60),
    price_cents  INTEGER NOT NULL CHECK (typeof(price_cents) = 'integer' AND price_cents >= 0),
    currency     TEXT NOT NULL CHECK (length(currency) = 3 AND currency = upper(currency)),
    updated_at   INTEGER NOT NULL CHECK (typeof(updated_at) = 'integer'),
    PRIMARY KEY (site_id, code)
);

-- orders: prices are fixed when the order is made (the lines keep them). status is stored
-- as pending, paid or canceled; "expired" is derived on read from expires_at. The checkout
-- link's token is kept only as its SHA-256 hex (token_hash), like every secret. vat is the
-- domain.VAT JSON; billing the domain.Billing JSON, NULL until the person enters it.
-- A user's orders are financial records: deleting the user is refused while they exist.
CREATE TABLE orders (
    id              INTEGER PRIMARY KEY,
    site_id         INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    number          TEXT NOT NULL UNIQUE CHECK (length(number) BETWEEN 1 AND 32),
    user_id         INTEGER NOT NULL REFERENCES users (id),
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'canceled')),
    currency        TEXT NOT NULL CHECK (length(currency) = 3 AND currency = upper(currency)),
    subtotal_cents  INTEGER NOT NULL CHECK (typeof(subtotal_cents) = 'integer' AND subtotal_cents >= 0),
    vat_cents       INTEGER NOT NULL CHECK (typeof(vat_cents) = 'integer' AND vat_cents >= 0),
    total_cents     INTEGER NOT NULL CHECK (typeof(total_cents) = 'integer' AND total_cents >= 0),
    vat             TEXT NOT NULL DEFAULT '{}',
    billing         TEXT,
    token_hash      TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    provider        TEXT NOT NULL DEFAULT '',
    provider_ref    TEXT NOT NULL DEFAULT '',
    test_mode       INTEGER NOT NULL DEFAULT 0 CHECK (test_mode IN (0, 1)),
    created_at      INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    expires_at      INTEGER NOT NULL CHECK (typeof(expires_at) = 'integer'),
    paid_at         INTEGER CHECK (paid_at IS NULL OR typeof(paid_at) = 'integer'),
    canceled_at     INTEGER CHECK (canceled_at IS NULL OR typeof(canceled_at) = 'integer'),
    CHECK (total_cents = subtotal_cents + vat_cents),
    CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
-- list_my_orders and the admin page read newest first.
CREATE INDEX orders_site_user_created ON orders (site_id, user_id, created_at, id);
CREATE INDEX orders_site_created ON orders (site_id, created_at, id);

-- order_lines: one per item, in request order (idx from 0), with the domain.OrderLine
-- fields as columns (categories a JSON array, options a JSON object). fulfilled_at and
-- outcome are set once, by fulfilment.
CREATE TABLE order_lines (
    order_id          INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    idx               INTEGER NOT NULL CHECK (idx >= 0),
    product           TEXT NOT NULL CHECK (length(product) BETWEEN 1 AND 60),
    name              TEXT NOT NULL DEFAULT '',
    listing_id        INTEGER REFERENCES listings (id) ON DELETE SET NULL,
    listing_name      TEXT NOT NULL DEFAULT '',
    week              TEXT NOT NULL DEFAULT '' CHECK (week = '' OR week GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    categories        TEXT NOT NULL DEFAULT '[]',
    options           TEXT NOT NULL DEFAULT '{}',
    quantity          INTEGER NOT NULL DEFAULT 1 CHECK (quantity >= 1),
    unit_price_cents  INTEGER NOT NULL CHECK (typeof(unit_price_cents) = 'integer' AND unit_price_cents >= 0),
    amount_cents      INTEGER NOT NULL CHECK (typeof(amount_cents) = 'integer' AND amount_cents >= 0),
    vat_cents         INTEGER NOT NULL CHECK (typeof(vat_cents) = 'integer' AND vat_cents >= 0),
    total_cents       INTEGER NOT NULL CHECK (typeof(total_cents) = 'integer' AND total_cents >= 0),
    effect            TEXT NOT NULL DEFAULT '',
    fulfilled_at      INTEGER CHECK (fulfilled_at IS NULL OR typeof(fulfilled_at) = 'integer'),
    outcome           TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, idx)
) WITHOUT ROWID;
CREATE INDEX order_lines_listing ON order_lines (listing_id);

-- payment_events: each provider confirmation, recorded once: a replayed webhook hits the
-- UNIQUE (provider, event_id) and changes nothing. An event is kept only when it changed
-- its order (storage.OrderStore.MarkPaid).
CREATE TABLE payment_events (
    id            INTEGER PRIMARY KEY,
    provider      TEXT NOT NULL CHECK (length(provider) >= 1),
    event_id      TEXT NOT NULL CHECK (length(event_id) >= 1),
    order_id      INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    ref           TEXT NOT NULL DEFAULT '',
    amount_cents  INTEGER NOT NULL CHECK (typeof(amount_cents) = 'integer' AND amount_cents >= 0),
    currency      TEXT NOT NULL DEFAULT '',
    test_mode     INTEGER NOT NULL DEFAULT 0 CHECK (test_mode IN (0, 1)),
    received_at   INTEGER NOT NULL CHECK (typeof(received_at) = 'integer'),
    UNIQUE (provider, event_id)
);
CREATE INDEX payment_events_order ON payment_events (order_id);

-- relaunches: a paid relaunch books a live listing into a later week's launches; when the
-- week starts (domain.WeekStartJob) the listing joins it and the row becomes done.
CREATE TABLE relaunches (
    id          INTEGER PRIMARY KEY,
    listing_id  INTEGER NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    week        TEXT NOT NULL CHECK (week GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    state       TEXT NOT NULL DEFAULT 'booked' CHECK (state IN ('booked', 'done')),
    order_id    INTEGER REFERENCES orders (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    done_at     INTEGER CHECK (done_at IS NULL OR typeof(done_at) = 'integer'),
    UNIQUE (listing_id, week)
);

-- work_items: tasks for the site team created by paid lines (ai_review, done_for_you,
-- trophy_verification). details is a JSON object.
CREATE TABLE work_items (
    id            INTEGER PRIMARY KEY,
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CHECK (length(kind) >= 1),
    listing_id    INTEGER REFERENCES listings (id) ON DELETE SET NULL,
    order_number  TEXT NOT NULL DEFAULT '',
    details       TEXT NOT NULL DEFAULT '{}',
    status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
    created_at    INTEGER NOT NULL CHECK (typeof(created_at) = 'integer'),
    done_at       INTEGER CHECK (done_at IS NULL OR typeof(done_at) = 'integer'),
    CHECK ((status = 'done') = (done_at IS NOT NULL))
);
CREATE INDEX work_items_site_status ON work_items (site_id, status, created_at, id);
