package web

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web/shell"
)

// Domain Rating imports (/admin/ratings) and verified revenue figures
// (/admin/revenue): admins only (docs/console.md "Domain Rating and
// revenue"). An upload is validated whole and kept as a pending import; its
// page lists the accepted and refused rows, and nothing is stored until the
// admin confirms it there. The owner of a listing states its revenue on
// /account/listings/{id}/revenue.

// maxRatingsUpload bounds the body of an upload: the file's limit and room
// for the multipart framing and the other fields. A larger body is refused
// before it is read whole; a file over console.MaxRatingsFileBytes inside it
// is refused by the parser with the same message.
const maxRatingsUpload = console.MaxRatingsFileBytes + 64<<10

// ratingImportsShown is how many imports /admin/ratings lists.
const ratingImportsShown = 50

// revenueShown is how many figures /admin/revenue lists.
const revenueShown = 50

// ratingsPage is the data of admin_ratings.html.
type ratingsPage struct {
	Email   string
	Imports []console.RatingImport
	// Source is the form's provider; Problem and Field why an upload was refused.
	Source, Problem, Field string
	MaxBytes, MaxRows      int
}

// ratingImportPage is the data of admin_ratings_import.html.
type ratingImportPage struct {
	Email    string
	Import   *console.RatingImport
	Accepted []console.RatingRow
	Refused  []console.RatingRow
	Problem  string
	Done     bool
}

// revenuePage is the data of admin_revenue.html (and of the owner's page).
type revenuePage struct {
	Email   string
	Figures []console.RevenueFigure
	// The form's values and the problems by field.
	Listing, Month, Amount string
	Problems               map[string]string
	Saved                  bool
	// Owner's page only: the listing.
	ListingID   int64
	ListingName string
}

// parseRatingsPages parses the templates of routeRatings's pages (pageSet).
func parseRatingsPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	pages["admin_ratings"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/admin_ratings.html"))
	pages["admin_ratings_import"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/admin_ratings_import.html"))
	pages["admin_revenue"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/admin_revenue.html"))
	pages["account_revenue"] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/account_revenue.html"))
}

// routeRatings registers the pages of this file.
func (h *handler) routeRatings(mux *http.ServeMux) {
	mux.Handle("GET /admin/ratings", h.adminRoute(console.RoleAdmin, false, h.ratingsHome))
	mux.Handle("POST /admin/ratings", h.uploadRoute(maxRatingsUpload, h.ratingsUpload))
	mux.Handle("GET /admin/ratings/imports/{id}", h.adminRoute(console.RoleAdmin, false, h.ratingImportPage))
	mux.Handle("POST /admin/ratings/imports/{id}/confirm", h.adminRoute(console.RoleAdmin, true, h.ratingImportDecide(true)))
	mux.Handle("POST /admin/ratings/imports/{id}/discard", h.adminRoute(console.RoleAdmin, true, h.ratingImportDecide(false)))
	mux.Handle("GET /admin/revenue", h.adminRoute(console.RoleAdmin, false, h.revenueHome))
	mux.Handle("POST /admin/revenue", h.adminRoute(console.RoleAdmin, true, h.revenueSave))
	mux.HandleFunc("GET /account/listings/{id}/revenue", h.ownerRevenue)
	mux.HandleFunc("POST /account/listings/{id}/revenue", h.ownerRevenue)
}

// uploadRoute is an admin form post of a multipart upload of up to limit
// bytes: adminRoute's checks, then the body limit raised from the form's
// (formPost has not read a multipart body) to limit.
func (h *handler) uploadRoute(limit int64, fn func(w http.ResponseWriter, r *http.Request, email string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.Body
		h.adminRoute(console.RoleAdmin, true, func(w http.ResponseWriter, r *http.Request, email string) {
			r.Body = http.MaxBytesReader(w, body, limit)
			fn(w, r, email)
		}).ServeHTTP(w, r)
	})
}

func (h *handler) showRatings(w http.ResponseWriter, r *http.Request, status int, p *ratingsPage) {
	imports, err := h.console.RatingImports(r.Context(), ratingImportsShown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Imports, p.MaxBytes, p.MaxRows = imports, console.MaxRatingsFileBytes, console.MaxRatingsRows
	h.render(w, r, status, "admin_ratings", "Domain Rating imports", "", p)
}

// ratingsHome is GET /admin/ratings.
func (h *handler) ratingsHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showRatings(w, r, statusOK, &ratingsPage{Email: email})
}

// ratingsUpload is POST /admin/ratings (multipart: file, source): a refused
// file shows the form again with the problem next to its field; an
// accepted one becomes a pending import, shown for confirmation.
func (h *handler) ratingsUpload(w http.ResponseWriter, r *http.Request, email string) {
	p := &ratingsPage{Email: email}
	refuse := func(status int, field, msg string) {
		p.Problem, p.Field = msg, field
		h.showRatings(w, r, status, p)
	}
	if err := r.ParseMultipartForm(maxRatingsUpload); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			refuse(pageStatus(domain.ETooLarge), "file", "The file is larger than 1 MiB; split it.")
			return
		}
		refuse(pageStatus(domain.EInvalid), "file", "Choose a CSV file to upload (the form was not a file upload).")
		return
	}
	defer func() { _ = r.MultipartForm.RemoveAll() }() // temporary files; nothing to do if removing fails
	p.Source = r.PostFormValue("source")
	f, fh, err := r.FormFile("file")
	if err != nil {
		refuse(pageStatus(domain.EInvalid), "file", "Choose a CSV file to upload.")
		return
	}
	defer f.Close()
	imp, err := h.console.PreviewRatingImport(r.Context(), email, fh.Filename, p.Source, io.Reader(f))
	var de *domain.Error
	if err != nil && errors.As(err, &de) && de.Code != domain.EInternal {
		field := "file"
		if len(de.Fields) > 0 {
			field = de.Fields[0].Field
		}
		refuse(problem.Status(de.Code), field, de.Message)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin uploaded a Domain Rating file", "admin", email, "import", imp.ID, "accepted", imp.Accepted, "refused", imp.Refused)
	http.Redirect(w, r, fmt.Sprintf("/admin/ratings/imports/%d", imp.ID), statusSeeOther)
}

