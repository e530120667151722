package web

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

var (
	// reRowLists finds the lists of launch rows of a page (no row holds a list).
	reRowLists = regexp.MustCompile(`(?s)<(?:ul|ol) class="rows[^"]*">(.*?)</(?:ul|ol)>`)
	reTagline  = regexp.MustCompile(`<span class="tagline">([^<]+)</span>`)
	reRowName  = regexp.MustCompile(`<a class="name" href="/listings/([^"]+)">([^<]+)</a>`)
	reWeekHead = regexp.MustCompile(`<h2><a href="/launches/weeks/([0-9-]+)">Week of `)
)

// pageRows returns the launch rows of a page, each row's HTML.
func pageRows(body string) []string {
	var rows []string
	for _, m := range reRowLists.FindAllStringSubmatch(body, -1) {
		rows = append(rows, strings.Split(m[1], "<li")[1:]...)
	}
	return rows
}

// TestRows_EveryList: every page that lists listings draws them as launch
// rows, and every row has its logo (with the initial), name, tagline, count
// and vote button; an upcoming listing's row counts followers and links to
// its page to follow it instead.
func TestRows_EveryList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := demo().svc
	cats := must(svc.ListCategories(ctx, domain.ListCategoriesInput{})).get(t)
	founders := must(svc.ListFounders(ctx, domain.ListFoundersInput{Pagination: domain.Pagination{PerPage: 30}})).get(t)
	week := must(svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "last"})).get(t)
	if len(cats.Items) == 0 || len(cats.Items[0].Subcategories) == 0 || len(founders.Items) == 0 || len(week.Items) == 0 {
		t.Fatal("the demo data lacks categories, founders or last week's launches")
	}
	paths := []string{"/", "/launches", "/launches?section=upcoming", "/launches/weeks/last", "/launches/weeks/next",
		"/categories/" + cats.Items[0].Subcategories[0].Slug, "/search?q=" + url.QueryEscape(week.Items[0].Listing.Name),
		"/founders/" + founders.Items[0].Slug, "/leaderboards/community-all-time", "/leaderboards/community-weekly?week=last",
		"/leaderboards/billboard", "/leaderboards/domain-rating", "/leaderboards/revenue", "/awards"}
	upcoming := 0
	for _, p := range paths {
		res := demo().get(t, p)
		if res.status != 200 {
			t.Fatalf("GET %s: %d", p, res.status)
		}
		rows := pageRows(res.body)
		if len(rows) == 0 {
			t.Errorf("GET %s: no launch rows", p)
		}
		for _, r := range rows {
			name := reRowName.FindStringSubmatch(r)
			if name == nil {
				t.Errorf("GET %s: a row without a name link: %.300s", p, r)
				continue
			}
			initial := `<span class="initial">` + hesc(string([]rune(name[2])[0])) + `</span>`
			for what, ok := range map[string]bool{
				"logo with its initial": strings.Contains(r, `<span class="logo tint-`) && strings.Contains(r, initial),
				"tagline":               reTagline.MatchString(r),
				"count":                 strings.Contains(r, `<span class="metric">`),
			} {
				if !ok {
					t.Errorf("GET %s: the row of %s shows no %s", p, name[1], what)
				}
			}
			switch {
			case strings.Contains(r, `class="row-follow" href="/listings/`+name[1]+`"`):
				upcoming++
				if !strings.Contains(r, " follower") || strings.Contains(r, "vote") {
					t.Errorf("GET %s: upcoming row of %s: want followers and no vote button: %.500s", p, name[1], r)
				}
			case !strings.Contains(r, `<a class="vote-signin" href="/signin?next=`):
				t.Errorf("GET %s: the row of %s has no vote button", p, name[1])
			}
		}
	}
	if upcoming == 0 {
		t.Error("no upcoming row on the home page, the upcoming feed or next week")
	}
}

