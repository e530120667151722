package tools

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestE2E_REST runs the REST scenario tables of the 17 public operations
// against the real router over one seeded SQLite file.
func TestE2E_REST(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	t.Run("get_site_info", func(t *testing.T) { e2eRun(t, e, e2eSiteRows(e)) })
	t.Run("search_listings", func(t *testing.T) { e2eRun(t, e, e2eSearchRows(t, e)) })
	t.Run("get_listing", func(t *testing.T) { e2eRun(t, e, e2eListingRows(t, e)) })
	t.Run("get_alternatives", func(t *testing.T) { e2eRun(t, e, e2eAlternativesRows(t, e)) })
	t.Run("compare_listings", func(t *testing.T) { e2eRun(t, e, e2eCompareRows(t, e)) })
	t.Run("categories", func(t *testing.T) { e2eRun(t, e, e2eCategoryRows(t, e)) })
	t.Run("get_launch_week", func(t *testing.T) { e2eRun(t, e, e2eWeekRows(t, e)) })
	t.Run("list_launches", func(t *testing.T) { e2eRun(t, e, e2eLaunchRows(t, e)) })
	t.Run("get_leaderboard", func(t *testing.T) { e2eRun(t, e, e2eBoardRows(t, e)) })
	t.Run("founders", func(t *testing.T) { e2eRun(t, e, e2eFounderRows(t, e)) })
	t.Run("blog", func(t *testing.T) { e2eRun(t, e, e2eBlogRows(t, e)) })
	t.Run("list_awards", func(t *testing.T) { e2eRun(t, e, e2eAwardRows(t, e)) })
	t.Run("get_badges", func(t *testing.T) { e2eRun(t, e, e2eBadgeRows(t, e)) })
	t.Run("list_interview_questions", func(t *testing.T) { e2eRun(t, e, e2eInterviewRows(e)) })
	t.Run("bounds", func(t *testing.T) { e2eRun(t, e, e2eBoundRows(t, e)) })
	t.Run("routing", func(t *testing.T) { e2eRun(t, e, e2eRoutingRows()) })
}

func e2eSiteRows(e *e2eEnv) []e2eScenario {
	return []e2eScenario{
		{name: "OK", url: "/v1/site", wantStatus: 200, wantContains: []string{`"name":"Launchdir"`, "PAID"},
			check: func(t *testing.T, body []byte) {
				s := e2eDecode[domain.SiteInfo](t, body)
				if s.APIBaseURL != e.base+"/v1" || s.MCPURL != e.base+"/mcp" || s.OpenAPIURL != e.base+"/v1/openapi.json" {
					t.Errorf("urls: api %q mcp %q openapi %q (base %q)", s.APIBaseURL, s.MCPURL, s.OpenAPIURL, e.base)
				}
				if s.LiveListings < 300 || s.Categories < 25 || s.UpcomingListings < 1 {
					t.Errorf("counts: live %d, upcoming %d, categories %d; want >= 300, >= 1, >= 25", s.LiveListings, s.UpcomingListings, s.Categories)
				}
				if len(s.Stages) != len(domain.Stages) {
					t.Errorf("stages %v", s.Stages)
				}
				if !strings.Contains(s.Rankings["billboard"], "PAID") {
					t.Errorf("billboard ranking text %q does not say PAID", s.Rankings["billboard"])
				}
			}},
		{name: "UnknownParam", url: "/v1/site?x=1", wantStatus: 400, wantErrors: []e2eFieldRule{{"x", "additionalProperties"}}},
	}
}

