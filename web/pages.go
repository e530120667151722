package web

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/validate"
)

// valid checks a page's input, a domain input struct, with the API's
// validator of the same operation (domain/validate); when it fails, it
// answers the API's 400 as a page (each field and rule) and returns false.
func (h *handler) valid(w http.ResponseWriter, r *http.Request, in any) bool {
	if err := validate.Input(in); err != nil {
		h.serviceError(w, r, err)
		return false
	}
	return true
}

// slug returns the path value name when it is a valid listing slug (the
// API's rule, domain.SlugInput); otherwise it answers 404 (an image or a
// form address that names nothing) and returns false.
func (h *handler) slug(w http.ResponseWriter, r *http.Request, name string) (string, bool) {
	s := r.PathValue(name)
	if validate.Input(domain.SlugInput{Slug: s}) != nil {
		h.notFound(w, r)
		return "", false
	}
	return s, true
}

type homePage struct {
	Info     domain.SiteInfo
	Week     domain.GetLaunchWeekOutput
	Upcoming []domain.ListingSummary
	Trending []domain.ListingSummary
	Vote     voteState
	// Deleted: the browser comes from deleting its account (auth.DeletedPath).
	Deleted bool
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
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "home", "", "home", homePage{Info: info, Week: week, Upcoming: upcoming.Items, Trending: trending.Items, Vote: vote,
		Deleted: r.URL.Query().Get("account") == "deleted"})
}

// searchSorts are the sorts search_listings accepts, from its schema.
var searchSorts = func() []string {
	v, err := validate.For(domain.SearchListingsInput{})
	if err != nil {
		panic(err) // the input types are fixed at build time
	}
	return v.Enum("sort")
}()

type searchPage struct {
	In    domain.SearchListingsInput
	Items []domain.ListingSummary
	Pager pager
	Sorts []string
	Vote  voteState
}

func (h *handler) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	in := domain.SearchListingsInput{Q: q.Get("q"), Category: q.Get("category"), Sort: q.Get("sort"), Status: q.Get("status"),
		Pagination: domain.Pagination{Page: pageParam(r), PerPage: 20}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.SearchListings(r.Context(), in)
	var de *domain.Error
	if errors.As(err, &de) && len(de.Fields) == 1 && de.Fields[0].Field == "category" && de.Fields[0].Rule == "exists" {
		// An old or mistyped link: say so in a person's words and link the
		// categories (the API's message names list_categories).
		h.errorPage(w, r, errorPage{Status: pageStatus(domain.EInvalid), Heading: heading(pageStatus(domain.EInvalid)),
			Message: fmt.Sprintf("No category %q exists.", in.Category), Next: &errorLink{Href: "/categories", Text: "See all categories"}})
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "search", "Search", "search", searchPage{In: in, Items: out.Summaries(), Pager: newPager(r, out.Page), Sorts: searchSorts, Vote: vote})
}

type listingPage struct {
	L            *domain.Listing
	Alternatives []domain.Alternative
	Badges       domain.GetBadgesOutput
	Shapes       []string
	Modes        []string
	Sizes        []string
	Follow       followButton
	Vote         voteState
	Review       reviewForm
	WeekVotes    []domain.VoteDay      // the counted votes of each day of its launch week, for the chart
	Trophies     *domain.TrophyCabinet // its public trophy cabinet (web/trophies.go)
}

func (h *handler) listing(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	if !h.valid(w, r, domain.SlugInput{Slug: slug}) {
		return
	}
	// A listing the site team merged into another leads there for good
	// (docs/console.md "Listings").
	if to, err := h.svc.MergedSlug(r.Context(), slug); err != nil {
		h.serviceError(w, r, err)
		return
	} else if to != "" {
		http.Redirect(w, r, "/listings/"+url.PathEscape(to), statusMoved)
		return
	}
	p, ok := h.listingPage(w, r, slug, true)
	if !ok {
		return
	}
	if h.recordView(r, slug) {
		p.L.Views++ // the page shows the count with this view
	}
	h.render(w, r, statusOK, "listing", p.L.Name, "", p)
}

