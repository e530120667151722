package domain

import "context"

// CategoryNode is a category in the tree with its live listing count
// (listings of its subcategories included).
type CategoryNode struct {
	Slug          string         `json:"slug"`
	Name          string         `json:"name"`
	Parent        string         `json:"parent,omitempty" jsonschema_description:"Parent category slug; empty for top-level categories."`
	ListingCount  int            `json:"listing_count" jsonschema_description:"Live listings in this category and its subcategories."`
	Subcategories []CategoryNode `json:"subcategories,omitempty"`
}

// Attribute is a comparison attribute of a category.
type Attribute struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Category is the detail of one category.
type Category struct {
	Slug          string         `json:"slug"`
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	Parent        *CategoryRef   `json:"parent,omitempty"`
	Subcategories []CategoryNode `json:"subcategories"`
	FAQs          []FAQ          `json:"faqs"`
	Attributes    []Attribute    `json:"attributes" jsonschema_description:"Facts used to compare listings of this category."`
	ListingCount  int            `json:"listing_count"`
	PageURL       string         `json:"page_url"`
}

// ListCategoriesInput is the input of list_categories (GET /categories).
type ListCategoriesInput struct {
	IncludeEmpty *bool `json:"include_empty,omitempty" jsonschema:"default=true" jsonschema_description:"Include categories without live listings (default true)."`
}

// ListCategoriesOutput is the category tree, top-level categories first.
type ListCategoriesOutput struct {
	Items []CategoryNode `json:"items"`
}

// ListCategories returns the category tree with live listing counts.
func (s *Service) ListCategories(ctx context.Context, in ListCategoriesInput) (ListCategoriesOutput, error) {
	all, err := s.Store.Categories(ctx)
	if err != nil {
		return ListCategoriesOutput{}, err
	}
	includeEmpty := in.IncludeEmpty == nil || *in.IncludeEmpty
	return ListCategoriesOutput{Items: buildTree(all, includeEmpty)}, nil
}

// buildTree nests flat categories under their parents, keeping store order.
func buildTree(all []CategoryNode, includeEmpty bool) []CategoryNode {
	children := map[string][]CategoryNode{}
	for _, c := range all {
		if !includeEmpty && c.ListingCount == 0 {
			continue
		}
		children[c.Parent] = append(children[c.Parent], c)
	}
	var attach func(parent string) []CategoryNode
	attach = func(parent string) []CategoryNode {
		var out []CategoryNode
		for _, c := range children[parent] {
			c.Subcategories = attach(c.Slug)
			out = append(out, c)
		}
		return out
	}
	return nonNil(attach(""))
}

// GetCategoryInput is the input of get_category (GET /categories/{slug}).
type GetCategoryInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Category slug."`
	Pagination
}

// GetCategoryOutput is a category with one page of its live listings, most voted first.
type GetCategoryOutput struct {
	Category Category         `json:"category"`
	Items    []ListingSummary `json:"items"`
	Page
}

// GetCategory returns a category and its live listings (subcategories included), most voted first.
// An old slug of a renamed or merged-away category (admin_categories.go)
// answers with the category it leads to; its slug in the output is the current one.
func (s *Service) GetCategory(ctx context.Context, in GetCategoryInput) (GetCategoryOutput, error) {
	c, err := s.Store.Category(ctx, in.Slug)
	if ErrorCode(err) == ENotFound {
		if cur, rerr := s.currentCategorySlug(ctx, in.Slug); rerr != nil {
			return GetCategoryOutput{}, rerr
		} else if cur != in.Slug {
			c, err = s.Store.Category(ctx, cur)
		}
	}
	if err != nil {
		return GetCategoryOutput{}, err
	}
	page, perPage := in.Norm()
	items, total, err := s.Store.SearchListings(ctx, ListingQuery{
		Category: c.Slug, Status: "live", Sort: "votes", Offset: in.Offset(), Limit: perPage,
	})
	if err != nil {
		return GetCategoryOutput{}, err
	}
	return GetCategoryOutput{Category: *c, Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}
