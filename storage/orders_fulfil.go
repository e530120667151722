package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// FulfilLine applies f and marks line index of a paid order fulfilled, in one
// transaction; a line fulfilled before is left alone (false), so a job that
// runs twice fulfils once. What f does to its listing:
//
//   - Launch: plan paid, story, milestones and media unlocked; with no
//     LaunchWeek live now (launch week the Monday of at), else scheduled for
//     LaunchWeek. A listing live already stays live since its first launch.
//   - QueueWeek: the free-queue week of a listing waiting for one (draft,
//     submitted, awaiting_badge or scheduled); draft and submitted become
//     awaiting_badge.
//   - Featured, ExtraCategories (attached as extra; ones attached already are
//     skipped), RelaunchWeek (booked), BillboardCents (a contribution; the
//     trigger of 0001 adds it to the total), Unlock (merged, sorted), Work.
func (s *OrderStore) FulfilLine(ctx context.Context, orderID int64, index int, f domain.Fulfilment, at time.Time, jobs ...domain.JobSpec) (bool, error) {
	return retry(ctx, func() (bool, error) { return s.fulfilLine(ctx, orderID, index, f, at, jobs...) })
}

// fulfilLine is FulfilLine in one transaction (retried by FulfilLine).
func (s *OrderStore) fulfilLine(ctx context.Context, orderID int64, index int, f domain.Fulfilment, at time.Time, jobs ...domain.JobSpec) (bool, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, mapErr(err, "order", "")
	}
	defer tx.Rollback()
	var number, status string
	var fulfilled sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT o.number, o.status, l.fulfilled_at FROM order_lines l
		JOIN orders o ON o.id = l.order_id WHERE l.order_id = ? AND l.idx = ? AND o.site_id = ?`,
		orderID, index, s.siteID).Scan(&number, &status, &fulfilled)
	if err != nil {
		return false, mapErr(err, "order line", fmt.Sprintf("%d/%d", orderID, index))
	}
	if fulfilled.Valid {
		return false, nil
	}
	if status != domain.OrderPaid {
		return false, domain.Errorf(domain.EConflict, "Order %s is %s: only a paid order's lines are fulfilled.", number, status)
	}
	var na notApplied
	if err := s.applyFulfilment(ctx, tx, orderID, number, f, at); errors.As(err, &na) {
		f.Outcome = "Not applied: " + string(na)
		jobs = nil // no week starts for what was not applied
	} else if err != nil {
		return false, fmt.Errorf("storage: fulfil order %s line %d: %w", number, index, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE order_lines SET fulfilled_at = ?, outcome = ? WHERE order_id = ? AND idx = ?`,
		at.Unix(), f.Outcome, orderID, index); err != nil {
		return false, mapErr(err, "order line", number)
	}
	if err := s.addOrderFulfilledEventTx(ctx, tx, orderID, at); err != nil {
		return false, mapErr(err, "webhook event", "")
	}
	if err := s.db.enqueueTx(ctx, tx, jobs...); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, mapErr(err, "order", number)
	}
	return true, nil
}

// notApplied: the line's listing cannot take it (archived, hidden or
// merged since the order was made); the refund_review work item for the team
// is written and the listing is left as it is. Its text ends the line's
// outcome "Not applied: ...".
type notApplied string

func (e notApplied) Error() string { return "not applied: " + string(e) }

// notAppliedReasons are why a paid line is not applied to a listing in that
// status: the outcome the owner reads, and the work item's reason for the team.
var notAppliedReasons = map[string][2]string{
	domain.ListingArchived: {"the listing was archived when its owner deleted their account; the site team reviews a refund.",
		"the listing was archived (its owner deleted their account) before this paid line was fulfilled; nothing was published"},
	domain.ListingHidden: {"the site team hid the listing before the payment arrived; the site team reviews a refund.",
		"the listing was hidden by the site team before this paid line was fulfilled; nothing was applied (unhiding does not apply it either)"},
	"unpublished": {"the site team unpublished the listing before the payment arrived; the site team reviews a refund.",
		"the listing was unpublished by the site team before this paid line was fulfilled; nothing was published"},
	domain.ListingMerged: {"the listing was merged into another listing before the payment arrived; the site team reviews a refund.",
		"the listing was merged into another before this paid line was fulfilled; nothing was applied to either (apply it to the surviving listing by hand, or refund)"},
}

// touchesListing reports whether f changes its listing.
func touchesListing(f domain.Fulfilment) bool {
	return f.Launch || f.QueueWeek != "" || f.Featured || len(f.ExtraCategories) > 0 || f.RelaunchWeek != "" ||
		f.BillboardCents > 0 || len(f.Unlock) > 0
}

