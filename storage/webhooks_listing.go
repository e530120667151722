package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Listing state events (docs/webhooks.md, "Event types"): listing.published,
// listing.scheduled and listing.live compare a listing's status and launch
// week before a change with those after it, inside the change's transaction,
// so each transition raises its event once, whichever path made it (a badge
// check, a paid launch's fulfilment, the go-live of a week).

// listingMark is what the listing state events compare.
type listingMark struct {
	status, week string
}

// listingMarkTx reads listing id's status and launch week inside tx.
func listingMarkTx(ctx context.Context, tx *Tx, id int64) (listingMark, error) {
	var m listingMark
	var week sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT status, launch_week FROM listings WHERE id = ?`, id).Scan(&m.status, &week)
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
//   - listing.live when it became live.
func (db *DB) addListingStateEventsTx(ctx context.Context, tx *Tx, site domain.Site, siteID, id int64, before listingMark, at time.Time) error {
	after, err := listingMarkTx(ctx, tx, id)
	if err != nil || after == before {
		return err
	}
	var slug, name string
	var launched sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT slug, name, launched_at FROM listings WHERE id = ?`, id).Scan(&slug, &name, &launched); err != nil {
		return mapErr(err, "listing", "")
	}
	page := site.ListingPageURL(slug)
	var events []domain.ListingEventFunc
	if isPublic(after.status) && !isPublic(before.status) {
		events = append(events, domain.ListingPublishedEvent(id, slug, name, after.status, at, page))
	}
	if after.status == domain.ListingScheduled && (before.status != domain.ListingScheduled || before.week != after.week) {
		events = append(events, domain.ListingScheduledEvent(id, slug, name, after.week, at, page))
	}
	if after.status == domain.ListingLive && before.status != domain.ListingLive {
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
