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
	"slices"
	"strings"
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

// orderCheck is one pricing of an order: its items, what the items share,
// and the item errors found so far.
type orderCheck struct {
	s      *Service
	o      *Ordering
	c      Caller
	in     OrderInput
	now    time.Time
	prices map[string]Price
	// listings are the caller's listings the items name, read once each.
	listings map[int64]*OrderListing
	// groups catches two items that would fight over one listing ("launch"
	// twice, launch and skip_queue, featured and a bundle).
	groups map[string]int
	// launching are the listings this order launches on the paid plan: they
	// may take paid extras (extra_categories) in the same order.
	launching map[int64]bool
	errs      []FieldError
}

// badFunc records an error of one field of the item being checked.
type badFunc = func(name, rule, format string, args ...any)

// item checks item i and returns its priced line, or nil when it has
// errors (recorded in k.errs).
func (k *orderCheck) item(ctx context.Context, i int, it OrderItem) (*OrderLine, error) {
	field := func(name string) string { return fmt.Sprintf("items[%d].%s", i, name) }
	bad := func(name, rule, format string, args ...any) {
		k.errs = append(k.errs, FieldError{Field: field(name), Rule: rule, Message: field(name) + ": " + fmt.Sprintf(format, args...)})
	}
	d, ok := lookupProduct(it.Product)
	if !ok {
		bad("product", "exists", "no product %q; list_products names them (%s).", it.Product, strings.Join(ProductCodes(), ", "))
		return nil, nil
	}
	before := len(k.errs)
	l, err := k.listing(ctx, d, it, bad)
	if err != nil {
		return nil, err
	}
	k.checkWeek(d, it, bad)
	price := k.prices[d.code]
	checkAmount(d, it, price, bad)
	// Categories.
	if d.code == ProductExtraCategories {
		k.s.checkExtraCategories(ctx, k.o, it, l, field, bad)
	} else if len(it.Categories) > 0 {
		bad("categories", "not_allowed", "categories is for extra_categories only.")
	}
	// Options.
	if fe := k.o.checkOptions(field("options"), d.code, it.Options); fe != nil {
		k.errs = append(k.errs, *fe)
	} else if d.code == ProductTrophyVerification && l != nil {
		if err := k.s.checkPaidTrophy(ctx, it, l, bad); err != nil {
			return nil, err
		}
	}
	if l != nil {
		k.checkListingState(i, d, l, bad)
		if err := k.checkSiteFree(ctx, d, l, bad); err != nil {
			return nil, err
		}
	}
	if len(k.errs) > before {
		return nil, nil
	}
	line := OrderLine{Index: i, Product: d.code, Name: d.name, ListingID: it.ListingID, Week: it.Week,
		Categories: it.Categories, Options: it.Options, Quantity: 1, UnitPriceCents: price.Cents}
	if l != nil {
		line.ListingName = l.Name
	}
	switch d.code {
	case ProductExtraCategories:
		line.Quantity = len(it.Categories)
	case ProductBillboardMin:
		line.UnitPriceCents = it.AmountCents
	}
	line.AmountCents = line.UnitPriceCents * int64(line.Quantity)
	line.Effect = effectText(d, line)
	return &line, nil
}

// listing checks the item's listing_id against its product and returns the
// caller's listing it names (nil when the product takes none or it is not
// theirs).
func (k *orderCheck) listing(ctx context.Context, d *productDef, it OrderItem, bad badFunc) (*OrderListing, error) {
	switch {
	case d.needsListing && it.ListingID == 0:
		bad("listing_id", "required", "product %s needs listing_id: the id of your listing (submit_draft returns it).", d.code)
	case !d.needsListing && it.ListingID != 0:
		bad("listing_id", "not_allowed", "product %s is not for a listing; leave listing_id out.", d.code)
	case d.needsListing:
		if l := k.listings[it.ListingID]; l != nil {
			return l, nil
		}
		l, err := k.o.Store.OrderListing(ctx, k.c.UserID, it.ListingID)
		if ErrorCode(err) == ENotFound {
			bad("listing_id", "exists", "you have no listing %d (list_my_listings shows yours).", it.ListingID)
			return nil, nil
		} else if err != nil {
			return nil, err
		}
		k.listings[it.ListingID] = l
		return l, nil
	}
	return nil, nil
}

