package domain

import (
	"fmt"
	"unicode/utf8"
)

// listingStoryTitleMax is a listing's bound of story.title (a draft takes
// up to 8,000 characters in every story section).
const listingStoryTitleMax = 200

// DraftWarning is a value a draft holds that its listing cannot: the draft
// keeps it, and submit_draft refuses it until it is changed.
type DraftWarning struct {
	Field   string `json:"field" jsonschema_description:"e.g. story.title or fields.tagline."`
	Rule    string `json:"rule" jsonschema:"enum=maxLength"`
	Limit   int    `json:"limit" jsonschema_description:"The listing's bound (characters)."`
	Message string `json:"message"`
}

// overListingBounds lists the draft's values longer than a listing allows
// (listingBounds, then story.title), in DraftFieldNames order: what
// listingWrite refuses, and what update_draft warns of.
func overListingBounds(doc *DraftDoc) []DraftWarning {
	var out []DraftWarning
	over := func(field string, n, max int) {
		out = append(out, DraftWarning{Field: field, Rule: "maxLength", Limit: max, Message: fmt.Sprintf(
			"%s is %d characters; a listing allows %d, so submit_draft will refuse it: shorten it with update_draft.", field, n, max)})
	}
	for _, name := range DraftFieldNames {
		max, ok := listingBounds[name]
		if !ok {
			continue
		}
		v, _ := doc.Fields[name].text()
		if n := utf8.RuneCountInString(v); n > max {
			over("fields."+name, n, max)
		}
	}
	if n := utf8.RuneCountInString(doc.Story.Title); n > listingStoryTitleMax {
		over("story.title", n, listingStoryTitleMax)
	}
	return out
}
