package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// The site team's admin page: product prices, open work items and the latest
// orders. Who may see it is decided by WithAdmin's function; to everyone else
// /admin is a 404 page like any unknown address.

// adminOrders is how many of the latest orders the page lists.
const adminOrders = 50

// adminEdits is how many listing edits the review queue lists.
const adminEdits = 50

// adminPage is the data of admin.html.
type adminPage struct {
	Email    string
	Role     string // admin or moderator: a moderator's page has only the queue link
	Currency string
	Products []domain.Product
	Work     []domain.WorkItem
	Orders   []domain.OrderView
	// OrderCount is the number of orders in all (Orders holds the latest).
	OrderCount int
	// Edits is the review queue of owners' listing edits, unreviewed first;
	// OpenEdits the number not reviewed yet.
	Edits     []editView
	OpenEdits int
	// Problem is why the last change was refused; Code and Cents keep the
	// refused price form's values.
	Problem     string
	Code, Cents string
}

// routeAdmin registers the admin page and its forms. Moderators reach /admin
// (which then shows only the review queue) and the queue; everything else is
// for admins.
func (h *handler) routeAdmin(mux *http.ServeMux) {
	mux.Handle("GET /admin", h.adminRoute(console.RoleModerator, false, h.adminHome))
	mux.Handle("POST /admin/prices", h.adminRoute(console.RoleAdmin, true, h.adminSetPrice))
	mux.Handle("POST /admin/work/{id}/done", h.adminRoute(console.RoleAdmin, true, h.adminFinishWork))
	mux.Handle("POST /admin/edits/{id}/reviewed", h.adminRoute(console.RoleAdmin, true, h.adminReviewEdit))
	mux.Handle("POST /admin/edits/{id}/revert", h.adminRoute(console.RoleAdmin, true, h.adminRevertEdit))
	h.routeModeration(mux)
	h.routeTeam(mux)
	h.routePeople(mux) // admin_people.go
	h.routeSettings(mux)
	h.routeBlog(mux)          // admin_blog.go
	h.routeListingsAdmin(mux) // admin_listings.go
	h.routeCategories(mux)    // admin_categories.go
	h.routeRatings(mux)       // admin_ratings.go
	h.routeTrophies(mux)      // trophies.go
	h.routeProgrammes(mux)    // programmes.go
	h.routeTrophyPages(mux)   // trophy_pages.go
}

// adminRoute wraps a console handler: a 404 page unless the request comes
// from a member of the site team with at least role need (a moderator's
// request for an admin page is a 404 page too), the cross-origin check and a
// body limit for a form post, and headers that keep the page out of caches
// and search engines.
func (h *handler) adminRoute(need string, post bool, fn func(w http.ResponseWriter, r *http.Request, email string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		w.Header().Set("Cache-Control", "no-store")
		// Checked before anything else, so a stranger cannot tell /admin from
		// any unknown address, whatever the method or the form.
		email, role, err := h.teamMember(r)
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		if role == "" || need == console.RoleAdmin && role != console.RoleAdmin {
			if _, signedIn := h.accountID(r); signedIn && !post && role == "" && h.adminHint != "" && h.teamEmpty(r) {
				h.fail(w, r, domain.ENotFound, h.adminHint)
				return
			}
			h.notFound(w, r)
			return
		}
		if post && !h.formPost(w, r) {
			return
		}
		fn(w, r.WithContext(context.WithValue(r.Context(), roleKey{}, role)), email)
	})
}

// teamEmpty says whether the site team has no member now. The admin hint is
// true only then: "launchdir admin grant" (another process) may have made an
// admin since this server started, and the server reads the team from the
// database on every request. An error counts as not empty (the hint is left out).
func (h *handler) teamEmpty(r *http.Request) bool {
	members, err := h.console.TeamMembers(r.Context())
	return err == nil && len(members) == 0
}

// roleKey carries the team member's role to the console's handlers.
type roleKey struct{}

// roleOf is the role adminRoute found for r.
func roleOf(r *http.Request) string {
	role, _ := r.Context().Value(roleKey{}).(string)
	return role
}

