package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// OrderStore implements domain.OrderStore over the tables of migration
// 0005_orders for one site: prices, orders and work items are the site's;
// listings and categories are looked up in the site only. Every use case is
// one transaction, and the DSN makes each transaction BEGIN IMMEDIATE, so two
// payment events or two fulfilments of one line are serialised by SQLite and
// the second one sees what the first one wrote.
type OrderStore struct {
	db     *DB
	siteID int64
	site   domain.Site // page links in events
	// key caches CheckoutKey once read.
	keyMu sync.Mutex
	key   []byte
}

var _ domain.OrderStore = (*OrderStore)(nil)

// NewOrderStore returns the order store of site over db, ensuring the site row.
func NewOrderStore(db *DB, site domain.Site) (*OrderStore, error) {
	id, err := ensureSite(context.Background(), db, site)
	if err != nil {
		return nil, err
	}
	return &OrderStore{db: db, siteID: id, site: site}, nil
}

// ---- Prices ----

// Prices returns the operator's price of every product that has one, by code.
func (s *OrderStore) Prices(ctx context.Context) (map[string]domain.Price, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT code, price_cents, currency, updated_at FROM product_prices
		WHERE site_id = ?`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "price", "")
	}
	defer rows.Close()
	out := map[string]domain.Price{}
	for rows.Next() {
		var code string
		var p domain.Price
		var at int64
		if err := rows.Scan(&code, &p.Cents, &p.Currency, &at); err != nil {
			return nil, mapErr(err, "price", "")
		}
		p.UpdatedAt = time.Unix(at, 0).UTC()
		out[code] = p
	}
	return out, mapErr(rows.Err(), "price", "")
}

// SetPrice sets the price of product code (which the caller has checked is a
// product). A zero p.UpdatedAt is now.
func (s *OrderStore) SetPrice(ctx context.Context, code string, p domain.Price) error {
	at := p.UpdatedAt
	if at.IsZero() {
		at = s.db.Now()
	}
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO product_prices (site_id, code, price_cents, currency, updated_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (site_id, code) DO UPDATE SET price_cents = excluded.price_cents,
		currency = excluded.currency, updated_at = excluded.updated_at`, s.siteID, code, p.Cents, p.Currency, at.Unix())
	return mapErr(err, "price", code)
}

// ---- Listings and categories ----

// OrderListing returns listing listingID of this site when userID owns it.
// Someone else's listing and a missing one give the same not_found, so that
// an order cannot probe which listing ids exist.
func (s *OrderStore) OrderListing(ctx context.Context, userID, listingID int64) (*domain.OrderListing, error) {
	l := &domain.OrderListing{Extra: []string{}}
	var unlocked string
	err := s.db.sql.QueryRowContext(ctx, `SELECT id, slug, name, status, plan, COALESCE(launch_week, ''), featured, unlocked_sections
		FROM listings l WHERE l.id = ? AND l.site_id = ? AND `+s.db.eng.ownedBy(), listingID, s.siteID, userID, userID).
		Scan(&l.ID, &l.Slug, &l.Name, &l.Status, &l.Plan, &l.LaunchWeek, &l.Featured, &unlocked)
	if err != nil {
		return nil, mapErr(err, "listing", strconv.FormatInt(listingID, 10))
	}
	if err := json.Unmarshal([]byte(unlocked), &l.Unlocked); err != nil {
		return nil, fmt.Errorf("listing %d: unlocked_sections %q: %w", listingID, unlocked, err)
	}
	if len(l.Unlocked) == 0 {
		l.Unlocked = nil // none
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT c.slug, lc.is_primary FROM listing_categories lc
		JOIN categories c ON c.id = lc.category_id WHERE lc.listing_id = ? ORDER BY c.slug`, listingID)
	if err != nil {
		return nil, mapErr(err, "listing categories", "")
	}
	defer rows.Close()
	for rows.Next() {
		var slug string
		var primary bool
		if err := rows.Scan(&slug, &primary); err != nil {
			return nil, mapErr(err, "listing categories", "")
		}
		if primary {
			l.Primary = slug
		} else {
			l.Extra = append(l.Extra, slug)
		}
	}
	return l, mapErr(rows.Err(), "listing categories", "")
}

// CategoryExists reports whether slug is a category of this site.
func (s *OrderStore) CategoryExists(ctx context.Context, slug string) (bool, error) {
	var n int
	err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM categories WHERE site_id = ? AND slug = ?`,
		s.siteID, slug).Scan(&n)
	return n > 0, mapErr(err, "category", slug)
}

