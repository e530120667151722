package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Followers and their news: signed-in people follow public listings from
// the listing page; an update posted by the owner is fanned out to them by a
// durable job, as a notification row and a mail each, once per (update,
// follower). The site's latest-updates page lists the updates of public
// listings. These are served by the web pages, not the API.

// UpdatesPath is the site's latest-updates page.
const UpdatesPath = "/updates"

// NotificationsPath is the signed-in person's notifications page.
const NotificationsPath = "/notifications"

// UpdateFanOutJob tells an update's followers; its key is the update id.
const UpdateFanOutJob = "update_fanout"

type updateFanOut struct {
	UpdateID int64 `json:"update_id"`
}

// FollowerKey is the follows.follower_key of a signed-in account. Other keys
// (the demo data's anonymous followers) count as followers but are never told.
func FollowerKey(userID int64) string { return fmt.Sprintf("user:%d", userID) }

// PublicUpdate is an update of a public listing, on the latest-updates page.
type PublicUpdate struct {
	ID       int64
	Listing  ListingSummary
	Title    string
	Body     string
	PostedAt time.Time
}

// UpdateList is one page of the latest updates.
type UpdateList struct {
	Items []PublicUpdate
	Page
}

// Notification is one item of a person's notifications: an update of a
// listing they follow, or an award won by a listing they own or follow
// (AwardRank set; the weekly clock, docs/weeks.md).
type Notification struct {
	ID          int64
	ListingSlug string
	ListingName string
	UpdateID    int64
	Title       string
	Body        string
	PostedAt    time.Time // the update's time, or when the award was decided
	Read        bool
	AwardRank   int    // 1-3 for an award: Launch of the Week #AwardRank
	AwardWeek   string // the award's week, YYYY-MM-DD
	AwardVotes  int    // the week votes that decided it
	// A programme win (ProgrammeRank set; docs/trophies.md): the programme,
	// the category slug ("" Overall), the place and the votes that decided it.
	ProgrammeSlug, ProgrammeName, ProgrammeCategory string
	ProgrammeRank, ProgrammeVotes                   int
}

// NotificationList is one page of a person's notifications, newest first.
type NotificationList struct {
	Items  []Notification
	Unread int
	Page
}

// UpdateNews is what a follower's mail says about an update.
type UpdateNews struct {
	ListingSlug, ListingName string
	Title, Body              string
}

// UpdateRecipient is a follower whose mail about an update is not sent yet.
type UpdateRecipient struct {
	NotificationID int64
	Email          string
}

// OwnerNewsStore keeps follows and notifications and lists updates.
type OwnerNewsStore interface {
	// LatestUpdates lists updates of public listings, newest first.
	LatestUpdates(ctx context.Context, offset, limit int) ([]PublicUpdate, int, error)
	// SetFollow makes userID follow (or stop following) the public listing
	// slug; ENotFound when no public listing has that slug. Idempotent.
	SetFollow(ctx context.Context, userID int64, slug string, follow bool, at time.Time) error
	// Following reports whether userID follows listing slug.
	Following(ctx context.Context, userID int64, slug string) (bool, error)
	// FanOutUpdate adds a notification for each signed-in follower of the
	// update's listing who followed by the time it was posted (its author
	// excepted) and has none for it yet, and returns the update and the
	// recipients whose mail is not sent yet. Nobody is added while the
	// listing is not public.
	FanOutUpdate(ctx context.Context, updateID int64, at time.Time) (*UpdateNews, []UpdateRecipient, error)
	// ClaimMail marks a notification's mail as sent; false when it was already.
	ClaimMail(ctx context.Context, notificationID int64, at time.Time) (bool, error)
	// ReleaseMail unmarks it after the mailer failed, so a retry sends it.
	ReleaseMail(ctx context.Context, notificationID int64) error
	// Notifications lists userID's notifications newest first, with the unread count.
	Notifications(ctx context.Context, userID int64, offset, limit int) ([]Notification, int, int, error)
	// MarkNotificationsRead marks every notification of userID read.
	MarkNotificationsRead(ctx context.Context, userID int64, at time.Time) error
}

// RegisterOwnerContentJobs registers the owner's content jobs with the
// runner: telling an update's followers.
func (s *Service) RegisterOwnerContentJobs(r *Runner) {
	r.Handle(UpdateFanOutJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p updateFanOut
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		return s.TellFollowers(ctx, p.UpdateID)
	}, MaxAttempts: 8})
}

