package web

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// hesc is how html/template writes text into a page.
func hesc(s string) string { return html.EscapeString(s) }

// pageCase is one request and what its answer must (and must not) contain.
type pageCase struct {
	name    string
	path    string
	status  int
	want    []string
	notWant []string
}

func runPages(t *testing.T, e *env, cases []pageCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.get(t, c.path)
			if res.status != c.status {
				t.Fatalf("GET %s: status %d, want %d\n%.600s", c.path, res.status, c.status, res.body)
			}
			if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("GET %s: Content-Type %q", c.path, ct)
			}
			for _, w := range c.want {
				if !strings.Contains(res.body, w) {
					t.Errorf("GET %s: page lacks %q\n%s", c.path, w, res.body)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(res.body, w) {
					t.Errorf("GET %s: page contains %q", c.path, w)
				}
			}
		})
	}
}

// result holds a service call's answer until a test unpacks it with get.
type result[T any] struct {
	v   T
	err error
}

// must wraps a service call's two results: must(svc.X(ctx, in)).get(t).
func must[T any](v T, err error) result[T] { return result[T]{v, err} }

// get returns the value or stops the test on the error.
func (r result[T]) get(t *testing.T) T {
	t.Helper()
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.v
}

func TestPages_RenderDemoData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := demo().svc
	info := must(svc.GetSiteInfo(ctx, domain.Empty{})).get(t)
	week := must(svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "this"})).get(t)
	last := must(svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "last"})).get(t)
	upcoming := must(svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "upcoming", Pagination: domain.Pagination{PerPage: 6}})).get(t)
	cats := must(svc.ListCategories(ctx, domain.ListCategoriesInput{})).get(t)
	if len(cats.Items) == 0 || len(cats.Items[0].Subcategories) == 0 || len(last.Items) == 0 || len(upcoming.Items) == 0 {
		t.Fatalf("the demo data lacks what this test reads: %d categories, %d launches last week, %d upcoming", len(cats.Items), len(last.Items), len(upcoming.Items))
	}
	sub := cats.Items[0].Subcategories[0]
	cat := must(svc.GetCategory(ctx, domain.GetCategoryInput{Slug: sub.Slug, Pagination: domain.Pagination{PerPage: 24}})).get(t)
	billboard := must(svc.GetLeaderboard(ctx, domain.GetLeaderboardInput{Board: "billboard", Pagination: domain.Pagination{PerPage: 50}})).get(t)
	dr := must(svc.GetLeaderboard(ctx, domain.GetLeaderboardInput{Board: "domain-rating", Pagination: domain.Pagination{PerPage: 50}})).get(t)
	founders := must(svc.ListFounders(ctx, domain.ListFoundersInput{Pagination: domain.Pagination{PerPage: 30}})).get(t)
	posts := must(svc.ListBlogPosts(ctx, domain.ListBlogPostsInput{Pagination: domain.Pagination{PerPage: 20}})).get(t)
	awards := must(svc.ListAwards(ctx, domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: 30}})).get(t)
	if len(billboard.Items) == 0 || len(founders.Items) == 0 || len(posts.Items) == 0 || len(awards.Items) == 0 || len(cat.Items) == 0 {
		t.Fatalf("the demo data lacks boards, founders, posts, awards or category listings")
	}
	founder := must(svc.GetFounder(ctx, domain.FounderSlugInput{Slug: founders.Items[0].Slug})).get(t)
	post := must(svc.GetBlogPost(ctx, domain.PostSlugInput{Slug: posts.Items[0].Slug})).get(t)

	home := []string{hesc(info.Name), "/v1/openapi.json", hesc(info.MCPURL), `href="/docs"`, hesc(upcoming.Items[0].Name),
		`href="/leaderboards/billboard"`}
	if len(week.Items) > 0 {
		home = append(home, hesc(week.Items[0].Listing.Name))
	}
	founderWant := []string{hesc(founder.Name)}
	if len(founder.Companies) > 0 {
		founderWant = append(founderWant, hesc(founder.Companies[0].Listing.Name))
	}
	var sections []string
	for _, s := range launchSections {
		sections = append(sections, hesc(s.Name))
	}
	cases := []pageCase{
		{name: "home", path: "/", status: 200, want: home},
		{name: "categories", path: "/categories", status: 200, want: []string{hesc(cats.Items[0].Name), hesc(sub.Name), "/categories/" + sub.Slug}},
		{name: "category", path: "/categories/" + sub.Slug, status: 200,
			want: []string{hesc(cat.Category.Name), hesc(cat.Category.Description), hesc(cat.Items[0].Name), "/listings/" + cat.Items[0].Slug}},
		{name: "launches", path: "/launches", status: 200, want: sections},
		{name: "launches section", path: "/launches?section=upcoming", status: 200, want: []string{hesc(upcoming.Items[0].Name)}},
		{name: "last week", path: "/launches/weeks/last", status: 200,
			want: []string{hesc(last.Items[0].Listing.Name), "#1", formatDay(last.Week)}},
		{name: "week by date", path: "/launches/weeks/" + last.StartsAt.AddDate(0, 0, 3).Format(domain.DateLayout), status: 200,
			want: []string{hesc(last.Items[0].Listing.Name), formatDay(last.Week)}},
		{name: "leaderboards", path: "/leaderboards", status: 200, want: []string{"Billboard (PAID ranking)", "/leaderboards/domain-rating"}},
		{name: "billboard", path: "/leaderboards/billboard", status: 200,
			want: []string{`<p class="paid-banner"><strong>PAID</strong> · A PAID ranking`, hesc(billboard.Items[0].Listing.Name), hesc(domain.PaidNote)}},
		{name: "domain rating", path: "/leaderboards/domain-rating", status: 200,
			want: []string{hesc(dr.Items[0].Listing.Name)}, notWant: []string{`<li class="paid"`}},
		{name: "community weekly last", path: "/leaderboards/community-weekly?week=last", status: 200, want: []string{formatDay(last.Week)}},
		{name: "founders", path: "/founders", status: 200, want: []string{hesc(founders.Items[0].Name), "/founders/" + founders.Items[0].Slug}},
		{name: "founder", path: "/founders/" + founder.Slug, status: 200, want: founderWant},
		{name: "blog", path: "/blog", status: 200, want: []string{hesc(posts.Items[0].Title), "/blog/" + posts.Items[0].Slug}},
		{name: "blog post", path: "/blog/" + post.Slug, status: 200, want: []string{hesc(post.Title), `<div class="markdown">`, "<p>"}},
		{name: "awards", path: "/awards", status: 200, want: []string{hesc(awards.Items[0].Listing.Name), hesc(awards.Items[0].Title)}},
		{name: "awards of a listing", path: "/awards?listing=" + awards.Items[0].Listing.Slug, status: 200, want: []string{hesc(awards.Items[0].Listing.Name)}},
		{name: "docs", path: "/docs", status: 200, want: []string{hesc(info.MCPURL), hesc(info.OpenAPIURL), hesc(info.APIBaseURL), "Streamable HTTP"}},
		{name: "search", path: "/search?q=" + strings.ReplaceAll(cat.Items[0].Name, " ", "+"), status: 200, want: []string{hesc(cat.Items[0].Name)}},
	}
	runPages(t, demo(), cases)

	// Every billboard row is marked as a PAID placement.
	page := demo().get(t, "/leaderboards/billboard")
	if n := strings.Count(page.body, `<li class="paid">`); n != len(billboard.Items) {
		t.Errorf("billboard page marks %d rows PAID, want all %d", n, len(billboard.Items))
	}
}