// e2eNoteTaking returns the top listing for "note-taking app" and checks that it is one.
func e2eNoteTaking(t *testing.T, e *e2eEnv) domain.ListingSummary {
	t.Helper()
	var out domain.SearchListingsOutput
	e.getJSON(t, e2eQuery("/v1/listings", "q", "note-taking app", "per_page", "10"), &out)
	if len(out.Items) == 0 {
		t.Fatalf(`search "note-taking app" found nothing`)
	}
	x := out.Items[0]
	var full domain.Listing
	e.getJSON(t, "/v1/listings/"+x.Slug, &full)
	text := strings.ToLower(full.Name + " " + full.Tagline + " " + full.Description + " " + strings.Join(full.Keywords, " "))
	if !strings.Contains(text, "note-taking") {
		t.Fatalf(`top result for "note-taking app" is %q (%q), whose text never says note-taking`, x.Slug, x.Tagline)
	}
	return x.ListingSummary
}

// e2eMostCommon returns the most frequent non-empty value of f over items.
func e2eMostCommon(items []domain.ListingSummary, f func(domain.ListingSummary) string) string {
	n := map[string]int{}
	for _, it := range items {
		if v := f(it); v != "" {
			n[v]++
		}
	}
	best, bestN := "", 0
	for v, c := range n {
		if c > bestN || (c == bestN && v < best) {
			best, bestN = v, c
		}
	}
	return best
}

// e2eEvery returns a check that decodes a search page and applies ok to every item.
func e2eEvery(what string, minItems int, ok func(domain.ListingSummary) bool) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		out := e2eDecode[domain.SearchListingsOutput](t, body)
		if len(out.Items) < minItems {
			t.Fatalf("%d items, want >= %d", len(out.Items), minItems)
		}
		for _, it := range out.Items {
			if !ok(it.ListingSummary) {
				t.Errorf("item %s breaks %s: %+v", it.Slug, what, it)
			}
		}
	}
}

