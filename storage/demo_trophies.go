package storage

import (
	"time"

	"github.com/launchdir/launchdir/domain/demo"
)

// writeTrophies inserts the demo trophies (demo.Trophies): verified by the
// site team, one unconfirmed; none is due for a check, so serve --demo never
// reads their (reserved .example) award pages.
func (w *demoWriter) writeTrophies(d *demo.Dataset) {
	for _, t := range demo.Trophies(d) {
		var since, rank any
		checked := t.VerifiedAt
		if !t.UnconfirmedSince.IsZero() {
			since, checked = t.UnconfirmedSince.Unix(), t.UnconfirmedSince
		}
		if t.Rank > 0 {
			rank = t.Rank
		}
		method := "site_team"
		if t.State == "unconfirmed" {
			method = "page"
		}
		w.exec(`INSERT INTO trophies (site_id, listing_id, platform, title, rank, won_on, award_url, state, method, reason,
			created_at, checked_at, verified_at, unconfirmed_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.siteID, w.ids[t.Listing], t.Platform, t.Title, rank, t.Date.Format("2006-01-02"), t.AwardURL, t.State, method, t.Reason,
			t.Date.Add(24*time.Hour).Unix(), checked.Unix(), t.VerifiedAt.Unix(), since)
	}
}
