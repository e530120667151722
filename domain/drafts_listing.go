package domain

import (
	"context"
	"net/url"
	"strings"
)

// listingBounds are the editable listing fields' bounds (the spec's "Editable
// listing fields" table) where they are tighter than the draft's.
var listingBounds = map[string]int{
	"tagline": 200, "short_description": 300, "description": 20000, "pricing_model": 40, "pricing_summary": 300,
	"city": 120, "contact_email": 254, "demo_video_url": 500, "logo_url": 500,
}

// listingWrite turns a draft into what its listing holds, checking what a
// listing needs (a name, the listing's tighter bounds).
func (s *Service) listingWrite(ctx context.Context, rec *DraftRecord) (*ListingWrite, error) {
	doc := &rec.Doc
	str := func(name string) string { v, _ := doc.Fields[name].text(); return v }
	w := &ListingWrite{
		Name: str("name"), Tagline: str("tagline"), ShortDescription: str("short_description"), Description: str("description"),
		URL: rec.URL, LogoURL: str("logo_url"), Stage: str("stage"), PricingModel: strings.ToLower(str("pricing_model")),
		PricingSummary: str("pricing_summary"), Country: str("country"), City: str("city"), ContactEmail: str("contact_email"),
		DemoVideoURL: str("demo_video_url"), Features: doc.Fields["features"].list(), USPs: doc.Fields["usps"].list(),
		Socials: Socials{}, SEOTitle: doc.SEO.Title, SEODescription: doc.SEO.Meta,
	}
	if w.Name == "" {
		return nil, Invalid("fields.name", "required", "The draft has no name; set fields.name with update_draft before submitting.")
	}
	if w.Stage != "" && !IsStage(w.Stage) {
		return nil, Invalid("fields.stage", "enum", "Unknown stage %q; use one of %s.", w.Stage, StageSlugs())
	}
	if over := overListingBounds(doc); len(over) > 0 {
		return nil, Invalid(over[0].Field, "maxLength", "%s is longer than a listing allows (%d characters); shorten it with update_draft.", over[0].Field, over[0].Limit)
	}
	if u, err := url.Parse(rec.URL); err == nil {
		w.Domain = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	if y, ok := yearOf(str("founded_year")); ok {
		w.FoundedYear = y
	}
	for _, k := range append(doc.Fields["keywords"].list(), doc.Fields["tags"].list()...) {
		if !containsFold(w.Keywords, k) && len(w.Keywords) < 20 {
			w.Keywords = append(w.Keywords, k)
		}
	}
	if names := doc.Fields["categories"].list(); len(names) > 0 {
		cats, err := s.Store.CategoryTree(ctx)
		if err != nil {
			return nil, err
		}
		// A listing has one primary category; extra ones are a paid product, so
		// only the first is saved (the draft keeps them all).
		for _, c := range categoryChoices(cats, "") {
			if strings.EqualFold(c.Name, names[0]) {
				w.Categories = []string{c.Slug}
				break
			}
		}
		if w.Categories == nil {
			return nil, Invalid("fields.categories[0]", "enum", "%q is no longer a category; choose one from list_categories.", names[0])
		}
	}
	for _, f := range doc.FAQs {
		w.FAQs = append(w.FAQs, FAQ{Question: f.Question, Answer: f.Answer})
	}
	for k, v := range doc.CompanySocials {
		w.Socials[k] = v
	}
	for i, f := range doc.Founders {
		fw := FounderWrite{Name: f.Name, Title: f.Title, Bio: f.Bio, Socials: Socials{}}
		for k, v := range f.Socials {
			fw.Socials[k] = v
		}
		if i == 0 {
			for k, v := range doc.FounderSocials {
				fw.Socials[k] = v
			}
		}
		w.Founders = append(w.Founders, fw)
	}
	if doc.Story != (Story{}) {
		st := doc.Story
		w.Story = &st
	}
	w.Milestones = append(w.Milestones, doc.Milestones...)
	for _, name := range DraftFieldNames {
		// Only facts the AI looked for on the site are "not found on the website".
		if f := doc.Fields[name]; f != nil && f.State == StateNotFound && rec.AI != nil {
			w.NotFoundOnWebsite = append(w.NotFoundOnWebsite, name)
		}
	}
	return w, nil
}