func e2eSearchRows(t *testing.T, e *e2eEnv) []e2eScenario {
	all := e.e2eAllLive(t)
	x := e2eNoteTaking(t, e)
	country := e2eMostCommon(all, func(l domain.ListingSummary) string { return l.Country })
	pricing := e2eMostCommon(all, func(l domain.ListingSummary) string { return l.PricingModel })
	stage := e2eMostCommon(all, func(l domain.ListingSummary) string { return l.Stage })
	countIf := func(f func(domain.ListingSummary) bool) int {
		n := 0
		for _, l := range all {
			if f(l) {
				n++
			}
		}
		return n
	}
	host := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(x.URL, "https://"), "http://"), "www.")
	host = strings.SplitN(host, "/", 2)[0]
	// One typo (a deleted letter) in the first word of the note-taking listing's name.
	word := strings.Fields(x.Name)[0]
	typoName := word
	if len(word) >= 5 {
		typoName = word[:len(word)-2] + word[len(word)-1:]
	}
	parent, child := e2eParentWithChildren(t, e)
	totalOf := func(t *testing.T, path string) int {
		var out domain.SearchListingsOutput
		e.getJSON(t, path, &out)
		return out.Total
	}
	return []e2eScenario{
		{name: "DefaultPage", url: "/v1/listings", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if len(out.Items) != 20 || out.Page.Page != 1 || out.PerPage != 20 || !out.HasMore {
				t.Errorf("page %+v with %d items, want page 1, per_page 20, 20 items, has_more", out.Page, len(out.Items))
			}
			if out.Total != len(all) || out.Total < 300 {
				t.Errorf("total %d, all live listings read %d, want equal and >= 300", out.Total, len(all))
			}
			if i := e2eNonIncreasing(e2eMap(out.Summaries(), func(l domain.ListingSummary) int { return l.Votes })); i >= 0 {
				t.Errorf("relevance without q must fall back to votes: item %d has more votes than item %d", i, i-1)
			}
		}},
		{name: "AllLive", url: "/v1/listings?per_page=100", wantStatus: 200,
			check: e2eEvery("status live", 100, func(l domain.ListingSummary) bool { return l.Status == domain.StatusLive })},
		{name: "SortVotes", url: "/v1/listings?sort=votes&per_page=100", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if i := e2eNonIncreasing(e2eMap(out.Summaries(), func(l domain.ListingSummary) int { return l.Votes })); i >= 0 {
				t.Errorf("votes increase at item %d", i)
			}
		}},
		{name: "SortMostViewed", url: "/v1/listings?sort=most_viewed&per_page=50", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if i := e2eNonIncreasing(e2eMap(out.Summaries(), func(l domain.ListingSummary) int { return l.Views })); i >= 0 {
				t.Errorf("views increase at item %d", i)
			}
		}},
		{name: "SortMostFollowed", url: "/v1/listings?sort=most_followed&per_page=50", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if i := e2eNonIncreasing(e2eMap(out.Summaries(), func(l domain.ListingSummary) int { return l.Follows })); i >= 0 {
				t.Errorf("follows increase at item %d", i)
			}
		}},
		{name: "SortNewest", url: "/v1/listings?sort=newest&per_page=50", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			for i, l := range out.Items {
				if l.LaunchedAt == nil {
					t.Fatalf("live item %s has no launched_at", l.Slug)
				}
				if l.LaunchedAt.After(e2eNow) {
					t.Errorf("item %s launched at %v, after now", l.Slug, l.LaunchedAt)
				}
				if i > 0 && l.LaunchedAt.After(*out.Items[i-1].LaunchedAt) {
					t.Errorf("newest: item %d (%v) is newer than item %d (%v)", i, l.LaunchedAt, i-1, out.Items[i-1].LaunchedAt)
				}
			}
		}},
		{name: "SortTrending", url: "/v1/listings?sort=trending", wantStatus: 200, check: e2eEvery("live", 20, func(l domain.ListingSummary) bool { return l.Status == "live" })},
		{name: "NoteTakingTypo", url: e2eQuery("/v1/listings", "q", "notetakng app", "per_page", "5"), wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			slugs := e2eMap(out.Summaries(), func(l domain.ListingSummary) string { return l.Slug })
			if len(slugs) > 3 {
				slugs = slugs[:3]
			}
			if !slices.Contains(slugs, x.Slug) {
				t.Errorf(`"notetakng app" top 3 %v lacks %q, the top hit for "note-taking app"`, slugs, x.Slug)
			}
		}},
		{name: "NameWithTypo", url: e2eQuery("/v1/listings", "q", typoName, "per_page", "3"), wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if !slices.Contains(e2eMap(out.Summaries(), func(l domain.ListingSummary) string { return l.Slug }), x.Slug) {
				t.Errorf("q %q (typo of %q) top 3 lacks %q: %v", typoName, word, x.Slug, e2eMap(out.Summaries(), func(l domain.ListingSummary) string { return l.Name }))
			}
		}},
		{name: "NoMatch", url: "/v1/listings?q=zzqxjvkw", wantStatus: 200, wantContains: []string{`"items":[]`, `"total":0`}},
		{name: "Upcoming", url: "/v1/listings?status=upcoming&per_page=100", wantStatus: 200,
			check: e2eEvery("upcoming = scheduled, launch week not before this week", 1, func(l domain.ListingSummary) bool {
				return l.Status == domain.StatusScheduled && l.LaunchWeek >= e2eThisWeek && l.LaunchedAt == nil
			})},
		{name: "CategoryIncludesSubcategories", url: "/v1/listings?per_page=100&category=" + parent.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			if out.Total != parent.ListingCount {
				t.Errorf("category %s: search total %d, category listing_count %d", parent.Slug, out.Total, parent.ListingCount)
			}
			childTotal := totalOf(t, "/v1/listings?category="+child.Slug)
			if childTotal == 0 || out.Total < childTotal {
				t.Errorf("parent %s total %d, child %s total %d; want child > 0 and parent >= child", parent.Slug, out.Total, child.Slug, childTotal)
			}
			subs := e2eMap(parent.Subcategories, func(c domain.CategoryNode) string { return c.Slug })
			fromSub := 0
			for _, l := range out.Items {
				if l.PrimaryCategory != nil && slices.Contains(subs, l.PrimaryCategory.Slug) {
					fromSub++
				}
			}
			if fromSub == 0 {
				t.Errorf("category %s: no result has a subcategory (%v) as primary category", parent.Slug, subs)
			}
		}},
		// A category with no live listing exists: its empty page is an
		// answer, not the "no such category" refusal (e2eBoundRows).
		{name: "CategoryEmpty", url: "/v1/listings?category=" + e2eEmptyCategory(t, e), wantStatus: 200, wantContains: []string{`"items":[]`, `"total":0`}},
		{name: "Country", url: "/v1/listings?per_page=100&country=" + country, wantStatus: 200, check: func(t *testing.T, body []byte) {
			e2eEvery("country "+country, 1, func(l domain.ListingSummary) bool { return l.Country == country })(t, body)
			if got, want := e2eDecode[domain.SearchListingsOutput](t, body).Total, countIf(func(l domain.ListingSummary) bool { return l.Country == country }); got != want {
				t.Errorf("total %d, live listings with country %s %d", got, country, want)
			}
		}},
		{name: "CountryLowerCase", url: "/v1/listings?per_page=100&country=" + strings.ToLower(country), wantStatus: 200,
			check: e2eEvery("country "+country, 1, func(l domain.ListingSummary) bool { return l.Country == country })},
		{name: "PricingModel", url: e2eQuery("/v1/listings", "per_page", "100", "pricing_model", strings.ToUpper(pricing)), wantStatus: 200, check: func(t *testing.T, body []byte) {
			e2eEvery("pricing "+pricing, 1, func(l domain.ListingSummary) bool { return strings.EqualFold(l.PricingModel, pricing) })(t, body)
			if got, want := e2eDecode[domain.SearchListingsOutput](t, body).Total, countIf(func(l domain.ListingSummary) bool { return strings.EqualFold(l.PricingModel, pricing) }); got != want {
				t.Errorf("total %d, live listings priced %s %d", got, pricing, want)
			}
		}},
		{name: "Stage", url: "/v1/listings?per_page=100&stage=" + stage, wantStatus: 200,
			check: e2eEvery("stage "+stage, 1, func(l domain.ListingSummary) bool { return l.Stage == stage })},
		{name: "Domain", url: e2eQuery("/v1/listings", "domain", host), wantStatus: 200, check: e2eDomainCheck(x.Slug)},
		{name: "DomainWithWWWAndScheme", url: e2eQuery("/v1/listings", "domain", "https://www."+host+"/pricing"), wantStatus: 200, check: e2eDomainCheck(x.Slug)},
		{name: "Pagination", url: "/v1/listings?sort=votes&per_page=7&page=2", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.SearchListingsOutput](t, body)
			got := e2eMap(out.Summaries(), func(l domain.ListingSummary) string { return l.Slug })
			want := e2eMap(all[7:14], func(l domain.ListingSummary) string { return l.Slug })
			if !slices.Equal(got, want) {
				t.Errorf("page 2 of 7 by votes %v, want items 8-14 of the full list %v", got, want)
			}
			if out.Page.Page != 2 || out.PerPage != 7 || !out.HasMore {
				t.Errorf("page %+v", out.Page)
			}
		}},
		{name: "LastPageHasNoMore", url: "/v1/listings?sort=votes&per_page=100&page=1000", wantStatus: 200, wantContains: []string{`"items":[]`, `"has_more":false`}},
	}
}

