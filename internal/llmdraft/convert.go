package llmdraft

import (
	"encoding/json"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Bounds of the spec's draft tables. A value over its bound is dropped rather
// than cut: a cut value no longer says what its quotes say.
const (
	maxText        = 500
	maxDescription = 20000
	maxListItems   = 20
	maxListItem    = 200
	maxFounders    = 6
	maxName        = 160
	maxBio         = 3000
	maxQuestion    = 300
	maxAnswer      = 1500
	maxSection     = 8000
	maxMilestones  = 50
	maxMsTitle     = 200
	maxMsDesc      = 2000
	maxURL         = 500
)

// pricingModels are the pricing_model values domain.Ground accepts, sorted.
var pricingModels = slices.Sorted(maps.Keys(domain.PricingModels))

var yearRE = regexp.MustCompile(`^(\d{4})(-\d\d(-\d\d)?)?$`)

// toDrafted turns the reply into a domain.Drafted, keeping only values of the
// right form (known field, stage slug, category name, bounds, URL shape). It
// does not look at the evidence: that is the gate's job.
func (r *reply) toDrafted(req domain.DraftRequest) *domain.Drafted {
	d := &domain.Drafted{Fields: map[string]domain.DraftedValue{}}
	wanted := wantedFields(req)
	for _, f := range r.Fields {
		name := strings.ToLower(strings.TrimSpace(f.Field))
		if !slices.Contains(wanted, name) {
			continue
		}
		if _, dup := d.Fields[name]; dup {
			continue // the first answer for a field wins
		}
		v := domain.DraftedValue{Evidence: cleanEvidence(f.Evidence)}
		text, list := f.Text, f.List
		if len(f.Value) > 0 && text == "" && len(list) == 0 {
			if json.Unmarshal(f.Value, &text) != nil {
				_ = json.Unmarshal(f.Value, &list)
			}
		}
		if domain.DraftListFields[name] {
			if len(list) == 0 && strings.TrimSpace(text) != "" {
				list = []string{text}
			}
			v.List = cleanList(name, list, req)
			if len(v.List) == 0 {
				continue
			}
		} else {
			if strings.TrimSpace(text) == "" && len(list) == 1 {
				text = list[0]
			}
			var ok bool
			if v.Text, ok = cleanText(name, text, req); !ok {
				continue
			}
		}
		d.Fields[name] = v
	}
	if len(req.Only) > 0 {
		return d
	}
	for _, f := range r.FAQs {
		q, a := domain.NormalizeSpace(f.Question), strings.TrimSpace(f.Answer)
		if q == "" || a == "" || runes(q) > maxQuestion || runes(a) > maxAnswer {
			continue
		}
		d.FAQs = append(d.FAQs, domain.DraftedFAQ{FAQ: domain.FAQ{Question: q, Answer: a}, Evidence: cleanEvidence(f.Evidence)})
	}
	for _, f := range r.Founders {
		fd := domain.DraftedFounder{
			Name:     domain.NormalizeSpace(f.Name),
			Title:    domain.NormalizeSpace(f.Title),
			Bio:      strings.TrimSpace(f.Bio),
			Evidence: cleanEvidence(f.Evidence),
		}
		if fd.Name == "" || runes(fd.Name) > maxName || runes(fd.Title) > maxName || runes(fd.Bio) > maxBio {
			continue
		}
		for _, l := range f.Socials {
			if p, u, ok := cleanLink(l.Platform, l.URL); ok {
				if fd.Socials == nil {
					fd.Socials = domain.Socials{}
				}
				if _, dup := fd.Socials[p]; !dup {
					fd.Socials[p] = u
				}
			}
		}
		d.Founders = append(d.Founders, fd)
	}
	for _, s := range r.Socials {
		if p, u, ok := cleanLink(s.Platform, s.URL); ok {
			if d.Socials == nil {
				d.Socials = map[string]domain.DraftedLink{}
			}
			if _, dup := d.Socials[p]; !dup {
				d.Socials[p] = domain.DraftedLink{URL: u, Evidence: cleanEvidence(s.Evidence)}
			}
		}
	}
	for _, s := range r.Story {
		key, text := strings.ToLower(strings.TrimSpace(s.Section)), strings.TrimSpace(s.Text)
		if !slices.Contains(storyKeys, key) || text == "" || runes(text) > maxSection {
			continue
		}
		if d.Story == nil {
			d.Story = map[string]domain.DraftedSection{}
		}
		if _, dup := d.Story[key]; !dup {
			d.Story[key] = domain.DraftedSection{Text: text, Evidence: cleanEvidence(s.Evidence)}
		}
	}
	for _, m := range r.Milestones {
		ms := domain.Milestone{
			Date:        strings.TrimSpace(m.Date),
			Title:       domain.NormalizeSpace(m.Title),
			Description: strings.TrimSpace(m.Description),
			URL:         strings.TrimSpace(m.URL),
		}
		if _, err := time.Parse(time.DateOnly, ms.Date); err != nil {
			continue
		}
		if ms.Title == "" || runes(ms.Title) > maxMsTitle || runes(ms.Description) > maxMsDesc {
			continue
		}
		if ms.URL != "" && !httpURL(ms.URL) {
			ms.URL = "" // an optional link of the wrong shape is left out, the event stays
		}
		d.Milestones = append(d.Milestones, domain.DraftedMilestone{Milestone: ms, Evidence: cleanEvidence(m.Evidence)})
	}
	return d
}

// cleanText checks and normalises the value of a text field.
func cleanText(field, s string, req domain.DraftRequest) (string, bool) {
	if field == "description" {
		s = strings.TrimSpace(s)
		return s, s != "" && runes(s) <= maxDescription
	}
	s = domain.NormalizeSpace(s)
	if s == "" || runes(s) > maxText {
		return "", false
	}
	switch field {
	case "stage":
		return oneOf(s, req.Stages)
	case "pricing_model":
		return oneOf(strings.ReplaceAll(s, " ", "-"), pricingModels)
	case "country":
		if code, ok := domain.CountryCode(s); ok {
			return code, true
		}
		if len(s) != 2 || !isLetters(s) {
			return "", false
		}
		return strings.ToUpper(s), true
	case "founded_year":
		m := yearRE.FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		return m[1], true
	case "contact_email":
		s = strings.TrimPrefix(s, "mailto:")
		at := strings.IndexByte(s, '@')
		return s, at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " <>")
	case "demo_video_url", "logo_url":
		return s, httpURL(s)
	}
	return s, true
}

