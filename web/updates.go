package web

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
)

// The latest-updates page, following listings and a person's notifications.
// Following and notifications need the signed-in account (WithAccount).

// WithAccount tells the pages who is signed in: f returns the account's id
// and email, ok false for visitors. Without it nobody is signed in: the
// Follow button asks people to sign in, and /notifications sends them to it.
func WithAccount(f func(r *http.Request) (userID int64, email string, ok bool)) Option {
	return func(h *handler) { h.account = f }
}

// accountID returns the signed-in account of r, if any.
func (h *handler) accountID(r *http.Request) (int64, bool) {
	if h.account == nil {
		return 0, false
	}
	id, _, ok := h.account(r)
	return id, ok && id > 0
}

// signIn sends a visitor to the sign-in page, returning to next afterwards.
func signIn(w http.ResponseWriter, r *http.Request, next string) {
	http.Redirect(w, r, domain.SignInPath+"?"+url.Values{"next": {next}}.Encode(), statusSeeOther)
}

// parseUpdatesPages parses the templates of routeUpdates's pages (pageSet).
func parseUpdatesPages(pages map[string]*template.Template) {
	base := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"updates", "notifications"} {
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeUpdates registers the pages of this file.
func (h *handler) routeUpdates(mux *http.ServeMux) {
	mux.HandleFunc("GET "+domain.UpdatesPath, h.updates)
	mux.HandleFunc("GET "+domain.NotificationsPath, h.notifications)
	mux.HandleFunc("POST "+domain.NotificationsPath+"/read", h.markRead)
	mux.HandleFunc("POST /listings/{slug}/follow", h.follow(true))
	mux.HandleFunc("POST /listings/{slug}/unfollow", h.follow(false))
}

// followButton is the listing page's Follow/Unfollow form.
type followButton struct {
	SignedIn  bool
	Following bool
}

// followState reads the Follow button of listing slug for r's account; a
// personalised page is kept out of shared caches.
func (h *handler) followState(w http.ResponseWriter, r *http.Request, slug string) (followButton, error) {
	id, ok := h.accountID(r)
	if !ok {
		return followButton{}, nil
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	f, err := h.svc.Following(r.Context(), id, slug)
	return followButton{SignedIn: true, Following: f}, err
}

type updatesPage struct {
	Items []domain.PublicUpdate
	Pager pager
}

// updates is GET /updates: the updates of public listings, newest first.
func (h *handler) updates(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.LatestUpdates(r.Context(), domain.Pagination{Page: pageParam(r), PerPage: 20})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "updates", "Latest updates", "updates", updatesPage{Items: out.Items, Pager: newPager(r, out.Page)})
}

// follow is POST /listings/{slug}/follow and /unfollow.
func (h *handler) follow(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug, ok := h.slug(w, r, "slug")
		if !ok || !h.formPost(w, r) {
			return
		}
		page := "/listings/" + url.PathEscape(slug)
		id, ok := h.accountID(r)
		if !ok {
			signIn(w, r, page)
			return
		}
		if err := h.svc.Follow(r.Context(), id, slug, on); err != nil {
			h.serviceError(w, r, err)
			return
		}
		http.Redirect(w, r, page, statusSeeOther)
	}
}

type notificationsPage struct {
	Email string
	List  *domain.NotificationList
	Pager pager
}

// notifications is GET /notifications: the signed-in person's news.
func (h *handler) notifications(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	if h.account == nil {
		signIn(w, r, domain.NotificationsPath)
		return
	}
	id, email, ok := h.account(r)
	if !ok {
		signIn(w, r, domain.NotificationsPath)
		return
	}
	list, err := h.svc.Notifications(r.Context(), id, domain.Pagination{Page: pageParam(r), PerPage: 20})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "notifications", "Notifications", "notifications",
		notificationsPage{Email: email, List: list, Pager: newPager(r, list.Page)})
}

// markRead is POST /notifications/read: mark all read.
func (h *handler) markRead(w http.ResponseWriter, r *http.Request) {
	if !h.formPost(w, r) {
		return
	}
	id, ok := h.accountID(r)
	if !ok {
		signIn(w, r, domain.NotificationsPath)
		return
	}
	if err := h.svc.MarkNotificationsRead(r.Context(), id); err != nil {
		h.serviceError(w, r, err)
		return
	}
	http.Redirect(w, r, domain.NotificationsPath, statusSeeOther)
}
