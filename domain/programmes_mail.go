package domain

import (
	"context"
	"fmt"
	"strings"
)

// Mail about programme wins (docs/trophies.md "Voting and winners"). The
// clock's transaction writes a notification per winner's owner and signed-in
// follower; after it, each of them is mailed once through the service's
// mailer (mailOnce: marked before sending, unmarked when the mailer fails,
// so a retry of the close job sends what is left and nobody gets it twice),
// as the Launch of the Week awards are (tellWinners).

// ProgrammeWinRecipient is a person told about a programme win whose mail
// is not sent yet.
type ProgrammeWinRecipient struct {
	NotificationID int64
	Email          string
	Owner          bool // an owner of the winning listing; else a follower
	ListingSlug    string
	ListingName    string
	Programme      string // slug
	Category       string // slug; "" for Overall
	Rank, Votes    int
}

// tellProgrammeWinners mails each notification of programme id's wins not
// mailed yet, once.
func (s *Service) tellProgrammeWinners(ctx context.Context, st ProgrammeStore, id int64) error {
	if s.Owner == nil || s.Owner.Mailer == nil {
		return nil // no mail configured: the notifications tell them
	}
	to, err := st.ProgrammeWinRecipients(ctx, id)
	if err != nil || len(to) == 0 {
		return err
	}
	p, err := st.Programme(ctx, to[0].Programme)
	if err != nil {
		return err
	}
	site := s.SiteNow(ctx) // the name in effect now
	for _, r := range to {
		subject, body := programmeWinMail(site, p, r)
		if err := s.mailOnce(ctx, st, s.Owner.Mailer, r.NotificationID, r.Email, subject, body); err != nil {
			return fmt.Errorf("mail the win #%d of %s in %s: %w", r.Rank, r.ListingSlug, p.Slug, err)
		}
	}
	return nil
}

// programmeWinMail is the plain-text mail about a programme win: to an
// owner, or to a follower of the winner. Names are one line (plain text),
// so they are safe in the subject.
func programmeWinMail(site Site, p *ProgrammeRecord, r ProgrammeWinRecipient) (subject, body string) {
	votes := fmt.Sprintf("%d votes", r.Votes)
	if r.Votes == 1 {
		votes = "1 vote"
	}
	won := fmt.Sprintf("won #%d in %s", r.Rank, p.Name)
	what := fmt.Sprintf("#%d in %s of the award programme %s on %s, with %s from the community in its voting window",
		r.Rank, p.categoryName(r.Category), p.Name, site.Name, votes)
	var b strings.Builder
	if r.Owner {
		subject = r.ListingName + " " + won
		fmt.Fprintf(&b, "Congratulations: %s won %s.\n\n", r.ListingName, what)
		fmt.Fprintf(&b, "The programme and its winners: %s\n", site.URL("/programmes/"+p.Slug))
		fmt.Fprintf(&b, "The trophy is in the trophy cabinet on its page, with a badge for your site: %s\n\n", site.ListingPageURL(r.ListingSlug))
		fmt.Fprintf(&b, "You get this because you own %s on %s.\n", r.ListingName, site.Name)
	} else {
		subject = r.ListingName + ", which you follow, " + won
		fmt.Fprintf(&b, "%s won %s.\n\n", r.ListingName, what)
		fmt.Fprintf(&b, "See it: %s\n", site.ListingPageURL(r.ListingSlug))
		fmt.Fprintf(&b, "Your notifications: %s\n\n", site.URL(NotificationsPath))
		fmt.Fprintf(&b, "You get this because you follow %s. Unfollow on its page to stop.\n", r.ListingName)
	}
	return subject, b.String()
}
