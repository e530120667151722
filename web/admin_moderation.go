package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
)

// The site team's review queue, /admin/queue (docs/moderation.md): held
// votes and reviews to count or discard, reviews to hide, listings to
// disqualify from a week. Every form is an admin form post (adminRoute);
// a decision answers 303 back to its section of the queue, and a refused
// one shows the queue again with the reason and the status of its code.

// queueLimit is how many rows each list of the queue shows, but for the
// recent reviews: recentShown (hidden ones first).
const (
	queueLimit  = 100
	recentShown = 30
)

// queueTime is how the queue shows a moment.
const queueTime = "Jan 2, 2006 15:04 UTC"

// hashShown is how many hex digits of a network or User-Agent hash the
// queue shows: enough to tell networks apart at a glance.
const hashShown = 8

// routeModeration registers the review queue and its forms.
func (h *handler) routeModeration(mux *http.ServeMux) {
	mux.Handle("GET /admin/queue", h.adminRoute(console.RoleModerator, false, h.queueHome))
	mux.Handle("POST /admin/queue/votes/{id}/{decision}", h.adminRoute(console.RoleModerator, true, h.queueVote))
	mux.Handle("POST /admin/queue/reviews/{id}/{decision}", h.adminRoute(console.RoleModerator, true, h.queueReview))
	mux.Handle("POST /admin/queue/disqualify", h.adminRoute(console.RoleModerator, true, h.queueDisqualify(false)))
	mux.Handle("POST /admin/queue/requalify", h.adminRoute(console.RoleModerator, true, h.queueDisqualify(true)))
}

// queuePage is the data of admin_queue.html.
type queuePage struct {
	Email             string
	Votes             []heldVoteView
	HeldVotes         int
	Reviews           []queueReviewView
	HeldReviews       int
	Recent            []queueReviewView
	Disqualifications []disqualificationView
	Log               []logView
	// Problem is why the last decision was refused and Field the form
	// field it names, if any; Listing, Week and Reason keep a refused
	// disqualification form's values.
	Problem, Field        string
	FormProblem           bool // Problem is about the disqualify form
	Listing, Week, Reason string
	MaxReason             int
}

// heldVoteView is a held vote as the queue shows it.
type heldVoteView struct {
	console.HeldVote
	Why, When, Account, Network, Agent string
	// SameNetwork is how many held votes for this listing come from this network.
	SameNetwork int
	CanCount    bool
}

// queueReviewView is a review as the queue shows it.
type queueReviewView struct {
	console.QueueReview
	Author, Why, When, Network string
	SameNetwork                int
	CanCount                   bool
}

// disqualificationView is a disqualification as the queue shows it.
type disqualificationView struct {
	console.WeekDisqualification
	When string
}

// logView is one decision of the moderation log as the queue shows it.
type logView struct {
	console.ModerationEntry
	// Before and After are the words around the listing's name; Why is
	// the reason (of a disqualification) or why the vote or review was held.
	Before, After, Why, When string
}

// heldWhy says why a vote or review is held, and when it counts by itself.
func heldWhy(reason string, countAt *time.Time) string {
	switch reason {
	case domain.HeldNewAccount:
		if countAt != nil {
			return "New account: counts by itself on " + countAt.Format(queueTime)
		}
		return "New account"
	case domain.HeldOwner:
		return "Owner of the listing: never counts"
	case domain.HeldBurst:
		return fmt.Sprintf("Burst: %d or more new accounts from one network within %d minutes", domain.BurstVotes, int(domain.BurstWindow.Minutes()))
	case domain.HeldFlagged:
		return "Flagged as not genuine"
	case console.HeldSuspended: // admin_people.go
		return "Account suspended: held until the site team unsuspends it"
	}
	return reason
}

// heldLabel is the short name of the reason a vote or review is held.
func heldLabel(reason string) string {
	if reason == domain.HeldNewAccount {
		return "new account"
	}
	return reason
}

// short is the first hashShown digits of hash, "—" for none.
func short(hash string) string {
	if hash == "" {
		return "—"
	}
	return hash[:min(len(hash), hashShown)]
}

