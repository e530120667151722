package llmdraft

import (
	"slices"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// gate returns the part of d that is grounded in req.Site. domain.Ground
// keeps a value, FAQ, founder, link, story section or milestone only when
// every one of its evidence quotes is found verbatim on the page it names
// (domain.CheckEvidence) and the value is supported by its quotes. On top of
// it: fields outside req.Only go, a founder's social links are kept only when
// the link is on the site (they carry no evidence of their own), and the
// spec's caps on founders and milestones hold; a founded_year quoted only
// from a copyright notice goes.
func gate(req domain.DraftRequest, d *domain.Drafted) *domain.Drafted {
	out, _ := domain.Ground(req, d)
	wanted := wantedFields(req)
	for name := range out.Fields {
		if !slices.Contains(wanted, name) {
			delete(out.Fields, name)
		}
	}
	if v, ok := out.Fields["founded_year"]; ok && !foundingQuote(v) {
		delete(out.Fields, "founded_year")
	}
	for i := range out.Founders {
		f := &out.Founders[i]
		var socials domain.Socials
		for p, u := range f.Socials {
			if linkOnSite(req.Site, u) {
				if socials == nil {
					socials = domain.Socials{}
				}
				socials[p] = u
			}
		}
		f.Socials = socials
	}
	if len(out.Founders) > maxFounders {
		out.Founders = out.Founders[:maxFounders]
	}
	if len(out.Milestones) > maxMilestones {
		out.Milestones = out.Milestones[:maxMilestones]
	}
	return out
}

// foundingQuote reports whether some quote of a founded_year value states the
// year other than in a copyright notice: "© 2024 Acme" is the model's most
// tempting wrong answer, and the quote check alone lets it through.
func foundingQuote(v domain.DraftedValue) bool {
	for _, e := range v.Evidence {
		q := strings.ToLower(e.Quote)
		if strings.Contains(q, v.Text) && !strings.Contains(q, "©") && !strings.Contains(q, "copyright") && !strings.Contains(q, "(c)") {
			return true
		}
	}
	return false
}

// linkOnSite reports whether the URL u occurs on some crawled page (a link
// target in Data, or the text), ignoring a trailing slash.
func linkOnSite(site *domain.SiteCrawl, u string) bool {
	if site == nil || u == "" {
		return false
	}
	alt := strings.TrimSuffix(u, "/")
	if alt == u {
		alt = u + "/"
	}
	for i := range site.Pages {
		p := &site.Pages[i]
		if slices.Contains(p.Data, u) || slices.Contains(p.Data, alt) || domain.QuoteOnPage(p, u) {
			return true
		}
	}
	return false
}

// fill completes out from fb (the fallback drafter's gated output): every
// profile field out lacks, each missing social platform and story section,
// and FAQs, founders and milestones when out has none of them. The model's
// values win where both have one, so the fallback only fills gaps.
func fill(out, fb *domain.Drafted) {
	for name, v := range fb.Fields {
		if _, ok := out.Fields[name]; !ok {
			out.Fields[name] = v
		}
	}
	if len(out.FAQs) == 0 {
		out.FAQs = fb.FAQs
	}
	if len(out.Founders) == 0 {
		out.Founders = fb.Founders
	}
	if len(out.Milestones) == 0 {
		out.Milestones = fb.Milestones
	}
	for p, l := range fb.Socials {
		if _, ok := out.Socials[p]; !ok {
			if out.Socials == nil {
				out.Socials = map[string]domain.DraftedLink{}
			}
			out.Socials[p] = l
		}
	}
	for k, s := range fb.Story {
		if _, ok := out.Story[k]; !ok {
			if out.Story == nil {
				out.Story = map[string]domain.DraftedSection{}
			}
			out.Story[k] = s
		}
	}
}
