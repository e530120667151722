package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

type badgeCheckPayload struct {
	ListingID int64 `json:"listing_id"`
	// Due is the check's time (Unix seconds): the job acts only while it is
	// the listing's next check.
	Due int64 `json:"due"`
}

// RegisterFreeJobs registers the badge check with the runner. WeekStartJob
// (RegisterOrderJobs) makes a scheduled free listing live.
func (s *Service) RegisterFreeJobs(r *Runner) {
	r.Handle(BadgeCheckJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p badgeCheckPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		return s.runBadgeCheck(ctx, p)
	}, MaxAttempts: 8})
}

// runBadgeCheck is one run of BadgeCheckJob. A job whose time is no longer
// the listing's next check (a check ran in between, or the checks ended)
// does not read the page; it only makes sure the jobs the listing's current
// state needs are queued, which also repairs a run that stopped between
// recording a check and queueing the next one.
func (s *Service) runBadgeCheck(ctx context.Context, p badgeCheckPayload) error {
	fs, err := s.freeStore()
	if err != nil {
		return err
	}
	t, err := fs.FreeTarget(ctx, p.ListingID)
	if ErrorCode(err) == ENotFound {
		return Permanent(err)
	}
	if err != nil {
		return err
	}
	if t.NextCheckAt.IsZero() || t.NextCheckAt.Unix() != p.Due {
		return s.ensureFreeJobs(ctx, t.ID, t.NextCheckAt, t.State)
	}
	return s.CheckBadge(ctx, p.ListingID)
}

// freeJobs are the jobs a free listing's state needs: the next badge check
// at next (none when zero) and, for a scheduled listing, the start of its
// week. Both are idempotent.
func freeJobs(id int64, next time.Time, st FreeState) []JobSpec {
	var jobs []JobSpec
	if !next.IsZero() {
		key := strconv.FormatInt(id, 10) + "@" + strconv.FormatInt(next.Unix(), 10)
		jobs = append(jobs, JobSpec{Kind: BadgeCheckJob, Key: key, Payload: badgeCheckPayload{ListingID: id, Due: next.Unix()}, RunAt: next})
	}
	if st.Status == ListingScheduled && !st.Week.IsZero() {
		week := st.Week.Format(DateLayout)
		key := strconv.FormatInt(id, 10) + "@" + week
		jobs = append(jobs, JobSpec{Kind: WeekStartJob, Key: key, Payload: weekStartPayload{ListingID: id, Week: week}, RunAt: st.Week})
	}
	return jobs
}

// BadgeCheckAt is the badge check job of listing id due at: the storage
// layer queues it when unhiding a free listing resumes its checks.
func BadgeCheckAt(id int64, at time.Time) JobSpec {
	return freeJobs(id, at, FreeState{})[0]
}

// ensureFreeJobs queues freeJobs (a repair: they are normally written with
// the check that needs them, RecordBadgeCheck).
func (s *Service) ensureFreeJobs(ctx context.Context, id int64, next time.Time, st FreeState) error {
	o, err := s.owning()
	if err != nil {
		return err
	}
	for _, j := range freeJobs(id, next, st) {
		if err := o.EnqueueAt(ctx, j.Kind, j.Key, j.Payload, j.RunAt); err != nil {
			return err
		}
	}
	return nil
}

// CheckBadge reads listing id's homepage for a link to its page here,
// records the check, applies the free launch policy (FreeTransition) and
// queues what follows in the same transaction (the next check, the week's
// start), then mails the owner.
// A page that cannot be read is a check without the badge; its reason is kept.
func (s *Service) CheckBadge(ctx context.Context, id int64) error {
	o, err := s.owning()
	if err != nil {
		return err
	}
	fs, err := s.freeStore()
	if err != nil {
		return err
	}
	t, err := fs.FreeTarget(ctx, id)
	if err != nil {
		return err
	}
	now := s.now()
	var c *BadgeCheck
	if FreeCheckable(t.State, now) {
		c = &BadgeCheck{CheckedAt: now, PageURL: t.URL}
		if t.URL == "" {
			c.Error = "The listing has no website address (url) to read; set it with update_my_listing."
		} else if page, err := o.Pages.FetchPage(ctx, t.URL, FetchPageOptions{}); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.Error = fetchMessage(err)
		} else {
			c.PageURL, c.Link = page.URL, s.Site.BadgeLink(page.Links, t.Slug)
			c.Found = c.Link != ""
		}
	}
	// The check and the jobs it leads to are written in one transaction.
	out, err := fs.RecordBadgeCheck(ctx, id, c, now, func(out *FreeOutcome) []JobSpec {
		st := FreeState{Status: out.Step.Status}
		if out.Step.StartWeek {
			st.Week, _ = time.Parse(DateLayout, out.Week)
		}
		return freeJobs(id, out.NextCheckAt, st)
	})
	if err != nil {
		return err
	}
	if out.Step.Mail != "" && o.Mailer != nil && t.OwnerEmail != "" {
		subject, body := s.freeMail(out.Step.Mail, t, out)
		if err := o.Mailer.SendMail(ctx, t.OwnerEmail, subject, body); err != nil {
			// The check is recorded and its jobs queued; a lost notice is not
			// worth checking again for.
			return nil
		}
	}
	return nil
}

// fetchMessage is the reason a homepage could not be read, for a person.
func fetchMessage(err error) string {
	var ce *CrawlError
	if errors.As(err, &ce) && ce.Message != "" {
		return ce.Message
	}
	return err.Error()
}

// freeMail is the notice to the owner for a mail kind of FreeStep.
func (s *Service) freeMail(kind string, t *FreeTarget, out *FreeOutcome) (subject, body string) {
	page := s.Site.ListingPageURL(t.Slug)
	switch kind {
	case MailFreeMoved:
		return fmt.Sprintf("%s: your free launch moved to the week of %s", t.Name, out.Week),
			fmt.Sprintf("Your free launch week started, but our badge (a link to %s) was not on %s, so %s moved to the next "+
				"week with room: %s. Add the badge (get_badges gives the code) before then; it goes live that week once found.\n",
				page, t.URL, t.Name, out.Week)
	case MailBadgeGone:
		return fmt.Sprintf("%s: our badge is gone from your homepage", t.Name),
			fmt.Sprintf("%s was scheduled for the week of %s, but the link to %s is no longer on %s. It is back to awaiting_badge: "+
				"put the badge back before the week starts to keep that week.\n", t.Name, out.Week, page, t.URL)
	case MailLiveMissing:
		return fmt.Sprintf("%s: our badge is missing from your homepage", t.Name),
			fmt.Sprintf("The free launch of %s asks for our badge (a link to %s) on %s for %d weeks after launch. It was not "+
				"found; missing at %d checks in a row, the listing is unpublished. Put it back before the next check.\n",
				t.Name, page, t.URL, FreeLiveCheckWeeks, FreeMissesToUnpublish)
	default: // MailUnpublished
		return fmt.Sprintf("%s was unpublished: our badge is missing", t.Name),
			fmt.Sprintf("Our badge (a link to %s) was missing from %s at %d checks in a row, so the free listing %s is "+
				"unpublished (back to draft). To publish it again: choose_free_listing (a new free week; the badge again) or a "+
				"paid launch (create_checkout with product launch), which needs no badge.\n",
				page, t.URL, FreeMissesToUnpublish, t.Name)
	}
}
