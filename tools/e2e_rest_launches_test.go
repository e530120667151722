package tools

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

func e2eCategoryRows(t *testing.T, e *e2eEnv) []e2eScenario {
	parent, child := e2eParentWithChildren(t, e)
	var all domain.ListCategoriesOutput
	e.getJSON(t, "/v1/categories", &all)
	var empty domain.CategoryNode
	var walk func([]domain.CategoryNode)
	walk = func(ns []domain.CategoryNode) {
		for _, n := range ns {
			if n.ListingCount == 0 && empty.Slug == "" {
				empty = n
			}
			walk(n.Subcategories)
		}
	}
	walk(all.Items)
	count := func(ns []domain.CategoryNode) (n int) {
		for _, c := range ns {
			n += 1 + len(c.Subcategories)
		}
		return n
	}
	return []e2eScenario{
		{name: "Tree", url: "/v1/categories", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListCategoriesOutput](t, body)
			if len(out.Items) < 8 || count(out.Items) < 25 {
				t.Errorf("%d top-level categories, %d in all; want >= 8 and >= 25", len(out.Items), count(out.Items))
			}
			for _, c := range out.Items {
				if c.Parent != "" {
					t.Errorf("top-level %s has parent %q", c.Slug, c.Parent)
				}
				for _, s := range c.Subcategories {
					if s.Parent != c.Slug || len(s.Subcategories) != 0 {
						t.Errorf("subcategory %s: parent %q (want %s), %d subcategories (two levels only)", s.Slug, s.Parent, c.Slug, len(s.Subcategories))
					}
					if s.ListingCount > c.ListingCount {
						t.Errorf("subcategory %s counts %d, more than its parent %s (%d), whose count includes subcategories", s.Slug, s.ListingCount, c.Slug, c.ListingCount)
					}
				}
			}
		}},
		{name: "IncludeEmptyTrue", url: "/v1/categories?include_empty=true", wantStatus: 200, check: func(t *testing.T, body []byte) {
			if out := e2eDecode[domain.ListCategoriesOutput](t, body); count(out.Items) != count(all.Items) {
				t.Errorf("include_empty=true gives %d categories, default gives %d", count(out.Items), count(all.Items))
			}
			if empty.Slug == "" {
				t.Error("the demo data has no empty category, so include_empty=false is not exercised")
			}
		}},
		{name: "IncludeEmptyFalse", url: "/v1/categories?include_empty=false", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListCategoriesOutput](t, body)
			var bad []string
			var walk func([]domain.CategoryNode)
			walk = func(ns []domain.CategoryNode) {
				for _, n := range ns {
					if n.ListingCount == 0 {
						bad = append(bad, n.Slug)
					}
					walk(n.Subcategories)
				}
			}
			walk(out.Items)
			if len(bad) > 0 || count(out.Items) == 0 {
				t.Errorf("include_empty=false still lists empty categories %v (or nothing at all)", bad)
			}
			if empty.Slug != "" && strings.Contains(string(body), `"slug":"`+empty.Slug+`"`) {
				t.Errorf("empty category %s listed", empty.Slug)
			}
		}},
		{name: "IncludeEmptyNotBoolean", url: "/v1/categories?include_empty=maybe", wantStatus: 400, wantErrors: []e2eFieldRule{{"include_empty", "type"}}},
		{name: "Parent", url: "/v1/categories/" + parent.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.GetCategoryOutput](t, body)
			c := out.Category
			if c.Slug != parent.Slug || c.Parent != nil || len(c.Subcategories) != len(parent.Subcategories) {
				t.Errorf("category %s: parent %+v, %d subcategories (tree says %d)", c.Slug, c.Parent, len(c.Subcategories), len(parent.Subcategories))
			}
			if c.Description == "" || len(c.FAQs) < 2 || len(c.Attributes) < 3 || c.PageURL != e.base+"/categories/"+parent.Slug {
				t.Errorf("category %s: description %q, %d faqs, %d attributes, page_url %q", c.Slug, c.Description, len(c.FAQs), len(c.Attributes), c.PageURL)
			}
			if out.Total != parent.ListingCount || c.ListingCount != parent.ListingCount {
				t.Errorf("total %d, listing_count %d, tree count %d", out.Total, c.ListingCount, parent.ListingCount)
			}
			if i := e2eNonIncreasing(e2eMap(out.Items, func(l domain.ListingSummary) int { return l.Votes })); i >= 0 || len(out.Items) == 0 {
				t.Errorf("listings not most voted first (at %d) or none", i)
			}
			for _, l := range out.Items {
				if l.Status != domain.StatusLive {
					t.Errorf("listing %s status %q in a category page", l.Slug, l.Status)
				}
			}
		}},
		{name: "Child", url: "/v1/categories/" + child.Slug + "?per_page=3&page=2", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.GetCategoryOutput](t, body)
			if out.Category.Parent == nil || out.Category.Parent.Slug != parent.Slug {
				t.Errorf("parent %+v, want %s", out.Category.Parent, parent.Slug)
			}
			if out.Page.Page != 2 || out.PerPage != 3 || out.Total != child.ListingCount || len(out.Items) > 3 {
				t.Errorf("page %+v with %d items; child count %d", out.Page, len(out.Items), child.ListingCount)
			}
		}},
		{name: "Absent", url: "/v1/categories/no-such-category-e2e", wantStatus: 404},
		{name: "SlugPattern", url: "/v1/categories/AI%20Tools", wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "pattern"}}},
		{name: "UnknownParam", url: "/v1/categories?depth=1", wantStatus: 400, wantErrors: []e2eFieldRule{{"depth", "additionalProperties"}}},
	}
}

