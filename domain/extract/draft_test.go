package extract_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/domain/htmltext"
)

func draft(t *testing.T, req domain.DraftRequest) *domain.Drafted {
	t.Helper()
	dr, err := extract.New().Draft(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return dr
}

func siteOf(pages ...domain.WebPage) *domain.SiteCrawl {
	return &domain.SiteCrawl{URL: pages[0].URL, Pages: pages}
}

func testSiteNamed(t *testing.T, name string) testSite {
	for _, ts := range loadSites(t) {
		if ts.name == name {
			return ts
		}
	}
	t.Fatalf("no test site %s", name)
	return testSite{}
}

func TestDraft_EmptySite(t *testing.T) {
	for _, site := range []*domain.SiteCrawl{nil, {URL: "https://x.test/"}} {
		dr := draft(t, domain.DraftRequest{Site: site})
		if len(dr.Fields) != 0 || dr.FAQs != nil || dr.Founders != nil || dr.Socials != nil {
			t.Errorf("a site with no pages drafted %+v", dr)
		}
	}
}

func TestDraft_Canceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	site, _ := filePages(t, testSiteNamed(t, "ledgerly"))
	if _, err := extract.New().Draft(ctx, domain.DraftRequest{Site: site}); !errors.Is(err, context.Canceled) {
		t.Errorf("Draft on a canceled context: %v, want context.Canceled", err)
	}
}

// TestDraft_Only: a redraft of some fields returns those fields only, with
// the same values a full draft gives.
func TestDraft_Only(t *testing.T) {
	site, err := filePages(t, testSiteNamed(t, "ledgerly"))
	if err != nil {
		t.Fatal(err)
	}
	cats := loadCategories(t)
	full := draft(t, domain.DraftRequest{Site: site, Categories: cats.Categories, Stages: cats.Stages})
	only := []string{"pricing_model", "founded_year", "categories"}
	part := draft(t, domain.DraftRequest{Site: site, Categories: cats.Categories, Stages: cats.Stages, Only: only})
	if got := slices.Sorted(maps.Keys(part.Fields)); !slices.Equal(got, []string{"categories", "founded_year", "pricing_model"}) {
		t.Errorf("Only %v drafted fields %v", only, got)
	}
	for _, f := range only {
		if part.Fields[f].Text != full.Fields[f].Text || !slices.Equal(part.Fields[f].List, full.Fields[f].List) {
			t.Errorf("%s: redraft %+v, full draft %+v", f, part.Fields[f], full.Fields[f])
		}
	}
	if part.FAQs != nil || part.Founders != nil || part.Socials != nil || part.Story != nil || part.Milestones != nil {
		t.Errorf("Only %v also drafted sections: %+v", only, part)
	}
	part = draft(t, domain.DraftRequest{Site: site, Only: []string{"founders"}})
	if len(part.Fields) != 0 || len(part.Founders) != 2 || part.FAQs != nil {
		t.Errorf("Only founders drafted %d fields, %d founders, %d FAQs", len(part.Fields), len(part.Founders), len(part.FAQs))
	}
}

