package storage

import (
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// writeProgrammes inserts the demo award programmes (docs/trophies.md): a
// finished one, "Autumn Makers' Choice", whose entries are the live
// listings launched in the eight weeks before its voting window and whose
// winners are decided from the demo votes cast in that window by the
// clock's own transaction (decideProgramme); and one in its entry window,
// "Winter Launch Awards", with two categories, two entries and its closing
// job queued.
func (w *demoWriter) writeProgrammes(d *demo.Dataset) {
	if w.err != nil {
		return
	}
	mon := d.Monday
	// Finished: entries from 6 weeks ago for a week, voting 5 to 3 weeks ago.
	votingOpens, votingCloses := mon.AddDate(0, 0, -35), mon.AddDate(0, 0, -21)
	fin := w.programme(fmt.Sprintf("Autumn Makers' Choice %d", votingCloses.Year()), "autumn-makers-choice",
		"The community's favourite launches of the autumn: every live product launched in the eight weeks before voting could enter.",
		"", mon.AddDate(0, 0, -42), mon.AddDate(0, 0, -35), votingOpens, votingCloses, 3, d.Now.AddDate(0, 0, -50))
	from := votingOpens.AddDate(0, 0, -56)
	n := 0
	for _, l := range d.Listings {
		if l.Status != domain.StatusLive || l.LaunchedAt.Before(from) || !l.LaunchedAt.Before(votingOpens) || n == 12 {
			continue
		}
		n++
		w.exec(`INSERT INTO programme_entries (programme_id, listing_id, category, created_at) VALUES (?, ?, '', ?)`,
			fin, w.ids[l.Index], mon.AddDate(0, 0, -42).Add(time.Duration(n)*time.Hour).Unix())
	}
	w.flush() // decideProgramme reads the entries queued above
	if w.err == nil {
		if _, err := decideProgramme(w.ctx, w.tx, w.siteID, fin, votingCloses.Add(time.Minute)); err != nil {
			w.err = err
		}
	}
	// In its entry window: entries this week and next, voting from next week.
	var cats []string
	for _, c := range d.Cats {
		if c.Parent == "" && len(cats) < 2 {
			cats = append(cats, c.Slug)
		}
	}
	open := w.programme(fmt.Sprintf("Winter Launch Awards %d", mon.AddDate(0, 0, 27).Year()), "winter-launch-awards",
		"Awards for the products launching this winter, one per category, voted by the community.",
		cats[0]+","+cats[1], mon, mon.AddDate(0, 0, 14), mon.AddDate(0, 0, 7), mon.AddDate(0, 0, 28), 1, d.Now.AddDate(0, 0, -3))
	n = 0
	for _, l := range d.Listings {
		if l.Status != domain.StatusLive || l.Cat == nil || n == 2 || (l.Cat.Slug != cats[0] && l.Cat.Parent != cats[0]) {
			continue
		}
		n++
		w.exec(`INSERT INTO programme_entries (programme_id, listing_id, category, created_at) VALUES (?, ?, ?, ?)`,
			open, w.ids[l.Index], cats[0], d.Now.Add(-time.Duration(n)*time.Hour).Unix())
	}
	w.flush()
	if w.err == nil {
		w.err = w.db.enqueueTx(w.ctx, w.tx, domain.ProgrammeCloseJobSpec(open, mon.AddDate(0, 0, 28)))
	}
}

// programme inserts a programme and returns its id.
func (w *demoWriter) programme(name, slug, desc, cats string, entryOpens, entryCloses, votingOpens, votingCloses time.Time, winners int, created time.Time) int64 {
	if w.err != nil {
		return 0
	}
	w.flush() // a read of the transaction (RETURNING id) sees every queued statement
	if w.err != nil {
		return 0
	}
	var id int64
	w.err = w.tx.QueryRowContext(w.ctx, `INSERT INTO programmes (site_id, slug, name, description, categories, entry_opens, entry_closes,
		voting_opens, voting_closes, winners, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'demo', ?) RETURNING id`,
		w.siteID, slug, name, desc, cats, entryOpens.Unix(), entryCloses.Unix(), votingOpens.Unix(), votingCloses.Unix(), winners, created.Unix()).Scan(&id)
	return id
}
