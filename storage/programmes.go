package storage

import (
	"context"
	"database/sql"
	"sort"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Award programmes (migrations 0033 and 0034, docs/trophies.md).

var _ domain.ProgrammeStore = (*Store)(nil)

const programmeCols = `p.id, p.slug, p.name, p.description, p.categories, p.launched_from, p.launched_to, p.entry_opens, p.entry_closes,
	p.voting_opens, p.voting_closes, p.winners, p.created_by, p.created_at, p.finalised_at,
	(SELECT count(*) FROM programme_entries e JOIN listings l ON l.id = e.listing_id WHERE e.programme_id = p.id AND ` + publicStatus + `)`

func scanProgramme(row interface{ Scan(...any) error }) (domain.ProgrammeRecord, error) {
	var p domain.ProgrammeRecord
	var cats string
	var eo, ec, vo, vc, created int64
	var fin sql.NullInt64
	err := row.Scan(&p.ID, &p.Slug, &p.Name, &p.Description, &cats, &p.LaunchedFrom, &p.LaunchedTo, &eo, &ec, &vo, &vc,
		&p.Winners, &p.CreatedBy, &created, &fin, &p.Entries)
	if cats != "" {
		p.Categories = strings.Split(cats, ",")
	}
	u := func(v int64) time.Time { return time.Unix(v, 0).UTC() }
	p.EntryOpens, p.EntryCloses, p.VotingOpens, p.VotingCloses, p.CreatedAt = u(eo), u(ec), u(vo), u(vc), u(created)
	p.FinalisedAt = unixTime(fin)
	return p, err
}

// categoryNames returns the names of the site's categories by slug.
func (s *Store) categoryNames(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT slug, name FROM categories WHERE site_id = ?`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "category", "")
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var slug, name string
		if err := rows.Scan(&slug, &name); err != nil {
			return nil, mapErr(err, "category", "")
		}
		out[slug] = name
	}
	return out, mapErr(rows.Err(), "category", "")
}

// CreateProgramme implements domain.ProgrammeStore.
func (s *Store) CreateProgramme(ctx context.Context, rec *domain.ProgrammeRecord, job func(id int64) domain.JobSpec) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		names, err := s.categoryNames(ctx, tx)
		if err != nil {
			return err
		}
		for _, c := range rec.Categories {
			if _, ok := names[c]; !ok {
				return domain.Invalid("categories", "enum", "categories: %q is not a category of this site (see /categories).", c)
			}
		}
		rec.CategoryNames = names
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM programmes WHERE site_id = ? AND slug = ?`, s.siteID, rec.Slug).Scan(&taken); err != nil {
			return mapErr(err, "programme", "")
		}
		if taken > 0 {
			return domain.Errorf(domain.EConflict, "A programme named %q (address /programmes/%s) exists already; choose another name.", rec.Name, rec.Slug)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO programmes (site_id, slug, name, description, categories, launched_from, launched_to,
			entry_opens, entry_closes, voting_opens, voting_closes, winners, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			s.siteID, rec.Slug, rec.Name, rec.Description, strings.Join(rec.Categories, ","), rec.LaunchedFrom, rec.LaunchedTo,
			rec.EntryOpens.Unix(), rec.EntryCloses.Unix(), rec.VotingOpens.Unix(), rec.VotingCloses.Unix(), rec.Winners, rec.CreatedBy,
			rec.CreatedAt.Unix()).Scan(&rec.ID); err != nil {
			return mapErr(err, "programme", rec.Slug)
		}
		return s.db.enqueueTx(ctx, tx, job(rec.ID))
	})
}

// Programmes implements domain.ProgrammeStore.
func (s *Store) Programmes(ctx context.Context, offset, limit int) ([]domain.ProgrammeRecord, int, error) {
	total, err := s.count(ctx, `SELECT count(*) FROM programmes WHERE site_id = ?`, s.siteID)
	if err != nil || total == 0 {
		return []domain.ProgrammeRecord{}, total, err
	}
	names, err := s.categoryNames(ctx, s.db.sql)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+programmeCols+` FROM programmes p WHERE p.site_id = ?
		ORDER BY p.voting_closes DESC, p.id DESC LIMIT ? OFFSET ?`, s.siteID, limit, offset)
	if err != nil {
		return nil, 0, mapErr(err, "programme", "")
	}
	defer rows.Close()
	out := []domain.ProgrammeRecord{}
	for rows.Next() {
		p, err := scanProgramme(rows)
		if err != nil {
			return nil, 0, mapErr(err, "programme", "")
		}
		p.CategoryNames = names
		out = append(out, p)
	}
	return out, total, mapErr(rows.Err(), "programme", "")
}