// e2eDomainCheck expects exactly one result, the listing slug.
func e2eDomainCheck(slug string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		out := e2eDecode[domain.SearchListingsOutput](t, body)
		if out.Total != 1 || len(out.Items) != 1 || out.Items[0].Slug != slug {
			t.Errorf("domain filter: total %d, items %v; want just %s", out.Total, e2eMap(out.Summaries(), func(l domain.ListingSummary) string { return l.Slug }), slug)
		}
	}
}

// e2eParentWithChildren returns a top-level category that has subcategories with listings,
// and its subcategory with the most listings.
func e2eParentWithChildren(t *testing.T, e *e2eEnv) (domain.CategoryNode, domain.CategoryNode) {
	t.Helper()
	var cats domain.ListCategoriesOutput
	e.getJSON(t, "/v1/categories", &cats)
	for _, c := range cats.Items {
		if len(c.Subcategories) == 0 {
			continue
		}
		subs := slices.Clone(c.Subcategories)
		sort.SliceStable(subs, func(i, j int) bool { return subs[i].ListingCount > subs[j].ListingCount })
		if subs[0].ListingCount > 0 {
			return c, subs[0]
		}
	}
	t.Fatalf("no top-level category with a non-empty subcategory in %d items", len(cats.Items))
	return domain.CategoryNode{}, domain.CategoryNode{}
}