// logWords are the words of a decision on a vote or review around the
// listing's name; %d is the vote's or review's number.
var logWords = map[string]struct{ before, after string }{
	console.ModCountVote:     {"counted vote #%d for", ""},
	console.ModDiscardVote:   {"discarded vote #%d for", ""},
	console.ModCountReview:   {"counted review #%d of", ""},
	console.ModDiscardReview: {"discarded review #%d of", ""},
	console.ModHideReview:    {"hid review #%d of", ""},
	console.ModUnhideReview:  {"showed review #%d of", "again"},
}

// actionText says what a decision of the log did, as the words before
// the listing's name and after it.
func actionText(e console.ModerationEntry) (before, after string) {
	switch e.Action {
	case console.ModDisqualify:
		return "disqualified", "from the week of " + formatDay(e.Week)
	case console.ModRequalify:
		return "lifted the disqualification of", "from the week of " + formatDay(e.Week)
	}
	w, ok := logWords[e.Action]
	if !ok {
		return e.Action, ""
	}
	return fmt.Sprintf(w.before, e.VoteID+e.ReviewID), w.after // one of the two is 0
}

// newQueuePage turns the store's queue into what the page shows.
func newQueuePage(email string, q *console.ModerationQueue) *queuePage {
	p := &queuePage{Email: email, HeldVotes: q.HeldVotes, HeldReviews: q.HeldReviews, MaxReason: console.MaxModerationReason}
	nets := map[string]int{}
	for _, v := range q.Votes {
		nets[fmt.Sprint(v.ListingID, v.Network)]++
	}
	for _, v := range q.Votes {
		account := "account deleted"
		if v.Email != "" {
			account = v.Email + ", account created " + v.AccountAt.Format(queueTime)
		}
		p.Votes = append(p.Votes, heldVoteView{HeldVote: v, Why: heldWhy(v.Reason, v.CountAt), When: v.At.Format(queueTime),
			Account: account, Network: short(v.Network), Agent: short(v.Agent), SameNetwork: nets[fmt.Sprint(v.ListingID, v.Network)],
			CanCount: v.Reason != domain.HeldOwner})
	}
	reviewNets := map[string]int{}
	for _, r := range q.Reviews {
		if r.Network != "" {
			reviewNets[fmt.Sprint(r.ListingID, r.Network)]++
		}
	}
	review := func(r console.QueueReview) queueReviewView {
		author := r.Email
		if author == "" {
			author = r.AuthorName + " (no account)"
		}
		return queueReviewView{QueueReview: r, Author: author, Why: heldWhy(r.Reason, r.CountAt), When: r.At.Format(queueTime),
			Network: short(r.Network), SameNetwork: reviewNets[fmt.Sprint(r.ListingID, r.Network)], CanCount: r.Reason != domain.HeldOwner}
	}
	for _, r := range q.Reviews {
		p.Reviews = append(p.Reviews, review(r))
	}
	for _, r := range q.Recent[:min(len(q.Recent), recentShown)] {
		p.Recent = append(p.Recent, review(r))
	}
	for _, d := range q.Disqualifications {
		p.Disqualifications = append(p.Disqualifications, disqualificationView{WeekDisqualification: d, When: d.At.Format(queueTime)})
	}
	for _, e := range q.Log {
		before, after := actionText(e)
		why := e.Reason
		if why != "" && e.Week == "" {
			why = "held: " + heldLabel(why)
		}
		p.Log = append(p.Log, logView{ModerationEntry: e, Before: before, After: after, Why: why, When: e.At.Format(queueTime)})
	}
	return p
}

// showQueue renders the queue with status; problem, when not "", says why
// the last decision was refused.
func (h *handler) showQueue(w http.ResponseWriter, r *http.Request, email string, status int, problem *domain.Error, form *queuePage) {
	q, err := h.console.ModerationQueue(r.Context(), queueLimit)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := newQueuePage(email, q)
	p.Week = domain.Monday(h.svc.Now()).Format(domain.DateLayout)
	if problem != nil {
		p.Problem = problem.Message
		if len(problem.Fields) > 0 {
			p.Field = problem.Fields[0].Field
		}
	}
	if form != nil {
		p.Listing, p.Week, p.Reason, p.FormProblem = form.Listing, form.Week, form.Reason, p.Problem != ""
	}
	h.render(w, r, status, "admin_queue", "Review queue", "", p)
}