// checkWeek checks the item's week against its product's week rule and the
// weeks offered now.
func (k *orderCheck) checkWeek(d *productDef, it OrderItem, bad badFunc) {
	switch {
	case d.weekRule == WeekNone && it.Week != "":
		bad("week", "not_allowed", "product %s takes no week; leave week out.", d.code)
	case d.weekRule == WeekRequired && it.Week == "":
		bad("week", "required", "product %s needs week: one of the Mondays list_products offers for it (%s).", d.code, weekHint(k.s.offeredWeeks(d.code, k.now)))
	case it.Week != "":
		t, perr := time.Parse(time.DateOnly, it.Week)
		switch {
		case !weekRE.MatchString(it.Week) || perr != nil:
			bad("week", "date", "%q is not a date: send the Monday of the week as YYYY-MM-DD.", it.Week)
		case t.Weekday() != time.Monday:
			bad("week", "monday", "%s is a %s: launch weeks start on Monday (%s).", it.Week, t.Weekday(), Monday(t).Format(time.DateOnly))
		case !slices.Contains(k.s.offeredWeeks(d.code, k.now), it.Week):
			bad("week", "offered", "%s is not a week %s offers; choose one of %s.", it.Week, d.code, weekHint(k.s.offeredWeeks(d.code, k.now)))
		}
	}
}

// checkAmount checks amount_cents: the contribution of billboard_min, absent
// on every fixed-price product.
func checkAmount(d *productDef, it OrderItem, price Price, bad badFunc) {
	switch {
	case d.code == ProductBillboardMin && it.AmountCents == 0:
		bad("amount_cents", "required", "billboard_min needs amount_cents: the amount to contribute in cents, at least %d.", price.Cents)
	case d.code == ProductBillboardMin && it.AmountCents < price.Cents:
		bad("amount_cents", "minimum", "%d is below the billboard minimum of %d cents.", it.AmountCents, price.Cents)
	case d.code == ProductBillboardMin && it.AmountCents > 100000000:
		bad("amount_cents", "maximum", "%d is above the maximum of 100000000 cents.", it.AmountCents)
	case d.code != ProductBillboardMin && it.AmountCents != 0:
		bad("amount_cents", "not_allowed", "amount_cents is for billboard_min only; %s has a fixed price.", d.code)
	}
}

// checkListingState checks the listing's state for the product, and items of
// the order fighting over one listing.
func (k *orderCheck) checkListingState(i int, d *productDef, l *OrderListing, bad badFunc) {
	if rule, msg := listingRule(d.code, l); rule != "" {
		bad("listing_id", rule, "%s", msg)
	}
	if d.code == ProductExtraCategories && l.Plan != PlanPaid && !k.launching[l.ID] {
		bad("listing_id", "paid_only", "extra categories are for paid listings; listing %d is on the free plan: add launch (or launch_bundle) for it to this order, or order the launch first.", l.ID)
	}
	for _, g := range productGroups(d.code) {
		key := fmt.Sprintf("%d/%s", l.ID, g)
		if j, dup := k.groups[key]; dup {
			bad("product", "conflict", "items[%d] already orders %s for listing %d; one order can hold only one of launch, launch_bundle and skip_queue, and one featured (launch_bundle includes it), per listing.", j, k.in.Items[j].Product, l.ID)
			break
		}
		k.groups[key] = i
	}
}

// checkSiteFree refuses to launch a listing whose site someone else already
// has a public listing of (the first to publish keeps it): before any money is
// taken.
func (k *orderCheck) checkSiteFree(ctx context.Context, d *productDef, l *OrderListing, bad badFunc) error {
	if d.code != ProductLaunch && d.code != ProductLaunchBundle {
		return nil
	}
	mine, err := k.s.GetMyListing(ctx, GetMyListingInput{ListingID: l.ID})
	if err != nil {
		return err
	}
	other, err := k.s.publishedByOther(ctx, k.c.UserID, l.ID, mine.URL)
	if err != nil || other == nil {
		return err
	}
	bad("listing_id", "site_listed", "%s", siteTakenMessage(l.ID, other))
	return nil
}

func weekHint(weeks []string) string {
	if len(weeks) == 0 {
		return "none right now"
	}
	if len(weeks) <= 3 {
		return strings.Join(weeks, ", ")
	}
	return weeks[0] + " to " + weeks[len(weeks)-1] + ", Mondays"
}

// productGroups are the per-listing slots a product takes in one order.
func productGroups(code string) []string {
	switch code {
	case ProductLaunch, ProductSkipQueue:
		return []string{"launch"}
	case ProductLaunchBundle:
		return []string{"launch", "featured", "ai_review"}
	case ProductFeatured:
		return []string{"featured"}
	case ProductAIReview:
		return []string{"ai_review"}
	case ProductRelaunch, ProductTrophyCabinet, ProductExtraCategories:
		return []string{code}
	}
	return nil
}