// e2eWeekCheck checks a launch week answer: its Monday, when, ranks and the launches' weeks.
// live and scheduled say whether the week must have such launches: "yes", "no" or "any".
func e2eWeekCheck(monday, when, live, scheduled string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		out := e2eDecode[domain.GetLaunchWeekOutput](t, body)
		start, _ := time.Parse(domain.DateLayout, monday)
		if out.Week != monday || out.When != when || !out.StartsAt.Equal(start) || !out.EndsAt.Equal(start.AddDate(0, 0, 7)) {
			t.Errorf("week %q when %q starts %v ends %v; want %s %s", out.Week, out.When, out.StartsAt, out.EndsAt, monday, when)
		}
		has := map[bool]string{true: "yes", false: "no"}
		if (live != "any" && live != has[len(out.Items) > 0]) || (scheduled != "any" && scheduled != has[len(out.Scheduled) > 0]) {
			t.Errorf("%d live launches, %d scheduled; want live %s, scheduled %s", len(out.Items), len(out.Scheduled), live, scheduled)
		}
		if i := e2eNonIncreasing(e2eMap(out.Items, func(w domain.WeekLaunch) int { return w.WeekVotes })); i >= 0 {
			t.Errorf("launches not ranked by week votes: item %d has %d, item %d has %d", i, out.Items[i].WeekVotes, i-1, out.Items[i-1].WeekVotes)
		}
		for i, w := range out.Items {
			if w.Rank != i+1 {
				t.Errorf("item %d has rank %d", i, w.Rank)
			}
			l := w.Listing
			if l.Status != domain.StatusLive || l.LaunchWeek != monday || l.LaunchedAt == nil ||
				l.LaunchedAt.Before(start) || !l.LaunchedAt.Before(start.AddDate(0, 0, 7)) || l.LaunchedAt.After(e2eNow) {
				t.Errorf("live launch %s: status %q, launch_week %q, launched_at %v", l.Slug, l.Status, l.LaunchWeek, l.LaunchedAt)
			}
			if w.WeekVotes > l.Votes {
				t.Errorf("launch %s: %d week votes but only %d all-time votes", l.Slug, w.WeekVotes, l.Votes)
			}
		}
		for _, l := range out.Scheduled {
			if l.Status != domain.StatusScheduled || l.LaunchWeek != monday {
				t.Errorf("scheduled launch %s: status %q, launch_week %q", l.Slug, l.Status, l.LaunchWeek)
			}
		}
	}
}

