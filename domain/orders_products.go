package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Product codes. The spec names the first nine; trophy_cabinet and
// trophy_verification are the trophy-cabinet products (docs/orders.md).
const (
	ProductLaunch             = "launch"
	ProductSkipQueue          = "skip_queue"
	ProductFeatured           = "featured"
	ProductDoneForYou         = "done_for_you"
	ProductLaunchBundle       = "launch_bundle"
	ProductExtraCategories    = "extra_categories"
	ProductRelaunch           = "relaunch"
	ProductAIReview           = "ai_review"
	ProductBillboardMin       = "billboard_min"
	ProductTrophyCabinet      = "trophy_cabinet"
	ProductTrophyVerification = "trophy_verification"
)

// SectionTrophies is the trophy cabinet, unlocked by trophy_cabinet.
const SectionTrophies = "trophies"

// PaidSections are the sections a paid launch unlocks.
var PaidSections = []string{SectionMilestones, SectionMedia, SectionStory}

// Ordering limits.
const (
	// MaxExtraCategories is how many extra categories a listing may have.
	MaxExtraCategories = 3
	// PaidWeeksAhead is how many launch weeks launch and relaunch offer.
	PaidWeeksAhead = 12
	// DefaultCurrency is the currency of the default prices.
	DefaultCurrency = "USD"
)

// productDef is the fixed part of a product; its price is the admin price.
type productDef struct {
	code, name, description string
	unit                    string
	needsListing            bool
	weekRule                string
	options                 string // JSON Schema of options; "" = none
	includes                []string
	rules                   []string
	defaultCents            int64
}

var productDefs = []productDef{
	{
		code: ProductLaunch, name: "Launch", unit: "order line", needsListing: true, weekRule: WeekOptional, defaultCents: 4900,
		description: "Publishes the listing on the paid plan: live at once, or scheduled for the chosen launch week (no extra cost). " +
			"Unlocks the paid sections (story, milestones, media).",
		rules: []string{"The listing must not be live or already have a paid launch (use relaunch for a live listing)."},
	},
	{
		code: ProductSkipQueue, name: "Skip the queue", unit: "order line", needsListing: true, weekRule: WeekRequired, defaultCents: 1900,
		description: "Moves a FREE listing's launch to an earlier week than the free queue gives it. The listing stays on the free plan.",
		rules:       []string{"Only for listings on the free plan that are not live yet.", "Not in the same order as launch or launch_bundle for the listing."},
	},
	{
		code: ProductFeatured, name: "Featured", unit: "order line", needsListing: true, weekRule: WeekNone, defaultCents: 2900,
		description: "Features the listing on the home page and at the top of its category.",
		rules:       []string{"Not for a listing that is already featured."},
	},
	{
		code: ProductDoneForYou, name: "Done for you", unit: "order line", needsListing: true, weekRule: WeekNone, defaultCents: 9900,
		description: "The site team lists the product on other launch sites for you and reports where it went live.",
		options: `{"type":"object","additionalProperties":false,"properties":{` +
			`"notes":{"type":"string","maxLength":1000,"description":"Anything the team should know (launch sites to skip, preferred wording)."}}}`,
	},
	{
		code: ProductLaunchBundle, name: "Launch bundle", unit: "order line", needsListing: true, weekRule: WeekOptional, defaultCents: 7900,
		description: "Launch, Featured and AI review together, for less. The week works as for launch.",
		includes:    []string{ProductLaunch, ProductFeatured, ProductAIReview},
		rules:       []string{"The same listing rules as launch."},
	},
	{
		code: ProductExtraCategories, name: "Extra categories", unit: "category", needsListing: true, weekRule: WeekNone, defaultCents: 900,
		description: "Adds the listing to up to 3 more categories besides its primary one. Priced per category.",
		rules: []string{"categories: 1-3 category slugs, not the primary category and not ones already attached; a listing has at most 3 extra categories.",
			"For paid listings only: the listing is on the paid plan, or this order also holds launch or launch_bundle for it."},
	},
	{
		code: ProductRelaunch, name: "Relaunch", unit: "order line", needsListing: true, weekRule: WeekRequired, defaultCents: 2900,
		description: "Launches a live listing again in the chosen week: it joins that week's launches and votes.",
		rules:       []string{"Only for live listings."},
	},
	{
		code: ProductAIReview, name: "AI review", unit: "order line", needsListing: true, weekRule: WeekNone, defaultCents: 1900,
		description: "A written review of the listing and its site (positioning, pricing page, onboarding, SEO) prepared with AI and checked by the site team.",
		options: `{"type":"object","additionalProperties":false,"properties":{` +
			`"focus":{"type":"string","enum":["positioning","pricing","onboarding","seo"],"description":"What the review should look at first."}}}`,
	},
	{
		code: ProductBillboardMin, name: "Billboard contribution", unit: "amount chosen", needsListing: true, weekRule: WeekNone, defaultCents: 500,
		description: "Adds the amount chosen to the listing's billboard total: the billboard is a PAID ranking by money contributed.",
		rules:       []string{"amount_cents is required: at least min_amount_cents, at most 100000000."},
	},
	{
		code: ProductTrophyCabinet, name: "Trophy cabinet", unit: "order line", needsListing: true, weekRule: WeekNone, defaultCents: 3900,
		description: "Room for up to 100 trophies won elsewhere in the listing's trophy cabinet (a free cabinet holds 10); bought once per listing.",
	},
	{
		code: ProductTrophyVerification, name: "Trophy verification", unit: "order line", needsListing: true, weekRule: WeekNone, defaultCents: 1500,
		description: "The site team verifies one of the listing's pending trophies first (add_trophy adds it); once verified it counts and shows in the trophy cabinet.",
		options: `{"type":"object","additionalProperties":false,"required":["trophy_id"],"properties":{` +
			`"trophy_id":{"type":"integer","minimum":1,"description":"A pending trophy of this listing (list_my_trophies)."}}}`,
	},
}