// listingPage reads everything listing slug's page shows to r's person; on
// failure it has answered and returns false. With upcoming, a listing waiting in the free queue gets its upcoming page.
func (h *handler) listingPage(w http.ResponseWriter, r *http.Request, slug string, upcoming bool) (listingPage, bool) {
	ctx := r.Context()
	l, err := h.svc.GetListing(ctx, domain.SlugInput{Slug: slug})
	if nf := (*domain.ListingNotFound)(nil); errors.As(err, &nf) {
		// A listing waiting in the free queue for our badge: the badge on
		// its homepage links here, so it has a small upcoming page.
		if upcoming {
			if up, uerr := h.svc.GetUpcomingListing(ctx, slug); uerr == nil {
				w.Header().Set("X-Robots-Tag", "noindex")
				h.render(w, r, statusOK, "upcoming", up.Name, "", up)
				return listingPage{}, false
			}
		}
		// A mistyped or guessed address: the page links the listing it
		// most likely meant.
		h.errorPage(w, r, errorPage{Status: pageStatus(domain.ENotFound), Heading: heading(pageStatus(domain.ENotFound)),
			Message: fmt.Sprintf("No listing %q exists.", slug), Suggest: nf.Meant})
		return listingPage{}, false
	}
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
	}
	alts, err := h.svc.GetAlternatives(ctx, domain.SlugInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
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
		return listingPage{}, false
	}
	follow, err := h.followState(w, r, slug)
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
	}
	review, err := h.reviewFormOf(w, r, slug)
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
	}
	var weekVotes []domain.VoteDay
	if l.Status == "live" {
		if weekVotes, err = h.svc.LaunchWeekVotes(ctx, slug, l.LaunchWeek); err != nil {
			h.serviceError(w, r, err)
			return listingPage{}, false
		}
	}
	trophies, err := h.svc.GetTrophyCabinet(ctx, domain.GetTrophyCabinetInput{Slug: slug})
	if err != nil {
		h.serviceError(w, r, err)
		return listingPage{}, false
	}
	return listingPage{L: l, Alternatives: alts.Items, Badges: badges, Shapes: domain.BadgeShapes, Modes: domain.BadgeModes,
		Sizes: domain.BadgeSizes, Follow: follow, Vote: vote, Review: review, WeekVotes: weekVotes, Trophies: trophies}, true
}

func (h *handler) categories(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.ListCategories(r.Context(), domain.ListCategoriesInput{})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "categories", "Categories", "categories", out.Items)
}

type categoryPage struct {
	Out   domain.GetCategoryOutput
	Pager pager
	Vote  voteState
}

