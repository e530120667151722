package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Order statuses. pending and paid are the spec's; canceled and expired are
// ours: the person canceled on the checkout page, or the checkout link ran out
// (CheckoutDays) unpaid. Only a pending order can be paid.
const (
	OrderPending  = "pending"
	OrderPaid     = "paid"
	OrderCanceled = "canceled"
	OrderExpired  = "expired"
)

// Order limits and jobs.
const (
	// CheckoutDays is how long a checkout link works.
	CheckoutDays = 7
	// MaxOrderNumber is the spec's order number bound.
	MaxOrderNumber = 32
	// FulfilJob fulfils the lines of a paid order; its key is the order number.
	FulfilJob = "order.fulfil"
	// WeekStartJob makes a scheduled launch (or relaunch) live when its week
	// starts; its key is "<listing id>@<week>".
	WeekStartJob = "listing.week_start"
)

// VAT modes of a quote or an order.
const (
	// VATNoCountry: no billing country yet; the quote shows no VAT, and VAT is
	// added on the checkout page once the person enters their billing country.
	VATNoCountry = "no_country"
	// VATStandard: a consumer (or a business without a valid VAT number) in an
	// EU member state pays the VAT of their country.
	VATStandard = "standard"
	// VATDomestic: a business with a VAT number in the seller's own country pays
	// the seller's VAT.
	VATDomestic = "domestic"
	// VATReverseCharge: a business with a valid VAT number in another member
	// state pays no VAT; the buyer accounts for it (reverse charge).
	VATReverseCharge = "reverse_charge"
	// VATOutsideEU: no VAT outside the EU.
	VATOutsideEU = "outside_eu"
)

// Product week rules.
const (
	WeekNone     = "none"     // the product takes no week
	WeekOptional = "optional" // launch: omit to go live at once
	WeekRequired = "required" // skip_queue, relaunch
)

// Product is one entry of list_products: what can be bought, at the site's
// current admin price.
type Product struct {
	Code        string `json:"code" jsonschema_description:"The product code to send as items[].product."`
	Name        string `json:"name"`
	Description string `json:"description" jsonschema_description:"What the product does once paid."`
	PriceCents  int64  `json:"price_cents" jsonschema_description:"Price in cents, before VAT. For billboard_min this is the minimum amount; for extra_categories it is per category."`
	Currency    string `json:"currency" jsonschema_description:"ISO 4217 currency code of every price."`
	// Unit says what the price is for: "order line", "category" (extra_categories)
	// or "amount chosen" (billboard_min).
	Unit         string `json:"unit"`
	NeedsListing bool   `json:"needs_listing" jsonschema_description:"Items of this product must name a listing_id the caller owns."`
	// WeekRule is none, optional or required; Weeks lists the Mondays on offer.
	WeekRule string   `json:"week_rule" jsonschema:"enum=none,enum=optional,enum=required"`
	Weeks    []string `json:"weeks,omitempty" jsonschema_description:"The launch weeks on offer (Mondays, YYYY-MM-DD); items[].week must be one of them."`
	// Options is the JSON Schema items[].options must satisfy; absent when the
	// product takes no options.
	Options json.RawMessage `json:"options_schema,omitempty" jsonschema_description:"JSON Schema of items[].options; absent when the product takes no options."`
	// MinAmountCents is the billboard minimum (billboard_min only).
	MinAmountCents int64 `json:"min_amount_cents,omitempty" jsonschema_description:"billboard_min only: the smallest amount_cents accepted."`
	// Includes lists the products a bundle fulfils (launch_bundle).
	Includes []string `json:"includes,omitempty"`
	// Rules are the product's other rules, one sentence each.
	Rules []string `json:"rules,omitempty"`
}

// Price is an admin price of a product.
type Price struct {
	Cents     int64
	Currency  string
	UpdatedAt time.Time
}