// teamMember asks WithAdmin's function who is signed in and the site team
// for their role; "" when they are not on the team (or nobody is signed in,
// or there is no WithAdmin).
func (h *handler) teamMember(r *http.Request) (email, role string, err error) {
	if h.admin == nil {
		return "", "", nil
	}
	email, ok := h.admin(r)
	if !ok {
		return "", "", nil
	}
	role, err = h.console.TeamRole(r.Context(), email)
	return email, role, err
}

// audit writes one change of the site team to the audit log; a failure is
// logged (the change itself is made).
func (h *handler) audit(r *http.Request, email, action, target string, before, after any) {
	if err := h.console.Audit(r.Context(), email, action, target, before, after); err != nil {
		h.log.Error("web: writing the audit log", "admin", email, "action", action, "target", target, "err", err)
	}
}

// adminData loads what the admin page shows.
func (h *handler) adminData(r *http.Request, email string) (*adminPage, error) {
	ctx := r.Context()
	if roleOf(r) != console.RoleAdmin {
		return &adminPage{Email: email, Role: roleOf(r)}, nil
	}
	products, err := h.svc.AdminPrices(ctx)
	if err != nil {
		return nil, err
	}
	work, err := h.svc.AdminWorkItems(ctx, 0)
	if err != nil {
		return nil, err
	}
	orders, count, err := h.svc.AdminOrders(ctx, adminOrders)
	if err != nil {
		return nil, err
	}
	edits, open, err := h.svc.ReviewQueue(ctx, adminEdits)
	if err != nil {
		return nil, err
	}
	p := &adminPage{Email: email, Role: console.RoleAdmin, Products: products, Work: work, Orders: orders, OrderCount: count, OpenEdits: open}
	for _, v := range edits {
		p.Edits = append(p.Edits, newEditView(v))
	}
	if len(products) > 0 {
		p.Currency = products[0].Currency
	}
	return p, nil
}

// showAdmin renders the admin page; problem, when not "", says why a change
// was refused (status 400).
func (h *handler) showAdmin(w http.ResponseWriter, r *http.Request, email string, status int, problem, code, cents string) {
	p, err := h.adminData(r, email)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Problem, p.Code, p.Cents = problem, code, cents
	h.render(w, r, status, "admin", "Admin", "", p)
}

// adminHome is GET /admin.
func (h *handler) adminHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showAdmin(w, r, email, statusOK, "", "", "")
}

// adminSetPrice is POST /admin/prices: code and cents.
func (h *handler) adminSetPrice(w http.ResponseWriter, r *http.Request, email string) {
	code, raw := strings.TrimSpace(r.PostForm.Get("code")), strings.TrimSpace(r.PostForm.Get("cents"))
	cents, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		h.showAdmin(w, r, email, pageStatus(domain.EInvalid),
			"Enter the price as a whole number of cents, for example 4900 for 49.00; "+strconv.Quote(raw)+" is not one.", code, raw)
		return
	}
	before := h.priceOf(r, code)
	if err := h.svc.SetProductPrice(r.Context(), code, cents); err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.EInvalid {
			h.showAdmin(w, r, email, pageStatus(domain.EInvalid), de.Message, code, raw)
			return
		}
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin set a price", "admin", email, "product", code, "cents", cents)
	h.audit(r, email, "price.set", "product:"+code, before, map[string]int64{"cents": cents})
	http.Redirect(w, r, "/admin", statusSeeOther)
}

// priceOf is product code's price before a change, for the audit log (nil
// when it cannot be read).
func (h *handler) priceOf(r *http.Request, code string) any {
	products, err := h.svc.AdminPrices(r.Context())
	if err != nil {
		return nil
	}
	for _, p := range products {
		if p.Code == code {
			return map[string]int64{"cents": p.PriceCents}
		}
	}
	return nil
}