func e2eWeekRows(t *testing.T, e *e2eEnv) []e2eScenario {
	this := e.do(t, "GET", "/v1/launches/weeks/this", nil, nil)
	next := e.do(t, "GET", "/v1/launches/weeks/next", nil, nil)
	same := func(want []byte, what string) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			if string(body) != string(want) {
				t.Errorf("body differs from %s:\n got %s\nwant %s", what, e2eClip(body), e2eClip(want))
			}
		}
	}
	twelveAgo := time.Date(2026, 8, 24, 0, 0, 0, 0, time.UTC) // Monday 12 weeks before this week
	return []e2eScenario{
		{name: "This", url: "/v1/launches/weeks/this", wantStatus: 200, check: e2eWeekCheck(e2eThisWeek, "current", "yes", "any")},
		{name: "WednesdaySnapsToMonday", url: "/v1/launches/weeks/2026-11-18", wantStatus: 200, check: same(this.body, "week this")},
		{name: "SundaySnapsToMonday", url: "/v1/launches/weeks/2026-11-22", wantStatus: 200, check: same(this.body, "week this")},
		{name: "MondayIsItsOwnWeek", url: "/v1/launches/weeks/2026-11-23", wantStatus: 200, check: same(next.body, "week next")},
		{name: "NextShowsScheduled", url: "/v1/launches/weeks/next", wantStatus: 200, check: e2eWeekCheck(e2eNextWeek, "future", "no", "yes")},
		{name: "Last", url: "/v1/launches/weeks/last", wantStatus: 200, check: e2eWeekCheck(e2eLastWeek, "past", "yes", "no")},
		{name: "TwelveWeeksAgo", url: "/v1/launches/weeks/" + twelveAgo.AddDate(0, 0, 3).Format(domain.DateLayout), wantStatus: 200,
			check: e2eWeekCheck(twelveAgo.Format(domain.DateLayout), "past", "yes", "no")},
		{name: "FourWeeksAhead", url: "/v1/launches/weeks/2026-12-14", wantStatus: 200, check: e2eWeekCheck("2026-12-14", "future", "no", "yes")},
		{name: "YearAheadExists", url: "/v1/launches/weeks/2027-11-15", wantStatus: 200, check: e2eWeekCheck("2027-11-15", "future", "no", "no")},
		{name: "BeyondYearAbsent", url: "/v1/launches/weeks/2027-11-29", wantStatus: 404},
		{name: "BeforeSiteAbsent", url: "/v1/launches/weeks/2020-01-06", wantStatus: 404},
		{name: "ImpossibleDate", url: "/v1/launches/weeks/2026-02-30", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "week|format|pattern"}}},
		{name: "Word", url: "/v1/launches/weeks/yesterday", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "pattern"}}},
		{name: "ShortDate", url: "/v1/launches/weeks/2026-1-1", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "pattern"}}},
		{name: "Over10", url: "/v1/launches/weeks/2026-11-180", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "maxLength|pattern"}}},
	}
}

func e2eLaunchRows(t *testing.T, e *e2eEnv) []e2eScenario {
	def := e.do(t, "GET", "/v1/launches", nil, nil)
	page := func(section string, f func(t *testing.T, out domain.ListLaunchesOutput)) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListLaunchesOutput](t, body)
			if out.Section != section || len(out.Items) == 0 {
				t.Fatalf("section %q with %d items, want %q and items", out.Section, len(out.Items), section)
			}
			f(t, out)
		}
	}
	sorted := func(get func(domain.ListingSummary) int) func(*testing.T, domain.ListLaunchesOutput) {
		return func(t *testing.T, out domain.ListLaunchesOutput) {
			if i := e2eNonIncreasing(e2eMap(out.Items, get)); i >= 0 {
				t.Errorf("order breaks at item %d", i)
			}
			for _, l := range out.Items {
				if l.Status != domain.StatusLive {
					t.Errorf("%s has status %q", l.Slug, l.Status)
				}
			}
		}
	}
	return []e2eScenario{
		{name: "DefaultIsThisWeek", url: "/v1/launches?per_page=100", wantStatus: 200, check: page("this-week", func(t *testing.T, out domain.ListLaunchesOutput) {
			for _, l := range out.Items {
				if l.LaunchWeek != e2eThisWeek || l.Status != domain.StatusLive {
					t.Errorf("this-week item %s: launch_week %q status %q", l.Slug, l.LaunchWeek, l.Status)
				}
			}
		})},
		{name: "ThisWeekExplicit", url: "/v1/launches?section=this-week", wantStatus: 200, check: func(t *testing.T, body []byte) {
			if string(body) != string(def.body) {
				t.Errorf("section=this-week differs from the default section")
			}
		}},
		{name: "Today", url: "/v1/launches?section=today&per_page=100", wantStatus: 200, check: page("today", func(t *testing.T, out domain.ListLaunchesOutput) {
			day := time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)
			for _, l := range out.Items {
				if l.LaunchedAt == nil || l.LaunchedAt.Before(day) || l.LaunchedAt.After(e2eNow) {
					t.Errorf("today item %s launched at %v", l.Slug, l.LaunchedAt)
				}
			}
		})},
		{name: "Trending", url: "/v1/launches?section=trending", wantStatus: 200, check: page("trending", func(t *testing.T, out domain.ListLaunchesOutput) {})},
		{name: "MostVoted", url: "/v1/launches?section=most-voted&per_page=50", wantStatus: 200, check: page("most-voted", sorted(func(l domain.ListingSummary) int { return l.Votes }))},
		{name: "MostViewed", url: "/v1/launches?section=most-viewed&per_page=50", wantStatus: 200, check: page("most-viewed", sorted(func(l domain.ListingSummary) int { return l.Views }))},
		{name: "MostFollowed", url: "/v1/launches?section=most-followed&per_page=50", wantStatus: 200, check: page("most-followed", sorted(func(l domain.ListingSummary) int { return l.Follows }))},
		{name: "Recent", url: "/v1/launches?section=recent&per_page=50", wantStatus: 200, check: page("recent", func(t *testing.T, out domain.ListLaunchesOutput) {
			for i, l := range out.Items {
				if l.LaunchedAt == nil || l.LaunchedAt.After(e2eNow) || (i > 0 && l.LaunchedAt.After(*out.Items[i-1].LaunchedAt)) {
					t.Errorf("recent item %d %s launched at %v", i, l.Slug, l.LaunchedAt)
				}
			}
		})},
		{name: "Upcoming", url: "/v1/launches?section=upcoming&per_page=100", wantStatus: 200, check: page("upcoming", func(t *testing.T, out domain.ListLaunchesOutput) {
			for _, l := range out.Items {
				if l.Status != domain.StatusScheduled || l.LaunchWeek < e2eThisWeek {
					t.Errorf("upcoming item %s: status %q week %q", l.Slug, l.Status, l.LaunchWeek)
				}
			}
		})},
		{name: "SectionEnum", url: "/v1/launches?section=hot", wantStatus: 400, wantErrors: []e2eFieldRule{{"section", "enum"}}},
		{name: "SectionUnderscore", url: "/v1/launches?section=this_week", wantStatus: 400, wantErrors: []e2eFieldRule{{"section", "enum"}}},
	}
}

