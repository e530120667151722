package domain

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// SearchListingsInput is the input of search_listings (GET /listings).
type SearchListingsInput struct {
	Q            string `json:"q,omitempty" jsonschema:"maxLength=200" jsonschema_description:"Full-text query over name, tagline, categories, keywords, features and descriptions. Words match in other forms (plural, -ing), with one typo, and the last as a prefix. Listings with every word come first, then those with most; generic words (app, tool, for) never exclude. Items say which words they matched."`
	Category     string `json:"category,omitempty" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Category slug; listings in its subcategories match too."`
	Stage        string `json:"stage,omitempty" jsonschema:"enum=idea,enum=pre-launch,enum=beta,enum=launched,enum=growing,enum=profitable,enum=acquired" jsonschema_description:"Business stage."`
	Country      string `json:"country,omitempty" jsonschema:"pattern=^[A-Za-z]{2}$" jsonschema_description:"ISO 3166 alpha-2 country code."`
	PricingModel string `json:"pricing_model,omitempty" jsonschema:"maxLength=40" jsonschema_description:"Pricing model, e.g. free, freemium, subscription, one-time, open-source (case-insensitive)."`
	Domain       string `json:"domain,omitempty" jsonschema:"maxLength=253" jsonschema_description:"The product's website domain, e.g. example.com (www. and subdomains match)."`
	Status       string `json:"status,omitempty" jsonschema:"enum=live,enum=upcoming,default=live" jsonschema_description:"live (default) or upcoming (scheduled launches)."`
	Sort         string `json:"sort,omitempty" jsonschema:"enum=relevance,enum=newest,enum=votes,enum=trending,enum=most_viewed,enum=most_followed,default=relevance" jsonschema_description:"Order of results; relevance needs q and falls back to votes without it."`
	Pagination
}

// ListingQuery is a normalised search for the Store.
type ListingQuery struct {
	Q            string
	Category     string // slug; the store includes subcategories
	Stage        string
	Country      string // upper case
	PricingModel string // lower case
	Domain       string // lower case host without www.
	Status       string // live or upcoming
	Sort         string
	Offset       int
	Limit        int
}

// SearchListingsOutput is one page of listing summaries.
type SearchListingsOutput struct {
	Items []SearchListingItem `json:"items"`
	Page
}

// SearchListingItem is one listing of a search page: its summary and, for a
// query with words, which of them it matched and where.
type SearchListingItem struct {
	ListingSummary
	Matched map[string][]string `json:"matched,omitempty" jsonschema_description:"With q: each query word the listing matched (lower case, as written or in another form: plural, typo, prefix of the last word) and where: name, tagline, category (its primary category), text (keywords, features, descriptions, other categories). A query word missing here is one the listing lacks: a weaker match."`
}

// Summaries returns the items' listing summaries.
func (o SearchListingsOutput) Summaries() []ListingSummary {
	out := make([]ListingSummary, len(o.Items))
	for i, it := range o.Items {
		out[i] = it.ListingSummary
	}
	return out
}

// MatchedSearcher searches like Store.SearchListings and also says which
// query words each listing of a page matched and where
// (SearchListingItem.Matched; Service.Matches).
type MatchedSearcher interface {
	SearchListingsMatched(ctx context.Context, q ListingQuery) ([]SearchListingItem, int, error)
}

