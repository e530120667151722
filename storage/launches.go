package storage

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// weekVotesCol counts a listing's counted votes cast in [?1, ?2) (Unix seconds).
const weekVotesCol = `(SELECT COUNT(*) FROM votes v WHERE v.listing_id = l.id AND v.status = 'counted' AND v.created_at >= ?1 AND v.created_at < ?2)`

// WeekLaunches returns the live launches of the week starting at monday in
// the week's ranking (weekRankOrder; a finalised week as the clock froze it,
// week_results) and the scheduled ones (soonest first).
func (s *Store) WeekLaunches(ctx context.Context, monday time.Time) ([]domain.WeekLaunch, []domain.ListingSummary, error) {
	monday = domain.Monday(monday)
	week := monday.Format(domain.DateLayout)
	final, err := s.weekFinalised(ctx, s.db.sql, week)
	if err != nil {
		return nil, nil, err
	}
	live := []domain.WeekLaunch{}
	var rank, wv int
	query := `SELECT ` + summaryCols + `, 0, ` + weekVotesCol + ` FROM ` + summaryFrom + `
		WHERE ` + weekLaunchesWhere + ` ORDER BY ` + weekRankOrder
	if final {
		query = `SELECT ` + summaryCols + `, r.rank, r.votes FROM week_results r JOIN listings l ON l.id = r.listing_id` + summaryJoins + `
		WHERE r.site_id = ?3 AND r.week = ?4 AND ` + publicStatus + ` ORDER BY r.rank`
	}
	err = s.querySummaries(ctx, query, s.weekArgs(monday),
		func() []any { return []any{&rank, &wv} },
		func(ls domain.ListingSummary) {
			if !final {
				rank = len(live) + 1
			}
			live = append(live, domain.WeekLaunch{Rank: rank, WeekVotes: wv, Listing: ls})
		})
	if err != nil {
		return nil, nil, err
	}
	scheduled := []domain.ListingSummary{}
	err = s.querySummaries(ctx, `SELECT `+summaryCols+` FROM `+summaryFrom+`
		WHERE l.site_id = ? AND l.status = 'scheduled' AND l.launch_week = ?
		ORDER BY l.scheduled_at, l.name, l.id`, []any{s.siteID, monday.Format(domain.DateLayout)}, nil,
		func(ls domain.ListingSummary) { scheduled = append(scheduled, ls) })
	return live, scheduled, err
}

// Launches returns one section of the launch feeds (see domain.ListLaunchesInput)
// and the number of listings in the section.
func (s *Store) Launches(ctx context.Context, q domain.LaunchQuery) ([]domain.ListingSummary, int, error) {
	now := q.Now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	week := domain.Monday(now)
	// ?1 and ?2 bound the week for week votes; ?3 is the site.
	args := []any{week.Unix(), week.AddDate(0, 0, 7).Unix(), s.siteID}
	where, order := `l.site_id = ?3 AND l.status = 'live'`, ""
	switch q.Section {
	case "today":
		where += ` AND l.launched_at >= ?4 AND l.launched_at < ?5`
		args = append(args, day.Unix(), day.AddDate(0, 0, 1).Unix())
		order = `l.votes_count DESC, l.launched_at DESC, l.id DESC`
	case "this-week":
		where += ` AND l.launch_week = ?4`
		args = append(args, week.Format(domain.DateLayout))
		order = weekRankOrder
	case "trending":
		order = `l.trending_score DESC, l.votes_count DESC, l.id DESC`
	case "most-voted":
		order = `l.votes_count DESC, l.launched_at DESC, l.id DESC`
	case "recent":
		order = `l.launched_at DESC, l.id DESC`
	case "most-viewed":
		order = `l.views_count DESC, l.votes_count DESC, l.id DESC`
	case "most-followed":
		order = `l.follows_count DESC, l.votes_count DESC, l.id DESC`
	case "upcoming":
		where = `l.site_id = ?3 AND l.status = 'scheduled'`
		order = `l.launch_week, l.scheduled_at, l.id`
	default:
		return nil, 0, domain.Invalid("section", "enum", "section %q is not a launch feed section.", q.Section)
	}
	total, err := s.cachedCount(ctx, `SELECT COUNT(*) FROM listings l WHERE `+where, args...)
	if err != nil || total == 0 {
		return []domain.ListingSummary{}, total, err
	}
	n := len(args)
	items := []domain.ListingSummary{}
	err = s.querySummaries(ctx, `SELECT `+summaryCols+` FROM `+summaryFrom+` WHERE `+where+
		` ORDER BY `+order+` LIMIT ?`+strconv.Itoa(n+1)+` OFFSET ?`+strconv.Itoa(n+2),
		append(args, q.Limit, q.Offset), nil, func(ls domain.ListingSummary) { items = append(items, ls) })
	return items, total, err
}

