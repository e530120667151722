package web

import (
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/internal/problem"
)

// Badge errors (docs/trophies.md "Trophy badges"). A badge address is read
// by an <img> tag or a program, never as a page, so its errors are the one
// JSON problem shape of the API (application/problem+json), not the site's
// HTML error page: a bad shape, mode or size is a 400 naming the parameter
// and its options (rule enum); a listing, kind or trophy that has no badge
// is a 404 problem.

// badgeFail writes err as a problem.
func (h *handler) badgeFail(w http.ResponseWriter, r *http.Request, err error) {
	problem.Write(w, problem.For(r.Context(), h.log, "web "+r.Method+" "+r.URL.Path, err))
}

// badgeNotFound is the 404 problem of a badge that does not exist.
func (h *handler) badgeNotFound(w http.ResponseWriter, r *http.Request, msg string) {
	if msg == "" {
		msg = "There is no badge at this address."
	}
	h.badgeFail(w, r, &domain.Error{Code: domain.ENotFound, Message: msg})
}

// badgeSlug is h.slug for badges: a malformed slug is a 404 problem.
func (h *handler) badgeSlug(w http.ResponseWriter, r *http.Request) (string, bool) {
	s := r.PathValue("slug")
	if validate.Input(domain.SlugInput{Slug: s}) != nil {
		h.badgeNotFound(w, r, "")
		return "", false
	}
	return s, true
}