// ProductCodes lists every product code, in list_products order.
func ProductCodes() []string {
	codes := make([]string, len(productDefs))
	for i, d := range productDefs {
		codes[i] = d.code
	}
	return codes
}

// DefaultPrice is a product's price until an operator sets one.
func DefaultPrice(code string) (Price, bool) {
	d, ok := lookupProduct(code)
	if !ok {
		return Price{}, false
	}
	return Price{Cents: d.defaultCents, Currency: DefaultCurrency}, true
}

func lookupProduct(code string) (*productDef, bool) {
	for i := range productDefs {
		if productDefs[i].code == code {
			return &productDefs[i], true
		}
	}
	return nil, false
}

// OptionsValidator checks an order item's options against its product's
// options schema (domain/validate.Options): the JSON Schema validator is
// domain/validate's, which the root package cannot import.
type OptionsValidator interface {
	// ProductOptions validates options against schema, the options schema
	// of product code; field names the item ("items[2].options").
	ProductOptions(field, code, schema string, options map[string]any) *FieldError
}

// checkOptions validates options against the product's schema; field names
// the item ("items[2].options"). A product without options takes none.
func (o *Ordering) checkOptions(field, code string, options map[string]any) *FieldError {
	d, ok := lookupProduct(code)
	if !ok || d.options == "" {
		if len(options) > 0 {
			return &FieldError{Field: field, Rule: "not_allowed", Message: fmt.Sprintf("%s: product %s takes no options; leave options out.", field, code)}
		}
		return nil
	}
	return o.Options.ProductOptions(field, code, d.options, options)
}

// offeredWeeks are the Mondays a product offers at now: launch and relaunch
// the next PaidWeeksAhead weeks; skip_queue the weeks before the free queue
// starts (1 to FreeWeeksMin-1 weeks out).
func (s *Service) offeredWeeks(code string, now time.Time) []string {
	d, _ := lookupProduct(code)
	if d == nil || d.weekRule == WeekNone {
		return nil
	}
	first, last := 1, PaidWeeksAhead
	if code == ProductSkipQueue {
		min := s.Site.FreeWeeksMin
		if min <= 0 {
			min = 6
		}
		last = min - 1
	}
	monday := Monday(now)
	var weeks []string
	for i := first; i <= last; i++ {
		weeks = append(weeks, monday.AddDate(0, 0, 7*i).Format(time.DateOnly))
	}
	return weeks
}

// ListProductsInput has no fields: the product list is public.
type ListProductsInput struct{}

// ListProducts lists every product at the site's current admin prices, with
// its rules, options schema and the weeks on offer.
func (s *Service) ListProducts(ctx context.Context, _ ListProductsInput) (*ProductList, error) {
	o, err := s.ordering()
	if err != nil {
		return nil, err
	}
	prices, err := o.prices(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := &ProductList{Currency: o.currency(), Items: []Product{},
		VAT: "Prices exclude VAT. EU consumers pay their country's VAT; EU businesses with a valid VAT number from another member state " +
			"get reverse charge; no VAT outside the EU. quote_order previews it from billing_country and vat_number."}
	for _, d := range productDefs {
		p := Product{
			Code: d.code, Name: d.name, Description: d.description, PriceCents: prices[d.code].Cents, Currency: prices[d.code].Currency,
			Unit: d.unit, NeedsListing: d.needsListing, WeekRule: d.weekRule, Weeks: s.offeredWeeks(d.code, now),
			Includes: d.includes, Rules: d.rules,
		}
		if d.options != "" {
			p.Options = json.RawMessage(d.options)
		}
		if d.code == ProductBillboardMin {
			p.MinAmountCents = p.PriceCents
		}
		out.Items = append(out.Items, p)
	}
	return out, nil
}

// prices returns the price of every product: the admin price where one is
// set, else the default.
func (o *Ordering) prices(ctx context.Context) (map[string]Price, error) {
	set, err := o.Store.Prices(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]Price{}
	for _, d := range productDefs {
		p, ok := set[d.code]
		if !ok {
			p, _ = DefaultPrice(d.code)
			p.Currency = o.currency()
		}
		out[d.code] = p
	}
	return out, nil
}