// weekStart parses a launch week: the Monday's date, its 00:00 UTC.
func weekStart(week string) (time.Time, error) {
	d, err := time.Parse(domain.DateLayout, week)
	if err != nil || d.Weekday() != time.Monday {
		return time.Time{}, fmt.Errorf("week %q is not a Monday as YYYY-MM-DD", week)
	}
	return d, nil
}

// applyFulfilment makes f's changes inside tx (see FulfilLine).
func (s *OrderStore) applyFulfilment(ctx context.Context, tx *Tx, orderID int64, number string, f domain.Fulfilment, at time.Time) error {
	now := at.Unix()
	var before listingMark // the listing before f: its state events compare
	if touchesListing(f) {
		if f.ListingID == 0 {
			return fmt.Errorf("the fulfilment changes a listing but names none")
		}
		var status string
		var mergedInto, unpublished sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT status, merged_into, unpublished_at FROM listings WHERE id = ? AND site_id = ?`, f.ListingID, s.siteID).
			Scan(&status, &mergedInto, &unpublished); err != nil {
			return mapErr(err, "listing", strconv.FormatInt(f.ListingID, 10))
		}
		why, ok := notAppliedReasons[status]
		if status == domain.ListingArchived && unpublished.Valid {
			why = notAppliedReasons["unpublished"] // by the site team, not by an account deletion
		}
		if ok {
			// Archived: the owner deleted their account after paying
			// (docs/privacy.md). Hidden or merged by the site team after the
			// order was made (docs/orders.md). The listing stays as it is; the
			// team decides about a refund.
			details := map[string]any{"reason": why[1], "status": status}
			if mergedInto.Valid {
				details["merged_into"] = mergedInto.Int64
			}
			if err := s.insertWork(ctx, tx, domain.WorkItem{Kind: "refund_review", Details: details}, f.ListingID, number, at); err != nil {
				return err
			}
			return notApplied(why[0])
		}
		if f.Launch {
			if err := s.siteTakenAtFulfil(ctx, tx, orderID, number, f.ListingID, at); err != nil {
				return err
			}
		}
		var err error
		if before, err = listingMarkTx(ctx, tx, f.ListingID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE listings SET updated_at = ? WHERE id = ?`, now, f.ListingID); err != nil {
			return err
		}
	}
	exec := func(query string, args ...any) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	}
	unlock := f.Unlock
	if f.Launch {
		unlock = append(slices.Clone(unlock), domain.SectionStory, domain.SectionMilestones, domain.SectionMedia)
		var err error
		if f.LaunchWeek == "" {
			err = exec(`UPDATE listings SET plan = 'paid', status = 'live', scheduled_at = NULL,
				launched_at = CASE WHEN status = 'live' AND launched_at IS NOT NULL THEN launched_at ELSE ? END,
				launch_week = CASE WHEN status = 'live' AND launch_week IS NOT NULL THEN launch_week ELSE ? END
				WHERE id = ?`, now, domain.Monday(at).Format(domain.DateLayout), f.ListingID)
		} else if mon, werr := weekStart(f.LaunchWeek); werr != nil {
			err = werr
		} else {
			err = exec(`UPDATE listings SET plan = 'paid', status = 'scheduled', launch_week = ?, scheduled_at = ?
				WHERE id = ?`, f.LaunchWeek, mon.Unix(), f.ListingID)
		}
		if err != nil {
			return err
		}
	}
	if f.QueueWeek != "" {
		mon, err := weekStart(f.QueueWeek)
		if err != nil {
			return err
		}
		if err := exec(`UPDATE listings SET launch_week = ?, scheduled_at = ?,
			status = CASE WHEN status IN ('draft', 'submitted') THEN 'awaiting_badge' ELSE status END
			WHERE id = ? AND status IN ('draft', 'submitted', 'awaiting_badge', 'scheduled')`,
			f.QueueWeek, mon.Unix(), f.ListingID); err != nil {
			return err
		}
	}
	if f.Featured {
		if err := exec(`UPDATE listings SET featured = 1 WHERE id = ?`, f.ListingID); err != nil {
			return err
		}
	}
	for _, slug := range f.ExtraCategories {
		// The slug as bought, or the category it leads to since a rename or
		// merge on the console (category_redirects).
		res, err := tx.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary)
			SELECT ?1, id, 0 FROM categories WHERE site_id = ?2 AND id = COALESCE(
				(SELECT id FROM categories WHERE site_id = ?2 AND slug = ?3),
				(SELECT category_id FROM category_redirects WHERE site_id = ?2 AND slug = ?3))
			ON CONFLICT DO NOTHING`,
			f.ListingID, s.siteID, slug)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if ok, err := s.categoryIn(ctx, tx, slug); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("category %q no longer exists; attach another category to the listing by hand", slug)
			}
		}
	}
	if f.RelaunchWeek != "" {
		if _, err := weekStart(f.RelaunchWeek); err != nil {
			return err
		}
		if err := exec(`INSERT INTO relaunches (listing_id, week, order_id, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (listing_id, week) DO NOTHING`, f.ListingID, f.RelaunchWeek, orderID, now); err != nil {
			return err
		}
	}
	if f.BillboardCents > 0 {
		cur := f.Currency
		if cur == "" {
			cur = "USD" // the column's default in 0001
		}
		if err := exec(`INSERT INTO billboard_contributions (listing_id, amount_cents, currency, created_at)
			VALUES (?, ?, ?, ?)`, f.ListingID, f.BillboardCents, cur, now); err != nil {
			return err
		}
	}
	if len(unlock) > 0 {
		if err := mergeUnlocked(ctx, tx, f.ListingID, unlock); err != nil {
			return err
		}
	}
	for _, w := range f.Work {
		if err := s.insertWork(ctx, tx, w, f.ListingID, number, at); err != nil {
			return err
		}
		if w.Kind == domain.ProductTrophyVerification {
			// The paid trophy goes first in the console's queue (docs/trophies.md).
			if _, err := tx.ExecContext(ctx, `UPDATE trophies SET paid_order = ? WHERE id = ? AND listing_id = ?`,
				number, detailID(w.Details["trophy_id"]), f.ListingID); err != nil {
				return err
			}
		}
	}
	if touchesListing(f) {
		// listing.published / scheduled / live of what f did to the listing.
		return s.db.addListingStateEventsTx(ctx, tx, s.site, s.siteID, f.ListingID, before, at)
	}
	return nil
}

// siteTakenAtFulfil applies the first-to-publish rule (docs/drafts.md, rule
// site_listed) again when a launch is fulfilled: checkout refused it while
// someone else's listing of the same registrable domain was public, but that
// listing may have gone public between the order and the payment. Then the
// launch is not applied (notApplied) and a duplicate_review work item asks
// the site team to refund or merge.
func (s *OrderStore) siteTakenAtFulfil(ctx context.Context, tx *Tx, orderID int64, number string, listingID int64, at time.Time) error {
	var siteURL string
	var buyer int64
	if err := tx.QueryRowContext(ctx, `SELECT l.url, o.user_id FROM listings l, orders o WHERE l.id = ? AND o.id = ?`,
		listingID, orderID).Scan(&siteURL, &buyer); err != nil {
		return mapErr(err, "listing", strconv.FormatInt(listingID, 10))
	}
	reg := domain.SiteRegistrable(siteURL)
	if reg == "" {
		return nil
	}
	var other struct {
		id                 int64
		slug, name, domain string
	}
	err := queryEach(ctx, tx, func(rows *sql.Rows) error {
		var id int64
		var slug, name, dom string
		if err := rows.Scan(&id, &slug, &name, &dom); err != nil {
			return err
		}
		if other.id == 0 && domain.RegistrableDomain(dom) == reg {
			other.id, other.slug, other.name, other.domain = id, slug, name, dom
		}
		return nil
	}, `SELECT l.id, l.slug, l.name, l.domain FROM listings l WHERE l.id IN (SELECT d.id FROM listings d `+s.db.eng.indexedBy("listings_domain")+`
			WHERE d.domain = ?1 OR `+s.db.eng.suffix("d.domain", "length(?1) + 1")+` = '.' || ?1)
		AND l.site_id = ?2 AND l.id <> ?3 AND `+publicStatus+` AND NOT `+s.db.eng.ownedBy()+`
		ORDER BY l.status = 'live' DESC, l.id LIMIT 20`, reg, s.siteID, listingID, buyer, buyer)
	if err != nil {
		return mapErr(err, "listing", reg)
	}
	if other.id == 0 {
		return nil
	}
	if err := s.insertWork(ctx, tx, domain.WorkItem{Kind: "duplicate_review", Details: map[string]any{
		"reason": fmt.Sprintf("another account's listing of %s (%s, slug %s) went public between this order and its payment; "+
			"the launch was not applied (first to publish keeps the site): refund, or merge the listings", reg, other.name, other.slug),
		"registrable_domain": reg, "public_listing_id": other.id, "public_listing_slug": other.slug,
	}}, listingID, number, at); err != nil {
		return err
	}
	return notApplied(fmt.Sprintf("%s is already listed publicly by someone else (%s, slug %s); the site team reviews a refund "+
		"or a merge. If the site is yours, claim that listing with claim_listing.", reg, other.name, other.slug))
}

// categoryIn reports whether slug is a category of this site or an old
// slug leading to one, inside tx.
func (s *OrderStore) categoryIn(ctx context.Context, tx *Tx, slug string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM categories WHERE site_id = ?1 AND slug = ?2)
		+ (SELECT COUNT(*) FROM category_redirects WHERE site_id = ?1 AND slug = ?2)`, s.siteID, slug).Scan(&n)
	return n > 0, err
}