// TestDraft_UngroundedDropped: the last guard. A page whose Text and Data do
// not hold what its HTML says (as a broken fetcher might give) yields no value.
func TestDraft_UngroundedDropped(t *testing.T) {
	site, err := filePages(t, testSiteNamed(t, "notably"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range site.Pages {
		site.Pages[i].Text, site.Pages[i].Data = "", nil
	}
	dr := draft(t, domain.DraftRequest{Site: site, Categories: loadCategories(t).Categories})
	if len(dr.Fields) != 0 || len(dr.FAQs) != 0 || len(dr.Founders) != 0 || len(dr.Socials) != 0 || len(dr.Story) != 0 {
		t.Errorf("values without evidence on the page survived: %+v", dr)
	}
}

// TestDraft_Traps: one page per trap, each with the statement that would be
// mistaken for a fact, and a control that states the fact.
func TestDraft_Traps(t *testing.T) {
	const head = `<html><head><title>Acme | Notes for teams</title><meta property="og:site_name" content="Acme"></head><body><h1>Notes for teams</h1>`
	for _, tc := range []struct {
		name, body, field, want string
	}{
		{"CopyrightIsNotFounding", `<footer><p>© 2012–2025 Acme Inc. All rights reserved.</p></footer>`, "founded_year", ""},
		{"FoundingStatement", `<p>Acme was founded in 2015 in a garage.</p><footer>© 2025 Acme</footer>`, "founded_year", "2015"},
		{"TestimonialIsNotFounding", `<blockquote><p>We founded Globex in 2009 and have used Acme since.</p><cite>Jane Roe, founder of Globex</cite></blockquote>`, "founded_year", ""},
		{"OtherCompanyFounded", `<p>Founded in 2009, Globex Corporation is our oldest customer.</p>`, "founded_year", ""},
		{"NewsletterEmail", `<section class="newsletter"><p>Questions? <a href="mailto:news@mailer-service.example">news@mailer-service.example</a></p></section>`, "contact_email", ""},
		{"OtherDomainEmail", `<p>Our designer: <a href="mailto:studio@pixel-agency.example">studio@pixel-agency.example</a></p>`, "contact_email", ""},
		{"OwnEmail", `<p>Write to <a href="mailto:hello@acme.example">hello@acme.example</a></p>`, "contact_email", "hello@acme.example"},
		{"CustomerLocation", `<p>Our customers are based in Paris, France.</p>`, "country", ""},
		{"DataCentreLocation", `<p>Your notes are stored in Frankfurt, Germany.</p>`, "country", ""},
		{"OwnLocation", `<p>We are based in Porto, Portugal.</p>`, "country", "PT"},
		{"BetaFeaturesAreNotAStage", `<p>Try beta features under Settings.</p>`, "stage", ""},
		{"OpenBeta", `<p>Acme is now in open beta.</p>`, "stage", "beta"},
		{"TrialIsNotFree", `<h2>Pricing</h2><h3>Team</h3><p>$10 per user per month</p><p>14-day free trial.</p>`, "pricing_model", "subscription"},
		{"BlogPriceIsNotPricing", `<p>Read our blog.</p>`, "pricing_model", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := htmltext.Page("https://acme.example/", head+tc.body+`</body></html>`)
			blog := htmltext.Page("https://acme.example/blog/pricing-lessons", `<html><head><title>Pricing lessons | Acme</title></head><body><article><h1>Pricing lessons</h1><p>Most tools cost $49 per month. Globex was founded in 2001.</p></article></body></html>`)
			dr := draft(t, domain.DraftRequest{Site: siteOf(home, blog), Stages: []string{"beta", "launched"}})
			got := dr.Fields[tc.field]
			if got.Text != tc.want {
				t.Errorf("%s = %q (evidence %v), want %q", tc.field, got.Text, got.Evidence, tc.want)
			}
		})
	}
}

// TestDraft_Founders: investors, advisors and people quoted in testimonials
// are not founders; team cards and founding statements are.
func TestDraft_Founders(t *testing.T) {
	home := htmltext.Page("https://acme.example/", `<title>Acme</title><h1>Acme</h1>
		<figure class="testimonial"><blockquote>Acme saved us hours.</blockquote><figcaption>Sophie Marchand, CEO at Brightwave</figcaption></figure>`)
	team := htmltext.Page("https://acme.example/team", `<title>Team | Acme</title><h1>Team</h1>
		<p>Acme was started in 2021 by Ana Lima and Bo Chen.</p>
		<div><h3>Ana Lima</h3><p>Co-founder &amp; CEO</p><a href="https://www.linkedin.com/in/analima">LinkedIn</a></div>
		<div><h3>Bo Chen</h3><p>Co-founder &amp; CTO</p></div>
		<div><h3>Rui Costa</h3><p>Angel investor and board member</p></div>
		<div><h3>Eva Berg</h3><p>Advisor, former CEO of Initech</p></div>`)
	dr := draft(t, domain.DraftRequest{Site: siteOf(home, team)})
	var names []string
	for _, f := range dr.Founders {
		names = append(names, f.Name+"/"+f.Title)
	}
	if want := []string{"Ana Lima/Co-founder & CEO", "Bo Chen/Co-founder & CTO"}; !slices.Equal(names, want) {
		t.Errorf("founders %q, want %q", names, want)
	}
	if len(dr.Founders) > 0 && dr.Founders[0].Socials["linkedin"] != "https://www.linkedin.com/in/analima" {
		t.Errorf("founder socials %v", dr.Founders[0].Socials)
	}
	if _, ok := dr.Socials["linkedin"]; ok {
		t.Errorf("a founder's own LinkedIn became the company's: %v", dr.Socials)
	}
}
