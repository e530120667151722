package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

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
