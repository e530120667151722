package tools

import (
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func e2eFounderRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var all domain.ListFoundersOutput
	e.getJSON(t, "/v1/founders?per_page=100", &all)
	if len(all.Items) < 10 {
		t.Fatalf("%d founders, want >= 10", len(all.Items))
	}
	f := all.Items[0]
	last := []rune(strings.ToLower(strings.Fields(f.Name)[len(strings.Fields(f.Name))-1]))
	part := string(last)
	if len(last) > 4 {
		part = string(last[1:4]) // a piece from inside the last name
	}
	var withCountry domain.FounderSummary
	for _, it := range all.Items {
		if it.Country != "" {
			withCountry = it
			break
		}
	}
	withStory := ""
	for _, it := range all.Items {
		var fd domain.Founder
		e.getJSON(t, "/v1/founders/"+it.Slug, &fd)
		if len(fd.Stories) > 0 {
			withStory = it.Slug
			break
		}
	}
	if withCountry.Slug == "" || withStory == "" {
		t.Fatalf("no founder with a country (%q) or with a published story (%q)", withCountry.Slug, withStory)
	}
	list := func(f func(t *testing.T, out domain.ListFoundersOutput)) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) { f(t, e2eDecode[domain.ListFoundersOutput](t, body)) }
	}
	return []e2eScenario{
		{name: "List", url: "/v1/founders", wantStatus: 200, check: list(func(t *testing.T, out domain.ListFoundersOutput) {
			if out.Total != all.Total || len(out.Items) != min(20, all.Total) {
				t.Errorf("total %d with %d items; per_page=100 gave total %d", out.Total, len(out.Items), all.Total)
			}
			for i, it := range out.Items {
				if it.Companies < 1 || it.PageURL != e.base+"/founders/"+it.Slug || it.Name == "" {
					t.Errorf("founder %s: companies %d, page_url %q", it.Slug, it.Companies, it.PageURL)
				}
				if i > 0 && strings.ToLower(it.Name) < strings.ToLower(out.Items[i-1].Name) {
					t.Errorf("founders not by name: %q after %q", it.Name, out.Items[i-1].Name)
				}
			}
		})},
		{name: "Q", url: e2eQuery("/v1/founders", "q", strings.ToUpper(part)), wantStatus: 200, check: list(func(t *testing.T, out domain.ListFoundersOutput) {
			if !slices.ContainsFunc(out.Items, func(it domain.FounderSummary) bool { return it.Slug == f.Slug }) {
				t.Errorf("q %q does not find %q", part, f.Name)
			}
			for _, it := range out.Items {
				if !strings.Contains(strings.ToLower(it.Name), part) {
					t.Errorf("q %q matched %q", part, it.Name)
				}
			}
		})},
		{name: "Country", url: "/v1/founders?per_page=100&country=" + strings.ToLower(withCountry.Country), wantStatus: 200, check: list(func(t *testing.T, out domain.ListFoundersOutput) {
			if len(out.Items) == 0 {
				t.Fatalf("country %s finds nobody", withCountry.Country)
			}
			for _, it := range out.Items {
				if it.Country != withCountry.Country {
					t.Errorf("founder %s from %q in a %s search", it.Slug, it.Country, withCountry.Country)
				}
			}
		})},
		{name: "NoMatch", url: "/v1/founders?q=zzqxjvkw", wantStatus: 200, wantContains: []string{`"items":[]`, `"total":0`}},
		{name: "Profile", url: "/v1/founders/" + f.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			fd := e2eDecode[domain.Founder](t, body)
			if fd.Slug != f.Slug || fd.Bio == "" || len(fd.Companies) != fd.FounderSummary.Companies || len(fd.Companies) == 0 {
				t.Errorf("founder %s: bio %d chars, companies %d vs %d listed", fd.Slug, len(fd.Bio), fd.FounderSummary.Companies, len(fd.Companies))
			}
			for _, c := range fd.Companies {
				if c.Listing.Status != domain.StatusLive {
					t.Errorf("company %s has status %q", c.Listing.Slug, c.Listing.Status)
				}
			}
		}},
		{name: "Story", url: "/v1/founders/" + withStory, wantStatus: 200, check: func(t *testing.T, body []byte) {
			fd := e2eDecode[domain.Founder](t, body)
			for _, s := range fd.Stories {
				if s.Listing == "" || (s.Story.Story == "" && s.WhyStarted == "" && s.Journey == "") {
					t.Errorf("empty story %+v", s)
				}
			}
		}},
		{name: "Absent", url: "/v1/founders/no-such-founder-e2e", wantStatus: 404},
		{name: "SlugPattern", url: "/v1/founders/Jane.Doe", wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "pattern"}}},
	}
}