func (s *Store) programme(ctx context.Context, q queryRower, slug string) (*domain.ProgrammeRecord, error) {
	p, err := scanProgramme(q.QueryRowContext(ctx, `SELECT `+programmeCols+` FROM programmes p WHERE p.site_id = ? AND p.slug = ?`, s.siteID, slug))
	if err == sql.ErrNoRows {
		return nil, domain.Errorf(domain.ENotFound, "No programme %q exists (list_programmes lists them).", slug)
	}
	if err != nil {
		return nil, mapErr(err, "programme", slug)
	}
	return &p, nil
}

// Programme implements domain.ProgrammeStore.
func (s *Store) Programme(ctx context.Context, slug string) (*domain.ProgrammeRecord, error) {
	p, err := s.programme(ctx, s.db.sql, slug)
	if err != nil {
		return nil, err
	}
	if p.CategoryNames, err = s.categoryNames(ctx, s.db.sql); err != nil {
		return nil, err
	}
	return p, nil
}

// programmeVotes is the counted votes of entry e's listing cast in [?, ?).
const programmeVotes = `(SELECT count(*) FROM votes v WHERE v.listing_id = l.id AND v.status = 'counted' AND v.discarded_at IS NULL
	AND v.created_at >= ? AND v.created_at < ?)`

// ProgrammeEntries implements domain.ProgrammeStore.
func (s *Store) ProgrammeEntries(ctx context.Context, p *domain.ProgrammeRecord, until time.Time) ([]domain.ProgrammeEntry, error) {
	to := p.VotingCloses
	if until.Truncate(time.Second).Add(time.Second).Before(to) {
		to = until.Truncate(time.Second).Add(time.Second) // votes cast up to and including until
	}
	var out []domain.ProgrammeEntry
	var cat string
	var entered int64
	var votes int
	var rank sql.NullInt64
	err := s.querySummaries(ctx, `SELECT `+summaryCols+`, e.category, e.created_at, `+programmeVotes+`,
		(SELECT w.rank FROM programme_winners w WHERE w.programme_id = e.programme_id AND w.listing_id = l.id)
		FROM programme_entries e JOIN listings l ON l.id = e.listing_id`+summaryJoins+`
		WHERE e.programme_id = ? AND `+publicStatus+` ORDER BY e.created_at, l.id`,
		[]any{p.VotingOpens.Unix(), to.Unix(), p.ID},
		func() []any { return []any{&cat, &entered, &votes, &rank} },
		func(ls domain.ListingSummary) {
			e := domain.ProgrammeEntry{Listing: ls, Category: cat, EnteredAt: time.Unix(entered, 0).UTC(), Votes: votes}
			if rank.Valid {
				e.Rank, e.Winner = int(rank.Int64), true
			}
			if until.Before(p.VotingOpens) {
				e.Votes = 0
			}
			out = append(out, e)
		})
	if err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, c := range p.Categories {
		order[c] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Category != b.Category {
			return order[a.Category] < order[b.Category]
		}
		return a.Votes > b.Votes // stable: ties keep the earlier entry first
	})
	return out, nil
}

// entrant reads userID's listing id for the entry rules; ENotFound worded
// as everywhere in the owner's area when it is not theirs.
func (s *Store) entrant(ctx context.Context, tx *Tx, userID, id int64) (*domain.EntrantListing, error) {
	var l domain.EntrantListing
	var launched sql.NullInt64
	var week string
	err := tx.QueryRowContext(ctx, `SELECT l.id, l.slug, l.name, l.status, l.launched_at, COALESCE(l.launch_week, '') FROM listings l
		WHERE l.site_id = ? AND l.id = ? AND `+s.db.eng.ownedBy(), s.siteID, id, userID, userID).
		Scan(&l.ID, &l.Slug, &l.Name, &l.Status, &launched, &week)
	if err == sql.ErrNoRows {
		return nil, notOwned(id)
	}
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	l.LaunchDay = week
	if launched.Valid {
		l.LaunchDay = time.Unix(launched.Int64, 0).UTC().Format(domain.DateLayout)
	}
	rows, err := tx.QueryContext(ctx, `SELECT c.slug FROM listing_categories lc JOIN categories c ON c.id = lc.category_id
		WHERE lc.listing_id = ? ORDER BY lc.is_primary DESC, c.slug`, id)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, mapErr(err, "listing", "")
		}
		l.Categories = append(l.Categories, c)
	}
	return &l, mapErr(rows.Err(), "listing", "")
}

