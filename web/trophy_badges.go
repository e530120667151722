package web

import (
	"net/http"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// trophyBadge serves GET /badges/{slug}/trophies/{key}.svg?shape=&mode=&size=
// (docs/trophies.md "Trophy badges"): the badge of one verified trophy or
// award of a public listing, drawn by the listing badges' renderer. Any
// other trophy (pending, rejected, unconfirmed, another listing's, none)
// is 404; a bad option is 400 naming it.
func (h *handler) trophyBadge(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.badgeSlug(w, r)
	if !ok {
		return
	}
	key, isSVG := strings.CutSuffix(r.PathValue("file"), ".svg")
	if !isSVG || key == "" {
		h.badgeNotFound(w, r, "")
		return
	}
	spec := badgeSpec{Kind: domain.TrophyBadgeKind}
	if !h.badgeStyle(w, r, &spec) {
		return
	}
	f, err := h.svc.GetTrophyBadge(r.Context(), slug, key)
	if err != nil {
		h.badgeFail(w, r, err)
		return
	}
	spec.Label, spec.Site, spec.Product, spec.Rank, spec.By = f.Title, f.Platform, f.Product, f.Rank, f.Site
	h.serveBadge(w, r, renderBadge(spec))
}