func e2eBoardRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var week domain.GetLaunchWeekOutput
	e.getJSON(t, "/v1/launches/weeks/this", &week)
	weekVotes := map[string]int{}
	for _, w := range week.Items {
		weekVotes[w.Listing.Slug] = w.WeekVotes
	}
	board := func(name string, paid bool, f func(t *testing.T, out domain.GetLeaderboardOutput)) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			out := e2eDecode[domain.GetLeaderboardOutput](t, body)
			if out.Board != name || out.Paid != paid || out.Title == "" || out.Description == "" || out.Metric == "" || len(out.Items) == 0 {
				t.Fatalf("board %q paid %v title %q metric %q with %d items", out.Board, out.Paid, out.Title, out.Metric, len(out.Items))
			}
			if i := e2eNonIncreasing(e2eMap(out.Items, func(b domain.BoardItem) int64 { return b.Metric })); i >= 0 {
				t.Errorf("metric increases at item %d", i)
			}
			for i, it := range out.Items {
				if it.Rank != (out.Page.Page-1)*out.PerPage+i+1 {
					t.Errorf("item %d has rank %d on page %d", i, it.Rank, out.Page.Page)
				}
				if it.MetricLabel == "" || it.Listing.Slug == "" {
					t.Errorf("item %d: metric_label %q listing %q", i, it.MetricLabel, it.Listing.Slug)
				}
				if !paid && it.Paid {
					t.Errorf("item %s marked paid on a community board", it.Listing.Slug)
				}
			}
			f(t, out)
		}
	}
	return []e2eScenario{
		{name: "CommunityAllTime", url: "/v1/leaderboards/community-all-time?per_page=50", wantStatus: 200, check: board("community-all-time", false, func(t *testing.T, out domain.GetLeaderboardOutput) {
			for _, it := range out.Items {
				if it.Metric != int64(it.Listing.Votes) {
					t.Errorf("%s: metric %d, votes %d", it.Listing.Slug, it.Metric, it.Listing.Votes)
				}
			}
		})},
		{name: "CommunityAllTimePage2", url: "/v1/leaderboards/community-all-time?per_page=10&page=2", wantStatus: 200, check: board("community-all-time", false, func(t *testing.T, out domain.GetLeaderboardOutput) {})},
		{name: "CommunityWeekly", url: "/v1/leaderboards/community-weekly", wantStatus: 200, check: board("community-weekly", false, func(t *testing.T, out domain.GetLeaderboardOutput) {
			if out.Week != e2eThisWeek {
				t.Errorf("week %q, want %s", out.Week, e2eThisWeek)
			}
			for _, it := range out.Items {
				if wv, ok := weekVotes[it.Listing.Slug]; !ok || int64(wv) != it.Metric {
					t.Errorf("%s: metric %d, get_launch_week says week votes %d (listed %v)", it.Listing.Slug, it.Metric, wv, ok)
				}
			}
		})},
		{name: "CommunityWeeklyLast", url: "/v1/leaderboards/community-weekly?week=last", wantStatus: 200, wantContains: []string{`"week":"` + e2eLastWeek + `"`}, check: board("community-weekly", false, func(t *testing.T, out domain.GetLeaderboardOutput) {})},
		{name: "CommunityWeeklyDate", url: "/v1/leaderboards/community-weekly?week=2026-11-12", wantStatus: 200, wantContains: []string{`"week":"` + e2eLastWeek + `"`}},
		{name: "Billboard", url: "/v1/leaderboards/billboard?per_page=100", wantStatus: 200, wantContains: []string{"PAID"}, check: board("billboard", true, func(t *testing.T, out domain.GetLeaderboardOutput) {
			if !strings.Contains(out.Description, "PAID") || !strings.Contains(out.Title, "PAID") {
				t.Errorf("billboard title %q / description %q must say PAID", out.Title, out.Description)
			}
			for _, it := range out.Items {
				if !it.Paid || !strings.Contains(it.Note, "PAID") || it.Metric <= 0 {
					t.Errorf("billboard item %s: paid %v note %q metric %d", it.Listing.Slug, it.Paid, it.Note, it.Metric)
				}
			}
			var l domain.Listing
			e.getJSON(t, "/v1/listings/"+out.Items[0].Listing.Slug, &l)
			if l.PaidPlacement == nil || l.PaidPlacement.AmountCents != out.Items[0].Metric {
				t.Errorf("top billboard %s: metric %d, listing paid_placement %+v", l.Slug, out.Items[0].Metric, l.PaidPlacement)
			}
		})},
		{name: "DomainRating", url: "/v1/leaderboards/domain-rating", wantStatus: 200, check: board("domain-rating", false, func(t *testing.T, out domain.GetLeaderboardOutput) {
			for _, it := range out.Items {
				if it.Metric < 0 || it.Metric > 100 {
					t.Errorf("%s: DR %d", it.Listing.Slug, it.Metric)
				}
			}
			var l domain.Listing
			e.getJSON(t, "/v1/listings/"+out.Items[0].Listing.Slug, &l)
			if l.DomainRating == nil || int64(l.DomainRating.Current) != out.Items[0].Metric {
				t.Errorf("top DR %s: metric %d, listing says %+v", l.Slug, out.Items[0].Metric, l.DomainRating)
			}
		})},
		{name: "Revenue", url: "/v1/leaderboards/revenue", wantStatus: 200, check: board("revenue", false, func(t *testing.T, out domain.GetLeaderboardOutput) {
			if out.Items[len(out.Items)-1].Metric <= 0 {
				t.Errorf("revenue board lists a listing without revenue")
			}
		})},
		{name: "BoardUnknown", url: "/v1/leaderboards/hall-of-fame", wantStatus: 404, wantContains: []string{"community-weekly"}},
		{name: "BoardPattern", url: "/v1/leaderboards/Hall_Of_Fame", wantStatus: 400, wantErrors: []e2eFieldRule{{"board", "pattern"}}},
		{name: "WeekOnlyForWeekly", url: "/v1/leaderboards/billboard?week=this", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "applies_to"}}},
		{name: "WeekNextNotAllowed", url: "/v1/leaderboards/community-weekly?week=next", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "pattern"}}},
		{name: "WeekMax10", url: "/v1/leaderboards/community-weekly?week=2026-11-180", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "maxLength|pattern"}}},
		{name: "WeekImpossibleDate", url: "/v1/leaderboards/community-weekly?week=2026-13-01", wantStatus: 400, wantErrors: []e2eFieldRule{{"week", "week|format|pattern"}}},
	}
}

// e2eTop3 returns the sorted slugs of the first three launches.
func e2eTop3(items []domain.WeekLaunch) []string {
	var out []string
	for _, w := range items {
		if len(out) < 3 {
			out = append(out, w.Listing.Slug)
		}
	}
	slices.Sort(out)
	return out
}

// e2eWeekOf returns the Monday n weeks before this week.
func e2eWeekOf(n int) string {
	this, _ := time.Parse(domain.DateLayout, e2eThisWeek)
	return this.AddDate(0, 0, -7*n).Format(domain.DateLayout)
}
