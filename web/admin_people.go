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

// People on the console (/admin/people, admins only; docs/console.md
// "People"): find an account, see what it did, suspend or unsuspend it.

// peopleLimit is how many accounts one search shows.
const peopleLimit = 50

// peoplePage is the data of admin_people.html.
type peoplePage struct {
	Email    string
	Q        string
	Searched bool
	Accounts []console.PersonAccount
	Problem  string
}

// personPage is the data of admin_person.html.
type personPage struct {
	Email string
	*console.AccountDetail
	// Problem is why the last change was refused and Field the field it
	// names; Reason keeps a refused suspension's reason.
	Problem, Field, Reason string
	ReasonMax              int
}

// parsePeoplePages parses the templates of routePeople's pages (pageSet).
func parsePeoplePages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"admin_people", "admin_person"} {
		pages[name] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routePeople registers the people pages.
func (h *handler) routePeople(mux *http.ServeMux) {
	mux.Handle("GET /admin/people", h.adminRoute(console.RoleAdmin, false, h.peopleHome))
	mux.Handle("GET /admin/people/{id}", h.adminRoute(console.RoleAdmin, false, h.personHome))
	mux.Handle("POST /admin/people/{id}/suspend", h.adminRoute(console.RoleAdmin, true, h.personSuspend))
	mux.Handle("POST /admin/people/{id}/unsuspend", h.adminRoute(console.RoleAdmin, true, h.personUnsuspend))
}

// peopleHome is GET /admin/people?q=: accounts whose email contains q or
// whose id is q.
func (h *handler) peopleHome(w http.ResponseWriter, r *http.Request, email string) {
	p := &peoplePage{Email: email, Q: strings.TrimSpace(r.URL.Query().Get("q"))}
	if p.Q != "" {
		p.Searched = true
		accounts, err := h.console.FindAccounts(r.Context(), p.Q, peopleLimit)
		var de *domain.Error
		switch {
		case errors.As(err, &de) && de.Code == domain.EInvalid:
			p.Problem = de.Message
			h.render(w, r, pageStatus(domain.EInvalid), "admin_people", "People", "", p)
			return
		case err != nil:
			h.serviceError(w, r, err)
			return
		}
		p.Accounts = accounts
	}
	h.render(w, r, statusOK, "admin_people", "People", "", p)
}

// personID is the {id} of the request, false (after a 404 page) when it is
// not an account id.
func (h *handler) personID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		h.notFound(w, r)
		return 0, false
	}
	return id, true
}

func (h *handler) showPerson(w http.ResponseWriter, r *http.Request, email string, id int64, status int, p *personPage) {
	d, err := h.console.AccountDetail(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	if p == nil {
		p = &personPage{}
	}
	p.Email, p.AccountDetail, p.ReasonMax = email, d, console.SuspendReasonMax
	h.render(w, r, status, "admin_person", d.Email, "", p)
}

// personHome is GET /admin/people/{id}.
func (h *handler) personHome(w http.ResponseWriter, r *http.Request, email string) {
	if id, ok := h.personID(w, r); ok {
		h.showPerson(w, r, email, id, statusOK, nil)
	}
}

// personRefused shows the account's page with why a change was refused.
func (h *handler) personRefused(w http.ResponseWriter, r *http.Request, email string, id int64, err error, p *personPage) {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code == domain.EInternal || de.Code == domain.ENotFound {
		h.serviceError(w, r, err)
		return
	}
	p.Problem = de.Message
	if len(de.Fields) > 0 {
		p.Field = de.Fields[0].Field
	}
	h.showPerson(w, r, email, id, problem.Status(de.Code), p)
}

// personSuspend is POST /admin/people/{id}/suspend (reason).
func (h *handler) personSuspend(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.personID(w, r)
	if !ok {
		return
	}
	reason := r.PostForm.Get("reason")
	if err := h.console.SuspendAccount(r.Context(), email, id, reason); err != nil {
		h.personRefused(w, r, email, id, err, &personPage{Reason: reason})
		return
	}
	h.log.Info("web: admin suspended an account", "admin", email, "account", id)
	http.Redirect(w, r, "/admin/people/"+strconv.FormatInt(id, 10), statusSeeOther)
}

// personUnsuspend is POST /admin/people/{id}/unsuspend.
func (h *handler) personUnsuspend(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.personID(w, r)
	if !ok {
		return
	}
	if err := h.console.UnsuspendAccount(r.Context(), email, id); err != nil {
		h.personRefused(w, r, email, id, err, &personPage{})
		return
	}
	h.log.Info("web: admin unsuspended an account", "admin", email, "account", id)
	http.Redirect(w, r, "/admin/people/"+strconv.FormatInt(id, 10), statusSeeOther)
}