// queueHome is GET /admin/queue.
func (h *handler) queueHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showQueue(w, r, email, statusOK, nil, nil)
}

// queueRefused answers a refused decision: the queue again with the reason
// and the status of its code (a decision taken already: 409; a vote taken
// back: 404; bad input: 400), or the error page for anything else.
func (h *handler) queueRefused(w http.ResponseWriter, r *http.Request, email string, err error, form *queuePage) {
	var de *domain.Error
	if errors.As(err, &de) {
		switch de.Code {
		case domain.EInvalid, domain.EConflict, domain.ENotFound:
			h.showQueue(w, r, email, problem.Status(de.Code), de, form)
			return
		}
	}
	h.serviceError(w, r, err)
}

// queueVote is POST /admin/queue/votes/{id}/count and .../discard.
func (h *handler) queueVote(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.editID(w, r)
	if !ok {
		return
	}
	var err error
	switch r.PathValue("decision") {
	case "count":
		err = h.console.CountVote(r.Context(), email, id)
	case "discard":
		err = h.console.DiscardVote(r.Context(), email, id)
	default:
		h.notFound(w, r)
		return
	}
	if err != nil {
		h.queueRefused(w, r, email, err, nil)
		return
	}
	h.log.Info("web: admin decided on a held vote", "admin", email, "vote_id", id, "decision", r.PathValue("decision"))
	h.audit(r, email, "vote."+r.PathValue("decision"), fmt.Sprintf("vote:%d", id), map[string]string{"status": "held"}, nil)
	http.Redirect(w, r, "/admin/queue#votes", statusSeeOther)
}

// reviewActions maps the {decision} of a review form to its action and the
// section of the queue to come back to.
var reviewActions = map[string]struct{ action, section string }{
	"count":   {console.ModCountReview, "reviews"},
	"discard": {console.ModDiscardReview, "reviews"},
	"hide":    {console.ModHideReview, "recent"},
	"unhide":  {console.ModUnhideReview, "recent"},
}

// queueReview is POST /admin/queue/reviews/{id}/count, discard, hide and unhide.
func (h *handler) queueReview(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.editID(w, r)
	if !ok {
		return
	}
	a, ok := reviewActions[r.PathValue("decision")]
	if !ok {
		h.notFound(w, r)
		return
	}
	if err := h.console.DecideReview(r.Context(), email, id, a.action); err != nil {
		h.queueRefused(w, r, email, err, nil)
		return
	}
	h.log.Info("web: admin decided on a review", "admin", email, "review_id", id, "decision", a.action)
	h.audit(r, email, "review."+r.PathValue("decision"), fmt.Sprintf("review:%d", id), nil, nil)
	http.Redirect(w, r, "/admin/queue#"+a.section, statusSeeOther)
}

// queueDisqualify is POST /admin/queue/disqualify (listing, week, reason)
// and, lift, POST /admin/queue/requalify (listing, week).
func (h *handler) queueDisqualify(lift bool) func(w http.ResponseWriter, r *http.Request, email string) {
	return func(w http.ResponseWriter, r *http.Request, email string) {
		form := &queuePage{Listing: r.PostForm.Get("listing"), Week: r.PostForm.Get("week"), Reason: r.PostForm.Get("reason")}
		var err error
		if lift {
			err = h.console.Requalify(r.Context(), email, form.Listing, form.Week)
			form = nil // the disqualify form keeps its own values
		} else {
			err = h.console.Disqualify(r.Context(), email, form.Listing, form.Week, form.Reason)
		}
		if err != nil {
			h.queueRefused(w, r, email, err, form)
			return
		}
		action, after := "week.disqualify", any(map[string]string{"reason": r.PostForm.Get("reason")})
		if lift {
			action, after = "week.requalify", nil
		}
		h.audit(r, email, action, "listing:"+r.PostForm.Get("listing")+"@"+r.PostForm.Get("week"), nil, after)
		h.log.Info("web: admin changed a week's disqualifications", "admin", email, "lift", lift,
			"listing", r.PostForm.Get("listing"), "week", r.PostForm.Get("week"))
		http.Redirect(w, r, "/admin/queue#weeks", statusSeeOther)
	}
}
