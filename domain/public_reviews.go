package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Reviews are written by signed-in people on the site (docs/reviews.md):
// like votes, there is no write operation in the catalog; get_listing shows
// the counted ones. A review counts in community_rating and is shown when
// its status is ReviewCounted; it is held by the holding rules of votes
// (HeldNewAccount, HeldBurst) or, in the demo data, HeldFlagged. Owners of
// a listing cannot review it; they may answer each review once.

// Review statuses and the reason a review is held besides those of votes.
const (
	ReviewCounted   = "counted"
	ReviewHeld      = "held"
	ReviewDiscarded = "discarded"
	ReviewHidden    = "hidden"
	HeldFlagged     = "flagged"
)

// The bounds of a review and of an owner's answer, in characters (runes)
// after surrounding white space is trimmed.
const (
	ReviewStarsMin = 1
	ReviewStarsMax = 5
	ReviewBodyMin  = 20
	ReviewBodyMax  = 2000
	AnswerBodyMax  = 2000
	// ListingReviews is how many counted reviews get_listing returns.
	ListingReviews = 10
)

// ReviewCountJob counts a review held for its account's age once the
// account is old enough; its key is the review id.
const ReviewCountJob = "review_count"

// Review is one counted review as get_listing and the listing page show it.
type Review struct {
	ID        int64      `json:"id"`
	Author    string     `json:"author" jsonschema_description:"The reviewer's display name: the account's name, or the part of its email address before the @ when it has none; never the email address."`
	Stars     int        `json:"stars" jsonschema:"minimum=1,maximum=5"`
	Body      string     `json:"body" jsonschema_description:"Plain text, 20-2000 characters; line breaks are the reviewer's."`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt *time.Time `json:"updated_at,omitempty" jsonschema_description:"When the reviewer last edited it; absent when never edited."`
	Answer    *Answer    `json:"answer,omitempty" jsonschema_description:"The listing owner's answer; absent when there is none."`
}

// Answer is a listing owner's answer to a review.
type Answer struct {
	Body       string    `json:"body" jsonschema_description:"Plain text, 1-2000 characters."`
	AnsweredAt time.Time `json:"answered_at"`
}

// ReviewList is the latest counted reviews of a listing and how many there are.
type ReviewList struct {
	Count int      `json:"count" jsonschema_description:"Number of counted reviews (community_rating.count)."`
	Items []Review `json:"items" jsonschema_description:"The latest 10 counted reviews, newest first."`
}

// ReviewWrite is a review as the site received it. Network
// (ratelimit.Network) and UserAgent are stored only as keyed hashes.
type ReviewWrite struct {
	UserID    int64
	Slug      string
	Stars     int
	Body      string
	Network   string
	UserAgent string
	At        time.Time
	// MinAccountAge holds the reviews of younger accounts until they are this old.
	MinAccountAge time.Duration
	// The burst rule of votes (BurstVotes, BurstWindow, BurstAccountAge),
	// over reviews; Burst 0 turns it off.
	Burst           int
	BurstWindow     time.Duration
	BurstAccountAge time.Duration
}

// OwnReview is a person's own review of a listing, whatever its status.
type OwnReview struct {
	Review
	Status string // ReviewCounted, ReviewHeld, ReviewDiscarded or ReviewHidden
	Reason string // why it is held: HeldNewAccount, HeldBurst, HeldFlagged
	// CountAt is when a review held for its account's age counts.
	CountAt time.Time
}

// Reviewer is what the listing page needs to know of the signed-in person:
// whether they own the listing (they answer, they do not review) and their
// own review, if any.
type Reviewer struct {
	Owner bool
	Own   *OwnReview
}

// ReviewStore keeps reviews (storage.Store implements it).
type ReviewStore interface {
	// SaveReview writes w.UserID's review of the live listing w.Slug: a new
	// one with its audit data and status (and the jobs jobs returns for a
	// review held for its account's age, in the same transaction), or the
	// new stars and text of the existing one, which keeps its status. An
	// owner of the listing is refused (forbidden), a review the site team
	// discarded or hid cannot be changed (conflict).
	SaveReview(ctx context.Context, w ReviewWrite, jobs func(reviewID int64, countAt time.Time) []JobSpec) (*OwnReview, error)
	// DeleteReview deletes userID's review of listing slug, if any (not one
	// the site team discarded or hid: conflict).
	DeleteReview(ctx context.Context, userID int64, slug string) error
	// AnswerReview stores the answer of userID, an owner of listing slug,
	// to its counted review reviewID; a review has one answer (conflict).
	AnswerReview(ctx context.Context, userID int64, slug string, reviewID int64, answer string, at time.Time) error
	// CountDueReview counts review reviewID if it is still held for its
	// account's age and that time has come by at; false when it did nothing.
	CountDueReview(ctx context.Context, reviewID int64, at time.Time) (bool, error)
	// ReviewerOf returns what userID is to listing slug.
	ReviewerOf(ctx context.Context, userID int64, slug string) (*Reviewer, error)
}

