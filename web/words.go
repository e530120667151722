package web

import "strings"

// factNames spell the listing profile fields (domain.DraftFieldNames) as a
// listing page's reader knows them, for the "Not found on the website" list.
var factNames = map[string]string{"name": "Name", "tagline": "Tagline", "short_description": "Short description",
	"description": "Description", "stage": "Business stage", "categories": "Categories", "tags": "Tags",
	"pricing_model": "Pricing model", "pricing_summary": "Pricing", "country": "Country", "city": "City",
	"founded_year": "Year founded", "features": "Features", "usps": "What sets it apart", "keywords": "Keywords",
	"contact_email": "Contact email", "demo_video_url": "Demo video", "logo_url": "Logo"}

// factName is a profile field's name in people's words; a field not in
// factNames is written with spaces for underscores, capitalised.
func factName(field string) string {
	if n, ok := factNames[field]; ok {
		return n
	}
	s := strings.ReplaceAll(field, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// boardBlurbs describe the leaderboards to people. domain.Board's
// Description is written for a model reading a tool result ("always present
// it as paid"); the pages say the same to a person.
var boardBlurbs = map[string]string{
	"billboard": "A PAID ranking: listings ordered by the money their owners contributed to the billboard. It says nothing about quality or community votes.",
}

// boardBlurb is board key's description for people.
func boardBlurb(key, description string) string {
	if b, ok := boardBlurbs[key]; ok {
		return b
	}
	return description
}

// rankingNames title the ranking systems of domain.SiteInfo.Rankings.
var rankingNames = map[string]string{"community": "Community votes", "billboard": "Billboard", "domain-rating": "Domain Rating", "revenue": "Revenue"}

func rankingName(key string) string {
	if n, ok := rankingNames[key]; ok {
		return n
	}
	return factName(strings.ReplaceAll(key, "-", "_"))
}

// optionNames label the values of the search sort and badge style menus,
// which the forms send as the API's enum values.
var optionNames = map[string]string{
	"relevance": "Relevance", "newest": "Newest", "votes": "Most votes", "trending": "Trending",
	"most_viewed": "Most viewed", "most_followed": "Most followed",
	"standard": "Standard", "outline": "Outline", "pill": "Pill", "banner": "Banner", "square": "Square",
	"light": "Light", "dark": "Dark", "auto": "Light or dark, as the reader's system",
	"s": "Small", "m": "Medium", "l": "Large",
}

// optionName is a menu value in people's words.
func optionName(v string) string {
	if n, ok := optionNames[v]; ok {
		return n
	}
	return factName(v)
}