// OrderItem is one item of quote_order and create_checkout (the spec's order
// item table).
type OrderItem struct {
	Product     string         `json:"product" jsonschema:"minLength=1,maxLength=60" jsonschema_description:"Product code from list_products: launch, skip_queue, featured, done_for_you, launch_bundle, extra_categories, relaunch, ai_review, billboard_min, trophy_cabinet, trophy_verification."`
	ListingID   int64          `json:"listing_id,omitempty" jsonschema:"minimum=1" jsonschema_description:"Your listing (from submit_draft or list_my_listings); required for products with needs_listing."`
	Week        string         `json:"week,omitempty" jsonschema:"maxLength=10" jsonschema_description:"Monday of a launch week, YYYY-MM-DD, one of the product's weeks. launch: optional (omit to go live at once); skip_queue and relaunch: required."`
	AmountCents int64          `json:"amount_cents,omitempty" jsonschema:"minimum=1,maximum=100000000" jsonschema_description:"billboard_min only: the amount to contribute, in cents, at least the product's min_amount_cents."`
	Categories  []string       `json:"categories,omitempty" jsonschema:"maxItems=10" jsonschema_description:"extra_categories only: 1-3 category slugs to add, not the listing's primary category."`
	Options     map[string]any `json:"options,omitempty" jsonschema_extras:"maxProperties=20" jsonschema_description:"Product options, as the product's options_schema says; only for products that have one."`
}

// OrderInput is the body quote_order and create_checkout share.
type OrderInput struct {
	Items          []OrderItem `json:"items" jsonschema:"minItems=1,maxItems=20" jsonschema_description:"1-20 items."`
	BillingCountry string      `json:"billing_country,omitempty" jsonschema:"minLength=2,maxLength=2" jsonschema_description:"ISO 3166 alpha-2 country of the buyer, for the VAT preview (the person confirms it on the checkout page)."`
	VATNumber      string      `json:"vat_number,omitempty" jsonschema:"maxLength=32" jsonschema_description:"EU VAT number with its country prefix (e.g. DE123456788); a valid number from another member state than ours gets reverse charge."`
}

// VAT is the VAT of a quote or an order.
type VAT struct {
	Mode string `json:"mode" jsonschema:"enum=no_country,enum=standard,enum=domestic,enum=reverse_charge,enum=outside_eu"`
	// Country is the billing country the VAT follows ("" for no_country).
	Country string `json:"country,omitempty"`
	// RateBasisPoints is the rate in hundredths of a percent (2100 = 21%).
	RateBasisPoints int     `json:"rate_basis_points"`
	RatePercent     float64 `json:"rate_percent"`
	Cents           int64   `json:"cents"`
	// VATNumber is the buyer's number, normalised (country prefix, no spaces).
	VATNumber string `json:"vat_number,omitempty"`
	// Checked says how the number was checked: "offline" (format and check
	// digits) or "vies" (the EU's online service confirmed it).
	Checked string `json:"vat_number_checked,omitempty"`
	// Note is one sentence for the person ("Reverse charge: ...").
	Note string `json:"note"`
	// RatesAsOf and RatesSource name the rate table used.
	RatesAsOf   string `json:"rates_as_of"`
	RatesSource string `json:"rates_source"`
}

// OrderLine is one priced item of a quote or an order.
type OrderLine struct {
	// Index is the item's position in the request, from 0.
	Index       int    `json:"index"`
	Product     string `json:"product"`
	Name        string `json:"name"`
	ListingID   int64  `json:"listing_id,omitempty"`
	ListingName string `json:"listing_name,omitempty"`
	Week        string `json:"week,omitempty"`
	// Categories are the extra categories (extra_categories).
	Categories []string       `json:"categories,omitempty"`
	Options    map[string]any `json:"options,omitempty"`
	// Quantity is the number of categories for extra_categories, 1 otherwise.
	Quantity       int   `json:"quantity"`
	UnitPriceCents int64 `json:"unit_price_cents"`
	// AmountCents is the line's price before VAT.
	AmountCents int64 `json:"amount_cents"`
	VATCents    int64 `json:"vat_cents"`
	TotalCents  int64 `json:"total_cents"`
	// Effect says what paying does for this line, in one sentence.
	Effect string `json:"effect"`
	// Fulfilled is set on orders: whether the line's effect has been applied.
	Fulfilled   bool       `json:"fulfilled"`
	FulfilledAt *time.Time `json:"fulfilled_at,omitempty"`
	// Outcome says what fulfilment did ("Live since 2026-11-21", "Scheduled for the week of 2026-12-07").
	Outcome string `json:"outcome,omitempty"`
}