// e2eEmptyCategory returns the slug of a category without live listings.
func e2eEmptyCategory(t *testing.T, e *e2eEnv) string {
	t.Helper()
	var cats domain.ListCategoriesOutput
	e.getJSON(t, "/v1/categories", &cats)
	var walk func([]domain.CategoryNode) string
	walk = func(nodes []domain.CategoryNode) string {
		for _, c := range nodes {
			if c.ListingCount == 0 {
				return c.Slug
			}
			if s := walk(c.Subcategories); s != "" {
				return s
			}
		}
		return ""
	}
	slug := walk(cats.Items)
	if slug == "" {
		t.Fatalf("no category without live listings in the demo tree (%d top-level)", len(cats.Items))
	}
	return slug
}

// e2eProfiles reads the full profile of every live listing.
func e2eProfiles(t *testing.T, e *e2eEnv) map[string]map[string]json.RawMessage {
	t.Helper()
	out := map[string]map[string]json.RawMessage{}
	for _, l := range e.e2eAllLive(t) {
		var m map[string]json.RawMessage
		e.getJSON(t, "/v1/listings/"+l.Slug, &m)
		out[l.Slug] = m
	}
	return out
}

func e2eListingRows(t *testing.T, e *e2eEnv) []e2eScenario {
	x := e2eNoteTaking(t, e)
	profiles := e2eProfiles(t, e)
	var withPaid, without, withDR, guessed string
	for _, l := range e.e2eAllLive(t) {
		if guessed == "" && len(l.Slug) >= 6 && !strings.Contains(l.Slug, "-") && strings.EqualFold(l.Name, l.Slug) {
			guessed = l.Slug
		}
		p := profiles[l.Slug]
		_, story := p["story"]
		_, ms := p["milestones"]
		_, media := p["media"]
		if story && withPaid == "" {
			withPaid = l.Slug
		}
		if !story && !ms && !media && without == "" {
			without = l.Slug
		}
		if _, ok := p["domain_rating"]; ok && withDR == "" {
			withDR = l.Slug
		}
	}
	if withPaid == "" || without == "" || withDR == "" {
		t.Fatalf("demo data: listing with story %q, listing without paid sections %q, listing with domain rating %q; want all three", withPaid, without, withDR)
	}
	var upcoming domain.SearchListingsOutput
	e.getJSON(t, "/v1/listings?status=upcoming&per_page=1", &upcoming)
	if len(upcoming.Items) == 0 {
		t.Fatalf("no upcoming listing")
	}
	if guessed == "" {
		t.Fatal("no live listing whose slug is its name in one word of 6 letters or more")
	}
	return []e2eScenario{
		{name: "NoteTaking", url: "/v1/listings/" + x.Slug, wantStatus: 200,
			wantContains: []string{`"not_found_on_website":`, `"community_rating":`, `"founders":`, `"faqs":`, `"socials":`, `"latest_updates":`},
			check: func(t *testing.T, body []byte) {
				l := e2eDecode[domain.Listing](t, body)
				if l.Slug != x.Slug || l.Name != x.Name || l.Description == "" || len(l.Features) == 0 || l.Company == "" {
					t.Errorf("profile of %s: name %q, description %d chars, %d features, company %q", x.Slug, l.Name, len(l.Description), len(l.Features), l.Company)
				}
				if l.PageURL != e.base+"/listings/"+x.Slug {
					t.Errorf("page_url %q, want %q", l.PageURL, e.base+"/listings/"+x.Slug)
				}
				if l.PrimaryCategory == nil || !slices.ContainsFunc(l.Categories, func(c domain.CategoryRef) bool { return c.Primary && c.Slug == l.PrimaryCategory.Slug }) {
					t.Errorf("primary category %+v is not marked primary among categories %+v", l.PrimaryCategory, l.Categories)
				}
				if l.Plan == domain.PlanFree && len(l.Categories) > 1 {
					t.Errorf("free listing with %d categories; extra categories are for paid listings", len(l.Categories))
				}
				if r := l.CommunityRating; r != nil && (r.Count < 1 || r.Average < 1 || r.Average > 5 || r.Count != l.Reviews.Count) {
					t.Errorf("community rating %+v out of range (null without reviews), reviews count %d", r, l.Reviews.Count)
				}
				if l.Reviews.Items == nil || len(l.Reviews.Items) > domain.ListingReviews || (l.CommunityRating == nil) != (l.Reviews.Count == 0) {
					t.Errorf("reviews %+v with rating %+v", l.Reviews, l.CommunityRating)
				}
			}},
		{name: "PaidSectionsShown", url: "/v1/listings/" + withPaid, wantStatus: 200, wantContains: []string{`"story":{`}, check: func(t *testing.T, body []byte) {
			l := e2eDecode[domain.Listing](t, body)
			if l.Story == nil || (l.Story.Story == "" && l.Story.Title == "") {
				t.Errorf("story present but empty: %+v", l.Story)
			}
		}},
		{name: "PaidSectionsAbsent", url: "/v1/listings/" + without, wantStatus: 200,
			notWantContains: []string{`"story":`, `"milestones":`, `"media":`}},
		{name: "DomainRatingTrend", url: "/v1/listings/" + withDR, wantStatus: 200, check: func(t *testing.T, body []byte) {
			dr := e2eDecode[domain.Listing](t, body).DomainRating
			if dr == nil || len(dr.History) < 2 {
				t.Fatalf("domain rating %+v, want a history of >= 2 readings", dr)
			}
			h := slices.Clone(dr.History)
			sort.SliceStable(h, func(i, j int) bool { return h[i].Date < h[j].Date })
			first, last := h[0], h[len(h)-1]
			if dr.Current != last.Value || dr.AsOf != last.Date || dr.Change != last.Value-first.Value {
				t.Errorf("current %d as of %s change %d; history runs %+v .. %+v", dr.Current, dr.AsOf, dr.Change, first, last)
			}
			want := map[bool]string{true: "up"}[dr.Change > 0]
			if dr.Change < 0 {
				want = "down"
			} else if dr.Change == 0 {
				want = "flat"
			}
			if dr.Trend != want || dr.Current < 0 || dr.Current > 100 || dr.Source == "" {
				t.Errorf("trend %q with change %d (want %q), current %d, source %q", dr.Trend, dr.Change, want, dr.Current, dr.Source)
			}
		}},
		{name: "Scheduled", url: "/v1/listings/" + upcoming.Items[0].Slug, wantStatus: 200, wantContains: []string{`"status":"scheduled"`}},
		{name: "Absent", url: "/v1/listings/no-such-listing-e2e", wantStatus: 404, wantContains: []string{"no-such-listing-e2e", "search_listings with q"}},
		// A guessed slug ("study-loop" for "studyloop") names the listing it
		// most likely meant; one that resembles nothing names none.
		{name: "AbsentGuessed", url: "/v1/listings/" + guessed[:3] + "-" + guessed[3:], wantStatus: 404,
			wantContains: []string{`Did you mean \"` + guessed + `\"`}},
		{name: "AbsentNothingLike", url: "/v1/listings/zzqx-vvkw", wantStatus: 404, check: func(t *testing.T, body []byte) {
			if bytes.Contains(body, []byte("Did you mean")) {
				t.Errorf("a slug like no listing got a suggestion: %s", body)
			}
		}},
		{name: "SlugPattern", url: "/v1/listings/Bad_Slug", wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "pattern"}}},
		{name: "SlugMax220", url: "/v1/listings/" + strings.Repeat("a", 220), wantStatus: 404},
		{name: "SlugOver220", url: "/v1/listings/" + strings.Repeat("a", 221), wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "maxLength|pattern"}}},
		{name: "UnknownParam", url: "/v1/listings/" + x.Slug + "?verbose=1", wantStatus: 400, wantErrors: []e2eFieldRule{{"verbose", "additionalProperties"}}},
	}
}