// TestRows_AwardsByWeek: the awards page groups the computed awards by
// week, newest week first, each week's heading linking to its launch week,
// its awards #1, #2, #3 in order with the week's votes.
func TestRows_AwardsByWeek(t *testing.T) {
	t.Parallel()
	awards := must(demo().svc.ListAwards(context.Background(), domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: 30}})).get(t)
	if len(awards.Items) < 6 {
		t.Fatalf("the demo data has %d awards, want two weeks' at least", len(awards.Items))
	}
	body := demo().get(t, "/awards").body
	weeks := reWeekHead.FindAllStringSubmatch(body, -1)
	if len(weeks) < 2 {
		t.Fatalf("awards page shows %d week headings", len(weeks))
	}
	for i := 1; i < len(weeks); i++ {
		if weeks[i][1] >= weeks[i-1][1] {
			t.Errorf("week %s follows week %s: want newest first, each once", weeks[i][1], weeks[i-1][1])
		}
	}
	sections := strings.Split(body, `<section class="award-week">`)[1:]
	if len(sections) != len(weeks) {
		t.Fatalf("%d week sections, %d headings", len(sections), len(weeks))
	}
	byWeekWant := map[string][]domain.Award{}
	for _, a := range awards.Items {
		byWeekWant[a.Week] = append(byWeekWant[a.Week], a)
	}
	for i, sec := range sections {
		wk := weeks[i][1]
		rows := pageRows(sec)
		want := byWeekWant[wk]
		if len(rows) != len(want) {
			t.Errorf("week %s: %d rows, want %d", wk, len(rows), len(want))
			continue
		}
		for j, r := range rows {
			a := want[j]
			for _, s := range []string{`<span class="rank">#` + string(rune('0'+a.Rank)) + `</span>`, hesc(a.Listing.Name),
				`<strong>` + formatNum(a.Votes) + `</strong> vote`, hesc(a.Title)} {
				if !strings.Contains(r, s) {
					t.Errorf("week %s row %d lacks %q", wk, j+1, s)
				}
			}
			if j > 0 && a.Rank <= want[j-1].Rank {
				t.Errorf("week %s: #%d after #%d", wk, a.Rank, want[j-1].Rank)
			}
		}
	}
	// One listing's awards: its rows only.
	slug := awards.Items[0].Listing.Slug
	for _, r := range pageRows(demo().get(t, "/awards?listing="+slug).body) {
		if !strings.Contains(r, `href="/listings/`+slug+`"`) {
			t.Errorf("awards of %s show another listing: %.200s", slug, r)
		}
	}
}

// TestRows_VoteComesBack: a row's vote button on a page with a query (a
// search, a page of a feed) brings the person back to that very page.
func TestRows_VoteComesBack(t *testing.T) {
	t.Parallel()
	body := demo().get(t, "/launches?section=most-voted&page=2").body
	// html/template writes the escapes in lower case.
	want := strings.ToLower(`href="/signin?next=` + url.QueryEscape("/launches?section=most-voted&page=2") + `"`)
	if !strings.Contains(strings.ToLower(body), want) {
		t.Errorf("feed page 2: no vote link back to it (%s)", want)
	}
}

// TestLogoTint: a listing's monogram colour depends on its slug alone, and
// the demo's listings use every colour.
func TestLogoTint(t *testing.T) {
	t.Parallel()
	if a, b := logoTint("notebooky"), logoTint("notebooky"); a != b {
		t.Fatal("logoTint is not stable")
	}
	out := must(demo().svc.ListLaunches(context.Background(), domain.ListLaunchesInput{Section: "recent", Pagination: domain.Pagination{PerPage: 100}})).get(t)
	seen := map[int]bool{}
	for _, l := range out.Items {
		n := logoTint(l.Slug)
		if n < 0 || n >= logoTints {
			t.Fatalf("logoTint(%q) = %d", l.Slug, n)
		}
		seen[n] = true
	}
	if len(seen) != logoTints {
		t.Errorf("100 listings use %d of %d colours", len(seen), logoTints)
	}
}