// Quote is the answer of quote_order: nothing is saved or charged.
type Quote struct {
	Currency      string      `json:"currency"`
	Lines         []OrderLine `json:"lines"`
	SubtotalCents int64       `json:"subtotal_cents" jsonschema_description:"Sum of the lines before VAT, in cents."`
	VAT           VAT         `json:"vat"`
	TotalCents    int64       `json:"total_cents" jsonschema_description:"What the person pays, VAT included, in cents."`
	// Next says what to do with the quote.
	Next string `json:"next"`
}

// Billing is what the person enters on the checkout page.
type Billing struct {
	Name      string `json:"name"`
	Address   string `json:"address"`
	Country   string `json:"country"`
	VATNumber string `json:"vat_number,omitempty"`
}

// Order is a stored order.
type Order struct {
	ID            int64
	Number        string
	UserID        int64
	Status        string // as stored: pending, paid or canceled (expired is derived on read)
	Currency      string
	Lines         []OrderLine
	SubtotalCents int64
	VAT           VAT
	TotalCents    int64
	Billing       *Billing
	// Provider and ProviderRef name the payment provider and its reference
	// (a Stripe Checkout Session id) once payment has begun.
	Provider    string
	ProviderRef string
	TestMode    bool // paid through the built-in test provider
	CreatedAt   time.Time
	ExpiresAt   time.Time
	PaidAt      *time.Time
	// TokenHash is the SHA-256 hex of the order's checkout token, as stored.
	TokenHash string
}

// OrderView is an order as get_order and list_my_orders show it.
type OrderView struct {
	Number string `json:"number"`
	Status string `json:"status" jsonschema:"enum=pending,enum=paid,enum=canceled,enum=expired"`
	// CheckoutURL is shown to the order's owner (create_checkout, get_order,
	// list_my_orders) while the order can be paid; null otherwise. The
	// service keeps only a hash of the link's token (docs/orders.md).
	CheckoutURL   *string     `json:"checkout_url" jsonschema_extras:"nullable=true" jsonschema_description:"The page where the person reviews the order, enters billing details and pays; null once the order is paid, canceled or expired. Give it to the person; never ask for card details."`
	Currency      string      `json:"currency"`
	Lines         []OrderLine `json:"lines"`
	SubtotalCents int64       `json:"subtotal_cents"`
	VAT           VAT         `json:"vat"`
	TotalCents    int64       `json:"total_cents"`
	Billing       *Billing    `json:"billing,omitempty"`
	// Fulfilled is true once every line is fulfilled.
	Fulfilled bool       `json:"fulfilled"`
	TestMode  bool       `json:"test_mode,omitempty" jsonschema_description:"Paid through the built-in test provider: no money moved."`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt time.Time  `json:"expires_at" jsonschema_description:"The checkout link stops working after this time if the order is unpaid."`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	// Next says what to do now, in one sentence.
	Next string `json:"next"`
}

// OrderList is the answer of list_my_orders.
type OrderList struct {
	Items []OrderView `json:"items"`
	Page
}

// ProductList is the answer of list_products.
type ProductList struct {
	Currency string    `json:"currency"`
	Items    []Product `json:"items" jsonschema_description:"Every product, with its price and rules."`
	// VAT says how VAT is added.
	VAT string `json:"vat"`
}