// TellFollowers tells an update's followers: a notification each, then a
// mail each. It is the fan-out job and may run again (a retry, a restart):
// notifications are unique per (update, follower), and a mail is marked
// before it is sent and unmarked only when the mailer fails, so nobody is
// told twice. A crash between the mark and the send loses that one mail; the
// notification is still there.
func (s *Service) TellFollowers(ctx context.Context, updateID int64) error {
	st, err := s.contentStore()
	if err != nil {
		return Permanent(err)
	}
	own, err := s.owning()
	if err != nil {
		return Permanent(err)
	}
	news, to, err := st.FanOutUpdate(ctx, updateID, s.now())
	if err != nil {
		if ErrorCode(err) == ENotFound {
			return nil // the update (or its listing) was deleted since
		}
		return err
	}
	if own.Mailer == nil {
		return nil // no mail configured: the notifications tell them
	}
	subject, body := updateMail(s.SiteNow(ctx), news) // the name in effect now
	for _, r := range to {
		if err := s.mailOnce(ctx, st, own.Mailer, r.NotificationID, r.Email, subject, body); err != nil {
			return fmt.Errorf("mail update %d to a follower: %w", updateID, err)
		}
	}
	return nil
}

// mailClaims marks notifications' mails sent (OwnerNewsStore, WeekStore).
type mailClaims interface {
	ClaimMail(ctx context.Context, notificationID int64, at time.Time) (bool, error)
	ReleaseMail(ctx context.Context, notificationID int64) error
}

// mailOnce sends notification notificationID's mail unless it was sent: it
// is marked before it is sent and unmarked when the mailer fails, so a retry
// sends it and nobody gets it twice. No address: marked, nothing sent.
func (s *Service) mailOnce(ctx context.Context, st mailClaims, m Mailer, notificationID int64, to, subject, body string) error {
	ok, err := st.ClaimMail(ctx, notificationID, s.now())
	if err != nil || !ok || to == "" {
		return err
	}
	if err := m.SendMail(ctx, to, subject, body); err != nil {
		if rerr := st.ReleaseMail(ctx, notificationID); rerr != nil {
			return fmt.Errorf("mail %d failed (%v) and could not be retried: %w", notificationID, err, rerr)
		}
		return err
	}
	return nil
}

// updateMail is the plain-text mail a follower gets about an update. The
// title has no line breaks (plainText), so it is safe in the subject.
func updateMail(site Site, n *UpdateNews) (subject, body string) {
	subject = n.ListingName + ": " + n.Title
	var b strings.Builder
	fmt.Fprintf(&b, "%s posted an update on %s.\n\n%s\n\n%s\n\n", n.ListingName, site.Name, n.Title, n.Body)
	fmt.Fprintf(&b, "Read it on %s\n", site.ListingPageURL(n.ListingSlug))
	fmt.Fprintf(&b, "Your notifications: %s\n\n", site.URL(NotificationsPath))
	fmt.Fprintf(&b, "You get this because you follow %s. Unfollow on its page to stop.\n", n.ListingName)
	return subject, body
}

// LatestUpdates lists the updates of public listings, newest first (the
// latest-updates page).
func (s *Service) LatestUpdates(ctx context.Context, p Pagination) (*UpdateList, error) {
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	items, total, err := st.LatestUpdates(ctx, p.Offset(), p.Limit())
	if err != nil {
		return nil, err
	}
	page, per := p.Norm()
	return &UpdateList{Items: items, Page: NewPage(page, per, total)}, nil
}

// Follow makes the signed-in account userID follow (follow=false: stop
// following) the public listing slug.
func (s *Service) Follow(ctx context.Context, userID int64, slug string, follow bool) error {
	st, err := s.contentStore()
	if err != nil {
		return err
	}
	return st.SetFollow(ctx, userID, slug, follow, s.now())
}

// Following reports whether userID follows listing slug.
func (s *Service) Following(ctx context.Context, userID int64, slug string) (bool, error) {
	st, err := s.contentStore()
	if err != nil {
		return false, err
	}
	return st.Following(ctx, userID, slug)
}

// Notifications lists userID's notifications, newest first.
func (s *Service) Notifications(ctx context.Context, userID int64, p Pagination) (*NotificationList, error) {
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	items, total, unread, err := st.Notifications(ctx, userID, p.Offset(), p.Limit())
	if err != nil {
		return nil, err
	}
	page, per := p.Norm()
	return &NotificationList{Items: items, Unread: unread, Page: NewPage(page, per, total)}, nil
}

// MarkNotificationsRead marks all of userID's notifications read.
func (s *Service) MarkNotificationsRead(ctx context.Context, userID int64) error {
	st, err := s.contentStore()
	if err != nil {
		return err
	}
	return st.MarkNotificationsRead(ctx, userID, s.now())
}