// SearchListings searches live (or upcoming) listings.
func (s *Service) SearchListings(ctx context.Context, in SearchListingsInput) (SearchListingsOutput, error) {
	page, perPage := in.Norm()
	// An old category slug filters by the category it leads to.
	category, err := s.currentCategorySlug(ctx, in.Category)
	if err != nil {
		return SearchListingsOutput{}, err
	}
	q := ListingQuery{
		Q:            strings.TrimSpace(in.Q),
		Category:     category,
		Stage:        in.Stage,
		Country:      strings.ToUpper(in.Country),
		PricingModel: strings.ToLower(strings.TrimSpace(in.PricingModel)),
		Domain:       NormalizeDomain(in.Domain),
		Status:       in.Status,
		Sort:         in.Sort,
		Offset:       in.Offset(),
		Limit:        perPage,
	}
	switch q.Status {
	case "":
		q.Status = "live"
	case "live", "upcoming":
	default:
		return SearchListingsOutput{}, Invalid("status", "enum", "status must be live or upcoming, not %q.", in.Status)
	}
	if q.Stage != "" && !IsStage(q.Stage) {
		return SearchListingsOutput{}, Invalid("stage", "enum", "stage must be a stage slug: %s.", StageSlugs())
	}
	if q.Sort == "" {
		q.Sort = "relevance"
	}
	if q.Sort == "relevance" && q.Q == "" {
		q.Sort = "votes"
	}
	var items []SearchListingItem
	var total int
	if s.Matches != nil {
		items, total, err = s.Matches.SearchListingsMatched(ctx, q)
	} else {
		var sums []ListingSummary
		sums, total, err = s.Store.SearchListings(ctx, q)
		for _, l := range sums {
			items = append(items, SearchListingItem{ListingSummary: l})
		}
	}
	if err != nil {
		return SearchListingsOutput{}, err
	}
	// A slug of no category matches nothing; an empty page would read as "no
	// listings there", so it is refused instead, naming where slugs come from.
	// Only an empty page is checked: a category with listings exists.
	if total == 0 && category != "" {
		if _, err := s.Store.Category(ctx, category); ErrorCode(err) == ENotFound {
			return SearchListingsOutput{}, Invalid("category", "exists",
				"category %q is not the slug of any category; list_categories (GET /v1/categories) gives every slug.", in.Category)
		} else if err != nil {
			return SearchListingsOutput{}, err
		}
	}
	return SearchListingsOutput{Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}

// NormalizeDomain turns "https://www.Example.com/x" or "www.example.com" into "example.com".
func NormalizeDomain(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if d == "" {
		return ""
	}
	if strings.Contains(d, "://") {
		if u, err := url.Parse(d); err == nil {
			d = u.Hostname()
		}
	}
	d = strings.TrimSuffix(strings.SplitN(d, "/", 2)[0], ".")
	return strings.TrimPrefix(d, "www.")
}

// SlugInput names a listing by slug in the path.
type SlugInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"The listing's slug."`
}

// GetListing returns the full public profile of a listing.
// A merged listing's slug resolves to the listing it was merged into
// (docs/console.md "Listings"): the answer carries that listing's slug.
func (s *Service) GetListing(ctx context.Context, in SlugInput) (*Listing, error) {
	l, err := s.Store.Listing(ctx, in.Slug)
	var de *Error
	if err != nil && errors.As(err, &de) && de.Code == ENotFound {
		if to, merr := s.MergedSlug(ctx, in.Slug); merr == nil && to != "" {
			return s.Store.Listing(ctx, to)
		}
		return nil, s.listingNotFound(ctx, in.Slug)
	}
	return l, err
}

// publicListing is Store.Listing whose not_found error names the listing
// the slug most likely meant (listingNotFound).
func (s *Service) publicListing(ctx context.Context, slug string) (*Listing, error) {
	l, err := s.Store.Listing(ctx, slug)
	if ErrorCode(err) == ENotFound {
		return nil, s.listingNotFound(ctx, slug)
	}
	return l, err
}

// ListingNotFound is the not_found error of a listing slug. Its message
// names the live listing the slug most likely meant, which Meant holds (nil:
// none), so that a page can link it without searching again.
type ListingNotFound struct {
	Err   *Error
	Meant *ListingSummary
}

func (e *ListingNotFound) Error() string { return e.Err.Error() }
func (e *ListingNotFound) Unwrap() error { return e.Err }

// listingNotFound is the not_found error of a listing slug: it names the
// live listing the slug most likely meant (suggestListing) and how to find
// one by name.
func (s *Service) listingNotFound(ctx context.Context, slug string) error {
	msg := fmt.Sprintf("No listing %q exists.", slug)
	l := s.suggestListing(ctx, slug)
	if l != nil {
		msg += fmt.Sprintf(" Did you mean %q (%s)?", l.Slug, l.Name)
	}
	return &ListingNotFound{Err: Errorf(ENotFound, "%s search_listings with q finds a listing by its name and gives its slug.", msg), Meant: l}
}

// suggestListing returns the live listing a slug of no listing most likely
// meant, or nil: the best search match for the slug's words run together,
// else for its words, kept only when its slug or name, letters and digits
// only, is close to the slug's (slugClose). So "study-loop" and "studyloop-app"
// suggest Studyloop, and "no-such-listing-here" suggests nothing although
// some description has "here".
func (s *Service) suggestListing(ctx context.Context, slug string) *ListingSummary {
	want := alnum(slug)
	for _, q := range []string{want, strings.ReplaceAll(slug, "-", " ")} {
		items, _, err := s.Store.SearchListings(ctx, ListingQuery{Q: q, Status: "live", Sort: "relevance", Limit: 1})
		if err != nil || len(items) == 0 || items[0].Slug == slug {
			continue
		}
		if l := items[0]; slugClose(want, alnum(l.Slug)) || slugClose(want, alnum(l.Name)) {
			return &l
		}
	}
	return nil
}

// slugClose reports whether a and b (lower-case letters and digits) are
// within one edit (two from 8 characters; neither under 4), or one starts with the other and
// the shorter has 5 or more characters ("studyloopapp", "studyloop").
func slugClose(a, b string) bool {
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	if len(short) >= 5 && strings.HasPrefix(long, short) {
		return true
	}
	edits := 1
	if len(short) >= 8 {
		edits = 2
	}
	return len(short) >= 4 && levenshtein.ComputeDistance(a, b) <= edits
}

// alnum is s in lower case with only its letters and digits.
func alnum(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// Alternative is a listing offered as an alternative to another.
type Alternative struct {
	ListingSummary
	Approved bool `json:"approved" jsonschema_description:"True when the listing's owner approved this alternative; those come first."`
}

// GetAlternativesOutput lists alternatives to a listing.
type GetAlternativesOutput struct {
	Listing string        `json:"listing"`
	Items   []Alternative `json:"items"`
}

// GetAlternatives returns owner-approved alternatives first, then listings of the same primary category.
func (s *Service) GetAlternatives(ctx context.Context, in SlugInput) (GetAlternativesOutput, error) {
	if _, err := s.publicListing(ctx, in.Slug); err != nil {
		return GetAlternativesOutput{}, err
	}
	items, err := s.Store.Alternatives(ctx, in.Slug, 20)
	if err != nil {
		return GetAlternativesOutput{}, err
	}
	return GetAlternativesOutput{Listing: in.Slug, Items: nonNil(items)}, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