// Leaderboard returns one page of a board and the number of ranked listings.
func (s *Store) Leaderboard(ctx context.Context, q domain.BoardQuery) ([]domain.BoardItem, int, error) {
	var from, where, metric, order string
	// extra are the source and the change of the Domain Rating and revenue
	// boards. Their counts are not cached: imports and figures change them
	// without a search_log entry (cachedCount keys on it).
	extra, count := `'', 0`, s.cachedCount
	args := []any{s.siteID}
	switch q.Board {
	case "community-weekly":
		week := domain.Monday(q.Week)
		args = s.weekArgs(week)
		from, where, metric, order = `listings l`, weekLaunchesWhere, weekVotesCol, weekRankOrder
		if final, err := s.weekFinalised(ctx, s.db.sql, week.Format(domain.DateLayout)); err != nil {
			return nil, 0, err
		} else if final { // as the clock froze it (WeekLaunches)
			from = `week_results r JOIN listings l ON l.id = r.listing_id`
			where, metric, order = `r.site_id = ?3 AND r.week = ?4 AND `+publicStatus, `r.votes`, `r.rank`
		}
	case "community-all-time":
		from, where = `listings l`, `l.site_id = ?1 AND l.status = 'live'`
		metric, order = `l.votes_count`, `l.votes_count DESC, l.launched_at DESC, l.id DESC`
	case "billboard":
		from = `(SELECT listing_id, SUM(amount_cents) AS cents FROM billboard_contributions GROUP BY listing_id) b
			JOIN listings l ON l.id = b.listing_id`
		where, metric, order = `l.site_id = ?1 AND l.status = 'live' AND b.cents > 0`, `b.cents`, `m DESC, l.votes_count DESC, l.id`
	case "domain-rating":
		from, extra, count = drBoardFrom+` JOIN listings l ON l.domain = d.domain`, `d.source, d.chg`, s.count
		where, metric, order = `l.site_id = ?1 AND l.status = 'live' AND l.domain <> ''`, `d.value`, `m DESC, l.votes_count DESC, l.id`
	case "revenue":
		from, extra, count = `(SELECT listing_id, amount_cents, source FROM (SELECT listing_id, amount_cents, source,
				ROW_NUMBER() OVER (PARTITION BY listing_id ORDER BY month DESC, source = 'verified' DESC) AS rn FROM revenue_figures) ranked WHERE rn = 1) r
			JOIN listings l ON l.id = r.listing_id`, `r.source, 0`, s.count
		where, metric, order = `l.site_id = ?1 AND l.status = 'live'`, `r.amount_cents`, `m DESC, l.votes_count DESC, l.id`
	default:
		return nil, 0, domain.NotFound("leaderboard", q.Board)
	}
	total, err := count(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+where, args...)
	if err != nil || total == 0 {
		return []domain.BoardItem{}, total, err
	}
	n := len(args)
	items := []domain.BoardItem{}
	var m, chg int64
	var source string
	err = s.querySummaries(ctx, `SELECT `+summaryCols+`, `+metric+` AS m, `+extra+` FROM `+from+summaryJoins+` WHERE `+where+
		` ORDER BY `+order+` LIMIT ?`+strconv.Itoa(n+1)+` OFFSET ?`+strconv.Itoa(n+2),
		append(args, q.Limit, q.Offset), func() []any { return []any{&m, &source, &chg} },
		func(ls domain.ListingSummary) {
			it := domain.BoardItem{Rank: q.Offset + len(items) + 1, Listing: ls, Metric: m, MetricLabel: metricLabel(q.Board, m)}
			switch q.Board {
			case "domain-rating":
				it.Source, it.Trend = source, domain.DRTrend(int(chg))
			case "revenue":
				it.Source = source
				it.MetricLabel += " (" + domain.RevenueSourceLabel(source) + ")"
			}
			items = append(items, it)
		})
	return items, total, err
}

