package console

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// What a category says (docs/console.md "Categories"): its description and
// FAQs, and the comparison attributes compare_listings shows for its
// listings. The tree itself (create, rename, move, merge) is categories.go.

// reAttributeKey is the key of a comparison attribute, as listings state it
// in listing_attributes.
var reAttributeKey = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// generalCompareKeys are the rows compare_listings shows for every listing;
// a category attribute cannot take one of these keys (it would never show).
var generalCompareKeys = []string{"pricing_model", "pricing_summary", "stage", "country", "founded_year", "votes", "rating", "domain_rating"}

// DescribeCategory sets the description (0-2000 characters) and the FAQs
// (at most 10, each a question of 1-300 characters and an answer of
// 1-1500) of category id, by actor; category.describe in the audit log.
func (s *Console) DescribeCategory(ctx context.Context, actor string, id int64, description string, faqs []domain.FAQ) error {
	st, c, _, err := s.loadCategory(ctx, id)
	if err != nil {
		return err
	}
	var bad []domain.FieldError
	description = strings.TrimSpace(description)
	if n := utf8.RuneCountInString(description); n > CategoryDescriptionMax {
		bad = append(bad, domain.FieldError{Field: "description", Rule: "maxLength", Message: fmt.Sprintf(
			"The description is at most %d characters; this is %d.", CategoryDescriptionMax, n)})
	}
	clean := []domain.FAQ{}
	for i, f := range faqs {
		q, a := strings.TrimSpace(f.Question), strings.TrimSpace(f.Answer)
		if q == "" && a == "" {
			continue // an empty row of the form
		}
		qf, af := fmt.Sprintf("faqs[%d].question", i), fmt.Sprintf("faqs[%d].answer", i)
		switch n := utf8.RuneCountInString(q); {
		case n == 0:
			bad = append(bad, domain.FieldError{Field: qf, Rule: "minLength", Message: fmt.Sprintf("FAQ %d has an answer but no question.", i+1)})
		case n > CategoryFAQQuestionMax:
			bad = append(bad, domain.FieldError{Field: qf, Rule: "maxLength", Message: fmt.Sprintf("The question of FAQ %d is at most %d characters; this is %d.", i+1, CategoryFAQQuestionMax, n)})
		}
		switch n := utf8.RuneCountInString(a); {
		case n == 0:
			bad = append(bad, domain.FieldError{Field: af, Rule: "minLength", Message: fmt.Sprintf("FAQ %d has a question but no answer.", i+1)})
		case n > CategoryFAQAnswerMax:
			bad = append(bad, domain.FieldError{Field: af, Rule: "maxLength", Message: fmt.Sprintf("The answer of FAQ %d is at most %d characters; this is %d.", i+1, CategoryFAQAnswerMax, n)})
		}
		clean = append(clean, domain.FAQ{Question: q, Answer: a})
	}
	if len(clean) > CategoryFAQsMax {
		bad = append(bad, domain.FieldError{Field: "faqs", Rule: "maxItems", Message: fmt.Sprintf("A category has at most %d FAQs; this is %d.", CategoryFAQsMax, len(clean))})
	}
	if err := invalid(bad); err != nil {
		return err
	}
	if description == c.Description && faqsEqual(clean, c.FAQs) {
		return nil
	}
	before := map[string]any{"description": c.Description, "faqs": nonNil(c.FAQs)}
	after := map[string]any{"description": description, "faqs": clean}
	c.Description, c.FAQs = description, clean
	return st.SaveCategory(ctx, *c, CategoryText, s.auditEntry(actor, "category.describe", categoryTarget(id), before, after))
}

func faqsEqual(a, b []domain.FAQ) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SetCategoryAttributes replaces the comparison attributes of category id
// with attrs, in their order, by actor; category.attributes in the audit
// log. A key is lower-case letters, digits and underscores starting with a
// letter (at most 40), once per category and none of the rows
// compare_listings shows for every listing; a label is 1-60 characters; a
// category has at most 20 attributes. Listings keep their stated values
// (listing_attributes) whatever happens to the attribute.
func (s *Console) SetCategoryAttributes(ctx context.Context, actor string, id int64, attrs []domain.Attribute) error {
	st, c, _, err := s.loadCategory(ctx, id)
	if err != nil {
		return err
	}
	var bad []domain.FieldError
	seen := map[string]bool{}
	clean := []domain.Attribute{}
	for i, a := range attrs {
		key, label := strings.TrimSpace(a.Key), strings.TrimSpace(a.Label)
		kf, lf := fmt.Sprintf("attributes[%d].key", i), fmt.Sprintf("attributes[%d].label", i)
		switch {
		case len(key) > AttributeKeyMax:
			bad = append(bad, domain.FieldError{Field: kf, Rule: "maxLength", Message: fmt.Sprintf("A key is at most %d characters; %q is %d.", AttributeKeyMax, key, len(key))})
		case !reAttributeKey.MatchString(key):
			bad = append(bad, domain.FieldError{Field: kf, Rule: "pattern", Message: fmt.Sprintf(
				"A key is lower-case letters, digits and underscores, starting with a letter (such as api_access); %q is not one.", key)})
		case seen[key]:
			bad = append(bad, domain.FieldError{Field: kf, Rule: "unique", Message: fmt.Sprintf("The key %q is there twice.", key)})
		case containsString(generalCompareKeys, key):
			bad = append(bad, domain.FieldError{Field: kf, Rule: "reserved", Message: fmt.Sprintf(
				"The key %q is a row every comparison shows already (%s); choose another.", key, strings.Join(generalCompareKeys, ", "))})
		}
		seen[key] = true
		switch n := utf8.RuneCountInString(label); {
		case strings.ContainsAny(label, "\r\n"):
			bad = append(bad, domain.FieldError{Field: lf, Rule: "pattern", Message: "A label is one line of text."})
		case n == 0:
			bad = append(bad, domain.FieldError{Field: lf, Rule: "minLength", Message: fmt.Sprintf("The label of %q is 1-%d characters long; it is empty.", key, AttributeLabelMax)})
		case n > AttributeLabelMax:
			bad = append(bad, domain.FieldError{Field: lf, Rule: "maxLength", Message: fmt.Sprintf("The label of %q is 1-%d characters long; this is %d.", key, AttributeLabelMax, n)})
		}
		clean = append(clean, domain.Attribute{Key: key, Label: label})
	}
	if len(clean) > CategoryAttributesMax {
		bad = append(bad, domain.FieldError{Field: "attributes", Rule: "maxItems", Message: fmt.Sprintf(
			"A category has at most %d comparison attributes; this is %d.", CategoryAttributesMax, len(clean))})
	}
	if err := invalid(bad); err != nil {
		return err
	}
	if attributesEqual(clean, c.Attributes) {
		return nil
	}
	entry := s.auditEntry(actor, "category.attributes", categoryTarget(id), nonNil(c.Attributes), clean)
	return st.SaveCategoryAttributes(ctx, id, clean, entry)
}

func attributesEqual(a, b []domain.Attribute) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
