package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Listing state events (docs/webhooks.md, "Event types"): listing.published,
// listing.scheduled, listing.live and listing.unpublished compare a
// listing's status and launch week before a change with those after it,
// inside the change's transaction, so each transition raises its event once,
// whichever path made it (a badge check, a paid launch's fulfilment, the
// go-live of a week, the site team's hide, unhide, unpublish and merge).

// listingMark is what the listing state events compare.
type listingMark struct {
	status, week string
	// hidden is the status a hidden listing had when the site team hid it
	// ("" when it is not hidden): unhiding it is becoming public again
	// (listing.published), not a new schedule or go-live.
	hidden string
}

// launchStatus is the status the scheduled and live events compare: a
// hidden listing's status from before it was hidden.
func (m listingMark) launchStatus() string {
	if m.status == domain.ListingHidden {
		return m.hidden
	}
	return m.status
}

// listingMarkTx reads listing id's status and launch week inside tx.
func listingMarkTx(ctx context.Context, tx *Tx, id int64) (listingMark, error) {
	var m listingMark
	var week sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT status, launch_week, hidden_status FROM listings WHERE id = ?`, id).Scan(&m.status, &week, &m.hidden)
	m.week = week.String
	return m, mapErr(err, "listing", "")
}

// isPublic is publicStatus for one status.
func isPublic(status string) bool {
	return status == domain.ListingScheduled || status == domain.ListingLive
}

// addListingStateEventsTx writes, inside tx, the listing state events of
// listing id (of site) that went from before to its state now at at:
//   - listing.published when it became public (scheduled or live) from a
//     status that is not;
//   - listing.scheduled when it became scheduled, or a scheduled listing
//     got another launch week;
//   - listing.live when it became live;
//   - listing.unpublished when it left public view (hidden, unpublished or
//     merged by the site team; back to awaiting_badge or draft at a badge
//     check that did not find the badge).
//
// Unhiding a listing compares its status with the one it had when hidden:
// it raises listing.published, and listing.scheduled or listing.live only
// when that changed while it was hidden (a paid launch whose week started).
func (db *DB) addListingStateEventsTx(ctx context.Context, tx *Tx, site domain.Site, siteID, id int64, before listingMark, at time.Time) error {
	after, err := listingMarkTx(ctx, tx, id)
	if err != nil || after == before {
		return err
	}
	var slug, name, hiddenReason, unpublishedReason string
	var launched sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT slug, name, launched_at, hidden_reason, unpublished_reason FROM listings WHERE id = ?`,
		id).Scan(&slug, &name, &launched, &hiddenReason, &unpublishedReason); err != nil {
		return mapErr(err, "listing", "")
	}
	page := site.ListingPageURL(slug)
	var events []domain.ListingEventFunc
	if isPublic(after.status) && !isPublic(before.status) {
		events = append(events, domain.ListingPublishedEvent(id, slug, name, after.status, at, page))
	}
	if !isPublic(after.status) && isPublic(before.status) {
		reason := map[string]string{domain.ListingHidden: hiddenReason, domain.ListingArchived: unpublishedReason}[after.status]
		events = append(events, domain.ListingUnpublishedEvent(id, slug, name, after.status, reason, at))
	}
	was := before.launchStatus()
	if after.status == domain.ListingScheduled && (was != domain.ListingScheduled || before.week != after.week) {
		events = append(events, domain.ListingScheduledEvent(id, slug, name, after.week, at, page))
	}
	if after.status == domain.ListingLive && was != domain.ListingLive {
		live := at
		if launched.Valid {
			live = time.Unix(launched.Int64, 0).UTC()
		}
		events = append(events, domain.ListingLiveEvent(id, slug, name, live, page))
	}
	for _, ev := range events {
		if err := db.addListingEventsTx(ctx, tx, siteID, id, ev); err != nil {
			return err
		}
	}
	return nil
}