func e2eBlogRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var all domain.ListBlogPostsOutput
	e.getJSON(t, "/v1/blog?per_page=100", &all)
	if all.Total < 10 || len(all.Items) != all.Total {
		t.Fatalf("%d blog posts (total %d), want >= 10", len(all.Items), all.Total)
	}
	target := all.Items[len(all.Items)-1]
	word := ""
	for _, w := range strings.Fields(strings.ToLower(target.Title)) {
		w = strings.Trim(w, ".,:;!?'\"()")
		if len(w) > len(word) {
			word = w
		}
	}
	return []e2eScenario{
		{name: "NewestFirst", url: "/v1/blog", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListBlogPostsOutput](t, body)
			for i, p := range out.Items {
				if p.Title == "" || p.Excerpt == "" || p.PageURL != e.base+"/blog/"+p.Slug || p.PublishedAt.After(e2eNow) {
					t.Errorf("post %s: title %q excerpt %d chars page_url %q published %v", p.Slug, p.Title, len(p.Excerpt), p.PageURL, p.PublishedAt)
				}
				if i > 0 && p.PublishedAt.After(out.Items[i-1].PublishedAt) {
					t.Errorf("post %d is newer than post %d", i, i-1)
				}
			}
		}},
		{name: "Q", url: e2eQuery("/v1/blog", "q", word), wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListBlogPostsOutput](t, body)
			if !slices.ContainsFunc(out.Items, func(p domain.BlogPostSummary) bool { return p.Slug == target.Slug }) {
				t.Errorf("q %q does not find %q", word, target.Title)
			}
			if out.Total >= all.Total {
				t.Errorf("q %q matches all %d posts", word, out.Total)
			}
		}},
		{name: "Paged", url: "/v1/blog?per_page=3&page=2", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListBlogPostsOutput](t, body)
			got := e2eMap(out.Items, func(p domain.BlogPostSummary) string { return p.Slug })
			want := e2eMap(all.Items[3:6], func(p domain.BlogPostSummary) string { return p.Slug })
			if !slices.Equal(got, want) || !out.HasMore {
				t.Errorf("page 2 of 3: %v (has_more %v), want %v", got, out.HasMore, want)
			}
		}},
		{name: "Post", url: "/v1/blog/" + target.Slug, wantStatus: 200, check: func(t *testing.T, body []byte) {
			p := e2eDecode[domain.BlogPost](t, body)
			if p.Slug != target.Slug || p.Title != target.Title || !strings.Contains(p.Markdown, "#") || len(p.Markdown) < 500 || len(p.FAQs) < 2 {
				t.Errorf("post %s: title %q, markdown %d chars, %d faqs", p.Slug, p.Title, len(p.Markdown), len(p.FAQs))
			}
		}},
		{name: "Absent", url: "/v1/blog/no-such-post-e2e", wantStatus: 404},
		{name: "SlugPattern", url: "/v1/blog/-post", wantStatus: 400, wantErrors: []e2eFieldRule{{"slug", "pattern"}}},
	}
}

