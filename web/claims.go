package web

import (
	"html/template"
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web/shell"
)

// The page an email claim's link opens: /claims/confirm/<secret>. The
// address is a capability (whoever holds the mailed link may confirm), so it
// gets the headers of the checkout page: no Referer, not indexed, not
// stored. Opening it changes nothing, as mail scanners open links; the
// Confirm button posts the form, which verifies the claim.

// claimPage is the data of claim.html.
type claimPage struct {
	// Action is the form's address (the page's own path).
	Action string
	Link   *domain.ClaimLink
	// Done: the claim was confirmed by this request.
	Done bool
}

// parseClaimPages parses the templates of routeClaims's pages (pageSet).
func parseClaimPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	pages["claim"] = template.Must(t.ParseFS(templateFS, "templates/claim.html"))
}

// routeClaims registers the claim link page.
func (h *handler) routeClaims(mux *http.ServeMux) {
	mux.Handle("GET "+domain.ClaimConfirmPath+"{token}", h.claimRoute(false, h.claimLink))
	mux.Handle("POST "+domain.ClaimConfirmPath+"{token}", h.claimRoute(true, h.claimConfirm))
}

// claimRoute wraps a claim link handler: the headers of a capability URL on
// every answer, the secret's shape checked, and for the form post the
// cross-origin check and a body limit.
func (h *handler) claimRoute(post bool, fn func(w http.ResponseWriter, r *http.Request, token string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Robots-Tag", "noindex, nofollow")
		hd.Set("Cache-Control", "no-store")
		token := r.PathValue("token")
		if !tokenRE.MatchString(token) {
			h.claimNotFound(w, r)
			return
		}
		if post && !h.formPost(w, r) {
			return
		}
		fn(w, r, token)
	})
}

func (h *handler) claimNotFound(w http.ResponseWriter, r *http.Request) {
	h.failWith(w, r, domain.ENotFound, "Claim link not found",
		"This link confirms no claim. Check that the whole link was copied; if a newer link was mailed since, only the newest one works.")
}

// claimError answers a failed service call with the status of its code
// (internal/problem): an unknown link 404, a claim that can no longer be
// confirmed (verified, expired, replaced: gone) 410 with the reason, anything
// else as problem.For sees it, logged without the secret.
func (h *handler) claimError(w http.ResponseWriter, r *http.Request, err error) {
	head := ""
	switch domain.ErrorCode(err) {
	case domain.ENotFound:
		h.claimNotFound(w, r)
		return
	case domain.EGone:
		head = "This claim link no longer works"
	}
	h.problemPage(w, r, domain.ClaimConfirmPath+"{token}", head, err)
}

// claimLink is GET /claims/confirm/{token}: who claims which listing, and
// the Confirm button while the claim is pending.
func (h *handler) claimLink(w http.ResponseWriter, r *http.Request, token string) {
	l, err := h.svc.ClaimLinkPage(r.Context(), token)
	if err != nil {
		h.claimError(w, r, err)
		return
	}
	if !l.Open {
		h.failWith(w, r, domain.EGone, "This claim link no longer works", l.Closed)
		return
	}
	h.render(w, r, statusOK, "claim", "Confirm the claim of "+l.ListingName, "", claimPage{Action: r.URL.Path, Link: l})
}

// claimConfirm is POST /claims/confirm/{token}: the person pressed Confirm.
func (h *handler) claimConfirm(w http.ResponseWriter, r *http.Request, token string) {
	l, err := h.svc.ConfirmClaimLink(r.Context(), token)
	if err != nil {
		h.claimError(w, r, err)
		return
	}
	h.render(w, r, statusOK, "claim", "Claim confirmed", "", claimPage{Link: l, Done: true})
}
