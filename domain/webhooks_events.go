package domain

import (
	"context"
	"time"
)

// Listing events (docs/webhooks.md, "Event types"): each is written by the
// store in the transaction of the change it reports, once for each owner of
// the listing (its submitter and every co-owner), so every owner's endpoints
// hear of it. An owner without an enabled endpoint gets no outbox row.

// ListingEventFunc builds the event of a change for one owner of the listing;
// the store calls it inside the change's transaction.
type ListingEventFunc func(ownerID int64) WebhookEvent

// updatePostedEvent is update.posted of update u of listing ref.
func (s *Service) updatePostedEvent(ctx context.Context, u *PostedUpdate, ref ListingRef) ListingEventFunc {
	page := s.Site.In(ctx).ListingPageURL(ref.Slug)
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventUpdatePosted, ownerID, ref.ID, u.PostedAt, map[string]any{
			"update_id": u.ID, "listing_id": ref.ID, "slug": ref.Slug, "title": u.Title, "page_url": page})
	}
}

// claimVerifiedEvent is claim.verified of claim rec, verified at.
func (s *Service) claimVerifiedEvent(rec *ClaimRecord, at time.Time) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventClaimVerified, ownerID, rec.ListingID, at, map[string]any{
			"claim_id": rec.ID, "listing_id": rec.ListingID, "slug": rec.Slug, "method": rec.Method})
	}
}

// ReviewPostedEvent is review.posted of review reviewID of listing listingID
// (slug), published at at with rating stars. The review store raises it when
// a review is published: saved by an account old enough to count at once, or
// counted when a held new account's review comes due.
func ReviewPostedEvent(reviewID, listingID int64, slug string, rating int, at time.Time) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventReviewPosted, ownerID, listingID, at, map[string]any{
			"review_id": reviewID, "listing_id": listingID, "slug": slug, "rating": rating})
	}
}

