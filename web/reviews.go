package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// Reviews: a signed-in person who does not own the listing writes, edits
// and deletes their review on the listing's page; an owner answers each
// review once (docs/reviews.md). The forms are same-origin posts (formPost)
// that answer 303 to the page they came from; bad input re-renders the
// listing page with 400, the message and the person's text.

// The default review budgets (WithReviewLimits): posts of the review,
// delete and answer forms per account and per network.
var (
	ReviewsPerAccount = ratelimit.Policy{Name: "reviews", Quota: 20, Window: time.Hour}
	ReviewsPerNetwork = ratelimit.Policy{Name: "reviews-network", Quota: 60, Window: time.Hour}
)

// WithReviewLimits sets the budgets of review posts per account and per
// network (nil: no limit); the defaults are ReviewsPerAccount and
// ReviewsPerNetwork on the service's clock.
func WithReviewLimits(perAccount, perNetwork *ratelimit.Limiter) Option {
	return func(h *handler) { h.reviewAccount, h.reviewNetwork = perAccount, perNetwork }
}

func (h *handler) routeReviews(mux *http.ServeMux) {
	mux.HandleFunc("POST /listings/{slug}/review", h.reviewPost(h.saveReview))
	mux.HandleFunc("POST /listings/{slug}/review/delete", h.reviewPost(h.deleteReview))
	mux.HandleFunc("POST /listings/{slug}/reviews/{id}/answer", h.reviewPost(h.answerReview))
}

// reviewForm is the listing page's reviews section for the person viewing
// it: their relation to the listing, and what they sent when it was refused.
type reviewForm struct {
	SignedIn bool
	Owner    bool
	Own      *domain.OwnReview
	// Stars and Body fill the form: the person's review, or what they sent.
	Stars int
	Body  string
	// Problem is why what they sent was refused (a 400), with each field.
	Problem string
	Fields  []domain.FieldError
	// AnswerTo is the review whose answer was refused, with the text sent.
	AnswerTo int64
	Answer   string
	// Next is the page the forms come back to.
	Next string
}

// CanWrite says whether the form to write or edit a review is shown.
func (f reviewForm) CanWrite() bool {
	return f.SignedIn && !f.Owner && (f.Own == nil || f.Own.Status == domain.ReviewCounted || f.Own.Status == domain.ReviewHeld)
}

// Invalid says whether field was refused.
func (f reviewForm) Invalid(field string) bool {
	for _, e := range f.Fields {
		if e.Field == field {
			return true
		}
	}
	return false
}

// reviewFormOf reads the reviews section's state for r's account.
func (h *handler) reviewFormOf(w http.ResponseWriter, r *http.Request, slug string) (reviewForm, error) {
	f := reviewForm{Next: "/listings/" + url.PathEscape(slug) + "#reviews"}
	id, ok := h.accountID(r)
	if !ok {
		return f, nil
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	rv, err := h.svc.ReviewerOf(r.Context(), id, slug)
	if err != nil {
		return f, err
	}
	f.SignedIn, f.Owner, f.Own = true, rv.Owner, rv.Own
	if rv.Own != nil {
		f.Stars, f.Body = rv.Own.Stars, rv.Own.Body
	}
	return f, nil
}

// reviewPost runs a review form: same-origin, signed in, within the review
// budgets; then do, whose error is shown (a refused input re-renders the
// listing page with 400), or 303 to the form's next page.
func (h *handler) reviewPost(do func(r *http.Request, userID int64, slug string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug, ok := h.slug(w, r, "slug")
		if !ok || !h.formPost(w, r) {
			return
		}
		page := "/listings/" + url.PathEscape(slug)
		back := localPath(r.PostForm.Get("next"), page+"#reviews")
		id, ok := h.accountID(r)
		if !ok {
			signIn(w, r, page)
			return
		}
		if !h.withinBudgets(w, r, domain.VoterKey(id), h.reviewAccount, h.reviewNetwork) {
			return
		}
		err := do(r, id, slug)
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.EInvalid {
			h.reviewRefused(w, r, slug, de)
			return
		}
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		http.Redirect(w, r, back, statusSeeOther)
	}
}

// saveReview is POST /listings/{slug}/review: stars and body.
func (h *handler) saveReview(r *http.Request, userID int64, slug string) error {
	stars, _ := strconv.Atoi(r.PostForm.Get("stars"))
	_, err := h.svc.WriteReview(r.Context(), userID, slug, stars, r.PostForm.Get("body"), ratelimit.Network(r), r.UserAgent())
	return err
}

// deleteReview is POST /listings/{slug}/review/delete.
func (h *handler) deleteReview(r *http.Request, userID int64, slug string) error {
	return h.svc.DeleteReview(r.Context(), userID, slug)
}

// answerReview is POST /listings/{slug}/reviews/{id}/answer: answer.
func (h *handler) answerReview(r *http.Request, userID int64, slug string) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return domain.Errorf(domain.ENotFound, "This listing has no such review to answer.")
	}
	return h.svc.AnswerReview(r.Context(), userID, slug, id, r.PostForm.Get("answer"))
}

// reviewRefused re-renders listing slug's page with 400: the reviews
// section shows why, and the text the person sent.
func (h *handler) reviewRefused(w http.ResponseWriter, r *http.Request, slug string, de *domain.Error) {
	p, ok := h.listingPage(w, r, slug, false)
	if !ok {
		return
	}
	p.Vote.Next = "/listings/" + url.PathEscape(slug) // not the form's address
	f := &p.Review
	f.Problem, f.Fields = de.Message, de.Fields
	if r.PathValue("id") != "" {
		f.AnswerTo, _ = strconv.ParseInt(r.PathValue("id"), 10, 64)
		f.Answer = r.PostForm.Get("answer")
	} else {
		f.Stars, _ = strconv.Atoi(r.PostForm.Get("stars"))
		f.Body = r.PostForm.Get("body")
	}
	h.render(w, r, pageStatus(domain.EInvalid), "listing", p.L.Name, "", p)
}

// withinBudgets takes one post of key's account and of r's network from
// the limiters (nil: no limit); over either it answers 429 and returns false.
func (h *handler) withinBudgets(w http.ResponseWriter, r *http.Request, key string, account, network *ratelimit.Limiter) bool {
	for _, take := range []struct {
		l   *ratelimit.Limiter
		key string
	}{{account, key}, {network, ratelimit.Network(r)}} {
		if take.l == nil {
			continue
		}
		if st := take.l.Take(take.key); !st.OK {
			h.tooMany(w, r, st)
			return false
		}
	}
	return true
}

// starList is the five stars of a rating of n: true for a filled one.
func starList(n int) []bool {
	out := make([]bool, domain.ReviewStarsMax)
	for i := range out {
		out[i] = i < n
	}
	return out
}

// paragraphs splits a review's text at blank lines; the page keeps the
// single line breaks inside each (white-space: pre-line).
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = strings.Trim(p, "\n"); strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
