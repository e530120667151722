package console

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Categories on the console (docs/console.md "Categories"):
// the site team's admins create categories, rename them (the old slug keeps
// answering), move them in the tree, merge one into another (its listings
// move, nothing is lost, its slug keeps answering), describe them (text and
// FAQs) and edit the comparison attributes compare_listings shows (those two
// in categories_content.go). Every change is written to the audit log in the
// transaction that makes it.

// Bounds of a category, checked by CheckCategory* and shown on the forms.
const (
	CategoryNameMax        = 60
	CategoryDescriptionMax = 2000
	// CategoryFAQsMax and the question and answer bounds are those of a
	// listing's FAQs (the spec's FAQ item, update_listing's faqs).
	CategoryFAQsMax        = 10
	CategoryFAQQuestionMax = 300
	CategoryFAQAnswerMax   = 1500
	// CategoryDepthMax is how deep the tree goes: a top-level category is
	// at depth 1, its subcategories at 2 (the directory's categories today
	// are two levels; the limit leaves room for two more).
	CategoryDepthMax    = 4
	CategoryPositionMax = 9999
	// CategoryAttributesMax bounds a category's comparison attributes; an
	// attribute's key is AttributeKeyMax characters at most, its label
	// AttributeLabelMax.
	CategoryAttributesMax = 20
	AttributeKeyMax       = 40
	AttributeLabelMax     = 60
)

