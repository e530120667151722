package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// pageNames are the page templates; each is parsed together with the
// layout (web/shell) and the shared parts (parts.html).
var pageNames = []string{"home", "search", "listing", "categories", "category", "launches", "week",
	"leaderboards", "leaderboard", "founders", "founder", "blog", "post", "awards", "docs", "upcoming"}

// pageSet is every page template of the site by name, parsed once per
// process and only read after: html/template's templates may be executed
// by many goroutines at once, and their functions (funcs, orderFuncs,
// fieldOf) are package-level, so every handler New builds (one in serve,
// hundreds in a test binary) shares them.
var pageSet = sync.OnceValue(func() map[string]*template.Template {
	pages := parsePages()
	for _, parse := range []func(map[string]*template.Template){parseOrderPages, parseClaimPages,
		parseBlogPages, parseCategoryPages, parseListingsAdminPages, parsePeoplePages, parseRatingsPages,
		parseSettingsPages, parseTeamPages, parseProgrammePages, parseTrophyPages, parseTrophyBoardPages,
		parseUpdatesPages} {
		parse(pages)
	}
	return pages
})

// parsePages parses every page with the shared layout, and the error page
// (web/shell's). The templates are embedded, so a parse failure is a
// programming error caught by any test.
func parsePages() map[string]*template.Template {
	base := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html", "templates/vote.html", "templates/row.html", "templates/reviews.html", "templates/docs_toolsets.html"))
	pages := make(map[string]*template.Template, len(pageNames)+1)
	for _, name := range pageNames {
		t := template.Must(base.Clone())
		pages[name] = template.Must(t.ParseFS(templateFS, "templates/"+name+".html"))
	}
	pages["error"] = shell.ErrorPage()
	return pages
}

// md renders Markdown as HTML. Raw HTML in the source is dropped and
// dangerous link destinations (javascript: and the like) are not linked:
// goldmark's renderer does both unless WithUnsafe is given, which it never is.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// renderMarkdown turns Markdown into HTML that is safe to put in a page.
func renderMarkdown(src string) (template.HTML, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil //nolint:gosec // goldmark without WithUnsafe emits no raw HTML
}

var funcs = template.FuncMap{
	"voteButton":   func(v voteState, slug string) voteButton { return v.button(slug) },
	"listingRows":  listingRows,
	"founderRows":  founderRows,
	"weekRows":     weekRows,
	"boardRows":    boardRows,
	"awardRows":    awardRows,
	"logoTint":     logoTint,
	"date":         func(t time.Time) string { return t.UTC().Format("Jan 2, 2006") },
	"datep":        formatDatePtr,
	"day":          formatDay,
	"num":          formatNum,
	"money":        formatCents,
	"add":          func(a, b int) int { return a + b },
	"join":         strings.Join,
	"listingPath":  func(slug string) string { return "/listings/" + url.PathEscape(slug) },
	"categoryPath": func(slug string) string { return "/categories/" + url.PathEscape(slug) },
	"founderPath":  func(slug string) string { return "/founders/" + url.PathEscape(slug) },
	"postPath":     func(slug string) string { return "/blog/" + url.PathEscape(slug) },
	"weekPath":     func(week string) string { return "/launches/weeks/" + url.PathEscape(week) },
	"boardPath":    func(board string) string { return "/leaderboards/" + url.PathEscape(board) },
	"stageName":    stageName,
	"rating":       func(r *domain.Rating) string { return strconv.FormatFloat(r.Average, 'f', 1, 64) },
	"starList":     starList,
	"roundStars":   func(avg float64) int { return int(avg + 0.5) },
	"paragraphs":   paragraphs,
	"trendArrow":   trendArrow,
	"boards":       boardList,
	"platform":     platformName,
	"sectionName":  sectionName,
	"heldLabel":    heldLabel,
	"plural":       plural,
	"factName":     factName,
	"boardBlurb":   boardBlurb,
	"rankingName":  rankingName,
	"optionName":   optionName,
	"drChart":      drChart,
	"drChange":     drChange,
	"votesChart":   votesChart,
}

// formatDay turns YYYY-MM-DD into "Nov 16, 2026"; other text is shown as is.
func formatDay(s string) string {
	t, err := time.Parse(domain.DateLayout, s)
	if err != nil {
		return s
	}
	return t.Format("Jan 2, 2006")
}

func formatDatePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format("Jan 2, 2006")
}

// formatNum formats an int or int64 with thousands separators.
func formatNum(v any) string {
	switch n := v.(type) {
	case int:
		return formatInt(int64(n))
	case int64:
		return formatInt(n)
	}
	return fmt.Sprint(v)
}

// formatInt writes n with thousands separators.
func formatInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatCents shows an amount of US dollar cents as "$1,234.50".
func formatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s$%s.%02d", sign, formatInt(c/100), c%100)
}

func stageName(slug string) string {
	for _, s := range domain.Stages {
		if s.Slug == slug {
			return s.Name
		}
	}
	return slug
}

func trendArrow(trend string) string {
	switch trend {
	case "up":
		return "↑"
	case "down":
		return "↓"
	}
	return "→"
}

// platformNames spell the social platform keys as people read them.
var platformNames = map[string]string{"linkedin": "LinkedIn", "x": "X", "facebook": "Facebook", "instagram": "Instagram",
	"tiktok": "TikTok", "youtube": "YouTube", "threads": "Threads", "pinterest": "Pinterest", "github": "GitHub",
	"reddit": "Reddit", "producthunt": "Product Hunt", "medium": "Medium", "website": "Website", "custom": "Link"}

func platformName(key string) string {
	if n, ok := platformNames[key]; ok {
		return n
	}
	return key
}

// boardOrder is the order the leaderboards are shown in.
var boardOrder = []string{"community-weekly", "community-all-time", "billboard", "domain-rating", "revenue"}

func boardList() []domain.Board {
	out := make([]domain.Board, 0, len(boardOrder))
	for _, k := range boardOrder {
		out = append(out, domain.Boards[k])
	}
	return out
}

// launchSections are the launch feed sections with their headings.
var launchSections = []struct{ Key, Name string }{
	{"today", "Launched today"}, {"this-week", "This week"}, {"trending", "Trending"},
	{"most-voted", "Most voted"}, {"recent", "Recent"}, {"most-viewed", "Most viewed"},
	{"most-followed", "Most followed"}, {"upcoming", "Upcoming"},
}

func sectionName(key string) string {
	for _, s := range launchSections {
		if s.Key == key {
			return s.Name
		}
	}
	return key
}

// pager links the pages of a paginated list.
type pager struct {
	domain.Page
	Prev, Next string
	Last       int
}

// newPager builds previous/next links that keep the request's other query parameters.
func newPager(r *http.Request, p domain.Page) pager {
	pg := pager{Page: p}
	if p.PerPage > 0 {
		pg.Last = max(1, (p.Total+p.PerPage-1)/p.PerPage)
	}
	link := func(n int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		return r.URL.Path + "?" + q.Encode()
	}
	if p.Page > 1 {
		pg.Prev = link(p.Page - 1)
	}
	if p.HasMore && p.Page < 1000 {
		pg.Next = link(p.Page + 1)
	}
	return pg
}
