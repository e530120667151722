package domain

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"time"
)

// Ordering is what the order operations need beyond the Store.
type Ordering struct {
	Store OrderStore
	// Payments is the payment provider of the checkout page: the built-in
	// TestPayments (the embedded default) or Stripe.
	Payments Payments
	// VAT is the rate table and offline VAT number check (vat.Rules).
	VAT VATRules
	// VIES confirms VAT numbers online; nil checks them offline only.
	VIES VATChecker
	// Options checks products' options (&validate.Options{}).
	Options OptionsValidator
	// EnqueueAt adds a durable job due at a time (Runner.EnqueueAt).
	EnqueueAt func(ctx context.Context, kind, key string, payload any, at time.Time) error
	// Currency of every price; default USD.
	Currency string
	// SellerCountry is the member state the site sells from (its VAT
	// registration): a business there pays domestic VAT. Default IE.
	SellerCountry string
}

func (o *Ordering) currency() string {
	if o.Currency == "" {
		return DefaultCurrency
	}
	return o.Currency
}

func (o *Ordering) sellerCountry() string {
	if o.SellerCountry == "" {
		return "IE"
	}
	return o.SellerCountry
}

func (s *Service) ordering() (*Ordering, error) {
	if s.Orders == nil || s.Orders.Store == nil || s.Orders.VAT == nil {
		return nil, errors.New("ordering is not configured (it needs a Store and VAT rules)")
	}
	return s.Orders, nil
}

// CheckoutPath is the path of an order's checkout page, under the site's origin.
const CheckoutPath = "/checkout/"

var weekRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// priced is an order being built: its lines and what fulfilling them needs.
type priced struct {
	currency string
	lines    []OrderLine
	subtotal int64
}

// price validates every item of in against the order item rules and prices
// it at the current admin prices. All item errors are reported together,
// each naming its item ("items[2].week").
func (s *Service) price(ctx context.Context, c Caller, in OrderInput) (*priced, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, err
	}
	if len(in.Items) == 0 || len(in.Items) > 20 {
		return nil, Invalid("items", "minItems", "items: send 1-20 order items.")
	}
	prices, err := o.prices(ctx)
	if err != nil {
		return nil, err
	}
	k := &orderCheck{s: s, o: o, c: c, in: in, now: s.now(), prices: prices,
		listings: map[int64]*OrderListing{}, groups: map[string]int{}, launching: map[int64]bool{}}
	for _, it := range in.Items {
		if it.Product == ProductLaunch || it.Product == ProductLaunchBundle {
			k.launching[it.ListingID] = true
		}
	}
	p := &priced{currency: o.currency()}
	for i, it := range in.Items {
		line, err := k.item(ctx, i, it)
		if err != nil {
			return nil, err
		}
		if line != nil {
			p.lines = append(p.lines, *line)
			p.subtotal += line.AmountCents
		}
	}
	if len(k.errs) > 0 {
		msg := k.errs[0].Message
		if len(k.errs) > 1 {
			msg += fmt.Sprintf(" (and %d more problems, listed in fields)", len(k.errs)-1)
		}
		return nil, &Error{Code: EInvalid, Message: msg, Fields: k.errs}
	}
	return p, nil
}

// QuoteOrder prices items with a VAT preview; nothing is saved or charged.
func (s *Service) QuoteOrder(ctx context.Context, in OrderInput) (*Quote, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	p, vat, err := s.priceWithVAT(ctx, c, in)
	if err != nil {
		return nil, err
	}
	q := &Quote{Currency: p.currency, Lines: p.lines, SubtotalCents: p.subtotal, VAT: vat, TotalCents: p.subtotal + vat.Cents,
		Next: "Nothing is saved. To buy, call create_checkout with the same body and give its checkout_url to the person; they pay on that page."}
	return q, nil
}

