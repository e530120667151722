package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

// Listings on the console (/admin/listings, docs/console.md "Listings"):
// moderators and admins find any listing and hide or unhide it; admins also
// unpublish, merge, transfer and edit.

// adminListingsPer is how many listings one page of the search shows.
const adminListingsPer = 50

// adminListingsPage is the data of admin_listings.html.
type adminListingsPage struct {
	Email, Role   string
	Q, Status     string
	Statuses      []string
	Searched      bool
	Items         []console.AdminListing
	Total, Page   int
	Prev, Next    string
	Problem       string
	ProblemField  string
	ReasonMax     int
	ShowingFromTo [2]int
}

// adminListingPage is the data of admin_listing.html.
type adminListingPage struct {
	Email, Role string
	L           *console.AdminListingDetail
	// Fields are the editable fields with their current (or refused) text.
	Fields []editField
	// Problem is why the last change was refused, Form the form it came
	// from (hide, unpublish, merge, transfer, edit) and Field the field.
	Problem, Form, Field string
	// Reason, Into and To keep a refused form's values.
	Reason, Into, To string
	ReasonMax        int
	// EditField is set when the edit form's problem names one of its fields.
	EditField bool
	PageURL   string
}

// editField is one editable field of the edit form.
type editField struct {
	Name, Label, Value string
	Multi              bool // a list: one item a line
	Long               bool // a textarea
	Max                int
	Problem            string // why the value was refused
}

// parseListingsAdminPages parses the templates of routeListingsAdmin's pages (pageSet).
func parseListingsAdminPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"admin_listings", "admin_listing"} {
		pages[name] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeListingsAdmin registers the listings console.
func (h *handler) routeListingsAdmin(mux *http.ServeMux) {
	mux.Handle("GET /admin/listings", h.adminRoute(console.RoleModerator, false, h.listingsAdminHome))
	mux.Handle("GET /admin/listings/{id}", h.adminRoute(console.RoleModerator, false, h.listingAdminHome))
	mux.Handle("POST /admin/listings/{id}/hide", h.adminRoute(console.RoleModerator, true, h.listingAdminHide))
	mux.Handle("POST /admin/listings/{id}/unhide", h.adminRoute(console.RoleModerator, true, h.listingAdminUnhide))
	mux.Handle("POST /admin/listings/{id}/unpublish", h.adminRoute(console.RoleAdmin, true, h.listingAdminUnpublish))
	mux.Handle("POST /admin/listings/{id}/merge", h.adminRoute(console.RoleAdmin, true, h.listingAdminMerge))
	mux.Handle("POST /admin/listings/{id}/transfer", h.adminRoute(console.RoleAdmin, true, h.listingAdminTransfer))
	mux.Handle("POST /admin/listings/{id}/edit", h.adminRoute(console.RoleAdmin, true, h.listingAdminEdit))
}

// listingsAdminHome is GET /admin/listings?q=&status=&page=.
func (h *handler) listingsAdminHome(w http.ResponseWriter, r *http.Request, email string) {
	q := r.URL.Query()
	p := &adminListingsPage{Email: email, Role: roleOf(r), Q: strings.TrimSpace(q.Get("q")), Status: q.Get("status"),
		Statuses: console.AdminListingStatuses, Page: 1}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 1 {
		p.Page = n
	}
	p.Searched = p.Q != "" || p.Status != "" || q.Has("q")
	if p.Searched {
		items, total, err := h.console.SearchAdminListings(r.Context(), console.AdminListingFilter{Q: p.Q, Status: p.Status, Page: p.Page, Limit: adminListingsPer})
		var de *domain.Error
		switch {
		case errors.As(err, &de) && de.Code == domain.EInvalid:
			p.Problem = de.Message
			if len(de.Fields) > 0 {
				p.ProblemField = de.Fields[0].Field
			}
			h.render(w, r, pageStatus(domain.EInvalid), "admin_listings", "Listings", "", p)
			return
		case err != nil:
			h.serviceError(w, r, err)
			return
		}
		p.Items, p.Total = items, total
		link := func(page int) string {
			v := url.Values{"q": {p.Q}, "page": {strconv.Itoa(page)}}
			if p.Status != "" {
				v.Set("status", p.Status)
			}
			return "/admin/listings?" + v.Encode()
		}
		if p.Page > 1 {
			p.Prev = link(p.Page - 1)
		}
		if p.Page*adminListingsPer < total {
			p.Next = link(p.Page + 1)
		}
		if len(items) > 0 {
			p.ShowingFromTo = [2]int{(p.Page-1)*adminListingsPer + 1, (p.Page-1)*adminListingsPer + len(items)}
		}
	}
	h.render(w, r, statusOK, "admin_listings", "Listings", "", p)
}

// adminListingID is the {id} of the request, false (after a 404 page) when
// it is not a listing id.
func (h *handler) adminListingID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		h.notFound(w, r)
		return 0, false
	}
	return id, true
}