func TestPages_Errors(t *testing.T) {
	t.Parallel()
	// A guessed address ("study-loop" for "studyloop") links the listing it
	// most likely meant.
	var meant domain.ListingSummary
	for _, l := range must(demo().svc.SearchListings(t.Context(), domain.SearchListingsInput{Sort: "votes", Pagination: domain.Pagination{PerPage: 100}})).get(t).Items {
		if len(l.Slug) >= 6 && !strings.Contains(l.Slug, "-") && strings.EqualFold(l.Slug, l.Name) {
			meant = l.ListingSummary
			break
		}
	}
	if meant.Slug == "" {
		t.Fatal("no live demo listing whose slug is its name in one word of 6 letters or more")
	}
	guess := meant.Slug[:3] + "-" + meant.Slug[3:]
	runPages(t, demo(), []pageCase{
		{name: "guessed listing", path: "/listings/" + guess, status: 404,
			want: []string{"No listing &#34;" + guess + "&#34; exists.", `Did you mean <a href="/listings/` + meant.Slug + `">` + meant.Name + `</a>?`}},
		{name: "unknown path", path: "/no/such/page", status: 404, want: []string{"Page not found"}},
		{name: "unknown listing", path: "/listings/no-such-listing-here", status: 404, want: []string{"Page not found"}, notWant: []string{"Did you mean"}},
		{name: "unknown category filter", path: "/search?category=no-such-category", status: 400,
			want: []string{"No category &#34;no-such-category&#34; exists.", `<a href="/categories">See all categories</a>`}, notWant: []string{"list_categories"}},
		// A slug that breaks the API's rule is the API's 400 (field and rule), not a 404.
		{name: "bad slug", path: "/listings/Not_A_Slug", status: 400, want: []string{"<code>slug</code> (pattern)"}},
		{name: "unknown category", path: "/categories/no-such-category", status: 404},
		{name: "unknown founder", path: "/founders/no-such-founder", status: 404},
		{name: "unknown post", path: "/blog/no-such-post", status: 404},
		{name: "unknown board", path: "/leaderboards/nope", status: 404},
		{name: "week before the site", path: "/launches/weeks/1999-01-04", status: 404},
		{name: "week not a date", path: "/launches/weeks/someday", status: 400},
		{name: "week on a board without weeks", path: "/leaderboards/revenue?week=last", status: 400},
		{name: "bad section", path: "/launches?section=bogus", status: 400, want: []string{"<code>section</code> (enum)"}},
		{name: "bad sort", path: "/search?q=a&sort=bogus", status: 400, want: []string{"<code>sort</code> (enum)"}},
		{name: "query too long", path: "/search?q=" + strings.Repeat("a", 201), status: 400, want: []string{"<code>q</code> (maxLength)"}},
		{name: "founder country", path: "/founders?country=USA", status: 400, want: []string{"<code>country</code> (pattern)"}},
		{name: "awards of an unknown listing", path: "/awards?listing=no-such-listing-here", status: 404},
	})
}