// cleanList normalises a list field's items, drops empty, repeated and
// over-long ones, and maps categories onto the category list's names.
func cleanList(field string, items []string, req domain.DraftRequest) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		it = domain.NormalizeSpace(it)
		if field == "categories" {
			var ok bool
			if it, ok = categoryName(it, req.Categories); !ok {
				continue
			}
		}
		key := strings.ToLower(it)
		if it == "" || runes(it) > maxListItem || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, it)
		if len(out) == maxListItems {
			break
		}
	}
	return out
}

// categoryName is the list's spelling of name (matched case-insensitively,
// by name or slug).
func categoryName(name string, cats []domain.CategoryChoice) (string, bool) {
	for _, c := range cats {
		if strings.EqualFold(c.Name, name) || strings.EqualFold(c.Slug, name) {
			return c.Name, true
		}
	}
	return "", false
}

// oneOf is allowed's spelling of s, matched case-insensitively.
func oneOf(s string, allowed []string) (string, bool) {
	for _, a := range allowed {
		if strings.EqualFold(a, s) {
			return a, true
		}
	}
	return "", false
}

// cleanLink checks a social link: a known platform and an http(s) URL.
func cleanLink(platform, u string) (string, string, bool) {
	platform = strings.ToLower(strings.TrimSpace(platform))
	if platform == "twitter" {
		platform = "x"
	}
	u = strings.TrimSpace(u)
	return platform, u, slices.Contains(domain.SocialPlatforms, platform) && httpURL(u)
}

// cleanEvidence trims quotes and URLs and drops empty and repeated ones.
func cleanEvidence(ev []domain.Evidence) []domain.Evidence {
	out := make([]domain.Evidence, 0, len(ev))
	for _, e := range ev {
		e = domain.Evidence{Quote: strings.TrimSpace(e.Quote), URL: strings.TrimSpace(e.URL)}
		if e.Quote == "" && e.URL == "" {
			continue
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func httpURL(s string) bool {
	if len(s) > maxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func isLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

func runes(s string) int { return utf8.RuneCountInString(s) }