func e2eAlternativesRows(t *testing.T, e *e2eEnv) []e2eScenario {
	x := e2eNoteTaking(t, e)
	withApproved := ""
	for _, l := range e.e2eAllLive(t) {
		var out domain.GetAlternativesOutput
		e.getJSON(t, "/v1/listings/"+l.Slug+"/alternatives", &out)
		if len(out.Items) > 0 && out.Items[0].Approved {
			withApproved = l.Slug
			break
		}
	}
	if withApproved == "" {
		t.Fatalf("no live listing has an owner-approved alternative")
	}
	var bySlug = map[string]domain.ListingSummary{}
	for _, l := range e.e2eAllLive(t) {
		bySlug[l.Slug] = l
	}
	check := func(slug string, wantApproved bool) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			out := e2eDecode[domain.GetAlternativesOutput](t, body)
			if out.Listing != slug || len(out.Items) == 0 {
				t.Fatalf("listing %q, %d items", out.Listing, len(out.Items))
			}
			me := bySlug[slug]
			seenPlain := false
			for i, a := range out.Items {
				if a.Slug == slug {
					t.Errorf("the listing itself is its own alternative")
				}
				if a.Approved && seenPlain {
					t.Errorf("approved alternative %s at %d comes after a non-approved one", a.Slug, i)
				}
				if !a.Approved {
					seenPlain = true
					if a.PrimaryCategory == nil || me.PrimaryCategory == nil || a.PrimaryCategory.Slug != me.PrimaryCategory.Slug {
						t.Errorf("non-approved alternative %s has primary category %+v, listing has %+v", a.Slug, a.PrimaryCategory, me.PrimaryCategory)
					}
					if a.Status != domain.StatusLive {
						t.Errorf("non-approved alternative %s has status %q", a.Slug, a.Status)
					}
				}
			}
			if wantApproved && !out.Items[0].Approved {
				t.Errorf("first alternative is not approved")
			}
		}
	}
	return []e2eScenario{
		{name: "NoteTaking", url: "/v1/listings/" + x.Slug + "/alternatives", wantStatus: 200, check: check(x.Slug, false)},
		{name: "ApprovedFirst", url: "/v1/listings/" + withApproved + "/alternatives", wantStatus: 200, wantContains: []string{`"approved":true`}, check: check(withApproved, true)},
		{name: "Absent", url: "/v1/listings/no-such-listing-e2e/alternatives", wantStatus: 404, wantContains: []string{"search_listings with q"}},
		{name: "SlugPattern", url: "/v1/listings/-bad/alternatives", wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "pattern"}}},
	}
}