// listingRule checks a product against the listing's state; it returns the
// rule broken and a message, or "".
func listingRule(code string, l *OrderListing) (rule, msg string) {
	launched := l.Status == "live" || (l.Status == "scheduled" && l.Plan == "paid")
	if l.Status == ListingHidden || l.Status == ListingMerged { // the site team's (docs/console.md "Listings")
		return "state", fmt.Sprintf("listing %d is %s by the site team (get_my_listing says why) and cannot be ordered for.", l.ID, l.Status)
	}
	switch code {
	case ProductLaunch, ProductLaunchBundle:
		if l.Status == "live" {
			return "state", fmt.Sprintf("listing %d is already live; order relaunch to launch it again.", l.ID)
		}
		if launched {
			return "state", fmt.Sprintf("listing %d already has a paid launch scheduled for the week of %s.", l.ID, l.LaunchWeek)
		}
		if l.Status == "rejected" || l.Status == "archived" {
			return "state", fmt.Sprintf("listing %d is %s and cannot be launched.", l.ID, l.Status)
		}
	case ProductSkipQueue:
		if l.Plan != "free" {
			return "free_only", fmt.Sprintf("skip_queue is for free listings; listing %d is on the paid plan, whose launch week is chosen on launch.", l.ID)
		}
		if l.Status == "live" {
			return "state", fmt.Sprintf("listing %d is already live.", l.ID)
		}
	case ProductRelaunch:
		if l.Status != "live" {
			return "state", fmt.Sprintf("relaunch is for live listings; listing %d is %s (order launch instead).", l.ID, l.Status)
		}
	case ProductFeatured:
		if l.Featured {
			return "state", fmt.Sprintf("listing %d is already featured.", l.ID)
		}
	case ProductTrophyCabinet:
		if slices.Contains(l.Unlocked, SectionTrophies) {
			return "state", fmt.Sprintf("listing %d has the trophy cabinet section unlocked already; there is nothing more to buy.", l.ID)
		}
	}
	return "", ""
}

// checkExtraCategories checks the categories of an extra_categories item.
func (s *Service) checkExtraCategories(ctx context.Context, o *Ordering, it OrderItem, l *OrderListing,
	field func(string) string, bad func(name, rule, format string, args ...any)) {
	switch {
	case len(it.Categories) == 0:
		bad("categories", "required", "extra_categories needs categories: 1-3 category slugs (list_categories lists them).")
		return
	case len(it.Categories) > MaxExtraCategories:
		bad("categories", "maxItems", "at most %d extra categories per listing; %d sent.", MaxExtraCategories, len(it.Categories))
		return
	}
	seen := map[string]bool{}
	for j, slug := range it.Categories {
		name := fmt.Sprintf("categories[%d]", j)
		switch {
		case seen[slug]:
			bad(name, "unique", "%q is listed twice.", slug)
			continue
		case l != nil && slug == l.Primary:
			bad(name, "primary", "%q is the listing's primary category already; choose other categories.", slug)
			continue
		case l != nil && slices.Contains(l.Extra, slug):
			bad(name, "attached", "the listing is already in %q.", slug)
			continue
		}
		seen[slug] = true
		ok, err := o.Store.CategoryExists(ctx, slug)
		if err != nil || !ok {
			bad(name, "exists", "no category %q (list_categories lists the slugs).", slug)
		}
	}
	if l != nil && len(l.Extra)+len(it.Categories) > MaxExtraCategories {
		bad("categories", "maxItems", "listing %d has %d extra categories already; at most %d in all, so add at most %d.",
			l.ID, len(l.Extra), MaxExtraCategories, MaxExtraCategories-len(l.Extra))
	}
}

// effectText says what paying a line does.
func effectText(d *productDef, l OrderLine) string {
	switch d.code {
	case ProductLaunch, ProductLaunchBundle:
		extra := ""
		if d.code == ProductLaunchBundle {
			extra = "; featured; an AI review for the site team to deliver"
		}
		if l.Week == "" {
			return "Goes live at once on the paid plan, with story, milestones and media unlocked" + extra + "."
		}
		return "Scheduled for the launch week of " + l.Week + " on the paid plan, live when the week starts" + extra + "."
	case ProductSkipQueue:
		return "The free launch moves to the week of " + l.Week + "."
	case ProductFeatured:
		return "Featured on the home page and at the top of its category."
	case ProductDoneForYou:
		return "The site team lists the product on other launch sites."
	case ProductExtraCategories:
		return "Added to " + strings.Join(l.Categories, ", ") + "."
	case ProductRelaunch:
		return "Relaunched in the week of " + l.Week + "."
	case ProductAIReview:
		return "The site team delivers an AI-assisted review."
	case ProductBillboardMin:
		return "The amount of this line is added to the listing's billboard total (a paid ranking)."
	case ProductTrophyCabinet:
		return "The trophy cabinet holds up to 100 trophies won elsewhere (10 when free)."
	case ProductTrophyVerification:
		return "The site team verifies the trophy first; once verified it counts and shows in the trophy cabinet."
	}
	return ""
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
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.ordering()
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
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.ordering()
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
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.ordering()
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
