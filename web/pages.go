package web

import (
	"html/template"
	"net/http"
	"regexp"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// slugRE is the spec's slug rule; a path that breaks it names nothing.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,219}$`)

// countryRE is an ISO 3166 alpha-2 code.
var countryRE = regexp.MustCompile(`^[A-Za-z]{2}$`)

// slug returns the path value name when it is a valid slug; otherwise it
// answers 404 and returns false.
func (h *handler) slug(w http.ResponseWriter, r *http.Request, name string) (string, bool) {
	s := r.PathValue(name)
	if !slugRE.MatchString(s) {
		h.notFound(w, r)
		return "", false
	}
	return s, true
}

// tooLong answers 400 when a query parameter exceeds its spec bound.
func (h *handler) tooLong(w http.ResponseWriter, r *http.Request, name string, limit int) bool {
	if utf8.RuneCountInString(r.URL.Query().Get(name)) > limit {
		h.fail(w, r, domain.EInvalid, name+" may be at most "+formatInt(int64(limit))+" characters.")
		return true
	}
	return false
}

type homePage struct {
	Info     domain.SiteInfo
	Week     domain.GetLaunchWeekOutput
	Upcoming []domain.ListingSummary
	Trending []domain.ListingSummary
}

func (h *handler) home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, err := h.svc.GetSiteInfo(ctx, domain.Empty{})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	week, err := h.svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "this"})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	upcoming, err := h.svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "upcoming", Pagination: domain.Pagination{PerPage: 6}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	trending, err := h.svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "trending", Pagination: domain.Pagination{PerPage: 6}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "home", "", "home", homePage{Info: info, Week: week, Upcoming: upcoming.Items, Trending: trending.Items})
}

// searchSorts are the sorts search_listings accepts.
var searchSorts = []string{"", "relevance", "newest", "votes", "trending", "most_viewed", "most_followed"}

type searchPage struct {
	In    domain.SearchListingsInput
	Items []domain.ListingSummary
	Pager pager
	Sorts []string
}

func (h *handler) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if h.tooLong(w, r, "q", 200) {
		return
	}
	in := domain.SearchListingsInput{Q: q.Get("q"), Category: q.Get("category"), Sort: q.Get("sort"), Status: q.Get("status"),
		Pagination: domain.Pagination{Page: pageParam(r), PerPage: 20}}
	switch {
	case !slices.Contains(searchSorts, in.Sort):
		h.fail(w, r, domain.EInvalid, "sort must be one of relevance, newest, votes, trending, most_viewed, most_followed.")
		return
	case in.Status != "" && in.Status != "live" && in.Status != "upcoming":
		h.fail(w, r, domain.EInvalid, "status must be live or upcoming.")
		return
	case in.Category != "" && !slugRE.MatchString(in.Category):
		h.fail(w, r, domain.EInvalid, "category must be a category slug.")
		return
	}
	out, err := h.svc.SearchListings(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "search", "Search", "search", searchPage{In: in, Items: out.Items, Pager: newPager(r, out.Page), Sorts: searchSorts[1:]})
}

type listingPage struct {
	L            *domain.Listing
	Alternatives []domain.Alternative
	Badges       domain.GetBadgesOutput
	Shapes       []string
	Modes        []string
	Sizes        []string
	Follow       followButton
}

func (h *handler) listing(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.slug(w, r, "slug")
	if !ok {
		return
	}
	ctx := r.Context()
	l, err := h.svc.GetListing(ctx, domain.SlugInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	alts, err := h.svc.GetAlternatives(ctx, domain.SlugInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	// The badge preview follows ?shape=&mode=&size= when they are valid.
	q := r.URL.Query()
	opt := func(name string, all []string) string {
		if v := q.Get(name); slices.Contains(all, v) {
			return v
		}
		return ""
	}
	badges, err := h.svc.GetBadges(ctx, domain.GetBadgesInput{Slug: slug,
		Shape: opt("shape", domain.BadgeShapes), Mode: opt("mode", domain.BadgeModes), Size: opt("size", domain.BadgeSizes)})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	follow, err := h.followState(w, r, slug)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "listing", l.Name, "", listingPage{L: l, Alternatives: alts.Items, Badges: badges,
		Shapes: domain.BadgeShapes, Modes: domain.BadgeModes, Sizes: domain.BadgeSizes, Follow: follow})
}

func (h *handler) categories(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.ListCategories(r.Context(), domain.ListCategoriesInput{})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "categories", "Categories", "categories", out.Items)
}

type categoryPage struct {
	Out   domain.GetCategoryOutput
	Pager pager
}

func (h *handler) category(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.slug(w, r, "slug")
	if !ok {
		return
	}
	out, err := h.svc.GetCategory(r.Context(), domain.GetCategoryInput{Slug: slug, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 24}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "category", out.Category.Name, "categories", categoryPage{Out: out, Pager: newPager(r, out.Page)})
}

// launchSection is one feed on the launches page.
type launchSection struct {
	Key, Name string
	Items     []domain.ListingSummary
	Total     int
}

type launchesPage struct {
	Sections []launchSection
	Single   bool // one section, paginated
	Pager    pager
	All      []launchSection // every section key and name, for the navigation
	Monday   string
}