func TestPages_SecurityHeaders(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"/", "/docs", "/no/such/page"} {
		res := demo().get(t, path)
		csp := res.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "script-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: CSP %q lacks %q", path, csp, want)
			}
		}
		if res.header.Get("X-Content-Type-Options") != "nosniff" || res.header.Get("Referrer-Policy") == "" {
			t.Errorf("GET %s: missing nosniff or Referrer-Policy: %v", path, res.header)
		}
		if strings.Contains(res.body, "<script") || strings.Contains(res.body, " style=") {
			t.Errorf("GET %s: page carries inline script or style", path)
		}
	}
	css := demo().get(t, "/static/style.css")
	if css.status != 200 || !strings.HasPrefix(css.header.Get("Content-Type"), "text/css") {
		t.Errorf("style sheet: %d %q", css.status, css.header.Get("Content-Type"))
	}
}

// TestPages_ListingProfile checks the full profile on the page of every
// listing of one search page: the listing whose badges everyone links to.
func TestPages_ListingProfile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	res := must(demo().svc.SearchListings(ctx, domain.SearchListingsInput{Sort: "votes", Pagination: domain.Pagination{PerPage: 40}})).get(t)
	var sawStory, sawNoStory, sawNotFound, sawPaid bool
	for _, s := range res.Items {
		l := must(demo().svc.GetListing(ctx, domain.SlugInput{Slug: s.Slug})).get(t)
		want := []string{hesc(l.Name), hesc(l.Tagline), "Badges", "/badges/" + l.Slug + "/listed.svg"}
		if len(l.Features) > 0 {
			want = append(want, hesc(l.Features[0]))
		}
		if len(l.FAQs) > 0 {
			want = append(want, hesc(l.FAQs[0].Question))
		}
		if len(l.Founders) > 0 && l.Founders[0].PageURL != "" {
			want = append(want, "/founders/"+l.Founders[0].Slug)
		}
		if l.PrimaryCategory != nil {
			want = append(want, hesc(l.PrimaryCategory.Name))
		}
		if l.DomainRating != nil {
			want = append(want, "Domain Rating")
		}
		if l.CommunityRating != nil {
			want = append(want, rating(l.CommunityRating)+" / 5")
		}
		if l.PaidPlacement != nil {
			sawPaid = true
			want = append(want, `<p class="paid-banner"><span class="tag paid">PAID</span> <strong>Billboard:</strong>`, hesc(l.PaidPlacement.Label))
		}
		if len(l.LatestUpdates) > 0 {
			want = append(want, hesc(l.LatestUpdates[0].Title))
		}
		if len(l.NotFoundOnWebsite) > 0 {
			sawNotFound = true
			want = append(want, "Not found on the website", hesc(factName(l.NotFoundOnWebsite[0])))
		}
		alts := must(demo().svc.GetAlternatives(ctx, domain.SlugInput{Slug: l.Slug})).get(t)
		for _, a := range alts.Items {
			want = append(want, "/listings/"+a.Slug)
			if a.Approved {
				want = append(want, "Named by "+hesc(l.Name)+"'s team")
			}
		}
		var notWant []string
		if l.Story != nil && l.Story.Story != "" {
			sawStory = true
			want = append(want, hesc(l.Story.Story[:min(40, len(l.Story.Story))]))
		} else if l.Story == nil && len(l.Milestones) == 0 && len(l.Media) == 0 {
			sawNoStory = true
			notWant = append(notWant, `class="paid-section"`)
		}
		runPages(t, demo(), []pageCase{{name: l.Slug, path: "/listings/" + l.Slug, status: 200, want: want, notWant: notWant}})
	}
	if !sawNoStory || !sawNotFound || !sawPaid {
		t.Errorf("the first page of listings lacks a listing without paid sections (%v), with not_found_on_website (%v) or with billboard money (%v)", sawNoStory, sawNotFound, sawPaid)
	}
	t.Logf("listing with an unlocked story seen: %v", sawStory)
}