func e2eAwardRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var all domain.ListAwardsOutput
	e.getJSON(t, "/v1/awards?per_page=100", &all)
	if len(all.Items) == 0 {
		t.Fatalf("no awards")
	}
	var last domain.GetLaunchWeekOutput
	e.getJSON(t, "/v1/launches/weeks/last", &last)
	winner := all.Items[0].Listing.Slug
	loser := ""
	for _, l := range e.e2eAllLive(t) {
		if !slices.ContainsFunc(all.Items, func(a domain.Award) bool { return a.Listing.Slug == l.Slug }) {
			loser = l.Slug
			break
		}
	}
	return []e2eScenario{
		{name: "EveryPastWeek", url: "/v1/awards?per_page=100", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListAwardsOutput](t, body)
			byWeek := map[string][]int{}
			for i, a := range out.Items {
				byWeek[a.Week] = append(byWeek[a.Week], a.Rank)
				if i > 0 && a.Week > out.Items[i-1].Week {
					t.Errorf("award %d (week %s) after week %s: not newest first", i, a.Week, out.Items[i-1].Week)
				}
				if a.Week >= e2eThisWeek {
					t.Errorf("award for week %s, which has not ended", a.Week)
				}
				if !strings.Contains(a.Title, "Launch of the Week") || a.Listing.Slug == "" {
					t.Errorf("award %+v", a)
				}
			}
			for n := 1; n <= 12; n++ {
				ranks := byWeek[e2eWeekOf(n)]
				slices.Sort(ranks)
				if !slices.Equal(ranks, []int{1, 2, 3}) {
					t.Errorf("week %s has award ranks %v, want [1 2 3]", e2eWeekOf(n), ranks)
				}
			}
		}},
		{name: "FollowWeekVotes", url: "/v1/awards?per_page=3", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListAwardsOutput](t, body)
			if len(last.Items) < 4 {
				t.Fatalf("last week has %d launches", len(last.Items))
			}
			wv := map[string]int{}
			for _, w := range last.Items {
				wv[w.Listing.Slug] = w.WeekVotes
			}
			var got []string
			for _, a := range out.Items {
				if a.Week != e2eLastWeek {
					t.Fatalf("newest award is for week %s, want %s", a.Week, e2eLastWeek)
				}
				got = append(got, a.Listing.Slug)
				if wv[a.Listing.Slug] != a.Votes {
					t.Errorf("award %d to %s says %d votes, get_launch_week says %d week votes", a.Rank, a.Listing.Slug, a.Votes, wv[a.Listing.Slug])
				}
			}
			slices.Sort(got)
			if last.Items[2].WeekVotes > last.Items[3].WeekVotes && !slices.Equal(got, e2eTop3(last.Items)) {
				t.Errorf("last week's awards went to %v; the week's top three by week votes are %v", got, e2eTop3(last.Items))
			}
		}},
		{name: "ByListing", url: "/v1/awards?listing=" + winner, wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListAwardsOutput](t, body)
			if out.Total == 0 {
				t.Errorf("listing %s won an award but the filter finds none", winner)
			}
			for _, a := range out.Items {
				if a.Listing.Slug != winner {
					t.Errorf("award of %s in a filter for %s", a.Listing.Slug, winner)
				}
			}
		}},
		{name: "ListingWithout", url: "/v1/awards?listing=" + loser, wantStatus: 200, wantContains: []string{`"items":[]`, `"total":0`}},
		{name: "ListingAbsent", url: "/v1/awards?listing=no-such-listing-e2e", wantStatus: 404},
		{name: "ListingPattern", url: "/v1/awards?listing=UPPER", wantStatus: 400, wantErrors: []e2eFieldRule{{"listing", "pattern"}}},
	}
}