// ---- Orders ----

// CheckoutKey returns the key checkout tokens are derived from, creating it
// on first use (migration 0026_checkout_key): one key for the database, so
// that every process derives the same link.
func (s *OrderStore) CheckoutKey(ctx context.Context) ([]byte, error) {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	fresh := domain.RandomBytes(32)
	if _, err := s.db.sql.ExecContext(ctx, `INSERT INTO checkout_key (id, key, created_at) VALUES (1, ?, ?)
		ON CONFLICT (id) DO NOTHING`, fresh, s.db.Now().Unix()); err != nil {
		return nil, mapErr(err, "checkout key", "")
	}
	var key []byte
	if err := s.db.sql.QueryRowContext(ctx, `SELECT key FROM checkout_key WHERE id = 1`).Scan(&key); err != nil {
		return nil, mapErr(err, "checkout key", "")
	}
	s.key = key
	return key, nil
}

// tokenHashRE is the SHA-256 hex of a checkout token.
var tokenHashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// CreateOrder stores o and its lines in one transaction and sets o.ID. A new
// order is pending (any other o.Status is refused) and its lines unfulfilled. A zero CreatedAt is now and a zero ExpiresAt is CheckoutDays
// later; both are set on o as stored (whole seconds, UTC).
func (s *OrderStore) CreateOrder(ctx context.Context, o *domain.Order, tokenHash string) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.createOrder(ctx, o, tokenHash) })
	return err
}

// createOrder is CreateOrder's transaction (CreateOrder retries it).
func (s *OrderStore) createOrder(ctx context.Context, o *domain.Order, tokenHash string) error {
	switch {
	case o.Number == "" || len(o.Number) > domain.MaxOrderNumber:
		return fmt.Errorf("storage: create order: the number must be 1-%d characters, got %q", domain.MaxOrderNumber, o.Number)
	case o.Status != "" && o.Status != domain.OrderPending:
		return fmt.Errorf("storage: create order %s: a new order is pending, not %q", o.Number, o.Status)
	case !tokenHashRE.MatchString(tokenHash):
		return fmt.Errorf("storage: create order %s: the token hash must be the lower-case SHA-256 hex of the checkout token", o.Number)
	case o.UserID == 0:
		return fmt.Errorf("storage: create order %s: no user", o.Number)
	}
	if o.CreatedAt.IsZero() {
		o.CreatedAt = s.db.Now()
	}
	if o.ExpiresAt.IsZero() {
		o.ExpiresAt = o.CreatedAt.AddDate(0, 0, domain.CheckoutDays)
	}
	vat, err := json.Marshal(o.VAT)
	if err != nil {
		return fmt.Errorf("storage: order %s vat: %w", o.Number, err)
	}
	billing, err := billingJSON(o.Billing)
	if err != nil {
		return err
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "order", o.Number)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO orders (site_id, number, user_id, status, currency, subtotal_cents,
		vat_cents, total_cents, vat, billing, token_hash, provider, provider_ref, test_mode, created_at, expires_at)
		VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		s.siteID, o.Number, o.UserID, o.Currency, o.SubtotalCents, o.VAT.Cents, o.TotalCents, string(vat), billing,
		tokenHash, o.Provider, o.ProviderRef, o.TestMode, o.CreatedAt.Unix(), o.ExpiresAt.Unix()).Scan(&id)
	if err != nil {
		return mapErr(err, "order", o.Number)
	}
	for _, l := range o.Lines {
		if err := insertLine(ctx, tx, id, l); err != nil {
			return fmt.Errorf("storage: order %s line %d: %w", o.Number, l.Index, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return mapErr(err, "order", o.Number)
	}
	o.ID, o.Status, o.TokenHash = id, domain.OrderPending, tokenHash
	o.CreatedAt, o.ExpiresAt = time.Unix(o.CreatedAt.Unix(), 0).UTC(), time.Unix(o.ExpiresAt.Unix(), 0).UTC()
	return nil
}

func insertLine(ctx context.Context, tx *Tx, orderID int64, l domain.OrderLine) error {
	if l.Quantity < 1 {
		return fmt.Errorf("quantity is %d; it is 1, or the number of categories for extra_categories", l.Quantity)
	}
	cats, err := json.Marshal(nonNil(l.Categories))
	if err != nil {
		return err
	}
	opts := []byte("{}")
	if l.Options != nil {
		if opts, err = json.Marshal(l.Options); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, idx, product, name, listing_id, listing_name, week,
		categories, options, quantity, unit_price_cents, amount_cents, vat_cents, total_cents, effect)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, orderID, l.Index, l.Product, l.Name, nullID(l.ListingID),
		l.ListingName, l.Week, string(cats), string(opts), l.Quantity, l.UnitPriceCents, l.AmountCents, l.VATCents,
		l.TotalCents, l.Effect)
	return err
}