// EnterProgramme implements domain.ProgrammeStore.
func (s *Store) EnterProgramme(ctx context.Context, userID, listingID int64, slug string, at time.Time,
	rule func(p *domain.ProgrammeRecord, l *domain.EntrantListing) (string, error)) (*domain.ProgrammeEntryRecord, error) {
	var out *domain.ProgrammeEntryRecord
	err := s.db.inTx(ctx, func(tx *Tx) error {
		l, err := s.entrant(ctx, tx, userID, listingID)
		if err != nil {
			return err
		}
		p, err := s.programme(ctx, tx, slug)
		if err != nil {
			return err
		}
		if p.CategoryNames, err = s.categoryNames(ctx, tx); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM programme_entries WHERE programme_id = ? AND listing_id = ?`, p.ID, l.ID).Scan(&n); err != nil {
			return mapErr(err, "programme", slug)
		}
		if n > 0 {
			return domain.Errorf(domain.EConflict, "%s is entered in %s already (withdraw_programme_entry withdraws it).", l.Name, p.Name)
		}
		cat, err := rule(p, l)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO programme_entries (programme_id, listing_id, category, entered_by, created_at) VALUES (?, ?, ?, ?, ?)`,
			p.ID, l.ID, cat, userID, at.Unix()); err != nil {
			if isPGUniqueViolation(err) {
				return raced{err}
			}
			return mapErr(err, "programme", slug)
		}
		out = &domain.ProgrammeEntryRecord{ListingID: l.ID, Category: cat, CreatedAt: at.UTC()}
		return nil
	})
	return out, err
}

// WithdrawProgrammeEntry implements domain.ProgrammeStore.
func (s *Store) WithdrawProgrammeEntry(ctx context.Context, userID, listingID int64, slug string,
	rule func(p *domain.ProgrammeRecord) error) (*domain.ProgrammeEntryRecord, error) {
	var out *domain.ProgrammeEntryRecord
	err := s.db.inTx(ctx, func(tx *Tx) error {
		l, err := s.entrant(ctx, tx, userID, listingID)
		if err != nil {
			return err
		}
		p, err := s.programme(ctx, tx, slug)
		if err != nil {
			return err
		}
		var rec domain.ProgrammeEntryRecord
		var at int64
		err = tx.QueryRowContext(ctx, `SELECT category, created_at FROM programme_entries WHERE programme_id = ? AND listing_id = ?`, p.ID, l.ID).
			Scan(&rec.Category, &at)
		if err == sql.ErrNoRows {
			return domain.Errorf(domain.ENotFound, "%s is not entered in %s.", l.Name, p.Name)
		}
		if err != nil {
			return mapErr(err, "programme", slug)
		}
		if err := rule(p); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM programme_entries WHERE programme_id = ? AND listing_id = ?`, p.ID, l.ID); err != nil {
			return mapErr(err, "programme", slug)
		}
		rec.ListingID, rec.CreatedAt = l.ID, time.Unix(at, 0).UTC()
		out = &rec
		return nil
	})
	return out, err
}

// FinaliseProgramme implements domain.ProgrammeStore. The transaction
// first claims the programme (finalised_at from NULL): a second clock, in
// this process or another, finds it claimed and writes nothing.
func (s *Store) FinaliseProgramme(ctx context.Context, id int64, at time.Time) ([]domain.ProgrammeWin, error) {
	var out []domain.ProgrammeWin
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		out, err = decideProgramme(ctx, tx, s.siteID, id, at)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decideProgramme is FinaliseProgramme's transaction (the demo data's
// finished programme is decided by it too): it claims programme id of site
// if it closed by at and is not decided, ranks its entries and writes the
// winners and their notifications.
func decideProgramme(ctx context.Context, tx *Tx, siteID, id int64, at time.Time) ([]domain.ProgrammeWin, error) {
	var out []domain.ProgrammeWin
	err := func() error {
		res, err := tx.ExecContext(ctx, `UPDATE programmes SET finalised_at = ? WHERE site_id = ? AND id = ? AND finalised_at IS NULL AND voting_closes <= ?`,
			at.Unix(), siteID, id, at.Unix())
		if err != nil {
			return mapErr(err, "programme", "")
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // decided already, not closed yet, or gone
		}
		var slug, name string
		var winners int
		var vo, vc int64
		if err := tx.QueryRowContext(ctx, `SELECT slug, name, winners, voting_opens, voting_closes FROM programmes WHERE id = ?`, id).
			Scan(&slug, &name, &winners, &vo, &vc); err != nil {
			return mapErr(err, "programme", "")
		}
		rows, err := tx.QueryContext(ctx, `SELECT l.id, e.category, `+programmeVotes+` AS n FROM programme_entries e JOIN listings l ON l.id = e.listing_id
			WHERE e.programme_id = ? AND l.status = 'live' ORDER BY e.category, n DESC, e.created_at, l.id`, vo, vc, id)
		if err != nil {
			return mapErr(err, "programme", "")
		}
		type ranked struct {
			listing int64
			cat     string
			votes   int
		}
		var all []ranked
		for rows.Next() {
			var r ranked
			if err := rows.Scan(&r.listing, &r.cat, &r.votes); err != nil {
				rows.Close()
				return mapErr(err, "programme", "")
			}
			all = append(all, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "programme", "")
		}
		places := map[string]int{}
		for _, r := range all {
			if r.votes == 0 || places[r.cat] >= winners {
				continue
			}
			places[r.cat]++
			var winID int64
			if err := tx.QueryRowContext(ctx, `INSERT INTO programme_winners (programme_id, listing_id, category, rank, votes) VALUES (?, ?, ?, ?, ?) RETURNING id`,
				id, r.listing, r.cat, places[r.cat], r.votes).Scan(&winID); err != nil {
				return weekErr(err, "programme", "")
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, listing_id, programme_win_id, created_at)
				SELECT id, ?1, ?2, ?3 FROM (
					SELECT owner_id AS id FROM listings WHERE id = ?1 AND owner_id IS NOT NULL
					UNION SELECT user_id FROM listing_owners WHERE listing_id = ?1
					UNION SELECT u.id FROM follows f JOIN users u ON f.follower_key = 'user:' || u.id WHERE f.listing_id = ?1) AS recipients
				WHERE true ORDER BY id ON CONFLICT (programme_win_id, user_id) DO NOTHING`, r.listing, winID, at.Unix()); err != nil {
				return mapErr(err, "notification", "")
			}
			out = append(out, domain.ProgrammeWin{Programme: slug, ProgrammeName: name, Category: r.cat, Rank: places[r.cat], Votes: r.votes,
				ClosedOn: time.Unix(vc-1, 0).UTC().Format(domain.DateLayout)})
		}
		return nil
	}()
	return out, err
}

