package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

type fulfilPayload struct {
	Number string `json:"number"`
}

type weekStartPayload struct {
	ListingID int64  `json:"listing_id"`
	Week      string `json:"week"`
}

// RegisterOrderJobs registers the order jobs with the runner: fulfilling a
// paid order, and starting a scheduled launch when its week begins.
func (s *Service) RegisterOrderJobs(r *Runner) {
	r.Handle(FulfilJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p fulfilPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		return s.FulfilOrder(ctx, p.Number)
	}, MaxAttempts: 8})
	r.Handle(WeekStartJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p weekStartPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		o, err := s.ordering()
		if err != nil {
			return err
		}
		_, err = o.Store.StartWeek(ctx, p.ListingID, p.Week, s.now())
		return err
	}, MaxAttempts: 8})
}

// FulfilOrder applies every line of a paid order that is not fulfilled yet.
// Each line is applied and marked fulfilled in one transaction, so running it
// again (a retry, a replayed payment) fulfils nothing twice.
func (s *Service) FulfilOrder(ctx context.Context, number string) error {
	o, err := s.ordering()
	if err != nil {
		return err
	}
	ord, err := o.Store.NumberOrder(ctx, number)
	if err != nil {
		if ErrorCode(err) == ENotFound {
			return Permanent(err)
		}
		return err
	}
	if ord.Status != OrderPaid {
		return Permanent(fmt.Errorf("order %s is %s, not paid", number, ord.Status))
	}
	now := s.now()
	for _, l := range ord.Lines {
		f := fulfilmentOf(ord, l, now)
		// Scheduled weeks get their start job with the line, in one
		// transaction.
		var jobs []JobSpec
		for _, week := range []string{f.LaunchWeek, f.RelaunchWeek, f.QueueWeek} {
			if week == "" {
				continue
			}
			at, err := time.Parse(time.DateOnly, week)
			if err != nil {
				return Permanent(err)
			}
			key := strconv.FormatInt(f.ListingID, 10) + "@" + week
			jobs = append(jobs, JobSpec{Kind: WeekStartJob, Key: key, Payload: weekStartPayload{ListingID: f.ListingID, Week: week}, RunAt: at})
		}
		if !l.Fulfilled {
			if _, err := o.Store.FulfilLine(ctx, ord.ID, l.Index, f, now, jobs...); err != nil {
				return fmt.Errorf("fulfil %s line %d (%s): %w", number, l.Index, l.Product, err)
			}
			continue
		}
		// Fulfilled by an earlier run: queue its weeks again (idempotent),
		// which repairs a line fulfilled before the two were written together.
		for _, j := range jobs {
			if err := o.EnqueueAt(ctx, j.Kind, j.Key, j.Payload, j.RunAt); err != nil {
				return err
			}
		}
	}
	return nil
}

// fulfilmentOf is what paying line l does.
func fulfilmentOf(ord *Order, l OrderLine, now time.Time) Fulfilment {
	f := Fulfilment{ListingID: l.ListingID, Currency: ord.Currency}
	work := func(kind string) {
		details := map[string]any{}
		for k, v := range l.Options {
			details[k] = v
		}
		if len(details) == 0 {
			details = nil
		}
		f.Work = append(f.Work, WorkItem{Kind: kind, ListingID: l.ListingID, OrderNumber: ord.Number, Details: details, Status: "open"})
	}
	var out []string
	switch l.Product {
	case ProductLaunch, ProductLaunchBundle:
		f.Launch, f.LaunchWeek, f.Unlock = true, l.Week, PaidSections
		if l.Week == "" {
			out = append(out, "Live since "+now.Format(time.DateOnly)+" on the paid plan")
		} else {
			out = append(out, "Scheduled for the launch week of "+l.Week+" on the paid plan")
		}
		if l.Product == ProductLaunchBundle {
			f.Featured = true
			work(ProductAIReview)
			out = append(out, "featured", "AI review queued for the site team")
		}
	case ProductSkipQueue:
		f.QueueWeek = l.Week
		out = append(out, "Free launch moved to the week of "+l.Week)
	case ProductFeatured:
		f.Featured = true
		out = append(out, "Featured")
	case ProductDoneForYou, ProductAIReview, ProductTrophyVerification:
		work(l.Product)
		out = append(out, "Queued for the site team")
	case ProductExtraCategories:
		f.ExtraCategories = l.Categories
		out = append(out, "Added to "+strings.Join(l.Categories, ", "))
	case ProductRelaunch:
		f.RelaunchWeek = l.Week
		out = append(out, "Relaunch booked for the week of "+l.Week)
	case ProductBillboardMin:
		f.BillboardCents = l.AmountCents
		out = append(out, "The amount was added to the billboard total")
	case ProductTrophyCabinet:
		f.Unlock = []string{SectionTrophies}
		out = append(out, "Trophy cabinet unlocked")
	}
	f.Outcome = strings.Join(out, "; ") + "."
	return f
}