func e2eCompareRows(t *testing.T, e *e2eEnv) []e2eScenario {
	x := e2eNoteTaking(t, e)
	var xl domain.Listing
	e.getJSON(t, "/v1/listings/"+x.Slug, &xl)
	var y, other domain.ListingSummary
	for _, l := range e.e2eAllLive(t) {
		if l.Slug == x.Slug || l.PrimaryCategory == nil {
			continue
		}
		if y.Slug == "" && l.PrimaryCategory.Slug == x.PrimaryCategory.Slug {
			y = l
		}
		if other.Slug == "" && l.PrimaryCategory.Slug != x.PrimaryCategory.Slug {
			other = l
		}
	}
	if y.Slug == "" || other.Slug == "" {
		t.Fatalf("need a second note-taking listing (%q) and one in another category (%q)", y.Slug, other.Slug)
	}
	var yl domain.Listing
	e.getJSON(t, "/v1/listings/"+y.Slug, &yl)
	var cat domain.GetCategoryOutput
	e.getJSON(t, "/v1/categories/"+x.PrimaryCategory.Slug+"?per_page=1", &cat)
	if len(cat.Category.Attributes) == 0 {
		t.Fatalf("category %s has no comparison attributes", cat.Category.Slug)
	}
	return []e2eScenario{
		{name: "SameCategory", url: "/v1/compare?a=" + x.Slug + "&b=" + y.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.CompareListingsOutput](t, body)
			if out.A.Slug != x.Slug || out.B.Slug != y.Slug {
				t.Errorf("a %q b %q", out.A.Slug, out.B.Slug)
			}
			if len(out.Categories) != 1 || out.Categories[0].Slug != x.PrimaryCategory.Slug {
				t.Errorf("categories %+v, want just %s", out.Categories, x.PrimaryCategory.Slug)
			}
			rows := map[string]domain.CompareRow{}
			for _, r := range out.Rows {
				rows[r.Key] = r
			}
			for _, a := range cat.Category.Attributes {
				if _, ok := rows[a.Key]; !ok {
					t.Errorf("no row for category attribute %q", a.Key)
				}
			}
			if r := rows["pricing_model"]; r.A != xl.PricingModel || r.B != yl.PricingModel {
				t.Errorf("pricing_model row %+v, listings say %q and %q", r, xl.PricingModel, yl.PricingModel)
			}
			if r := rows["country"]; r.A != xl.Country || r.B != yl.Country {
				t.Errorf("country row %+v, listings say %q and %q", r, xl.Country, yl.Country)
			}
			if r := rows["founded_year"]; (xl.FoundedYear == nil) != (r.A == "") || (yl.FoundedYear == nil) != (r.B == "") {
				t.Errorf("founded_year row %+v for years %v and %v: an unknown fact must be an empty cell", r, xl.FoundedYear, yl.FoundedYear)
			}
		}},
		{name: "TwoCategories", url: "/v1/compare?a=" + x.Slug + "&b=" + other.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.CompareListingsOutput](t, body)
			if len(out.Categories) != 2 {
				t.Errorf("categories %+v, want both primary categories", out.Categories)
			}
		}},
		{name: "SameListing", url: "/v1/compare?a=" + x.Slug + "&b=" + x.Slug, wantStatus: 400, wantErrors: []e2eFieldRule{{"b", "not_equal"}}},
		{name: "MissingB", url: "/v1/compare?a=" + x.Slug, wantStatus: 400, wantErrors: []e2eFieldRule{{"b", "required"}}},
		{name: "MissingBoth", url: "/v1/compare", wantStatus: 400, wantErrors: []e2eFieldRule{{"a", "required"}, {"b", "required"}}},
		{name: "BadSlugA", url: "/v1/compare?a=A_B&b=" + x.Slug, wantStatus: 400, wantErrors: []e2eFieldRule{{"a", "pattern"}}},
		{name: "AbsentB", url: "/v1/compare?a=" + x.Slug + "&b=no-such-listing-e2e", wantStatus: 404, wantContains: []string{"no-such-listing-e2e", "search_listings with q"}},
		{name: "WrongMethod", method: http.MethodPost, url: "/v1/compare?a=" + x.Slug + "&b=" + y.Slug, wantStatus: 405},
	}
}
