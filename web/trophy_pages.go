package web

import (
	"html/template"
	"net/http"
	"strconv"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
)

// The site's trophy leaderboard (/trophies/leaderboard) and Hall of Fame
// (/hall-of-fame): the pages of get_trophy_leaderboard and get_hall_of_fame
// (docs/trophies.md). The trophy ranking is kept apart from the community,
// billboard and Domain Rating boards of /leaderboards: its own pages, no
// vote buttons, the points rule stated on the page.

// trophyYearsShown is how many years (this one and those before) the pages
// offer besides all-time.
const trophyYearsShown = 5

// trophyYearLink is one choice of the year tabs.
type trophyYearLink struct {
	Year    int // 0: all-time (or every year)
	Label   string
	Href    string
	Current bool
}

// trophyBoardPage is the data of trophy_leaderboard.html.
type trophyBoardPage struct {
	Out   *domain.TrophyBoard
	Years []trophyYearLink
	Pager pager
}

// hallOfFamePage is the data of hall_of_fame.html.
type hallOfFamePage struct {
	Out   *domain.HallOfFame
	Year  int
	Years []trophyYearLink
}

// parseTrophyBoardPages parses the templates of routeTrophyPages's pages (pageSet).
func parseTrophyBoardPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	pages["trophy_leaderboard"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/trophy_leaderboard.html"))
	pages["hall_of_fame"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/hall_of_fame.html"))
}

func (h *handler) routeTrophyPages(mux *http.ServeMux) {
	mux.HandleFunc("GET /trophies/leaderboard", h.trophyLeaderboard)
	mux.HandleFunc("GET /hall-of-fame", h.hallOfFame)
}

// yearParam reads ?year=: 0 when absent; a value that is not a whole number
// is kept as an out-of-range year so that the input's schema refuses it
// (400 naming year).
func yearParam(r *http.Request) int {
	s := r.URL.Query().Get("year")
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// yearLinks are the year tabs of path: all (label first), this year and
// the years before it.
func (h *handler) yearLinks(path, first string, year int) []trophyYearLink {
	out := []trophyYearLink{{Label: first, Href: path, Current: year == 0}}
	now := h.svc.Now().UTC().Year()
	for y := now; y > now-trophyYearsShown; y-- {
		out = append(out, trophyYearLink{Year: y, Label: strconv.Itoa(y), Href: path + "?year=" + strconv.Itoa(y), Current: y == year})
	}
	return out
}

// trophyLeaderboard is GET /trophies/leaderboard?year=&page=.
func (h *handler) trophyLeaderboard(w http.ResponseWriter, r *http.Request) {
	in := domain.GetTrophyLeaderboardInput{Year: yearParam(r), Pagination: domain.Pagination{Page: pageParam(r), PerPage: 50}}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.GetTrophyLeaderboard(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	title := "Trophy leaderboard"
	if in.Year != 0 {
		title += " " + strconv.Itoa(in.Year)
	}
	h.render(w, r, statusOK, "trophy_leaderboard", title, "leaderboards",
		trophyBoardPage{Out: out, Years: h.yearLinks("/trophies/leaderboard", "All-time", in.Year), Pager: newPager(r, out.Page)})
}

// hallOfFame is GET /hall-of-fame?year=.
func (h *handler) hallOfFame(w http.ResponseWriter, r *http.Request) {
	in := domain.GetHallOfFameInput{Year: yearParam(r)}
	if !h.valid(w, r, in) {
		return
	}
	out, err := h.svc.GetHallOfFame(r.Context(), in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	title := "Hall of Fame"
	if in.Year != 0 {
		title += " " + strconv.Itoa(in.Year)
	}
	h.render(w, r, statusOK, "hall_of_fame", title, "leaderboards",
		hallOfFamePage{Out: out, Year: in.Year, Years: h.yearLinks("/hall-of-fame", "Every year", in.Year)})
}