// OrderListing is what ordering needs to know about a listing the caller owns.
type OrderListing struct {
	ID         int64
	Slug       string
	Name       string
	Status     string // draft, submitted, awaiting_badge, scheduled, live, ...
	Plan       string // free or paid
	LaunchWeek string // YYYY-MM-DD or ""
	Featured   bool
	// Unlocked are the sections unlocked by an order (unlocked_sections).
	Unlocked []string
	// Primary is the primary category slug ("" when none); Extra are the extra category slugs.
	Primary string
	Extra   []string
}

// PaymentEvent is a provider's confirmation that an order was paid.
type PaymentEvent struct {
	Provider string // "test", "stripe"
	// EventID is unique per provider event; a replayed event changes nothing.
	EventID     string
	OrderNumber string
	Ref         string // the provider's reference (Checkout Session id)
	AmountCents int64
	Currency    string
	TestMode    bool
}

// Fulfilment is the effect of one order line on its listing, applied by the
// store together with marking the line fulfilled, in one transaction.
type Fulfilment struct {
	ListingID int64
	// Launch makes the listing a paid listing (plan paid, paid sections unlocked):
	// live at once when LaunchWeek is "", else scheduled for LaunchWeek.
	Launch     bool
	LaunchWeek string
	// QueueWeek replaces the free-queue week (skip_queue).
	QueueWeek string
	// Featured marks the listing featured.
	Featured bool
	// ExtraCategories are category slugs attached as extra categories.
	ExtraCategories []string
	// RelaunchWeek schedules a relaunch: the live listing joins that week's launches.
	RelaunchWeek string
	// BillboardCents adds a contribution to the listing's billboard total.
	BillboardCents int64
	Currency       string
	// Unlock adds sections to the listing's unlocked paid sections.
	Unlock []string
	// Work are items for the site team (ai_review, done_for_you, trophy_verification).
	Work []WorkItem
	// Outcome is stored on the line ("Live since ...").
	Outcome string
}

// WorkItem is a task for the site team, created by a paid line.
type WorkItem struct {
	ID          int64          `json:"id"`
	Kind        string         `json:"kind"` // ai_review, done_for_you, trophy_verification
	ListingID   int64          `json:"listing_id"`
	OrderNumber string         `json:"order_number"`
	Details     map[string]any `json:"details,omitempty"`
	Status      string         `json:"status"` // open, done
	CreatedAt   time.Time      `json:"created_at"`
	DoneAt      *time.Time     `json:"done_at,omitempty"`
}

