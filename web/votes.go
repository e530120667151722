package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// Votes: a signed-in person upvotes a listing from its page, the week page
// and the home list, and takes the vote back (docs/votes.md). The forms are
// same-origin posts (formPost) that answer 303 to the page they came from.

// The default vote budgets (WithVoteLimits): per account and per network.
var (
	VotesPerAccount = ratelimit.Policy{Name: "votes", Quota: 60, Window: time.Hour}
	VotesPerNetwork = ratelimit.Policy{Name: "votes-network", Quota: 200, Window: time.Hour}
)

// WithVoteLimits sets the budgets of vote and unvote posts per account and
// per network (nil: no limit); the defaults are VotesPerAccount and
// VotesPerNetwork on the service's clock.
func WithVoteLimits(perAccount, perNetwork *ratelimit.Limiter) Option {
	return func(h *handler) { h.voteAccount, h.voteNetwork = perAccount, perNetwork }
}

func (h *handler) routeVotes(mux *http.ServeMux) {
	mux.HandleFunc("POST /listings/{slug}/vote", h.vote(true))
	mux.HandleFunc("POST /listings/{slug}/unvote", h.vote(false))
}

// localPath returns next when it is a path on this site (no scheme, no host,
// no "//" or backslash that a browser could read as another host), else def.
func localPath(next, def string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n\t") {
		return def
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return def
	}
	return next
}

// vote is POST /listings/{slug}/vote and /unvote.
func (h *handler) vote(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug, ok := h.slug(w, r, "slug")
		if !ok || !h.formPost(w, r) {
			return
		}
		back := localPath(r.PostForm.Get("next"), "/listings/"+url.PathEscape(slug))
		id, ok := h.accountID(r)
		if !ok {
			signIn(w, r, back)
			return
		}
		if !h.withinBudgets(w, r, domain.VoterKey(id), h.voteAccount, h.voteNetwork) {
			return
		}
		var err error
		if on {
			_, err = h.svc.Vote(r.Context(), id, slug, ratelimit.Network(r), r.UserAgent())
		} else {
			err = h.svc.Unvote(r.Context(), id, slug)
		}
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		http.Redirect(w, r, back, statusSeeOther)
	}
}

// voteState is what the vote buttons of a page need: who is signed in,
// the listings they voted for (slug: "" counted, else why it is held)
// and the page to come back to.
type voteState struct {
	SignedIn bool
	Voted    map[string]string
	Next     string
}

// voteButton is the data of the "vote" template for one listing.
type voteButton struct {
	SignedIn bool
	Voted    bool
	Held     string
	Slug     string
	Next     string
}

// button returns the vote button of listing slug.
func (v voteState) button(slug string) voteButton {
	held, voted := v.Voted[slug]
	return voteButton{SignedIn: v.SignedIn, Voted: voted, Held: held, Slug: slug, Next: v.Next}
}

// voteStateOf reads the vote buttons' state for r's account; a
// personalised page is kept out of shared caches.
func (h *handler) voteStateOf(w http.ResponseWriter, r *http.Request) (voteState, error) {
	v := voteState{Next: r.URL.RequestURI()} // a search or a page of a list comes back as it was
	id, ok := h.accountID(r)
	if !ok {
		return v, nil
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	voted, err := h.svc.VotedSlugs(r.Context(), id)
	v.SignedIn, v.Voted = true, voted
	return v, err
}