func e2eBadgeRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var awards domain.ListAwardsOutput
	e.getJSON(t, "/v1/awards?per_page=1", &awards)
	var up domain.SearchListingsOutput
	e.getJSON(t, "/v1/listings?status=upcoming&per_page=1", &up)
	if len(awards.Items) == 0 || len(up.Items) == 0 {
		t.Fatalf("need an award winner and an upcoming listing")
	}
	winner, scheduled := awards.Items[0].Listing.Slug, up.Items[0].Slug
	check := func(slug, shape, mode, size string, w, h int, wantKinds, notKinds []string) func(*testing.T, []byte) {
		return func(t *testing.T, body []byte) {
			out := e2eDecode[domain.GetBadgesOutput](t, body)
			page := e.base + "/listings/" + slug
			if out.Listing != slug || out.PageURL != page || out.Shape != shape || out.Mode != mode || out.Size != size {
				t.Errorf("badges header %q %q %s/%s/%s", out.Listing, out.PageURL, out.Shape, out.Mode, out.Size)
			}
			kinds := e2eMap(out.Items, func(b domain.Badge) string { return b.Kind })
			if len(kinds) == 0 || kinds[0] != "listed" {
				t.Errorf("kinds %v, want listed first", kinds)
			}
			for _, k := range wantKinds {
				if !slices.Contains(kinds, k) {
					t.Errorf("kinds %v lack %s", kinds, k)
				}
			}
			for _, k := range notKinds {
				if slices.Contains(kinds, k) {
					t.Errorf("kinds %v must not have %s", kinds, k)
				}
			}
			for _, b := range out.Items {
				svg := e.base + "/badges/" + slug + "/" + b.Kind + ".svg?"
				if !strings.HasPrefix(b.SVGURL, svg) || !strings.Contains(b.SVGURL, "shape="+shape) || !strings.Contains(b.SVGURL, "mode="+mode) || !strings.Contains(b.SVGURL, "size="+size) {
					t.Errorf("badge %s svg_url %q", b.Kind, b.SVGURL)
				}
				if !strings.Contains(b.EmbedHTML, `href="`+page+`"`) || !strings.Contains(b.EmbedHTML, `src="`+html.EscapeString(b.SVGURL)+`"`) {
					t.Errorf("badge %s embed does not link %s with its image: %s", b.Kind, page, b.EmbedHTML)
				}
				if b.Width != w || b.Height != h || b.Label == "" {
					t.Errorf("badge %s %dx%d label %q, want %dx%d", b.Kind, b.Width, b.Height, b.Label, w, h)
				}
				seen := map[string]bool{}
				for _, s := range b.Styles {
					seen[s.Shape+"/"+s.Mode+"/"+s.Size] = true
					if !strings.HasPrefix(s.SVGURL, svg) {
						t.Errorf("style svg_url %q", s.SVGURL)
					}
				}
				if len(seen) != len(domain.BadgeShapes)*len(domain.BadgeModes)*len(domain.BadgeSizes) {
					t.Errorf("badge %s has %d distinct styles, want every shape, mode and size (%d)", b.Kind, len(seen), 45)
				}
			}
		}
	}
	return []e2eScenario{
		{name: "Defaults", url: "/v1/listings/" + winner + "/badges", wantStatus: 200,
			check: check(winner, "standard", "auto", "m", 250, 54, []string{"listed", "launched", "launch-of-the-week"}, nil)},
		{name: "PillDarkLarge", url: "/v1/listings/" + winner + "/badges?shape=pill&mode=dark&size=l", wantStatus: 200,
			check: check(winner, "pill", "dark", "l", 275, 55, nil, nil)},
		{name: "SquareLightSmall", url: "/v1/listings/" + winner + "/badges?shape=square&mode=light&size=s", wantStatus: 200,
			check: check(winner, "square", "light", "s", 90, 90, nil, nil)},
		{name: "ScheduledNotLaunched", url: "/v1/listings/" + scheduled + "/badges", wantStatus: 200,
			check: check(scheduled, "standard", "auto", "m", 250, 54, []string{"listed"}, []string{"launched", "launch-of-the-week"})},
		{name: "ShapeEnum", url: "/v1/listings/" + winner + "/badges?shape=round", wantStatus: 400, wantErrors: []e2eFieldRule{{"shape", "enum"}}},
		{name: "ModeEnum", url: "/v1/listings/" + winner + "/badges?mode=sepia", wantStatus: 400, wantErrors: []e2eFieldRule{{"mode", "enum"}}},
		{name: "SizeEnum", url: "/v1/listings/" + winner + "/badges?size=xl", wantStatus: 400, wantErrors: []e2eFieldRule{{"size", "enum"}}},
		{name: "AllThreeBad", url: "/v1/listings/" + winner + "/badges?shape=x&mode=y&size=z", wantStatus: 400,
			wantErrors: []e2eFieldRule{{"shape", "enum"}, {"mode", "enum"}, {"size", "enum"}}},
		{name: "Absent", url: "/v1/listings/no-such-listing-e2e/badges", wantStatus: 404},
	}
}

func e2eInterviewRows(e *e2eEnv) []e2eScenario {
	return []e2eScenario{
		{name: "OK", url: "/v1/interview-questions", wantStatus: 200, check: func(t *testing.T, body []byte) {
			out := e2eDecode[domain.ListInterviewQuestionsOutput](t, body)
			if len(out.Items) < 12 || len(out.Items) > 15 {
				t.Errorf("%d questions, want 12-15", len(out.Items))
			}
			ids := map[int64]bool{}
			for i, q := range out.Items {
				if q.ID < 1 || ids[q.ID] || q.Question == "" || q.Topic == "" || (i > 0 && q.Position <= out.Items[i-1].Position) {
					t.Errorf("question %d: %+v (ids unique >= 1, text and topic set, positions increasing)", i, q)
				}
				ids[q.ID] = true
			}
		}},
		{name: "UnknownParam", url: "/v1/interview-questions?page=2", wantStatus: 400, wantErrors: []e2eFieldRule{{"page", "additionalProperties"}}},
	}
}