// drBoardFrom is the latest Domain Rating reading of each domain (d.domain,
// d.value, d.source) with d.chg, the change since the earliest of the
// latest maxDRHistory readings of the same source: the trend a listing's
// profile shows (domainRating).
var drBoardFrom = `(SELECT domain, value, source, value - first AS chg FROM (
		SELECT h.domain, h.value, h.source, h.rn,
			FIRST_VALUE(h.value) OVER (PARTITION BY h.domain ORDER BY h.rn DESC) AS first
		FROM (SELECT x.domain, x.value, x.source,
				ROW_NUMBER() OVER (PARTITION BY x.domain ORDER BY x.date DESC, x.id DESC) AS rn
			FROM domain_ratings x JOIN (SELECT domain, source FROM (SELECT domain, source,
				ROW_NUMBER() OVER (PARTITION BY domain ORDER BY date DESC, id DESC) AS rn FROM domain_ratings) ranked WHERE rn = 1) t
				ON t.domain = x.domain AND t.source = x.source) h
		WHERE h.rn <= ` + strconv.Itoa(maxDRHistory) + `) trend WHERE rn = 1) d`

// metricLabel formats a board metric as a person reads it.
func metricLabel(board string, m int64) string {
	switch board {
	case "billboard":
		return dollars(m) + " contributed (paid)"
	case "revenue":
		return dollars(m) + " per month"
	case "domain-rating":
		return fmt.Sprintf("DR %d", m)
	}
	if m == 1 {
		return "1 vote"
	}
	return fmt.Sprintf("%d votes", m)
}

// Awards lists Launch of the Week awards, newest week first then by rank,
// optionally only those of one listing, with the total count.
func (s *Store) Awards(ctx context.Context, listingSlug string, offset, limit int) ([]domain.Award, int, error) {
	where := `a.site_id = ?1 AND ` + publicStatus
	args := []any{s.siteID}
	if listingSlug != "" {
		where += ` AND l.slug = ?2`
		args = append(args, listingSlug)
	}
	from := `awards a JOIN listings l ON l.id = a.listing_id`
	total, err := s.count(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+where, args...)
	if err != nil || total == 0 {
		return []domain.Award{}, total, err
	}
	n := len(args)
	out := []domain.Award{}
	var week string
	var rank, votes int
	err = s.querySummaries(ctx, `SELECT `+summaryCols+`, a.week, a.rank, a.votes FROM `+from+summaryJoins+` WHERE `+where+
		` ORDER BY a.week DESC, a.rank LIMIT ?`+strconv.Itoa(n+1)+` OFFSET ?`+strconv.Itoa(n+2),
		append(args, limit, offset), func() []any { return []any{&week, &rank, &votes} },
		func(ls domain.ListingSummary) {
			out = append(out, domain.Award{Week: week, Rank: rank, Title: awardTitle(rank), Votes: votes, Listing: ls})
		})
	return out, total, err
}