func (s *Service) priceWithVAT(ctx context.Context, c Caller, in OrderInput) (*priced, VAT, error) {
	p, err := s.price(ctx, c, in)
	if err != nil {
		return nil, VAT{}, err
	}
	vat, err := s.vatFor(ctx, "billing_country", "vat_number", in.BillingCountry, in.VATNumber)
	if err != nil {
		return nil, VAT{}, err
	}
	p.lines, vat.Cents = applyVAT(p.lines, vat.RateBasisPoints)
	return p, vat, nil
}

// applyVAT sets each line's VAT (rounded half up per line) and returns the
// lines and the VAT total.
func applyVAT(lines []OrderLine, bp int) ([]OrderLine, int64) {
	var total int64
	for i := range lines {
		lines[i].VATCents = (lines[i].AmountCents*int64(bp) + 5000) / 10000
		lines[i].TotalCents = lines[i].AmountCents + lines[i].VATCents
		total += lines[i].VATCents
	}
	return lines, total
}

// CreateCheckout builds a pending order from items and returns it with its
// checkout_url, the page where the person pays.
func (s *Service) CreateCheckout(ctx context.Context, in OrderInput) (*OrderView, error) {
	c, o, err := callerWith(ctx, s.ordering)
	if err != nil {
		return nil, err
	}
	p, vat, err := s.priceWithVAT(ctx, c, in)
	if err != nil {
		return nil, err
	}
	now := s.now()
	ord := &Order{
		Number: newOrderNumber(now), UserID: c.UserID, Status: OrderPending, Currency: p.currency, Lines: p.lines,
		SubtotalCents: p.subtotal, VAT: vat, TotalCents: p.subtotal + vat.Cents,
		CreatedAt: now, ExpiresAt: now.Add(CheckoutDays * 24 * time.Hour),
	}
	if in.BillingCountry != "" || in.VATNumber != "" {
		// The preview's country and number start the billing form; the person confirms them.
		ord.Billing = &Billing{Country: vat.Country, VATNumber: vat.VATNumber}
	}
	key, err := o.Store.CheckoutKey(ctx)
	if err != nil {
		return nil, err
	}
	token := checkoutToken(key, ord.Number)
	if err := o.Store.CreateOrder(ctx, ord, SecretHash(token)); err != nil {
		return nil, err
	}
	v := s.orderView(ord)
	link := s.Site.In(ctx).URL(CheckoutPath + token)
	v.CheckoutURL = &link
	v.Next = "Give checkout_url to the person: they review the order, enter billing details and pay on that page (never ask them for " +
		"card details). Then call get_order with number to see it paid and fulfilled. The link works for " +
		fmt.Sprint(CheckoutDays) + " days; get_order and list_my_orders show it again until then."
	return v, nil
}

// checkoutToken is the token of order number's checkout link:
// HMAC-SHA256(key, "checkout" NUL number), base64url without padding (43
// characters, like newSecret). Derived rather than random, so that the
// owner's reads can show the link again while the store keeps only its hash
// (docs/orders.md "The checkout link").
func checkoutToken(key []byte, number string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("checkout\x00" + number))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// withCheckoutURL sets v.CheckoutURL to the order's checkout link when the
// order can still be paid (pending, not expired) and the link derived again
// is the order's (an order made before links were derived, or under
// another key, has none to show). Only the owner's reads call it.
func (s *Service) withCheckoutURL(ctx context.Context, key []byte, ord *Order, v *OrderView) {
	if v.Status != OrderPending || ord.TokenHash == "" {
		return
	}
	token := checkoutToken(key, ord.Number)
	if subtle.ConstantTimeCompare([]byte(SecretHash(token)), []byte(ord.TokenHash)) != 1 {
		return
	}
	link := s.Site.In(ctx).URL(CheckoutPath + token)
	v.CheckoutURL = &link
	v.Next = "Waiting for the person to pay: give them checkout_url (they review the order, enter billing details and pay there) " +
		"and call get_order again later. The link works until expires_at."
}

// ownerViews renders orders of their owner, each with its checkout link
// while it can be paid.
func (s *Service) ownerViews(ctx context.Context, o *Ordering, orders []Order) ([]OrderView, error) {
	out := make([]OrderView, 0, len(orders))
	var key []byte
	for i := range orders {
		v := s.orderView(&orders[i])
		if v.Status == OrderPending && key == nil {
			var err error
			if key, err = o.Store.CheckoutKey(ctx); err != nil {
				return nil, err
			}
		}
		s.withCheckoutURL(ctx, key, &orders[i], v)
		out = append(out, *v)
	}
	return out, nil
}