func (h *handler) category(w http.ResponseWriter, r *http.Request) {
	in := domain.GetCategoryInput{Slug: r.PathValue("slug"), Pagination: domain.Pagination{Page: pageParam(r), PerPage: 24}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.GetCategory(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	if out.Category.Slug != in.Slug { // an old slug (renamed or merged away): the current address
		to := "/categories/" + out.Category.Slug
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, statusMoved)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "category", out.Category.Name, "categories", categoryPage{Out: out, Pager: newPager(r, out.Page), Vote: vote})
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
	Vote     voteState
}

func (h *handler) launches(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	want := r.URL.Query().Get("section")
	page := launchesPage{Single: want != "", Monday: domain.Monday(h.svc.Now()).Format(domain.DateLayout)}
	for _, s := range launchSections {
		page.All = append(page.All, launchSection{Key: s.Key, Name: s.Name})
	}
	if want != "" && !h.valid(w, r, domain.ListLaunchesInput{Section: want, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 24}}) {
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
	vote, err := h.voteStateOf(w, r)
	page.Vote = vote
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	title := "Launches"
	if want != "" {
		title = sectionName(want) + " - Launches"
	}
	h.render(w, r, statusOK, "launches", title, "launches", page)
}

type weekPage struct {
	Out  domain.GetLaunchWeekOutput
	Vote voteState
}

func (h *handler) launchWeek(w http.ResponseWriter, r *http.Request) {
	in := domain.GetLaunchWeekInput{Week: r.PathValue("week")}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.GetLaunchWeek(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := weekPage{Out: out, Vote: vote}
	h.render(w, r, statusOK, "week", "Launches of the week of "+formatDay(out.Week), "launches", p)
}

func (h *handler) leaderboards(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, statusOK, "leaderboards", "Leaderboards", "leaderboards", boardList())
}

type boardPage struct {
	Out   domain.GetLeaderboardOutput
	Pager pager
	// PrevWeek and WeekPage (the weekly board only) are set when the site
	// has that launch week, so that no link leads to a missing week.
	PrevWeek string
	WeekPage bool
	Money    bool
	Vote     voteState
}

func (h *handler) leaderboard(w http.ResponseWriter, r *http.Request) {
	board := r.PathValue("board")
	if _, ok := domain.Boards[board]; !ok {
		h.notFound(w, r)
		return
	}
	in := domain.GetLeaderboardInput{Board: board, Week: r.URL.Query().Get("week"),
		Pagination: domain.Pagination{Page: pageParam(r), PerPage: 50}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.GetLeaderboard(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := boardPage{Out: out, Pager: newPager(r, out.Page), Money: out.Unit == "cents", Vote: vote}
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
	h.render(w, r, statusOK, "leaderboard", out.Title, "leaderboards", p)
}

type foundersPage struct {
	In    domain.ListFoundersInput
	Items []domain.FounderSummary
	Pager pager
}

func (h *handler) founders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	in := domain.ListFoundersInput{Q: q.Get("q"), Country: q.Get("country"), Pagination: domain.Pagination{Page: pageParam(r), PerPage: 30}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.ListFounders(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "founders", "Founders", "founders", foundersPage{In: in, Items: out.Items, Pager: newPager(r, out.Page)})
}

type founderPage struct {
	F    *domain.Founder
	Vote voteState
}

func (h *handler) founder(w http.ResponseWriter, r *http.Request) {
	in := domain.FounderSlugInput{Slug: r.PathValue("slug")}
	if !h.valid(w, r, in) {
		return
	}
	f, err := h.svc.GetFounder(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "founder", f.Name, "founders", founderPage{F: f, Vote: vote})
}

type blogPage struct {
	Q     string
	Items []domain.BlogPostSummary
	Pager pager
}

func (h *handler) blog(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	in := domain.ListBlogPostsInput{Q: q, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 20}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.ListBlogPosts(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "blog", "Blog", "blog", blogPage{Q: q, Items: out.Items, Pager: newPager(r, out.Page)})
}

type postPage struct {
	P    *domain.BlogPost
	Body template.HTML
}

func (h *handler) blogPost(w http.ResponseWriter, r *http.Request) {
	in := domain.PostSlugInput{Slug: r.PathValue("slug")}
	if !h.valid(w, r, in) {
		return
	}
	p, err := h.svc.GetBlogPost(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	body, err := renderMarkdown(p.Markdown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "post", p.Title, "blog", postPage{P: p, Body: body})
}

type awardsPage struct {
	Listing string
	Weeks   []awardWeek
	Pager   pager
	Vote    voteState
}

// awardWeek is one week's awards, #1 first.
type awardWeek struct {
	Week  string
	Items []domain.Award
}

// byWeek groups awards listed newest week first into their weeks.
func byWeek(awards []domain.Award) []awardWeek {
	var out []awardWeek
	for _, a := range awards {
		if n := len(out); n == 0 || out[n-1].Week != a.Week {
			out = append(out, awardWeek{Week: a.Week})
		}
		out[len(out)-1].Items = append(out[len(out)-1].Items, a)
	}
	return out
}

func (h *handler) awards(w http.ResponseWriter, r *http.Request) {
	listing := r.URL.Query().Get("listing")
	in := domain.ListAwardsInput{Listing: listing, Pagination: domain.Pagination{Page: pageParam(r), PerPage: 30}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.ListAwards(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "awards", "Awards", "awards", awardsPage{Listing: listing, Weeks: byWeek(out.Items), Pager: newPager(r, out.Page), Vote: vote})
}

func (h *handler) docs(w http.ResponseWriter, r *http.Request) {
	info, err := h.svc.GetSiteInfo(r.Context(), domain.Empty{})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "docs", "API and MCP docs", "docs",
		docsPage{SiteInfo: info, CursorInstallURL: template.URL(cursorInstallURL(info.MCPURL)), Toolsets: h.toolsets})
}
