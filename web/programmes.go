package web

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

// Award programmes (docs/trophies.md): the public pages (/programmes, and
// /programmes/{slug}, where people vote during the voting window with the
// site's vote form) and the console's (/admin/programmes, admins: the list
// and the form that creates a programme).

// programmePage is the data of programme.html.
type programmePage struct {
	P          *domain.ProgrammeDetail
	Categories []programmeCategoryRows
	Vote       voteState
	Voting     bool // the voting window is open: the rows carry vote buttons
}

// programmeCategoryRows is one category of a programme page with its entry rows.
type programmeCategoryRows struct {
	Name string
	Rows []launchRow
}

// programmeConsolePage is the data of admin_programmes.html.
type programmeConsolePage struct {
	Email      string
	Items      []domain.Programme
	Form       map[string]string
	Problem    string
	Field      string
	Created    string
	Categories []domain.CategoryNode
}

// parseProgrammePages parses the templates of routeProgrammes's pages (pageSet).
func parseProgrammePages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html", "templates/row.html", "templates/vote.html"))
	pages["programmes"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/programmes.html"))
	pages["programme"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/programme.html"))
	pages["admin_programmes"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/admin_programmes.html"))
}

func (h *handler) routeProgrammes(mux *http.ServeMux) {
	mux.HandleFunc("GET /programmes", h.programmes)
	mux.HandleFunc("GET /programmes/{slug}", h.programme)
	mux.Handle("GET /admin/programmes", h.adminRoute(console.RoleAdmin, false, h.programmeConsole))
	mux.Handle("POST /admin/programmes", h.adminRoute(console.RoleAdmin, true, h.createProgramme))
}

// programmes is GET /programmes.
func (h *handler) programmes(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.ListProgrammes(r.Context(), domain.ListProgrammesInput{Pagination: domain.Pagination{PerPage: 100}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "programmes", "Award programmes", "programmes", out)
}

// programme is GET /programmes/{slug}: the entries by category with their
// votes in the voting window, the vote buttons while it is open, the
// winners once decided.
func (h *handler) programme(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.GetProgramme(r.Context(), domain.GetProgrammeInput{Slug: r.PathValue("slug")})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	vote, err := h.voteStateOf(w, r)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	page := programmePage{P: out, Vote: vote, Voting: out.State == domain.ProgrammeVoting}
	for _, c := range out.Categories {
		cr := programmeCategoryRows{Name: c.Name}
		for _, e := range out.Items {
			if e.Category != c.Slug {
				continue
			}
			row := launchRow{Rank: e.Rank, L: e.Listing, Count: int64(e.Votes), Unit: "programme vote", Vote: vote.button(e.Listing.Slug)}
			if e.Winner {
				row.Award = "Winner #" + strconv.Itoa(e.Rank)
			}
			cr.Rows = append(cr.Rows, row)
		}
		page.Categories = append(page.Categories, cr)
	}
	h.render(w, r, statusOK, "programme", out.Name, "programmes", page)
}

func (h *handler) showProgrammeConsole(w http.ResponseWriter, r *http.Request, status int, p *programmeConsolePage) {
	out, err := h.svc.ListProgrammes(r.Context(), domain.ListProgrammesInput{Pagination: domain.Pagination{PerPage: 100}})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Items = out.Items
	if cats, err := h.svc.ListCategories(r.Context(), domain.ListCategoriesInput{}); err == nil {
		p.Categories = cats.Items
	}
	if p.Form == nil {
		p.Form = map[string]string{"winners": "3"}
	}
	h.render(w, r, status, "admin_programmes", "Award programmes", "", p)
}

// programmeConsole is GET /admin/programmes.
func (h *handler) programmeConsole(w http.ResponseWriter, r *http.Request, email string) {
	h.showProgrammeConsole(w, r, statusOK, &programmeConsolePage{Email: email, Created: r.URL.Query().Get("created")})
}

// programmeFields are the create form's fields.
var programmeFields = []string{"name", "description", "categories", "launched_from", "launched_to",
	"entry_opens", "entry_closes", "voting_opens", "voting_closes", "winners"}

// createProgramme is POST /admin/programmes. A broken rule shows the form
// again, 400, with the message naming the field; nothing is stored.
func (h *handler) createProgramme(w http.ResponseWriter, r *http.Request, email string) {
	form := map[string]string{}
	for _, f := range programmeFields {
		form[f] = r.PostForm.Get(f)
	}
	winners, err := strconv.Atoi(strings.TrimSpace(form["winners"]))
	if err != nil {
		h.showProgrammeConsole(w, r, problem.Status(domain.EInvalid), &programmeConsolePage{Email: email, Form: form, Field: "winners",
			Problem: "winners: a whole number of winners per category, 1-10."})
		return
	}
	in := domain.CreateProgrammeInput{Name: form["name"], Description: form["description"],
		Categories:   strings.FieldsFunc(form["categories"], func(c rune) bool { return c == ',' || c == ' ' }),
		LaunchedFrom: form["launched_from"], LaunchedTo: form["launched_to"], EntryOpens: form["entry_opens"], EntryCloses: form["entry_closes"],
		VotingOpens: form["voting_opens"], VotingCloses: form["voting_closes"], Winners: winners}
	rec, err := h.svc.CreateProgramme(r.Context(), in, email)
	var de *domain.Error
	if errors.As(err, &de) && (de.Code == domain.EInvalid || de.Code == domain.EConflict) {
		p := &programmeConsolePage{Email: email, Form: form, Problem: de.Message}
		if len(de.Fields) > 0 {
			p.Field = de.Fields[0].Field
		}
		h.showProgrammeConsole(w, r, problem.Status(de.Code), p)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.audit(r, email, "programme.create", "programme:"+rec.Slug, nil, map[string]any{"name": rec.Name, "categories": rec.Categories, "winners": rec.Winners})
	h.log.Info("web: site team created a programme", "member", email, "programme", rec.Slug)
	http.Redirect(w, r, "/admin/programmes?created="+rec.Slug, statusSeeOther)
}

// programmeStates are the programme phases in words.
var programmeStates = map[string]string{
	domain.ProgrammeUpcoming: "Upcoming", domain.ProgrammeEntering: "Entries open", domain.ProgrammeVoting: "Voting open",
	domain.ProgrammeBetween: "Entries closed", domain.ProgrammeCounting: "Voting closed", domain.ProgrammeFinished: "Finished",
}

func init() {
	funcs["programmeState"] = func(s string) string { return programmeStates[s] }
}
