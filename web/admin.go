package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
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

// routeAdmin registers the admin page and its forms.
func (h *handler) routeAdmin(mux *http.ServeMux) {
	mux.Handle("GET /admin", h.adminRoute(false, h.adminHome))
	mux.Handle("POST /admin/prices", h.adminRoute(true, h.adminSetPrice))
	mux.Handle("POST /admin/work/{id}/done", h.adminRoute(true, h.adminFinishWork))
	mux.Handle("POST /admin/edits/{id}/reviewed", h.adminRoute(true, h.adminReviewEdit))
	mux.Handle("POST /admin/edits/{id}/revert", h.adminRoute(true, h.adminRevertEdit))
	h.routeModeration(mux)
}

// adminRoute wraps an admin handler: a 404 page unless the request comes
// from the site team, the cross-origin check and a body limit for a form
// post, and headers that keep the page out of caches and search engines.
func (h *handler) adminRoute(post bool, fn func(w http.ResponseWriter, r *http.Request, email string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		w.Header().Set("Cache-Control", "no-store")
		// Checked before anything else, so a stranger cannot tell /admin from
		// any unknown address, whatever the method or the form.
		email, ok := h.adminEmail(r)
		if !ok {
			if _, signedIn := h.accountID(r); signedIn && !post && h.adminHint != "" {
				h.fail(w, r, domain.ENotFound, h.adminHint)
				return
			}
			h.notFound(w, r)
			return
		}
		if post && !h.formPost(w, r) {
			return
		}
		fn(w, r, email)
	})
}

// adminEmail asks WithAdmin's function about r; without one nobody is admin.
func (h *handler) adminEmail(r *http.Request) (string, bool) {
	if h.admin == nil {
		return "", false
	}
	return h.admin(r)
}

// adminData loads what the admin page shows.
func (h *handler) adminData(r *http.Request, email string) (*adminPage, error) {
	ctx := r.Context()
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
	p := &adminPage{Email: email, Products: products, Work: work, Orders: orders, OrderCount: count, OpenEdits: open}
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
	h.showAdmin(w, r, email, http.StatusOK, "", "", "")
}

// adminSetPrice is POST /admin/prices: code and cents.
func (h *handler) adminSetPrice(w http.ResponseWriter, r *http.Request, email string) {
	code, raw := strings.TrimSpace(r.PostForm.Get("code")), strings.TrimSpace(r.PostForm.Get("cents"))
	cents, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		h.showAdmin(w, r, email, http.StatusBadRequest,
			"Enter the price as a whole number of cents, for example 4900 for 49.00; "+strconv.Quote(raw)+" is not one.", code, raw)
		return
	}
	if err := h.svc.SetProductPrice(r.Context(), code, cents); err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.EInvalid {
			h.showAdmin(w, r, email, http.StatusBadRequest, de.Message, code, raw)
			return
		}
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin set a price", "admin", email, "product", code, "cents", cents)
	http.Redirect(w, r, "/admin", http.StatusSeeOther)
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
	http.Redirect(w, r, "/admin", http.StatusSeeOther)
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
	http.Redirect(w, r, "/admin#edits", http.StatusSeeOther)
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
	http.Redirect(w, r, "/admin#edits", http.StatusSeeOther)
}
