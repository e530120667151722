package domain

import (
	"context"
	"strconv"
)

// CompareListingsInput is the input of compare_listings (GET /compare).
type CompareListingsInput struct {
	A string `json:"a" jsonschema:"required,maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Slug of the first listing."`
	B string `json:"b" jsonschema:"required,maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Slug of the second listing."`
}

// CompareRow is one attribute side by side. A row applies to the listings
// in AppliesTo: the general facts to both, a category's attribute to a
// listing in that category (or that states a value for it). An empty cell
// of a listing the row applies to means the listing does not state the
// fact (it is never guessed); of another listing, that the attribute does
// not apply to it.
type CompareRow struct {
	Key       string   `json:"key"`
	Label     string   `json:"label"`
	Category  string   `json:"category,omitempty" jsonschema_description:"The category whose comparison attribute this is; absent for the general facts."`
	A         string   `json:"a"`
	B         string   `json:"b"`
	AppliesTo []string `json:"applies_to" jsonschema:"uniqueItems=true,enum=a,enum=b" jsonschema_description:"The listings (a, b) the row applies to. An empty cell of one of them: not stated; of the other: does not apply."`
}

// CompareListingsOutput compares two listings on their categories' attributes.
type CompareListingsOutput struct {
	A          ListingSummary `json:"a"`
	B          ListingSummary `json:"b"`
	Categories []CategoryRef  `json:"categories" jsonschema_description:"Primary categories whose comparison attributes are used."`
	Rows       []CompareRow   `json:"rows"`
}

// CompareListings puts two listings side by side using their primary categories'
// comparison attributes plus the general facts every listing may state.
func (s *Service) CompareListings(ctx context.Context, in CompareListingsInput) (CompareListingsOutput, error) {
	if in.A == in.B {
		return CompareListingsOutput{}, Invalid("b", "not_equal", "b must name a different listing than a.")
	}
	la, err := s.publicListing(ctx, in.A)
	if err != nil {
		return CompareListingsOutput{}, err
	}
	lb, err := s.publicListing(ctx, in.B)
	if err != nil {
		return CompareListingsOutput{}, err
	}
	attrA, err := s.Store.ListingAttributes(ctx, in.A)
	if err != nil {
		return CompareListingsOutput{}, err
	}
	attrB, err := s.Store.ListingAttributes(ctx, in.B)
	if err != nil {
		return CompareListingsOutput{}, err
	}
	out := CompareListingsOutput{A: la.ListingSummary, B: lb.ListingSummary, Categories: []CategoryRef{}}
	general := []struct {
		key, label string
		get        func(*Listing) string
	}{
		{"pricing_model", "Pricing model", func(l *Listing) string { return l.PricingModel }},
		{"pricing_summary", "Pricing", func(l *Listing) string { return l.PricingSummary }},
		{"stage", "Business stage", func(l *Listing) string { return l.Stage }},
		{"country", "Country", func(l *Listing) string { return l.Country }},
		{"founded_year", "Founded", func(l *Listing) string {
			if l.FoundedYear == nil {
				return ""
			}
			return strconv.Itoa(*l.FoundedYear)
		}},
		{"votes", "Community votes", func(l *Listing) string { return strconv.Itoa(l.Votes) }},
		{"rating", "Community rating", func(l *Listing) string {
			r := l.CommunityRating
			if r == nil {
				return ""
			}
			reviews := " reviews)"
			if r.Count == 1 {
				reviews = " review)"
			}
			return strconv.FormatFloat(r.Average, 'f', 1, 64) + " (" + strconv.Itoa(r.Count) + reviews
		}},
		{"domain_rating", "Domain Rating", func(l *Listing) string {
			if l.DomainRating == nil {
				return ""
			}
			return strconv.Itoa(l.DomainRating.Current)
		}},
	}
	for _, g := range general {
		out.Rows = append(out.Rows, CompareRow{Key: g.key, Label: g.label, A: g.get(la), B: g.get(lb), AppliesTo: []string{"a", "b"}})
	}
	// applies says whether the attribute key of category cat is one of l's:
	// l is in the category (primary or not) or states a value for it.
	applies := func(l *Listing, attrs map[string]string, cat, key string) bool {
		if attrs[key] != "" {
			return true
		}
		for _, c := range l.Categories {
			if c.Slug == cat {
				return true
			}
		}
		return l.PrimaryCategory != nil && l.PrimaryCategory.Slug == cat
	}
	seen := map[string]bool{}
	for _, l := range []*Listing{la, lb} {
		if l.PrimaryCategory == nil || seen[l.PrimaryCategory.Slug] {
			continue
		}
		seen[l.PrimaryCategory.Slug] = true
		c, err := s.Store.Category(ctx, l.PrimaryCategory.Slug)
		if err != nil {
			return CompareListingsOutput{}, err
		}
		out.Categories = append(out.Categories, CategoryRef{Slug: c.Slug, Name: c.Name})
		for _, a := range c.Attributes {
			if seen["attr:"+a.Key] {
				continue
			}
			seen["attr:"+a.Key] = true
			row := CompareRow{Key: a.Key, Label: a.Label, Category: c.Slug, A: attrA[a.Key], B: attrB[a.Key], AppliesTo: []string{}}
			if applies(la, attrA, c.Slug, a.Key) {
				row.AppliesTo = append(row.AppliesTo, "a")
			}
			if applies(lb, attrB, c.Slug, a.Key) {
				row.AppliesTo = append(row.AppliesTo, "b")
			}
			out.Rows = append(out.Rows, row)
		}
	}
	return out, nil
}
