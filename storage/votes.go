package storage

import (
	"context"
	"math"
	"time"
)

// Trending score parameters.
var (
	// TrendingEpoch is the reference time of trending scores.
	TrendingEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	// TrendingTau is the decay time constant: a vote counts e times less after TrendingTau.
	TrendingTau = 2 * 24 * time.Hour
)

// TrendingAdd returns the trending score after adding a vote cast at voteAt to score.
// The score is log(sum(exp((t_i - epoch) / tau))) over the listing's vote times t_i,
// computed stably; 0 means no votes. Scores of different listings compare at any moment
// as their time-decayed vote counts do, without recomputation.
func TrendingAdd(score float64, voteAt time.Time) float64 {
	x := voteAt.Sub(TrendingEpoch).Seconds() / TrendingTau.Seconds()
	if score == 0 {
		return x
	}
	hi, lo := math.Max(score, x), math.Min(score, x)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// RecordVote records one vote by voterKey for a listing at time at: it inserts
// the vote (the votes_count trigger counts it) and updates trending_score, in one
// transaction. A second vote by the same voter is a conflict.
func (s *Store) RecordVote(ctx context.Context, listingID int64, voterKey string, at time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "vote", voterKey)
	}
	defer tx.Rollback()
	var score float64
	if err := tx.QueryRowContext(ctx, `SELECT trending_score FROM listings WHERE id = ? AND site_id = ?`, listingID, s.siteID).Scan(&score); err != nil {
		return mapErr(err, "listing", "")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO votes (listing_id, voter_key, created_at) VALUES (?, ?, ?)`,
		listingID, voterKey, at.Unix()); err != nil {
		return mapErr(err, "vote", voterKey)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE listings SET trending_score = ? WHERE id = ?`, TrendingAdd(score, at), listingID); err != nil {
		return mapErr(err, "vote", voterKey)
	}
	return mapErr(tx.Commit(), "vote", voterKey)
}