func (h *handler) launches(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	want := r.URL.Query().Get("section")
	page := launchesPage{Single: want != "", Monday: domain.Monday(h.svc.Now()).Format(domain.DateLayout)}
	for _, s := range launchSections {
		page.All = append(page.All, launchSection{Key: s.Key, Name: s.Name})
	}
	if want != "" && !slices.ContainsFunc(launchSections, func(s struct{ Key, Name string }) bool { return s.Key == want }) {
		h.fail(w, r, domain.EInvalid, "section must be one of today, this-week, trending, most-voted, recent, most-viewed, most-followed, upcoming.")
		return
	}
	for _, s := range launchSections {
		if want != "" && s.Key != want {
			continue
		}
		in := domain.ListLaunchesInput{Section: s.Key, Pagination: domain.Pagination{PerPage: 6}}
		if want != "" {
			in.Pagination = domain.Pagination{Page: pageParam(r), PerPage: 24}
		}
		out, err := h.svc.ListLaunches(ctx, in)
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		page.Sections = append(page.Sections, launchSection{Key: s.Key, Name: s.Name, Items: out.Items, Total: out.Total})
		page.Pager = newPager(r, out.Page)
	}
	title := "Launches"
	if want != "" {
		title = sectionName(want) + " - Launches"
	}
	h.render(w, r, http.StatusOK, "launches", title, "launches", page)
}

type weekPage struct {
	Out domain.GetLaunchWeekOutput
}

func (h *handler) launchWeek(w http.ResponseWriter, r *http.Request) {
	week := r.PathValue("week")
	if len(week) > 10 {
		h.fail(w, r, domain.EInvalid, "week must be this, next, last or a date YYYY-MM-DD.")
		return
	}
	out, err := h.svc.GetLaunchWeek(r.Context(), domain.GetLaunchWeekInput{Week: week})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := weekPage{Out: out}
	h.render(w, r, http.StatusOK, "week", "Launches of the week of "+formatDay(out.Week), "launches", p)
}

func (h *handler) leaderboards(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, "leaderboards", "Leaderboards", "leaderboards", boardList())
}

type boardPage struct {
	Out   domain.GetLeaderboardOutput
	Pager pager
	// PrevWeek and WeekPage (the weekly board only) are set when the site
	// has that launch week, so that no link leads to a missing week.
	PrevWeek string
	WeekPage bool
	Money    bool
}

func (h *handler) leaderboard(w http.ResponseWriter, r *http.Request) {
	board := r.PathValue("board")
	if _, ok := domain.Boards[board]; !ok {
		h.notFound(w, r)
		return
	}
	if h.tooLong(w, r, "week", 10) {
		return
	}
	out, err := h.svc.GetLeaderboard(r.Context(), domain.GetLeaderboardInput{Board: board, Week: r.URL.Query().Get("week"),
		Pagination: domain.Pagination{Page: pageParam(r), PerPage: 50}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := boardPage{Out: out, Pager: newPager(r, out.Page), Money: out.Unit == "cents"}
	if out.Week != "" {
		first, last, err := h.svc.LaunchWeekRange(r.Context())
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		if t, err := time.Parse(domain.DateLayout, out.Week); err == nil {
			if prev := t.AddDate(0, 0, -7); !prev.Before(first) {
				p.PrevWeek = prev.Format(domain.DateLayout)
			}
			p.WeekPage = !t.Before(first) && !t.After(last)
		}
	}
	h.render(w, r, http.StatusOK, "leaderboard", out.Title, "leaderboards", p)
}

type foundersPage struct {
	In    domain.ListFoundersInput
	Items []domain.FounderSummary
	Pager pager
}

func (h *handler) founders(w http.ResponseWriter, r *http.Request) {
	if h.tooLong(w, r, "q", 120) {
		return
	}
	q := r.URL.Query()
	in := domain.ListFoundersInput{Q: q.Get("q"), Country: q.Get("country"), Pagination: domain.Pagination{Page: pageParam(r), PerPage: 30}}
	if in.Country != "" && !countryRE.MatchString(in.Country) {
		h.fail(w, r, domain.EInvalid, "country must be a two-letter ISO 3166 code.")
		return
	}
	out, err := h.svc.ListFounders(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "founders", "Founders", "founders", foundersPage{In: in, Items: out.Items, Pager: newPager(r, out.Page)})
}

func (h *handler) founder(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.slug(w, r, "slug")
	if !ok {
		return
	}
	f, err := h.svc.GetFounder(r.Context(), domain.FounderSlugInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "founder", f.Name, "founders", f)
}

type blogPage struct {
	Q     string
	Items []domain.BlogPostSummary
	Pager pager
}

func (h *handler) blog(w http.ResponseWriter, r *http.Request) {
	if h.tooLong(w, r, "q", 200) {
		return
	}
	q := r.URL.Query().Get("q")
	out, err := h.svc.ListBlogPosts(r.Context(), domain.ListBlogPostsInput{Q: q, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 20}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "blog", "Blog", "blog", blogPage{Q: q, Items: out.Items, Pager: newPager(r, out.Page)})
}

type postPage struct {
	P    *domain.BlogPost
	Body template.HTML
}

func (h *handler) blogPost(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.slug(w, r, "slug")
	if !ok {
		return
	}
	p, err := h.svc.GetBlogPost(r.Context(), domain.PostSlugInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	body, err := renderMarkdown(p.Markdown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "post", p.Title, "blog", postPage{P: p, Body: body})
}

type awardsPage struct {
	Listing string
	Items   []domain.Award
	Pager   pager
}

func (h *handler) awards(w http.ResponseWriter, r *http.Request) {
	listing := r.URL.Query().Get("listing")
	if listing != "" && !slugRE.MatchString(listing) {
		h.fail(w, r, domain.EInvalid, "listing must be a listing slug.")
		return
	}
	out, err := h.svc.ListAwards(r.Context(), domain.ListAwardsInput{Listing: listing, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 30}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "awards", "Awards", "awards", awardsPage{Listing: listing, Items: out.Items, Pager: newPager(r, out.Page)})
}

func (h *handler) docs(w http.ResponseWriter, r *http.Request) {
	info, err := h.svc.GetSiteInfo(r.Context(), domain.Empty{})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "docs", "API and MCP docs", "docs", info)
}
