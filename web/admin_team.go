package web

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

// The site team's members (/admin/team) and the audit log of their changes
// (/admin/audit): admins only (docs/console.md).

// auditPerPage is how many audit entries one page of /admin/audit shows.
const auditPerPage = 50

// teamPage is the data of admin_team.html.
type teamPage struct {
	Email   string
	Members []console.TeamMember
	Roles   []string
	// Problem is why the last change was refused and Field the field it
	// names; NewEmail and NewRole keep a refused grant form's values.
	Problem, Field    string
	NewEmail, NewRole string
}

// auditPage is the data of admin_audit.html.
type auditPage struct {
	Email   string
	Entries []auditView
	Total   int
	// The filter as typed, and the problem with it (Field names the field).
	Actor, Action, Target, Since, Until string
	Problem, Field                      string
	Page                                int
	Prev, Next                          string
}

// auditView is one audit entry as the page shows it.
type auditView struct {
	console.AuditEntry
	When, Before, After string
}

// parseTeamPages parses the templates of routeTeam's pages (pageSet).
func parseTeamPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"admin_team", "admin_audit"} {
		pages[name] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeTeam registers the team and audit pages.
func (h *handler) routeTeam(mux *http.ServeMux) {
	mux.Handle("GET /admin/team", h.adminRoute(console.RoleAdmin, false, h.teamHome))
	mux.Handle("POST /admin/team", h.adminRoute(console.RoleAdmin, true, h.teamGrant))
	mux.Handle("POST /admin/team/revoke", h.adminRoute(console.RoleAdmin, true, h.teamRevoke))
	mux.Handle("GET /admin/audit", h.adminRoute(console.RoleAdmin, false, h.auditHome))
}

func (h *handler) showTeam(w http.ResponseWriter, r *http.Request, email string, status int, p *teamPage) {
	members, err := h.console.TeamMembers(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	if p == nil {
		p = &teamPage{NewRole: console.RoleModerator}
	}
	p.Email, p.Members, p.Roles = email, members, console.TeamRoles
	h.render(w, r, status, "admin_team", "Site team", "", p)
}

// teamHome is GET /admin/team.
func (h *handler) teamHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showTeam(w, r, email, statusOK, nil)
}

// teamRefused shows the team page with why a change was refused: 400 for
// bad input, the error's own status otherwise.
func (h *handler) teamRefused(w http.ResponseWriter, r *http.Request, email string, err error, p *teamPage) {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code == domain.EInternal {
		h.serviceError(w, r, err)
		return
	}
	p.Problem = de.Message
	if len(de.Fields) > 0 {
		p.Field = de.Fields[0].Field
	}
	h.showTeam(w, r, email, problem.Status(de.Code), p)
}

// teamGrant is POST /admin/team (email, role).
func (h *handler) teamGrant(w http.ResponseWriter, r *http.Request, email string) {
	p := &teamPage{NewEmail: strings.TrimSpace(r.PostForm.Get("email")), NewRole: r.PostForm.Get("role")}
	if err := h.console.GrantTeamRole(r.Context(), email, p.NewEmail, p.NewRole); err != nil {
		h.teamRefused(w, r, email, err, p)
		return
	}
	h.log.Info("web: admin granted a team role", "admin", email, "member", p.NewEmail, "role", p.NewRole)
	http.Redirect(w, r, "/admin/team", statusSeeOther)
}

// teamRevoke is POST /admin/team/revoke (email).
func (h *handler) teamRevoke(w http.ResponseWriter, r *http.Request, email string) {
	member := r.PostForm.Get("email")
	if err := h.console.RevokeTeamRole(r.Context(), email, member); err != nil {
		h.teamRefused(w, r, email, err, &teamPage{NewRole: console.RoleModerator})
		return
	}
	h.log.Info("web: admin removed a team member", "admin", email, "member", member)
	http.Redirect(w, r, "/admin/team", statusSeeOther)
}

// auditHome is GET /admin/audit?actor=&action=&target=&since=&until=&page=:
// the audit log, newest first, filtered; since and until are dates
// (YYYY-MM-DD, UTC; until inclusive).
func (h *handler) auditHome(w http.ResponseWriter, r *http.Request, email string) {
	q := r.URL.Query()
	p := &auditPage{Email: email, Actor: strings.TrimSpace(q.Get("actor")), Action: strings.TrimSpace(q.Get("action")),
		Target: strings.TrimSpace(q.Get("target")), Since: strings.TrimSpace(q.Get("since")), Until: strings.TrimSpace(q.Get("until")), Page: 1}
	f := console.AuditFilter{Actor: p.Actor, Action: p.Action, Target: p.Target, PerPage: auditPerPage}
	refuse := func(field, msg string) {
		p.Problem, p.Field = msg, field
		h.render(w, r, pageStatus(domain.EInvalid), "admin_audit", "Audit log", "", p)
	}
	if raw := q.Get("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 1000 {
			refuse("page", "page is a whole number from 1 to 1000; "+strconv.Quote(raw)+" is not.")
			return
		}
		p.Page = n
	}
	f.Page = p.Page
	for _, d := range []struct {
		name, raw string
		to        *time.Time
		add       int
	}{{"since", p.Since, &f.Since, 0}, {"until", p.Until, &f.Until, 1}} {
		if d.raw == "" {
			continue
		}
		day, err := time.Parse(time.DateOnly, d.raw)
		if err != nil {
			refuse(d.name, d.name+" is a date such as 2026-11-25; "+strconv.Quote(d.raw)+" is not one.")
			return
		}
		*d.to = day.AddDate(0, 0, d.add)
	}
	entries, total, err := h.console.AuditLog(r.Context(), f)
	if err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.EInvalid {
			field := ""
			if len(de.Fields) > 0 {
				field = de.Fields[0].Field
			}
			refuse(field, de.Message)
			return
		}
		h.serviceError(w, r, err)
		return
	}
	p.Total = total
	for _, e := range entries {
		p.Entries = append(p.Entries, auditView{AuditEntry: e, When: e.At.Format("Jan 2, 2006 15:04:05 UTC"),
			Before: string(e.Before), After: string(e.After)})
	}
	page := func(n int) string {
		v := url.Values{}
		for k, s := range map[string]string{"actor": p.Actor, "action": p.Action, "target": p.Target, "since": p.Since, "until": p.Until} {
			if s != "" {
				v.Set(k, s)
			}
		}
		v.Set("page", strconv.Itoa(n))
		return "/admin/audit?" + v.Encode()
	}
	if p.Page > 1 {
		p.Prev = page(p.Page - 1)
	}
	if p.Page*auditPerPage < total {
		p.Next = page(p.Page + 1)
	}
	h.render(w, r, statusOK, "admin_audit", "Audit log", "", p)
}