func (s *Service) reviewStore() (ReviewStore, error) {
	if s.Reviews == nil {
		return nil, Errorf(EInternal, "reviews are not configured")
	}
	return s.Reviews, nil
}

// ReviewText trims a review's or an answer's text and turns CRLF and CR
// line ends into LF.
func ReviewText(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s))
}

// checkReview checks a review's stars and text (already ReviewText).
func checkReview(stars int, body string) error {
	var fields []FieldError
	if stars < ReviewStarsMin || stars > ReviewStarsMax {
		fields = append(fields, FieldError{Field: "stars", Rule: "required",
			Message: fmt.Sprintf("stars: choose from %d to %d stars.", ReviewStarsMin, ReviewStarsMax)})
	}
	if n := utf8.RuneCountInString(body); n < ReviewBodyMin {
		fields = append(fields, FieldError{Field: "body", Rule: "minLength",
			Message: fmt.Sprintf("body: write at least %d characters (you wrote %d).", ReviewBodyMin, n)})
	} else if n > ReviewBodyMax {
		fields = append(fields, FieldError{Field: "body", Rule: "maxLength",
			Message: fmt.Sprintf("body: at most %d characters (you wrote %d).", ReviewBodyMax, n)})
	}
	if !utf8.ValidString(body) || strings.ContainsRune(body, 0) {
		fields = append(fields, FieldError{Field: "body", Rule: "text", Message: "body: plain text only."})
	}
	if len(fields) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "The review was not saved: " + fields[0].Message, Fields: fields}
}

type reviewCountPayload struct {
	ReviewID int64 `json:"review_id"`
}

// WriteReview creates or updates the signed-in account userID's review of
// listing slug, from network and userAgent (stored hashed). body is
// trimmed; bad stars or text is invalid and nothing is stored.
func (s *Service) WriteReview(ctx context.Context, userID int64, slug string, stars int, body, network, userAgent string) (*OwnReview, error) {
	st, err := s.reviewStore()
	if err != nil {
		return nil, err
	}
	body = ReviewText(body)
	if err := checkReview(stars, body); err != nil {
		return nil, err
	}
	w := ReviewWrite{UserID: userID, Slug: slug, Stars: stars, Body: body, Network: network, UserAgent: userAgent, At: s.now(),
		MinAccountAge: s.voteMinAccountAge(ctx), Burst: BurstVotes, BurstWindow: BurstWindow, BurstAccountAge: BurstAccountAge}
	return st.SaveReview(ctx, w, func(id int64, at time.Time) []JobSpec {
		return []JobSpec{{Kind: ReviewCountJob, Key: fmt.Sprint(id), Payload: reviewCountPayload{ReviewID: id}, RunAt: at}}
	})
}

// DeleteReview deletes userID's review of listing slug.
func (s *Service) DeleteReview(ctx context.Context, userID int64, slug string) error {
	st, err := s.reviewStore()
	if err != nil {
		return err
	}
	return st.DeleteReview(ctx, userID, slug)
}

// AnswerReview stores the answer of userID, an owner of listing slug, to
// review reviewID; the text is trimmed, 1-2000 characters.
func (s *Service) AnswerReview(ctx context.Context, userID int64, slug string, reviewID int64, answer string) error {
	st, err := s.reviewStore()
	if err != nil {
		return err
	}
	answer = ReviewText(answer)
	switch n := utf8.RuneCountInString(answer); {
	case n == 0:
		return Invalid("answer", "required", "answer: write your answer.")
	case n > AnswerBodyMax:
		return Invalid("answer", "maxLength", "answer: at most %d characters (you wrote %d).", AnswerBodyMax, n)
	case !utf8.ValidString(answer) || strings.ContainsRune(answer, 0):
		return Invalid("answer", "text", "answer: plain text only.")
	}
	return st.AnswerReview(ctx, userID, slug, reviewID, answer, s.now())
}

// ReviewerOf returns what the signed-in account userID is to listing slug:
// an owner, and their own review.
func (s *Service) ReviewerOf(ctx context.Context, userID int64, slug string) (*Reviewer, error) {
	st, err := s.reviewStore()
	if err != nil {
		return nil, err
	}
	return st.ReviewerOf(ctx, userID, slug)
}

// RegisterReviewJobs registers the review jobs with the runner: counting a
// review held for its account's age.
func (s *Service) RegisterReviewJobs(r *Runner) {
	r.Handle(ReviewCountJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p reviewCountPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		st, err := s.reviewStore()
		if err != nil {
			return Permanent(err)
		}
		_, err = st.CountDueReview(ctx, p.ReviewID, s.now())
		return err
	}, MaxAttempts: 8})
}