// fieldLabels names the editable fields on the edit form.
var fieldLabels = map[string]string{"tagline": "Tagline", "short_description": "Short description", "description": "Description",
	"pricing_model": "Pricing model", "pricing_summary": "Pricing summary", "country": "Country (two letters)", "city": "City",
	"founded_year": "Founded (year)", "demo_video_url": "Demo video link", "contact_email": "Contact email",
	"features": "Features (one a line)", "usps": "Unique selling points (one a line)", "keywords": "Keywords (one a line)",
	"headline": "Headline", "summary": "Summary", "seo_title": "Search engine title", "seo_description": "Search engine description"}

// fieldMax is each editable field's longest value (update_my_listing's schema).
var fieldMax = map[string]int{"tagline": 200, "short_description": 300, "description": 20000, "pricing_model": 40, "pricing_summary": 300,
	"country": 2, "city": 120, "demo_video_url": 500, "contact_email": 254, "headline": 200, "summary": 20000, "seo_title": 200, "seo_description": 320}

// fieldText is a field's canonical JSON value as the edit form shows it.
func fieldText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []any:
		lines := make([]string, 0, len(v))
		for _, it := range v {
			if s, ok := it.(string); ok {
				lines = append(lines, s)
			}
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

func (h *handler) showListingAdmin(w http.ResponseWriter, r *http.Request, email string, id int64, status int, p *adminListingPage) {
	l, err := h.console.AdminListing(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	if p == nil {
		p = &adminListingPage{}
	}
	p.Email, p.Role, p.L, p.ReasonMax = email, roleOf(r), l, console.ListingReasonMax
	if l.Public() {
		p.PageURL = "/listings/" + l.Slug
	}
	sent := map[string]string{}
	for _, f := range p.Fields {
		sent[f.Name] = f.Value
	}
	p.Fields = nil
	for _, name := range domain.EditableFieldNames {
		f := editField{Name: name, Label: fieldLabels[name], Value: fieldText(l.Values[name]), Max: fieldMax[name],
			Multi: domain.DraftListFields[name], Long: name == "description" || name == "summary"}
		if v, ok := sent[name]; ok {
			f.Value = v
		}
		if p.Form == "edit" && (p.Field == "fields."+name || strings.HasPrefix(p.Field, "fields."+name+"[")) {
			f.Problem, p.EditField = p.Problem, true
		}
		p.Fields = append(p.Fields, f)
	}
	h.render(w, r, status, "admin_listing", l.Name, "", p)
}

// listingAdminHome is GET /admin/listings/{id}.
func (h *handler) listingAdminHome(w http.ResponseWriter, r *http.Request, email string) {
	if id, ok := h.adminListingID(w, r); ok {
		h.showListingAdmin(w, r, email, id, statusOK, nil)
	}
}

// listingRefused shows the listing's page with why a change was refused.
func (h *handler) listingRefused(w http.ResponseWriter, r *http.Request, email string, id int64, err error, p *adminListingPage) {
	var de *domain.Error
	if !errors.As(err, &de) || de.Code == domain.EInternal || de.Code == domain.ENotFound && len(de.Fields) == 0 {
		h.serviceError(w, r, err)
		return
	}
	p.Problem = de.Message
	if len(de.Fields) > 0 {
		p.Field = de.Fields[0].Field
	}
	h.showListingAdmin(w, r, email, id, problem.Status(de.Code), p)
}

// listingDone logs a change and goes back to the listing's page.
func (h *handler) listingDone(w http.ResponseWriter, r *http.Request, email, what string, id int64) {
	h.log.Info("web: site team changed a listing", "member", email, "action", what, "listing", id)
	http.Redirect(w, r, "/admin/listings/"+strconv.FormatInt(id, 10), statusSeeOther)
}

// listingAdminHide is POST /admin/listings/{id}/hide (reason).
func (h *handler) listingAdminHide(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	reason := r.PostForm.Get("reason")
	if err := h.console.HideListing(r.Context(), email, id, reason); err != nil {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "hide", Reason: reason})
		return
	}
	h.listingDone(w, r, email, "hide", id)
}

