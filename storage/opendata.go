package storage

import (
	"context"
	"database/sql"
	"errors"
	"time"
	"unsafe"

	"github.com/launchdir/launchdir/domain"
)

// The open-data export's reads and its stored document (domain/opendata.go).

// EachOpenDataListing implements domain.OpenDataStore.
func (s *Store) EachOpenDataListing(ctx context.Context, each func(domain.ListingSummary) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var failed error
	err := s.querySummaries(ctx, `SELECT `+summaryCols+` FROM listings l`+summaryJoins+`
		WHERE l.site_id = ? AND `+publicStatus+` ORDER BY l.slug`, []any{s.siteID}, nil,
		func(ls domain.ListingSummary) {
			if failed == nil {
				if failed = each(ls); failed != nil {
					cancel() // the rows end at the next read
				}
			}
		})
	if failed != nil {
		return failed
	}
	return err
}

// week0 is a Monday 00:00 UTC in Unix seconds (1970-01-05): (t - week0) / 604800
// numbers the UTC week of t on both engines.
const week0, weekSeconds = 345600, 604800

// WeekTotals implements domain.OpenDataStore.
func (s *Store) WeekTotals(ctx context.Context) (launches, votes map[string]int, err error) {
	launches, votes = map[string]int{}, map[string]int{}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT l.launch_week, COUNT(*) FROM listings l
		WHERE l.site_id = ? AND l.status = 'live' AND l.launch_week IS NOT NULL GROUP BY l.launch_week`, s.siteID)
	if err != nil {
		return nil, nil, mapErr(err, "listing", "")
	}
	for rows.Next() {
		var week string
		var n int
		if err := rows.Scan(&week, &n); err != nil {
			rows.Close()
			return nil, nil, mapErr(err, "listing", "")
		}
		launches[week] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, mapErr(err, "listing", "")
	}
	rows, err = s.db.sql.QueryContext(ctx, `SELECT (v.created_at - ?) / ?, COUNT(*) FROM votes v JOIN listings l ON l.id = v.listing_id
		WHERE l.site_id = ? AND `+publicStatus+` AND v.status = 'counted' GROUP BY 1`,
		week0, weekSeconds, s.siteID)
	if err != nil {
		return nil, nil, mapErr(err, "vote", "")
	}
	defer rows.Close()
	for rows.Next() {
		var w int64
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return nil, nil, mapErr(err, "vote", "")
		}
		monday := time.Unix(week0+w*weekSeconds, 0).UTC().Format(domain.DateLayout)
		votes[monday] += n
	}
	return launches, votes, mapErr(rows.Err(), "vote", "")
}

// SaveOpenData implements domain.OpenDataStore.
func (s *Store) SaveOpenData(ctx context.Context, builtAt time.Time, body []byte) error {
	_, err := s.db.sql.ExecContext(ctx, `INSERT INTO open_data_exports (site_id, built_at, body) VALUES (?, ?, ?)
		ON CONFLICT (site_id) DO UPDATE SET built_at = excluded.built_at, body = excluded.body`,
		s.siteID, builtAt.Unix(), unsafe.String(unsafe.SliceData(body), len(body))) // not copied: tens of MB at 100k listings
	return mapErr(err, "open data export", "")
}

// LatestOpenData implements domain.OpenDataStore.
func (s *Store) LatestOpenData(ctx context.Context) (time.Time, []byte, bool, error) {
	var at int64
	var body string
	err := s.db.sql.QueryRowContext(ctx, `SELECT built_at, body FROM open_data_exports WHERE site_id = ?`, s.siteID).Scan(&at, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil, false, nil
	}
	if err != nil {
		return time.Time{}, nil, false, mapErr(err, "open data export", "")
	}
	return time.Unix(at, 0).UTC(), []byte(body), true, nil
}

// OpenDataBuiltAt implements domain.OpenDataStore.
func (s *Store) OpenDataBuiltAt(ctx context.Context) (time.Time, bool, error) {
	var at int64
	err := s.db.sql.QueryRowContext(ctx, `SELECT built_at FROM open_data_exports WHERE site_id = ?`, s.siteID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, mapErr(err, "open data export", "")
	}
	return time.Unix(at, 0).UTC(), true, nil
}