// AccountOrders lists userID's most recent orders (at most limit), newest
// first, for their account page: each with its checkout link while it can
// be paid. The caller must have signed userID in.
func (s *Service) AccountOrders(ctx context.Context, userID int64, limit int) ([]OrderView, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, err
	}
	orders, _, err := o.Store.UserOrders(ctx, userID, 0, limit)
	if err != nil {
		return nil, err
	}
	return s.ownerViews(ctx, o, orders)
}

// newOrderNumber is LD-YYMMDD-XXXXXXXX: sortable by day, 8 random base32 characters.
func newOrderNumber(now time.Time) string {
	return "LD-" + now.Format("060102") + "-" + base32.StdEncoding.EncodeToString(RandomBytes(5))
}

// orderStatus derives expired from a pending order's expiry.
func (s *Service) orderStatus(o *Order) string {
	if o.Status == OrderPending && !s.now().Before(o.ExpiresAt) {
		return OrderExpired
	}
	return o.Status
}

// orderView renders a stored order.
func (s *Service) orderView(o *Order) *OrderView {
	v := &OrderView{
		Number: o.Number, Status: s.orderStatus(o), Currency: o.Currency, Lines: o.Lines, SubtotalCents: o.SubtotalCents,
		VAT: o.VAT, TotalCents: o.TotalCents, Billing: o.Billing, TestMode: o.TestMode, CreatedAt: o.CreatedAt,
		ExpiresAt: o.ExpiresAt, PaidAt: o.PaidAt, Fulfilled: len(o.Lines) > 0,
	}
	if v.Lines == nil {
		v.Lines = []OrderLine{}
	}
	for _, l := range o.Lines {
		if !l.Fulfilled {
			v.Fulfilled = false
		}
	}
	switch {
	case v.Status == OrderPending:
		v.Next = "Waiting for the person to pay on the checkout page (the checkout_url create_checkout returned). Check again later."
	case v.Status == OrderPaid && v.Fulfilled:
		v.Next = "Paid and fulfilled: each line's outcome says what happened."
	case v.Status == OrderPaid:
		v.Next = "Paid; the lines are being fulfilled. Call get_order again in a few seconds."
	default:
		v.Next = "Not paid, and it can no longer be paid. Call create_checkout again for a new checkout link."
	}
	return v
}

// ListMyOrdersInput pages the caller's orders.
type ListMyOrdersInput struct {
	Pagination
}

// ListMyOrders lists the caller's orders, newest first, with status.
func (s *Service) ListMyOrders(ctx context.Context, in ListMyOrdersInput) (*OrderList, error) {
	c, o, err := callerWith(ctx, s.ordering)
	if err != nil {
		return nil, err
	}
	orders, total, err := o.Store.UserOrders(ctx, c.UserID, in.Offset(), in.Limit())
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	items, err := s.ownerViews(ctx, o, orders)
	if err != nil {
		return nil, err
	}
	return &OrderList{Items: items, Page: NewPage(page, per, total)}, nil
}

// GetOrderInput names an order.
type GetOrderInput struct {
	Number string `json:"number" jsonschema:"minLength=1,maxLength=32" jsonschema_description:"The order number create_checkout or list_my_orders returned."`
}

// GetOrder returns one of the caller's orders: status, totals with VAT,
// lines and whether each was fulfilled. 404 for someone else's.
func (s *Service) GetOrder(ctx context.Context, in GetOrderInput) (*OrderView, error) {
	c, o, err := callerWith(ctx, s.ordering)
	if err != nil {
		return nil, err
	}
	ord, err := o.Store.UserOrder(ctx, c.UserID, in.Number)
	if err != nil {
		return nil, err
	}
	views, err := s.ownerViews(ctx, o, []Order{*ord})
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}