// importID is the {id} of the path; 0 when it is no id.
func importID(r *http.Request) int64 {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0
	}
	return id
}

func (h *handler) showRatingImport(w http.ResponseWriter, r *http.Request, email string, status int, id int64, p *ratingImportPage) {
	if id == 0 {
		h.notFound(w, r)
		return
	}
	imp, err := h.console.RatingImport(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Email, p.Import = email, imp
	for _, row := range imp.Rows {
		if row.Refused() {
			p.Refused = append(p.Refused, row)
		} else {
			p.Accepted = append(p.Accepted, row)
		}
	}
	h.render(w, r, status, "admin_ratings_import", fmt.Sprintf("Domain Rating import #%d", id), "", p)
}

// ratingImportPage is GET /admin/ratings/imports/{id}.
func (h *handler) ratingImportPage(w http.ResponseWriter, r *http.Request, email string) {
	h.showRatingImport(w, r, email, statusOK, importID(r), &ratingImportPage{Done: r.URL.Query().Get("done") == "1"})
}

// ratingImportDecide is POST /admin/ratings/imports/{id}/confirm or /discard.
func (h *handler) ratingImportDecide(confirm bool) func(w http.ResponseWriter, r *http.Request, email string) {
	return func(w http.ResponseWriter, r *http.Request, email string) {
		id := importID(r)
		if id == 0 {
			h.notFound(w, r)
			return
		}
		var err error
		if confirm {
			_, err = h.console.ConfirmRatingImport(r.Context(), email, id)
		} else {
			_, err = h.console.DiscardRatingImport(r.Context(), email, id)
		}
		var de *domain.Error
		if err != nil && errors.As(err, &de) && (de.Code == domain.EInvalid || de.Code == domain.EConflict) {
			h.showRatingImport(w, r, email, problem.Status(de.Code), id, &ratingImportPage{Problem: de.Message})
			return
		}
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		h.log.Info("web: admin decided a Domain Rating import", "admin", email, "import", id, "confirm", confirm)
		http.Redirect(w, r, fmt.Sprintf("/admin/ratings/imports/%d?done=1", id), statusSeeOther)
	}
}

func (h *handler) showRevenue(w http.ResponseWriter, r *http.Request, status int, p *revenuePage) {
	figs, err := h.console.RevenueFigures(r.Context(), 0, revenueShown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.Figures = figs
	h.render(w, r, status, "admin_revenue", "Revenue figures", "", p)
}

// revenueHome is GET /admin/revenue.
func (h *handler) revenueHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showRevenue(w, r, statusOK, &revenuePage{Email: email, Saved: r.URL.Query().Get("saved") == "1"})
}

// revenueSave is POST /admin/revenue (listing, month, amount): a verified figure.
func (h *handler) revenueSave(w http.ResponseWriter, r *http.Request, email string) {
	p := &revenuePage{Email: email, Listing: strings.TrimSpace(r.PostForm.Get("listing")), Month: r.PostForm.Get("month"), Amount: r.PostForm.Get("amount")}
	_, err := h.console.SetVerifiedRevenue(r.Context(), email, p.Listing, p.Month, p.Amount)
	if p.Problems = invalidFields(err); p.Problems != nil {
		h.showRevenue(w, r, pageStatus(domain.EInvalid), p)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin set a verified revenue figure", "admin", email, "listing", p.Listing, "month", p.Month)
	http.Redirect(w, r, "/admin/revenue?saved=1", statusSeeOther)
}

// ownerRevenue is GET and POST /account/listings/{id}/revenue: the owner
// of a listing states its monthly revenue (month, amount). Signed-out
// visitors are sent to sign in; a listing that is not theirs is a 404.
func (h *handler) ownerRevenue(w http.ResponseWriter, r *http.Request) {
	uid, ok := h.accountID(r)
	if !ok {
		if r.Method == http.MethodPost {
			h.fail(w, r, domain.EUnauthenticated, "Sign in to state your listing's revenue.")
			return
		}
		signIn(w, r, r.URL.Path)
		return
	}
	id := importID(r)
	if id == 0 {
		h.notFound(w, r)
		return
	}
	p := &revenuePage{ListingID: id, Saved: r.URL.Query().Get("saved") == "1"}
	status := statusOK
	if r.Method == http.MethodPost {
		if !h.formPost(w, r) {
			return
		}
		p.Month, p.Amount = r.PostForm.Get("month"), r.PostForm.Get("amount")
		_, err := h.console.StateOwnerRevenue(r.Context(), uid, id, p.Month, p.Amount)
		if p.Problems = invalidFields(err); p.Problems == nil {
			if err != nil {
				h.serviceError(w, r, err)
				return
			}
			http.Redirect(w, r, fmt.Sprintf("/account/listings/%d/revenue?saved=1", id), statusSeeOther)
			return
		}
		status = pageStatus(domain.EInvalid)
	}
	own, err := h.console.OwnListingName(r.Context(), uid, id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p.ListingName = own
	if p.Figures, err = h.console.RevenueFigures(r.Context(), id, revenueShown); err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.render(w, r, status, "account_revenue", "Revenue of "+own, "", p)
}