// listingAdminUnhide is POST /admin/listings/{id}/unhide.
func (h *handler) listingAdminUnhide(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	if err := h.console.UnhideListing(r.Context(), email, id); err != nil {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "hide"})
		return
	}
	h.listingDone(w, r, email, "unhide", id)
}

// listingAdminUnpublish is POST /admin/listings/{id}/unpublish (reason).
func (h *handler) listingAdminUnpublish(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	reason := r.PostForm.Get("reason")
	if err := h.console.UnpublishListing(r.Context(), email, id, reason); err != nil {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "unpublish", Reason: reason})
		return
	}
	h.listingDone(w, r, email, "unpublish", id)
}

// listingAdminMerge is POST /admin/listings/{id}/merge (into: the id of
// the listing that stays). The page answered is the survivor's.
func (h *handler) listingAdminMerge(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	raw := strings.TrimSpace(r.PostForm.Get("into"))
	into, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || into < 1 {
		h.listingRefused(w, r, email, id, domain.Invalid("into", "type", "Choose the listing to keep by its id (a whole number); %q is not one.", raw),
			&adminListingPage{Form: "merge", Into: raw})
		return
	}
	if _, err := h.console.MergeListings(r.Context(), email, id, into); err != nil {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "merge", Into: raw})
		return
	}
	h.listingDone(w, r, email, "merge", into)
}

// listingAdminTransfer is POST /admin/listings/{id}/transfer (email).
func (h *handler) listingAdminTransfer(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	to := r.PostForm.Get("email")
	if err := h.console.TransferListing(r.Context(), email, id, to); err != nil {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "transfer", To: to})
		return
	}
	h.listingDone(w, r, email, "transfer", id)
}

// listingAdminEdit is POST /admin/listings/{id}/edit: one form field per
// editable field; those whose text differs from the listing's are sent to
// update_my_listing's checks (its schema, then the domain's rules) and
// stored as one version by the site team.
func (h *handler) listingAdminEdit(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.adminListingID(w, r)
	if !ok {
		return
	}
	l, err := h.console.AdminListing(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	var sentFields []editField
	patch := map[string]any{}
	for _, name := range domain.EditableFieldNames {
		text, posted := r.PostForm[name]
		if !posted {
			continue
		}
		v := strings.ReplaceAll(text[0], "\r\n", "\n")
		sentFields = append(sentFields, editField{Name: name, Value: v})
		if v == fieldText(l.Values[name]) {
			continue
		}
		switch {
		case domain.DraftListFields[name]:
			items := []string{}
			for _, line := range strings.Split(v, "\n") {
				if line = strings.TrimSpace(line); line != "" {
					items = append(items, line)
				}
			}
			patch[name] = items
		case name == "founded_year":
			if strings.TrimSpace(v) == "" {
				patch[name] = nil
				break
			}
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				h.listingRefused(w, r, email, id, domain.Invalid("fields.founded_year", "type", "fields.founded_year must be a whole number (a year), or empty to clear it."),
					&adminListingPage{Form: "edit", Fields: sentFields})
				return
			}
			patch[name] = n
		default:
			patch[name] = v
		}
	}
	refused := func(err error) {
		h.listingRefused(w, r, email, id, err, &adminListingPage{Form: "edit", Fields: sentFields})
	}
	if len(patch) == 0 {
		h.listingDone(w, r, email, "edit (nothing changed)", id)
		return
	}
	body, err := json.Marshal(map[string]any{"listing_id": id, "fields": patch})
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	var in domain.UpdateMyListingInput
	if err := json.Unmarshal(body, &in); err != nil {
		refused(domain.Invalid("fields", "type", "%s", err.Error()))
		return
	}
	// The same checks as update_my_listing: its input schema (on the JSON
	// as sent, like an API call), then the domain's rules.
	v, err := validate.For(in)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		h.serviceError(w, r, err)
		return
	}
	if fe := v.Validate(doc); len(fe) > 0 {
		refused(domain.InvalidFields(fe))
		return
	}
	if _, err := h.console.AdminEditListing(r.Context(), email, in); err != nil {
		refused(err)
		return
	}
	h.listingDone(w, r, email, "edit", id)
}
