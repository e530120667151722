// Package extract is the embedded default drafter: a grounded extractor that
// reads a crawled site's structured data (JSON-LD, Open Graph, meta, microdata),
// headings, lists, pricing tables, FAQ markup and links, and proposes a profile
// in which every value carries evidence quotes cut from the crawled pages.
//
// It states nothing the site does not: a fact with no quote is absent. Rules
// that keep traps out are written next to each field: a copyright year is not a
// founding year, a testimonial names a customer and not a founder, a price in a
// blog post is not the pricing, an investor on the team page is not a founder.
package extract

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Drafter is the grounded extractor. It keeps no state; one value serves
// every request concurrently.
type Drafter struct{}

var _ domain.Drafter = (*Drafter)(nil)

// New returns the grounded extractor.
func New() *Drafter { return &Drafter{} }

// Sections other than profile fields that DraftRequest.Only may name.
const (
	onlyFAQs       = "faqs"
	onlyFounders   = "founders"
	onlySocials    = "socials"
	onlyStory      = "story"
	onlyMilestones = "milestones"
)

// site is one draft in progress: the parsed pages and what was found so far.
type site struct {
	req   domain.DraftRequest
	pages []*page // pages[0] is the home page
	name  string
	brand string // the name in lower-case letters and digits only, to recognise own domains and handles
	hosts []string
	out   *domain.Drafted
}

// Draft proposes a profile from req.Site. Every value it returns passes
// domain.CheckEvidence against req.Site; a site with no pages yields an empty draft.
func (d *Drafter) Draft(ctx context.Context, req domain.DraftRequest) (*domain.Drafted, error) {
	s := &site{req: req, out: &domain.Drafted{Fields: map[string]domain.DraftedValue{}}}
	if req.Site == nil || len(req.Site.Pages) == 0 {
		return s.out, nil
	}
	for i := range req.Site.Pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.pages = append(s.pages, newPage(&req.Site.Pages[i], i == 0))
	}
	s.hosts = s.ownHosts()

	// The name comes first (other fields use it to tell the product from other
	// companies), then founders (company socials skip the founders' own links).
	name, nameEv := s.findName()
	s.name = name
	s.brand = compact(name)
	s.set("name", domain.DraftedValue{Text: name, Evidence: nameEv})
	steps := []func(){
		s.draftIdentity, s.draftPricing, s.draftLocation, s.draftFounded, s.worldFounded, s.startFounded, s.draftFounders, s.profileFounders, s.worldFounders, s.structureFounders, s.cardFounders, s.sentenceFounders39, s.founders48,
		s.draftLists, s.draftContact, s.draftMedia, s.draftCategories, s.draftStage, s.structureStage,
		s.draftFAQs, s.draftSocials, s.draftStory, s.draftMilestones, s.foundingMilestone,
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step()
	}
	s.filterOnly()
	s.ground()
	return s.out, nil
}

// wants reports whether the request asks for this field or section.
func (s *site) wants(field string) bool {
	return len(s.req.Only) == 0 || slices.Contains(s.req.Only, field)
}

// maxLen are the spec's bounds of the string fields (characters).
var maxLen = map[string]int{"description": 20000}

// set stores a field value unless it is empty or has no evidence.
func (s *site) set(field string, v domain.DraftedValue) {
	if len(v.Evidence) == 0 || !s.wants(field) {
		return
	}
	if domain.DraftListFields[field] {
		v.Text = ""
		v.List = dedupe(v.List, 20, 200)
		if len(v.List) == 0 {
			return
		}
	} else {
		v.List = nil
		limit := maxLen[field]
		if limit == 0 {
			limit = 500
		}
		v.Text = truncate(strings.TrimSpace(v.Text), limit)
		if v.Text == "" {
			return
		}
	}
	v.Evidence = dedupeEvidence(v.Evidence)
	s.out.Fields[field] = v
}

// filterOnly drops the sections the request did not ask for. Fields were
// already filtered by set.
func (s *site) filterOnly() {
	if !s.wants(onlyFAQs) {
		s.out.FAQs = nil
	}
	if !s.wants(onlyFounders) {
		s.out.Founders = nil
	}
	if !s.wants(onlySocials) && !s.wants("company_socials") {
		s.out.Socials = nil
	}
	if !s.wants(onlyStory) {
		s.out.Story = nil
	}
	if !s.wants(onlyMilestones) {
		s.out.Milestones = nil
	}
}

// ground is the last guard: whatever rule produced a value, it leaves only
// if every quote is found verbatim on the page it names.
func (s *site) ground() {
	site := s.req.Site
	ok := func(ev []domain.Evidence) bool { return domain.CheckEvidence(site, ev) == nil }
	for k, v := range s.out.Fields {
		if !ok(v.Evidence) {
			delete(s.out.Fields, k)
		}
	}
	s.out.FAQs = slices.DeleteFunc(s.out.FAQs, func(f domain.DraftedFAQ) bool { return !ok(f.Evidence) })
	s.out.Founders = slices.DeleteFunc(s.out.Founders, func(f domain.DraftedFounder) bool { return !ok(f.Evidence) })
	s.out.Milestones = slices.DeleteFunc(s.out.Milestones, func(m domain.DraftedMilestone) bool { return !ok(m.Evidence) })
	for k, v := range s.out.Socials {
		if !ok(v.Evidence) {
			delete(s.out.Socials, k)
		}
	}
	for k, v := range s.out.Story {
		if !ok(v.Evidence) {
			delete(s.out.Story, k)
		}
	}
	if len(s.out.Socials) == 0 {
		s.out.Socials = nil
	}
	if len(s.out.Story) == 0 {
		s.out.Story = nil
	}
}

// content returns the pages facts may come from: all but blog posts, whose
// prices, dates and names are about the post's subject, not the product.
func (s *site) content() []*page {
	var out []*page
	for _, p := range s.pages {
		if p.kind != kindBlog {
			out = append(out, p)
		}
	}
	return out
}

// byKind returns the content pages of the given kinds first (in that order), then the others.
func (s *site) byKind(kinds ...string) []*page {
	var out []*page
	for _, k := range kinds {
		for _, p := range s.content() {
			if p.kind == k {
				out = append(out, p)
			}
		}
	}
	for _, p := range s.content() {
		if !slices.Contains(kinds, p.kind) {
			out = append(out, p)
		}
	}
	return out
}

// ---- small helpers ----

func compact(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameKey is s lower case with only its letters and digits, of any script:
// the key of a person's name ("王磊", "Łukasz" and "Lukasz" stay apart, unlike
// compact, which keeps ASCII only).
func nameKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n]))
}

func dedupe(list []string, max, maxLen int) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range list {
		v = truncate(domain.NormalizeSpace(v), maxLen)
		k := strings.ToLower(v)
		if v == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
		if len(out) == max {
			break
		}
	}
	return out
}

func dedupeEvidence(ev []domain.Evidence) []domain.Evidence {
	var out []domain.Evidence
	seen := map[domain.Evidence]bool{}
	for _, e := range ev {
		if e.Quote == "" || seen[e] {
			continue
		}
		seen[e] = true
		out = append(out, e)
	}
	return out
}