// billingJSON encodes billing details; none is NULL.
func billingJSON(b *domain.Billing) (any, error) {
	if b == nil {
		return nil, nil
	}
	j, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("storage: order billing: %w", err)
	}
	return string(j), nil
}

// orderCols are the columns scanOrder reads from orders.
const orderCols = `id, number, user_id, status, currency, subtotal_cents, vat, total_cents, billing, provider,
	provider_ref, test_mode, created_at, expires_at, paid_at, token_hash`

func scanOrder(row interface{ Scan(...any) error }) (*domain.Order, error) {
	o := &domain.Order{}
	var vat string
	var billing sql.NullString
	var created, expires int64
	var paid sql.NullInt64
	if err := row.Scan(&o.ID, &o.Number, &o.UserID, &o.Status, &o.Currency, &o.SubtotalCents, &vat, &o.TotalCents,
		&billing, &o.Provider, &o.ProviderRef, &o.TestMode, &created, &expires, &paid, &o.TokenHash); err != nil {
		return nil, err
	}
	if err := decodeJSON(vat, &o.VAT, "order "+o.Number+" vat"); err != nil {
		return nil, err
	}
	if billing.Valid {
		o.Billing = &domain.Billing{}
		if err := decodeJSON(billing.String, o.Billing, "order "+o.Number+" billing"); err != nil {
			return nil, err
		}
	}
	o.CreatedAt, o.ExpiresAt, o.PaidAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC(), unixTime(paid)
	return o, nil
}

// oneOrder reads the order a condition on orders selects, with its lines;
// notFound is returned when there is none.
func (s *OrderStore) oneOrder(ctx context.Context, notFound error, cond string, args ...any) (*domain.Order, error) {
	o, err := scanOrder(s.db.sql.QueryRowContext(ctx, `SELECT `+orderCols+` FROM orders WHERE site_id = ? AND `+cond,
		append([]any{s.siteID}, args...)...))
	if err == sql.ErrNoRows {
		return nil, notFound
	}
	if err != nil {
		return nil, mapErr(err, "order", "")
	}
	if err := s.attachLines(ctx, []*domain.Order{o}); err != nil {
		return nil, err
	}
	return o, nil
}

// UserOrder returns userID's order number; someone else's is not_found, like a missing one.
func (s *OrderStore) UserOrder(ctx context.Context, userID int64, number string) (*domain.Order, error) {
	return s.oneOrder(ctx, domain.NotFound("order", number), `number = ? AND user_id = ?`, number, userID)
}

// errCheckoutLink is the not_found answer for an unknown checkout token. It
// does not echo the hash.
var errCheckoutLink = domain.Errorf(domain.ENotFound,
	"This checkout link is not valid; ask for the order's checkout link again, or make a new order.")

// TokenOrder returns the order whose checkout token hashes to tokenHash.
func (s *OrderStore) TokenOrder(ctx context.Context, tokenHash string) (*domain.Order, error) {
	return s.oneOrder(ctx, errCheckoutLink, `token_hash = ?`, tokenHash)
}