// OrderStore is what ordering needs from persistence. Not-found conditions
// are *Error with ENotFound.
type OrderStore interface {
	// Prices returns the admin price of every product that has one, by code.
	Prices(ctx context.Context) (map[string]Price, error)
	// SetPrice sets one product's admin price (the admin subcommand and page).
	SetPrice(ctx context.Context, code string, p Price) error

	// OrderListing returns a listing userID owns; ENotFound when it does not
	// exist or is not theirs (the two are not told apart).
	OrderListing(ctx context.Context, userID, listingID int64) (*OrderListing, error)
	// CategoryExists reports whether slug is a category of the site.
	CategoryExists(ctx context.Context, slug string) (bool, error)

	// CheckoutKey returns the key checkout tokens are derived from
	// (checkoutToken), one for the database, created on first use.
	CheckoutKey(ctx context.Context) ([]byte, error)
	// CreateOrder stores o (status pending, its lines) with the SHA-256 hex of
	// its checkout token, and sets o.ID and o.TokenHash. o.Number is unique.
	CreateOrder(ctx context.Context, o *Order, tokenHash string) error
	// UserOrder returns userID's order by number; ENotFound for someone else's.
	UserOrder(ctx context.Context, userID int64, number string) (*Order, error)
	// TokenOrder returns the order whose checkout token hashes to tokenHash.
	TokenOrder(ctx context.Context, tokenHash string) (*Order, error)
	// NumberOrder returns an order by number, whoever owns it (payment webhooks, jobs).
	NumberOrder(ctx context.Context, number string) (*Order, error)
	// UserOrders lists userID's orders, newest first, and their total count.
	UserOrders(ctx context.Context, userID int64, offset, limit int) ([]Order, int, error)

	// SaveBilling stores billing details and the VAT they give (lines with
	// their VAT, totals) on a pending order; EConflict when it is not pending.
	SaveBilling(ctx context.Context, orderID int64, b Billing, vat VAT, lines []OrderLine, subtotal, total int64) error
	// BeginPayment records the provider and its reference on a pending order.
	BeginPayment(ctx context.Context, orderID int64, provider, ref string) error
	// CancelOrder cancels a pending order; EConflict when it is not pending.
	CancelOrder(ctx context.Context, orderID int64, at time.Time) error
	// MarkPaid records ev, marks the order paid and stores jobs (its
	// fulfilment), in one transaction. It returns false, changing nothing,
	// when the event was recorded before or the order is already paid.
	MarkPaid(ctx context.Context, orderID int64, ev PaymentEvent, at time.Time, jobs ...JobSpec) (bool, error)
	// FulfilLine applies f, marks line index of the order fulfilled and
	// stores jobs (the start of its weeks), in one transaction; a line
	// already fulfilled is left alone (false).
	FulfilLine(ctx context.Context, orderID int64, index int, f Fulfilment, at time.Time, jobs ...JobSpec) (bool, error)
	// StartWeek makes listingID's launch of week happen: a listing scheduled
	// for week goes live, and a relaunch booked for week moves the live listing
	// into week's launches. false when there was nothing to do.
	StartWeek(ctx context.Context, listingID int64, week string, at time.Time) (bool, error)

	// WorkItems lists the site team's work items, open ones first, newest first.
	WorkItems(ctx context.Context, offset, limit int) ([]WorkItem, int, error)
	// FinishWorkItem marks a work item done.
	FinishWorkItem(ctx context.Context, id int64, at time.Time) error
	// AllOrders lists every order, newest first (the admin page).
	AllOrders(ctx context.Context, offset, limit int) ([]Order, int, error)
}

// Payments is a payment provider behind the checkout page. The page never
// takes card details itself: the provider's own page does.
type Payments interface {
	// Name is the provider's key, stored on the order ("test", "stripe").
	Name() string
	// TestMode reports that no real money moves; the checkout page says so plainly.
	TestMode() bool
	// Begin starts paying o: it returns the URL the person's browser goes to
	// next (the provider's payment page) and the provider's reference.
	Begin(ctx context.Context, o *Order, pages CheckoutPages) (redirectURL, ref string, err error)
}

// CheckoutPages are the addresses of one order's checkout page.
type CheckoutPages struct {
	// Page is the checkout page itself (https://host/checkout/<token>).
	Page string
	// Return is where the provider sends the person after paying.
	Return string
	// Cancel is where the provider sends the person when they give up.
	Cancel string
}

// VATRules are the EU VAT rate table and the offline VAT number check. The
// adapter is domain/vat (vat.Rules), which names the table's date and source.
type VATRules interface {
	// StandardRate is a member state's standard rate in basis points (2100 =
	// 21%); eu is false outside the EU.
	StandardRate(country string) (basisPoints int, eu bool)
	// ParseVATNumber normalises raw and checks its prefix, format and check
	// digits offline. A bad number is an *Error (EInvalid) with rule prefix,
	// format or checksum and a message a person can act on.
	ParseVATNumber(raw string) (VATNumber, error)
	RatesAsOf() string
	RatesSource() string
}

// VATNumber is a checked EU VAT number.
type VATNumber struct {
	Country string // ISO 3166 alpha-2 of the member state (GR for Greece)
	Prefix  string // the VAT prefix (EL for Greece)
	Local   string // the number without its prefix
}

func (n VATNumber) String() string { return n.Prefix + n.Local }

// VATChecker confirms a VAT number online (the EU's VIES service).
type VATChecker interface {
	// CheckVAT reports whether the member state's register knows number
	// (without its country prefix). An error means the service could not answer.
	CheckVAT(ctx context.Context, country, number string) (valid bool, err error)
}