// adminFinishWork is POST /admin/work/{id}/done.
func (h *handler) adminFinishWork(w http.ResponseWriter, r *http.Request, email string) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		h.notFound(w, r)
		return
	}
	if err := h.svc.FinishWorkItem(r.Context(), id); err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin finished a work item", "admin", email, "work_item", id)
	h.audit(r, email, "work_item.done", fmt.Sprintf("work_item:%d", id), nil, map[string]string{"status": "done"})
	http.Redirect(w, r, "/admin", statusSeeOther)
}

// editView is one listing edit of the review queue, its values as text.
type editView struct {
	domain.ListingVersion
	At, Reviewed string
	Changes      []changeView
}

// changeView is one changed field: its value before and after, as text.
type changeView struct {
	Field, Before, After string
}

func newEditView(v domain.ListingVersion) editView {
	e := editView{ListingVersion: v, At: v.At.UTC().Format("Jan 2, 2006 15:04 UTC")}
	if v.ReviewedAt != nil {
		e.Reviewed = v.ReviewedAt.UTC().Format("Jan 2, 2006 15:04 UTC")
	}
	for _, c := range v.Changes {
		e.Changes = append(e.Changes, changeView{Field: c.Field, Before: editText(c.Before), After: editText(c.After)})
	}
	return e
}

// editText shows a field's JSON value to a person: text as it is, lists one
// item a line, FAQs as question and answer, links by platform; "(empty)"
// for no value.
func editText(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	var lines []string
	switch v := v.(type) {
	case nil:
	case string:
		lines = append(lines, v)
	case float64:
		lines = append(lines, strconv.FormatFloat(v, 'f', -1, 64))
	case []any:
		for _, it := range v {
			if faq, ok := it.(map[string]any); ok {
				lines = append(lines, fmt.Sprintf("Q: %v\nA: %v", faq["question"], faq["answer"]))
			} else {
				lines = append(lines, "• "+fmt.Sprint(it))
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			lines = append(lines, k+": "+fmt.Sprint(v[k]))
		}
	default:
		lines = append(lines, string(raw))
	}
	if s := strings.Join(lines, "\n"); strings.TrimSpace(s) != "" {
		return s
	}
	return "(empty)"
}

// editID reads the {id} of an edit form; false (a 404 page sent) when it is not one.
func (h *handler) editID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		h.notFound(w, r)
		return 0, false
	}
	return id, true
}

// adminReviewEdit is POST /admin/edits/{id}/reviewed.
func (h *handler) adminReviewEdit(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.editID(w, r)
	if !ok {
		return
	}
	if err := h.svc.MarkEditReviewed(r.Context(), id, email); err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin reviewed a listing edit", "admin", email, "version_id", id)
	h.audit(r, email, "listing_edit.reviewed", fmt.Sprintf("listing_version:%d", id), nil, map[string]bool{"reviewed": true})
	http.Redirect(w, r, "/admin#edits", statusSeeOther)
}

// adminRevertEdit is POST /admin/edits/{id}/revert: the listing gets the
// values from before that edit back, as a new version by the admin.
func (h *handler) adminRevertEdit(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.editID(w, r)
	if !ok {
		return
	}
	v, err := h.svc.RevertEdit(r.Context(), id, email)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	version := 0
	if v != nil {
		version = v.Version
	}
	h.log.Info("web: admin reverted a listing edit", "admin", email, "version_id", id, "new_version", version)
	h.audit(r, email, "listing_edit.revert", fmt.Sprintf("listing_version:%d", id), nil, map[string]int{"new_version": version})
	http.Redirect(w, r, "/admin#edits", statusSeeOther)
}

// invalidFields maps a validation error's fields to their first message
// (what a console form shows next to each field); nil when err is not a
// validation error.
func invalidFields(err error) map[string]string {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.EInvalid {
		return nil
	}
	return firstMessages(de)
}

// firstMessages maps de's fields to the first message about each.
func firstMessages(de *domain.Error) map[string]string {
	out := map[string]string{}
	for _, f := range de.Fields {
		if _, ok := out[f.Field]; !ok {
			out[f.Field] = f.Message
		}
	}
	return out
}
