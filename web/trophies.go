package web

import (
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/web/shell"
)

// The console's trophy queue (/admin/trophies, admins and moderators;
// docs/trophies.md): pending trophies, or those of another state, with
// verify and reject forms. A reject needs a reason the owner sees. The
// listing page's cabinet is in listing.html (pages.go reads it).

// trophiesShown is how many trophies /admin/trophies lists.
const trophiesShown = 100

// trophyQueuePage is the data of admin_trophies.html.
type trophyQueuePage struct {
	Email, State string
	States       []string
	Items        []domain.TrophyRecord
	// Problem is why the last decision was refused, for trophy ProblemID.
	Problem   string
	ProblemID int64
}

// parseTrophyPages parses the templates of routeTrophies's pages (pageSet).
func parseTrophyPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	pages["admin_trophies"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/admin_trophies.html"))
}

func (h *handler) routeTrophies(mux *http.ServeMux) {
	mux.HandleFunc("GET /badges/{slug}/trophies/{file}", h.trophyBadge) // trophy_badges.go
	mux.Handle("GET /admin/trophies", h.adminRoute(console.RoleModerator, false, h.trophyQueue))
	mux.Handle("POST /admin/trophies/{id}/verify", h.adminRoute(console.RoleModerator, true, h.trophyDecide(true)))
	mux.Handle("POST /admin/trophies/{id}/reject", h.adminRoute(console.RoleModerator, true, h.trophyDecide(false)))
}

var trophyStates = []string{domain.TrophyPending, domain.TrophyUnconfirmed, domain.TrophyRejected, domain.TrophyVerified}

func (h *handler) showTrophyQueue(w http.ResponseWriter, r *http.Request, status int, p *trophyQueuePage) {
	if !slices.Contains(trophyStates, p.State) {
		p.State = domain.TrophyPending
	}
	items, err := h.svc.TrophyQueue(r.Context(), p.State, trophiesShown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Items, p.States = items, trophyStates
	h.render(w, r, status, "admin_trophies", "Trophies to verify", "", p)
}

// trophyQueue is GET /admin/trophies?state=.
func (h *handler) trophyQueue(w http.ResponseWriter, r *http.Request, email string) {
	h.showTrophyQueue(w, r, statusOK, &trophyQueuePage{Email: email, State: r.URL.Query().Get("state")})
}

// trophyDecide is POST /admin/trophies/{id}/verify or /reject (form: reason, state).
func (h *handler) trophyDecide(verify bool) func(w http.ResponseWriter, r *http.Request, email string) {
	return func(w http.ResponseWriter, r *http.Request, email string) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || id < 1 {
			h.notFound(w, r)
			return
		}
		reason := r.PostForm.Get("reason")
		rec, err := h.svc.DecideTrophy(r.Context(), id, verify, reason)
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.EInvalid {
			h.showTrophyQueue(w, r, pageStatus(domain.EInvalid), &trophyQueuePage{Email: email, State: r.PostForm.Get("state"), Problem: de.Message, ProblemID: id})
			return
		}
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		action := "trophy.reject"
		if verify {
			action = "trophy.verify"
		}
		h.audit(r, email, action, "trophy:"+strconv.FormatInt(id, 10), nil, map[string]any{"state": rec.State, "reason": rec.Reason, "listing": rec.Slug})
		h.log.Info("web: site team decided a trophy", "member", email, "action", action, "trophy", id)
		http.Redirect(w, r, "/admin/trophies?state="+r.PostForm.Get("state"), statusSeeOther)
	}
}