// ProgrammeWins implements domain.ProgrammeStore.
func (s *Store) ProgrammeWins(ctx context.Context, listingID int64, year int) ([]domain.ProgrammeWin, error) {
	where := `p.site_id = ? AND ` + publicStatus
	args := []any{s.siteID}
	if listingID > 0 {
		where += ` AND w.listing_id = ?`
		args = append(args, listingID)
	}
	if year > 0 {
		from := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		// closed_on is the last day of voting: voting_closes - 1 s.
		where += ` AND p.voting_closes > ? AND p.voting_closes <= ?`
		args = append(args, from.Unix(), from.AddDate(1, 0, 0).Unix())
	}
	names, err := s.categoryNames(ctx, s.db.sql)
	if err != nil {
		return nil, err
	}
	out := []domain.ProgrammeWin{}
	var w domain.ProgrammeWin
	var closes int64
	err = s.querySummaries(ctx, `SELECT `+summaryCols+`, p.slug, p.name, w.category, w.rank, w.votes, p.voting_closes
		FROM programme_winners w JOIN programmes p ON p.id = w.programme_id JOIN listings l ON l.id = w.listing_id`+summaryJoins+`
		WHERE `+where+` ORDER BY p.voting_closes, p.id, w.category, w.rank`, args,
		func() []any { return []any{&w.Programme, &w.ProgrammeName, &w.Category, &w.Rank, &w.Votes, &closes} },
		func(ls domain.ListingSummary) {
			x := w
			x.Listing = ls
			x.ClosedOn = time.Unix(closes-1, 0).UTC().Format(domain.DateLayout)
			x.CategoryName = names[x.Category]
			if x.Category == "" {
				x.CategoryName = domain.ProgrammeOverall
			} else if x.CategoryName == "" {
				x.CategoryName = x.Category
			}
			out = append(out, x)
		})
	return out, err
}

// ProgrammeWinRecipients lists the notifications of programme id's wins
// whose mail is not sent yet (domain.tellProgrammeWinners).
func (s *Store) ProgrammeWinRecipients(ctx context.Context, id int64) ([]domain.ProgrammeWinRecipient, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT n.id, u.email,
		(`+s.db.eng.same("l.owner_id", "u.id")+` OR EXISTS (SELECT 1 FROM listing_owners lo WHERE lo.listing_id = l.id AND lo.user_id = u.id)),
		l.slug, l.name, p.slug, pw.category, pw.rank, pw.votes
		FROM notifications n JOIN programme_winners pw ON pw.id = n.programme_win_id JOIN programmes p ON p.id = pw.programme_id
		JOIN listings l ON l.id = pw.listing_id JOIN users u ON u.id = n.user_id
		WHERE p.site_id = ? AND p.id = ? AND n.mailed_at IS NULL ORDER BY pw.category, pw.rank, n.id`, s.siteID, id)
	if err != nil {
		return nil, mapErr(err, "notification", "")
	}
	defer rows.Close()
	var out []domain.ProgrammeWinRecipient
	for rows.Next() {
		var r domain.ProgrammeWinRecipient
		if err := rows.Scan(&r.NotificationID, &r.Email, &r.Owner, &r.ListingSlug, &r.ListingName, &r.Programme, &r.Category, &r.Rank, &r.Votes); err != nil {
			return nil, mapErr(err, "notification", "")
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err(), "notification", "")
}