// NumberOrder returns order number of this site, whoever owns it.
func (s *OrderStore) NumberOrder(ctx context.Context, number string) (*domain.Order, error) {
	return s.oneOrder(ctx, domain.NotFound("order", number), `number = ?`, number)
}

// UserOrders lists one page of userID's orders, newest first, and their
// count; limit <= 0 means all.
func (s *OrderStore) UserOrders(ctx context.Context, userID int64, offset, limit int) ([]domain.Order, int, error) {
	return s.orderPage(ctx, `user_id = ?`, []any{userID}, offset, limit)
}

// AllOrders lists one page of the site's orders, newest first, and their
// count; limit <= 0 means all.
func (s *OrderStore) AllOrders(ctx context.Context, offset, limit int) ([]domain.Order, int, error) {
	return s.orderPage(ctx, `1 = 1`, nil, offset, limit)
}

func (s *OrderStore) orderPage(ctx context.Context, cond string, args []any, offset, limit int) ([]domain.Order, int, error) {
	args = append([]any{s.siteID}, args...)
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE site_id = ? AND `+cond, args...).
		Scan(&total); err != nil {
		return nil, 0, mapErr(err, "order", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+orderCols+` FROM orders WHERE site_id = ? AND `+cond+`
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, s.db.eng.limit(limit), max(offset, 0))...)
	if err != nil {
		return nil, 0, mapErr(err, "order", "")
	}
	var page []*domain.Order
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			rows.Close()
			return nil, 0, mapErr(err, "order", "")
		}
		page = append(page, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, mapErr(err, "order", "")
	}
	if err := s.attachLines(ctx, page); err != nil {
		return nil, 0, err
	}
	out := make([]domain.Order, 0, len(page))
	for _, o := range page {
		out = append(out, *o)
	}
	return out, total, nil
}

// lineCols are the columns scanLine reads from order_lines.
const lineCols = `order_id, idx, product, name, COALESCE(listing_id, 0), listing_name, week, categories, options,
	quantity, unit_price_cents, amount_cents, vat_cents, total_cents, effect, fulfilled_at, outcome`

// attachLines reads the lines of orders in one query, in index order. Every
// order gets a non-nil Lines.
func (s *OrderStore) attachLines(ctx context.Context, orders []*domain.Order) error {
	if len(orders) == 0 {
		return nil
	}
	byID := make(map[int64]*domain.Order, len(orders))
	args := make([]any, 0, len(orders))
	for _, o := range orders {
		o.Lines = []domain.OrderLine{}
		byID[o.ID] = o
		args = append(args, o.ID)
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+lineCols+` FROM order_lines WHERE order_id IN (`+
		placeholders(len(args))+`) ORDER BY order_id, idx`, args...)
	if err != nil {
		return mapErr(err, "order lines", "")
	}
	defer rows.Close()
	for rows.Next() {
		var orderID int64
		var l domain.OrderLine
		var cats, opts string
		var fulfilled sql.NullInt64
		if err := rows.Scan(&orderID, &l.Index, &l.Product, &l.Name, &l.ListingID, &l.ListingName, &l.Week, &cats, &opts,
			&l.Quantity, &l.UnitPriceCents, &l.AmountCents, &l.VATCents, &l.TotalCents, &l.Effect, &fulfilled,
			&l.Outcome); err != nil {
			return mapErr(err, "order lines", "")
		}
		what := fmt.Sprintf("order %d line %d", orderID, l.Index)
		if err := decodeJSON(cats, &l.Categories, what+" categories"); err != nil {
			return err
		}
		if len(l.Categories) == 0 {
			l.Categories = nil // as created: the JSON field is omitted when empty
		}
		if !emptyJSON(opts) {
			if err := decodeJSON(opts, &l.Options, what+" options"); err != nil {
				return err
			}
		}
		l.FulfilledAt = unixTime(fulfilled)
		l.Fulfilled = l.FulfilledAt != nil
		o := byID[orderID]
		o.Lines = append(o.Lines, l)
	}
	return mapErr(rows.Err(), "order lines", "")
}