// OrderLineFact is one line of an order as order events report it.
type OrderLineFact struct {
	Product   string `json:"product"`
	ListingID int64  `json:"listing_id,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
}

// orderEventListing is the listing an order event is about: its first line's
// (0: none, a line not for a listing).
func orderEventListing(lines []OrderLineFact) int64 {
	for _, l := range lines {
		if l.ListingID != 0 {
			return l.ListingID
		}
	}
	return 0
}

func nullableID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// OrderPaidEvent is order.paid of order number, made by userID (the buyer:
// order events go to the account that made the order), paid at at. The order
// store writes it in the transaction that marks the order paid.
func OrderPaidEvent(userID int64, number string, totalCents int64, currency string, testMode bool, lines []OrderLineFact, at time.Time) WebhookEvent {
	products := []string{}
	for _, l := range lines {
		products = append(products, l.Product)
	}
	lid := orderEventListing(lines)
	return NewWebhookEvent(EventOrderPaid, userID, lid, at, map[string]any{"number": number, "listing_id": nullableID(lid),
		"total": map[string]any{"amount": totalCents, "currency": currency}, "products": products, "test_mode": testMode})
}

// OrderFulfilledEvent is order.fulfilled of order number: its last line was
// fulfilled at at (each line's outcome says what was applied). The order
// store writes it in the transaction that fulfils that line.
func OrderFulfilledEvent(userID int64, number string, lines []OrderLineFact, at time.Time) WebhookEvent {
	if lines == nil {
		lines = []OrderLineFact{}
	}
	lid := orderEventListing(lines)
	return NewWebhookEvent(EventOrderFulfilled, userID, lid, at, map[string]any{"number": number, "listing_id": nullableID(lid), "lines": lines})
}

// AwardWonEvent is award.won of award a of week (Monday, YYYY-MM-DD),
// decided at at by the weekly clock; the week store writes it in the
// transaction that finalises the week.
func AwardWonEvent(a WeekAward, week string, at time.Time) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventAwardWon, ownerID, a.ListingID, at, map[string]any{
			"award_id": a.ID, "listing_id": a.ListingID, "slug": a.Slug, "week": week, "rank": a.Rank, "votes": a.Votes})
	}
}

// BadgeFoundEvent is badge.found of listing listingID (slug): the badge
// check of c found link badgeURL on its site after a check that did not (or
// the first check). The free launch store writes it with the check.
func BadgeFoundEvent(listingID int64, slug string, c *BadgeCheck) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventBadgeFound, ownerID, listingID, c.CheckedAt, map[string]any{
			"listing_id": listingID, "slug": slug, "badge_url": c.Link, "checked_at": c.CheckedAt.UTC().Format(time.RFC3339)})
	}
}

// BadgeLostEvent is badge.lost of listing listingID (slug): the check of c
// no longer found the badge that the previous check found. reason is
// "not_found" (the page was read, no link) or why the page could not be read.
func BadgeLostEvent(listingID int64, slug string, c *BadgeCheck) ListingEventFunc {
	reason := "not_found"
	if c.Error != "" {
		reason = c.Error
	}
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventBadgeLost, ownerID, listingID, c.CheckedAt, map[string]any{
			"listing_id": listingID, "slug": slug, "checked_at": c.CheckedAt.UTC().Format(time.RFC3339), "reason": reason})
	}
}

// ListingLiveEvent is listing.live of listing listingID (slug, name): its
// scheduled launch went live at launchedAt. The store writes it in the
// go-live's transaction.
func ListingLiveEvent(listingID int64, slug, name string, launchedAt time.Time, pageURL string) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventListingLive, ownerID, listingID, launchedAt, map[string]any{
			"listing_id": listingID, "slug": slug, "name": name, "launched_at": launchedAt.UTC().Format(time.RFC3339), "page_url": pageURL})
	}
}

// ListingPublishedEvent is listing.published of listing listingID (slug,
// name): a change at at made it public (status scheduled or live) from a
// status that is not (draft, submitted, awaiting_badge): the badge check of
// a free listing, or a paid launch's fulfilment. The store writes it in the
// change's transaction.
func ListingPublishedEvent(listingID int64, slug, name, status string, at time.Time, pageURL string) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventListingPublished, ownerID, listingID, at, map[string]any{
			"listing_id": listingID, "slug": slug, "name": name, "status": status, "page_url": pageURL})
	}
}

// ListingUnpublishedEvent is listing.unpublished of listing listingID
// (slug, name): a change at at took it out of public view, to status
// (hidden, archived or merged by the site team; awaiting_badge or draft at a
// badge check that did not find the badge). reason is the site team's
// reason that its owners see (hidden or archived), else "". It has no
// page_url: the listing's page no longer shows it. The store writes it in
// the change's transaction.
func ListingUnpublishedEvent(listingID int64, slug, name, status, reason string, at time.Time) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventListingUnpublished, ownerID, listingID, at, map[string]any{
			"listing_id": listingID, "slug": slug, "name": name, "status": status, "reason": reason})
	}
}

// ListingScheduledEvent is listing.scheduled of listing listingID (slug,
// name): at at it became scheduled for launch week week (its Monday,
// YYYY-MM-DD), or a scheduled listing moved to week. The store writes it in
// the change's transaction.
func ListingScheduledEvent(listingID int64, slug, name, week string, at time.Time, pageURL string) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventListingScheduled, ownerID, listingID, at, map[string]any{
			"listing_id": listingID, "slug": slug, "name": name, "launch_week": week, "page_url": pageURL})
	}
}

// TrophyVerifiedEvent is trophy.verified of trophy r: a check of its page
// or the site team verified it at at (how: page or site_team), from a state
// that was not verified. The trophy store writes it with the decision.
func TrophyVerifiedEvent(r *TrophyRecord, how string, at time.Time) ListingEventFunc {
	return func(ownerID int64) WebhookEvent {
		return NewWebhookEvent(EventTrophyVerified, ownerID, r.ListingID, at, map[string]any{
			"trophy_id": r.ID, "listing_id": r.ListingID, "slug": r.Slug, "platform": r.Platform, "title": r.Title,
			"rank": nullableInt(r.Rank), "how": how})
	}
}

func nullableInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}