// reCategorySlug is the spec's category slug pattern (that of a listing slug).
var reCategorySlug = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,219}$`)

// AdminCategory is a category as the console shows and changes it.
type AdminCategory struct {
	ID       int64
	ParentID int64 // 0: top level
	Slug     string
	Name     string
	// Description and FAQs are what get_category and the page show.
	Description string
	FAQs        []domain.FAQ
	Position    int
	Attributes  []domain.Attribute
	// Depth is 1 for a top-level category (set by the tree).
	Depth int
	// Listings counts the listings linked to the category itself (any
	// status), Primary those of them whose primary category it is.
	Listings, Primary int
	// Redirects are the old slugs that answer with this category.
	Redirects []string
}

// CategoryAdminStore keeps the categories for the console. Every method
// that changes something writes entry to the audit log in its transaction.
type CategoryAdminStore interface {
	// AdminCategories returns every category of the site (without FAQs,
	// attributes and redirects), in any order.
	AdminCategories(ctx context.Context) ([]AdminCategory, error)
	// AdminCategory returns one category with everything (NotFound error
	// when there is none with id).
	AdminCategory(ctx context.Context, id int64) (*AdminCategory, error)
	// CategoryRedirect is the category an old slug points at, 0 when none.
	CategoryRedirect(ctx context.Context, slug string) (int64, error)
	// CreateCategory stores c (its ID is ignored) and returns its id; an
	// entry without a Target gets the new category's ("category:7").
	CreateCategory(ctx context.Context, c AdminCategory, entry AuditEntry) (int64, error)
	// SaveCategory stores the fields of c that fields names and leaves the
	// others as the database holds them. When the slug changes, the old one
	// becomes a redirect to c, and a redirect of the new slug to c is
	// dropped. When the parent changes, the tree as it is in the
	// transaction is checked with CheckCategoryTree (two moves at once
	// cannot make a cycle): an invalid error changes nothing.
	SaveCategory(ctx context.Context, c AdminCategory, fields CategoryFields, entry AuditEntry) error
	// SaveCategoryAttributes replaces the comparison attributes of id.
	SaveCategoryAttributes(ctx context.Context, id int64, attrs []domain.Attribute, entry AuditEntry) error
	// MergeCategory moves every listing of source to target (a listing in
	// both keeps one link, primary if either was), adds source's comparison
	// attributes target lacks, re-parents source's subcategories to target
	// (target itself, when it is one, takes source's parent), points
	// source's slug and old slugs at target, deletes source and returns how
	// many listings were linked to source.
	MergeCategory(ctx context.Context, source, target int64, entry AuditEntry) (int, error)
}

// categoryAdmin is s.Categories; nil when it is not set.
func (s *Console) categoryAdmin() CategoryAdminStore {
	return s.Categories
}

func (s *Console) categoryStore() (CategoryAdminStore, error) {
	if c := s.categoryAdmin(); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("categories are not editable here (they need a CategoryAdminStore)")
}

// CategoryTree returns every category in tree order (each followed by its
// subcategories, by position then name) with its depth set.
func (s *Console) CategoryTree(ctx context.Context) ([]AdminCategory, error) {
	st, err := s.categoryStore()
	if err != nil {
		return nil, err
	}
	all, err := st.AdminCategories(ctx)
	if err != nil {
		return nil, err
	}
	return treeOrder(all), nil
}

// treeOrder sorts flat categories into tree order and sets their depth; a
// category whose parent is missing is shown at the top level.
func treeOrder(all []AdminCategory) []AdminCategory {
	ids := map[int64]bool{}
	for _, c := range all {
		ids[c.ID] = true
	}
	children := map[int64][]AdminCategory{}
	for _, c := range all {
		p := c.ParentID
		if !ids[p] {
			p = 0
		}
		children[p] = append(children[p], c)
	}
	for _, cs := range children {
		sortCategories(cs)
	}
	out := make([]AdminCategory, 0, len(all))
	seen := map[int64]bool{}
	var walk func(parent int64, depth int)
	walk = func(parent int64, depth int) {
		for _, c := range children[parent] {
			if seen[c.ID] {
				continue
			}
			seen[c.ID] = true
			c.Depth = depth
			out = append(out, c)
			walk(c.ID, depth+1)
		}
	}
	walk(0, 1)
	return out
}

func sortCategories(cs []AdminCategory) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && (cs[j].Position < cs[j-1].Position ||
			cs[j].Position == cs[j-1].Position && cs[j].Name < cs[j-1].Name); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// AdminCategory returns one category with its FAQs, attributes, old slugs
// and listing counts.
func (s *Console) AdminCategory(ctx context.Context, id int64) (*AdminCategory, error) {
	st, err := s.categoryStore()
	if err != nil {
		return nil, err
	}
	return st.AdminCategory(ctx, id)
}

// CategoryInput is what the console's create form sends.
type CategoryInput struct {
	Name string
	// Slug is optional: empty, it is made from the name.
	Slug     string
	ParentID int64
}

// checkCategoryName validates a category name: one line of 1-60 characters.
func checkCategoryName(name string) (string, *domain.FieldError) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case strings.ContainsAny(name, "\r\n"):
		return "", &domain.FieldError{Field: "name", Rule: "pattern", Message: "The name is one line of text."}
	case n == 0:
		return "", &domain.FieldError{Field: "name", Rule: "minLength", Message: fmt.Sprintf("The name is 1-%d characters long; it is empty.", CategoryNameMax)}
	case n > CategoryNameMax:
		return "", &domain.FieldError{Field: "name", Rule: "maxLength", Message: fmt.Sprintf("The name is 1-%d characters long; this is %d.", CategoryNameMax, n)}
	}
	return name, nil
}

// checkCategorySlug validates a slug's form (the spec's slug pattern).
func checkCategorySlug(slug string) (string, *domain.FieldError) {
	slug = strings.TrimSpace(slug)
	if len(slug) > domain.CategorySlugMax {
		return "", &domain.FieldError{Field: "slug", Rule: "maxLength", Message: fmt.Sprintf("The slug is at most %d characters; this is %d.", domain.CategorySlugMax, len(slug))}
	}
	if !reCategorySlug.MatchString(slug) {
		return "", &domain.FieldError{Field: "slug", Rule: "pattern", Message: fmt.Sprintf(
			"A slug is lower-case letters, digits and hyphens, starting with a letter or digit (such as ai-tools); %q is not one.", slug)}
	}
	return slug, nil
}

// slugFree checks that no other category than self has slug, as its slug
// or as an old slug that still answers.
func slugFree(ctx context.Context, st CategoryAdminStore, all []AdminCategory, slug string, self int64) *domain.Error {
	for _, c := range all {
		if c.Slug == slug && c.ID != self {
			return &domain.Error{Code: domain.EConflict, Message: fmt.Sprintf("The slug %q is taken by the category %q.", slug, c.Name),
				Fields: []domain.FieldError{{Field: "slug", Rule: "unique", Message: fmt.Sprintf("The slug %q is taken by the category %q.", slug, c.Name)}}}
		}
	}
	id, err := st.CategoryRedirect(ctx, slug)
	if err != nil {
		return &domain.Error{Code: domain.EInternal, Message: err.Error()}
	}
	if id != 0 && id != self {
		name := strconv.FormatInt(id, 10)
		for _, c := range all {
			if c.ID == id {
				name = c.Name
			}
		}
		msg := fmt.Sprintf("The slug %q is an old slug of the category %q and still leads there; choose another.", slug, name)
		return &domain.Error{Code: domain.EConflict, Message: msg, Fields: []domain.FieldError{{Field: "slug", Rule: "unique", Message: msg}}}
	}
	return nil
}

// CategoryFields names the columns of a category SaveCategory writes: each
// console action writes only its own, so that two members of the team
// changing different things of one category at once both keep their change.
type CategoryFields uint8

const (
	CategoryNaming CategoryFields = 1 << iota // slug and name
	CategoryPlace                             // parent and position
	CategoryText                              // description and FAQs
)

// CheckCategoryTree is the invalid error (field parent) of a tree that is
// not one within CategoryDepthMax levels, nil for a good tree; parents maps
// every category id to its parent id (0 for the top). Stores run it on the
// tree inside the transaction that changes it.
func CheckCategoryTree(parents map[int64]int64) error {
	if fe := checkTree(parents, "parent"); fe != nil {
		return invalid([]domain.FieldError{*fe})
	}
	return nil
}

// checkTree checks that the tree stays a tree within CategoryDepthMax
// levels when parents (category id to parent id, 0 for the top) is the
// tree after a change; field names the form field to blame.
func checkTree(parents map[int64]int64, field string) *domain.FieldError {
	depth := map[int64]int{}
	var depthOf func(id int64, seen map[int64]bool) (int, bool)
	depthOf = func(id int64, seen map[int64]bool) (int, bool) {
		if id == 0 {
			return 0, true
		}
		if d, ok := depth[id]; ok {
			return d, true
		}
		if seen[id] {
			return 0, false
		}
		seen[id] = true
		d, ok := depthOf(parents[id], seen)
		if !ok {
			return 0, false
		}
		depth[id] = d + 1
		return d + 1, true
	}
	for id := range parents {
		d, ok := depthOf(id, map[int64]bool{})
		if !ok {
			return &domain.FieldError{Field: field, Rule: "no_cycle", Message: "A category cannot be placed under itself or one of its own subcategories."}
		}
		if d > CategoryDepthMax {
			return &domain.FieldError{Field: field, Rule: "depth", Message: fmt.Sprintf(
				"The tree is at most %d levels deep; this would make %d.", CategoryDepthMax, d)}
		}
	}
	return nil
}

func parentsOf(all []AdminCategory) map[int64]int64 {
	m := make(map[int64]int64, len(all))
	for _, c := range all {
		m[c.ID] = c.ParentID
	}
	return m
}

func findCategory(all []AdminCategory, id int64) (AdminCategory, bool) {
	for _, c := range all {
		if c.ID == id {
			return c, true
		}
	}
	return AdminCategory{}, false
}

// invalid turns field errors into one invalid error (nil when none).
func invalid(bad []domain.FieldError) error {
	if len(bad) == 0 {
		return nil
	}
	return &domain.Error{Code: domain.EInvalid, Message: bad[0].Message, Fields: bad}
}

// categoryTarget is the audit target of a category.
func categoryTarget(id int64) string { return "category:" + strconv.FormatInt(id, 10) }

// CreateCategory creates a category under in.ParentID (0: top level), last
// among its siblings, by actor; category.create in the audit log.
func (s *Console) CreateCategory(ctx context.Context, actor string, in CategoryInput) (int64, error) {
	st, err := s.categoryStore()
	if err != nil {
		return 0, err
	}
	all, err := st.AdminCategories(ctx)
	if err != nil {
		return 0, err
	}
	var bad []domain.FieldError
	name, fe := checkCategoryName(in.Name)
	if fe != nil {
		bad = append(bad, *fe)
	}
	slug := strings.TrimSpace(in.Slug)
	if slug == "" && fe == nil {
		slug = domain.Slugify(name)
	}
	if slug == "" && fe == nil {
		bad = append(bad, domain.FieldError{Field: "slug", Rule: "pattern", Message: fmt.Sprintf(
			"The name %q has no letters or digits to make a slug from; give a slug (such as ai-tools).", name)})
	} else if slug, fe = checkCategorySlug(slug); fe != nil {
		bad = append(bad, *fe)
	}
	position := 0
	if in.ParentID != 0 {
		if _, ok := findCategory(all, in.ParentID); !ok {
			bad = append(bad, domain.FieldError{Field: "parent", Rule: "exists", Message: fmt.Sprintf("There is no category %d to put it under.", in.ParentID)})
		}
	}
	for _, c := range all {
		if c.ParentID == in.ParentID && c.Position >= position {
			position = c.Position + 1
		}
	}
	if position > CategoryPositionMax {
		position = CategoryPositionMax
	}
	if len(bad) == 0 {
		parents := parentsOf(all)
		parents[-1] = in.ParentID
		if fe := checkTree(parents, "parent"); fe != nil {
			bad = append(bad, *fe)
		}
	}
	if err := invalid(bad); err != nil {
		return 0, err
	}
	if e := slugFree(ctx, st, all, slug, 0); e != nil {
		return 0, e
	}
	c := AdminCategory{ParentID: in.ParentID, Slug: slug, Name: name, Position: position, FAQs: []domain.FAQ{}}
	after := map[string]any{"slug": slug, "name": name, "parent": in.ParentID, "position": position}
	entry := s.auditEntry(actor, "category.create", "", nil, after)
	id, err := st.CreateCategory(ctx, c, entry)
	return id, err
}

// RenameCategory gives category id a new name and slug by actor; an empty
// slug keeps the slug. The old slug keeps answering (a redirect to id).
// category.rename in the audit log; an unchanged name and slug change
// nothing.
func (s *Console) RenameCategory(ctx context.Context, actor string, id int64, name, slug string) error {
	st, c, all, err := s.loadCategory(ctx, id)
	if err != nil {
		return err
	}
	var bad []domain.FieldError
	name, fe := checkCategoryName(name)
	if fe != nil {
		bad = append(bad, *fe)
	}
	if strings.TrimSpace(slug) == "" {
		slug = c.Slug
	}
	if slug, fe = checkCategorySlug(slug); fe != nil {
		bad = append(bad, *fe)
	}
	if err := invalid(bad); err != nil {
		return err
	}
	if name == c.Name && slug == c.Slug {
		return nil
	}
	if e := slugFree(ctx, st, all, slug, id); e != nil {
		return e
	}
	before := map[string]string{"slug": c.Slug, "name": c.Name}
	after := map[string]string{"slug": slug, "name": name}
	c.Name, c.Slug = name, slug
	return st.SaveCategory(ctx, *c, CategoryNaming, s.auditEntry(actor, "category.rename", categoryTarget(id), before, after))
}

// MoveCategory puts category id under parentID (0: top level) at position
// (0-9999, lower first), by actor; category.move in the audit log. A
// category cannot go under itself or its own subcategories, nor make the
// tree deeper than CategoryDepthMax.
func (s *Console) MoveCategory(ctx context.Context, actor string, id, parentID int64, position int) error {
	st, c, all, err := s.loadCategory(ctx, id)
	if err != nil {
		return err
	}
	var bad []domain.FieldError
	if position < 0 || position > CategoryPositionMax {
		bad = append(bad, domain.FieldError{Field: "position", Rule: "range", Message: fmt.Sprintf("The position is 0-%d; %d is not.", CategoryPositionMax, position)})
	}
	if parentID != 0 {
		if _, ok := findCategory(all, parentID); !ok {
			bad = append(bad, domain.FieldError{Field: "parent", Rule: "exists", Message: fmt.Sprintf("There is no category %d to put it under.", parentID)})
		}
	}
	if len(bad) == 0 {
		parents := parentsOf(all)
		parents[id] = parentID
		if fe := checkTree(parents, "parent"); fe != nil {
			bad = append(bad, *fe)
		}
	}
	if err := invalid(bad); err != nil {
		return err
	}
	if c.ParentID == parentID && c.Position == position {
		return nil
	}
	before := map[string]any{"parent": c.ParentID, "position": c.Position}
	after := map[string]any{"parent": parentID, "position": position}
	c.ParentID, c.Position = parentID, position
	return st.SaveCategory(ctx, *c, CategoryPlace, s.auditEntry(actor, "category.move", categoryTarget(id), before, after))
}

// MergeResult says what a merge did.
type MergeResult struct {
	// Moved is how many listings were linked to the source.
	Moved int
	// Target is the category that now has them.
	Target AdminCategory
}

// MergeCategory merges category source into target, by actor: every
// listing of source moves to target (one link per listing; primary if
// either link was), the listings' stated attribute values stay, target
// gains the comparison attributes of source it lacks, source's
// subcategories move under target, and source's slug and old slugs lead to
// target from now on. Source is then gone. category.merge in the audit log.
func (s *Console) MergeCategory(ctx context.Context, actor string, source, target int64) (*MergeResult, error) {
	st, src, all, err := s.loadCategory(ctx, source)
	if err != nil {
		return nil, err
	}
	if target == source {
		return nil, domain.Invalid("target", "not_equal", "A category cannot be merged into itself; choose another category.")
	}
	tgt, ok := findCategory(all, target)
	if !ok {
		return nil, domain.Invalid("target", "exists", "There is no category %d to merge into.", target)
	}
	parents := parentsOf(all)
	delete(parents, source)
	for id, p := range parents {
		if p == source {
			parents[id] = target
		}
	}
	if parents[target] == target { // target was a subcategory of source
		parents[target] = src.ParentID
	}
	if fe := checkTree(parents, "target"); fe != nil {
		return nil, invalid([]domain.FieldError{*fe})
	}
	t, err := st.AdminCategory(ctx, target)
	if err != nil {
		return nil, err
	}
	before := map[string]any{
		"source": map[string]any{"id": source, "slug": src.Slug, "name": src.Name, "listings": src.Listings, "redirects": nonNil(src.Redirects)},
		"target": map[string]any{"id": target, "slug": tgt.Slug, "name": tgt.Name, "listings": t.Listings},
	}
	after := map[string]any{
		"target":        map[string]any{"id": target, "slug": tgt.Slug, "name": tgt.Name},
		"moved":         src.Listings,
		"new_redirects": append([]string{src.Slug}, src.Redirects...),
	}
	moved, err := st.MergeCategory(ctx, source, target, s.auditEntry(actor, "category.merge", categoryTarget(source), before, after))
	if err != nil {
		return nil, err
	}
	t2, err := st.AdminCategory(ctx, target)
	if err != nil {
		return nil, err
	}
	return &MergeResult{Moved: moved, Target: *t2}, nil
}

// loadCategory returns the store, category id and every category.
func (s *Console) loadCategory(ctx context.Context, id int64) (CategoryAdminStore, *AdminCategory, []AdminCategory, error) {
	st, err := s.categoryStore()
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := st.AdminCategory(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	all, err := st.AdminCategories(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return st, c, all, nil
}