func rating(r *domain.Rating) string { return funcs["rating"].(func(*domain.Rating) string)(r) }

// TestPages_EmptySite renders the pages of a site with no data yet.
func TestPages_EmptySite(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	runPages(t, e, []pageCase{
		{name: "home", path: "/", status: 200, want: []string{"Launchdir", "No live launches this week yet."}},
		{name: "categories", path: "/categories", status: 200},
		{name: "launches", path: "/launches", status: 200, want: []string{"Nothing here yet."}},
		{name: "billboard", path: "/leaderboards/billboard", status: 200, want: []string{"Nothing ranked here yet."}},
		{name: "blog", path: "/blog", status: 200},
		{name: "docs", path: "/docs", status: 200},
	})
}

// TestPages_InternalErrorsDoNotLeak closes the database under a running
// handler: the pages answer 500 with a plain message and no driver detail.
func TestPages_InternalErrorsDoNotLeak(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.srv.Close()
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/categories", "/listings/anything", "/badges/anything/listed.svg"} {
		res := e.get(t, path)
		if res.status != http.StatusInternalServerError {
			t.Errorf("GET %s with a closed database: status %d, want 500", path, res.status)
		}
		if !strings.Contains(res.body, "Internal error.") || strings.Contains(strings.ToLower(res.body), "sql") {
			t.Errorf("GET %s: error page leaks or lacks the plain message:\n%.500s", path, res.body)
		}
	}
}