// mergeUnlocked adds sections to a listing's unlocked_sections: a sorted JSON
// array without duplicates.
func mergeUnlocked(ctx context.Context, tx *Tx, listingID int64, add []string) error {
	var cur string
	if err := tx.QueryRowContext(ctx, `SELECT unlocked_sections FROM listings WHERE id = ?`, listingID).Scan(&cur); err != nil {
		return err
	}
	var have []string
	if err := decodeJSON(cur, &have, "listing unlocked_sections"); err != nil {
		return err
	}
	merged := append(have, add...)
	slices.Sort(merged)
	merged = slices.Compact(merged)
	b, err := json.Marshal(merged)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE listings SET unlocked_sections = ? WHERE id = ?`, string(b), listingID)
	return err
}

// insertWork adds an open work item; its listing and order default to the line's.
func (s *OrderStore) insertWork(ctx context.Context, tx *Tx, w domain.WorkItem, listingID int64, number string, at time.Time) error {
	if w.Kind == "" {
		return fmt.Errorf("a work item needs its kind")
	}
	if w.ListingID == 0 {
		w.ListingID = listingID
	}
	if w.OrderNumber == "" {
		w.OrderNumber = number
	}
	details := []byte("{}")
	if w.Details != nil {
		var err error
		if details, err = json.Marshal(w.Details); err != nil {
			return fmt.Errorf("work item details: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO work_items (site_id, kind, listing_id, order_number, details, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, s.siteID, w.Kind, nullID(w.ListingID), w.OrderNumber, string(details), at.Unix())
	return err
}

// StartWeek makes listingID's launch of week happen at at: a listing
// scheduled for week goes live; else a relaunch booked for week on a live
// listing moves it into week's launches and is done. false, changing
// nothing, when neither applies (run before, or nothing was booked).
func (s *OrderStore) StartWeek(ctx context.Context, listingID int64, week string, at time.Time) (bool, error) {
	return startWeek(ctx, s.db, s.site, s.siteID, listingID, week, at)
}

// startWeek is StartWeek for listingID of site siteID: the one go-live of a
// scheduled launch, run by the week-start job of an order and by the weekly
// clock (Store.StartWeekLaunches), whichever comes first.
func startWeek(ctx context.Context, db *DB, site domain.Site, siteID, listingID int64, week string, at time.Time) (bool, error) {
	var started bool
	err := db.inTx(ctx, func(tx *Tx) error {
		started = false
		res, err := tx.ExecContext(ctx, `UPDATE listings SET status = 'live', launched_at = ?, updated_at = ?
			WHERE id = ? AND site_id = ? AND status = 'scheduled' AND launch_week = ?`,
			at.Unix(), at.Unix(), listingID, siteID, week)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		if n == 1 { // a scheduled listing went live: listing.live for its owners
			if err := db.addListingStateEventsTx(ctx, tx, site, siteID, listingID, listingMark{status: domain.ListingScheduled, week: week}, at); err != nil {
				return err
			}
		}
		if n == 0 {
			res, err = tx.ExecContext(ctx, `UPDATE listings SET launch_week = ?, launched_at = ?, updated_at = ?
				WHERE id = ? AND site_id = ? AND status = 'live' AND EXISTS (SELECT 1 FROM relaunches
					WHERE listing_id = ? AND week = ? AND state = 'booked')`,
				week, at.Unix(), at.Unix(), listingID, siteID, listingID, week)
			if err != nil {
				return err
			}
			if n, _ = res.RowsAffected(); n == 0 {
				return nil
			}
		}
		// A relaunch booked for the week it launches in anyway is done too.
		if _, err := tx.ExecContext(ctx, `UPDATE relaunches SET state = 'done', done_at = ?
			WHERE listing_id = ? AND week = ? AND state = 'booked'`, at.Unix(), listingID, week); err != nil {
			return mapErr(err, "relaunch", "")
		}
		started = true
		return nil
	})
	return started, mapErr(err, "listing", "")
}

// ---- Work items ----

// detailID is a whole-number detail of a work item as decoded from JSON
// (a float64) or set in Go; 0 when it is neither.
func detailID(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case int64:
		return n
	case int:
		return int64(n)
	}
	return 0
}
