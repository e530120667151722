package storage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"math"
	"time"

	"github.com/launchdir/launchdir/domain"
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

// RecordVote records one counted vote by voterKey for a listing at time at:
// it inserts the vote (the votes_count trigger counts it) and updates
// trending_score, in one transaction. A second vote by the same voter is a
// conflict. It is for tests of data without accounts; people vote with
// CastVote (the demo data's people: castVotes).
func (s *Store) RecordVote(ctx context.Context, listingID int64, voterKey string, at time.Time) error {
	return mapErr(s.db.inTx(ctx, func(tx *Tx) error {
		var score float64
		if err := tx.QueryRowContext(ctx, `SELECT trending_score FROM listings WHERE id = ? AND site_id = ?`, listingID, s.siteID).Scan(&score); err != nil {
			return mapErr(err, "listing", "")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO votes (listing_id, voter_key, created_at) VALUES (?, ?, ?)`,
			listingID, voterKey, at.Unix()); err != nil {
			return mapErr(err, "vote", voterKey)
		}
		_, err := tx.ExecContext(ctx, `UPDATE listings SET trending_score = ? WHERE id = ?`, TrendingAdd(score, at), listingID)
		return err
	}), "vote", voterKey)
}

// voteAuditKey returns the key of the vote audit hashes, creating it on first use.
func voteAuditKey(ctx context.Context, tx *Tx, now time.Time) ([]byte, error) {
	fresh := domain.RandomBytes(32)
	if _, err := tx.ExecContext(ctx, `INSERT INTO vote_key (id, key, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING`,
		fresh, now.Unix()); err != nil {
		return nil, err
	}
	var key []byte
	err := tx.QueryRowContext(ctx, `SELECT key FROM vote_key WHERE id = 1`).Scan(&key)
	return key, err
}

// auditHash is HMAC-SHA256(key, kind NUL value), hex.
func auditHash(key []byte, kind, value string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(kind + "\x00" + value))
	return hex.EncodeToString(m.Sum(nil))
}

// recomputeTrending sets a listing's trending_score from its counted votes.
func recomputeTrending(ctx context.Context, tx *Tx, listingID int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT created_at FROM votes WHERE listing_id = ? AND status = 'counted' ORDER BY created_at, id`, listingID)
	if err != nil {
		return err
	}
	score := 0.0
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			rows.Close()
			return err
		}
		score = TrendingAdd(score, time.Unix(at, 0))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE listings SET trending_score = ? WHERE id = ?`, score, listingID)
	return err
}

// CastVote implements domain.VoteStore. The vote is one transaction, run
// again on PostgreSQL after a serialization failure (DB.inTx): votes of
// several people for one listing at once all update its votes_count.
func (s *Store) CastVote(ctx context.Context, v domain.VoteCast, jobs func(voteID int64, countAt time.Time) []domain.JobSpec) (*domain.VoteResult, error) {
	var res *domain.VoteResult
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		res, err = s.castVote(ctx, tx, v, jobs)
		return err
	})
	if err != nil {
		return nil, err // castVote maps its errors
	}
	return res, nil
}

// castVote is CastVote's transaction.
func (s *Store) castVote(ctx context.Context, tx *Tx, v domain.VoteCast, jobs func(voteID int64, countAt time.Time) []domain.JobSpec) (*domain.VoteResult, error) {
	var listingID int64
	var status string
	var owner bool
	err := tx.QueryRowContext(ctx, `SELECT l.id, l.status, `+s.db.eng.ownedBy()+` FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		v.UserID, v.UserID, s.siteID, v.Slug).Scan(&listingID, &status, &owner)
	if err != nil {
		return nil, mapErr(err, "listing", v.Slug)
	}
	if status != "live" {
		return nil, domain.Errorf(domain.EConflict, "This listing has not launched yet: votes open on its launch day.")
	}
	key := domain.VoterKey(v.UserID)
	var prev domain.VoteResult
	err = tx.QueryRowContext(ctx, `SELECT status, held_reason FROM votes WHERE listing_id = ? AND voter_key = ?`, listingID, key).
		Scan(&prev.Status, &prev.Reason)
	if err == nil {
		return &prev, nil // one vote per person and listing
	}
	if err != sql.ErrNoRows {
		return nil, mapErr(err, "vote", v.Slug)
	}
	var userCreated int64
	if err := tx.QueryRowContext(ctx, `SELECT created_at FROM users WHERE id = ?`, v.UserID).Scan(&userCreated); err != nil {
		return nil, mapErr(err, "account", "")
	}
	auditKey, err := voteAuditKey(ctx, tx, v.At)
	if err != nil {
		return nil, mapErr(err, "vote", v.Slug)
	}
	ipHash, uaHash := auditHash(auditKey, "network", v.Network), auditHash(auditKey, "user-agent", v.UserAgent)
	at := v.At.Unix()
	young := userCreated > v.At.Add(-v.BurstAccountAge).Unix()
	var burst []int64
	if !owner && young && v.BurstVotes > 0 {
		// Recent votes of this listing from this network by young accounts.
		burst, err = youngBurst(ctx, tx, "votes", listingID, ipHash, v.At, v.BurstWindow, v.BurstAccountAge, `AND x.held_reason <> 'owner'`)
		if err != nil {
			return nil, mapErr(err, "vote", v.Slug)
		}
		if len(burst)+1 < v.BurstVotes {
			burst = nil
		}
	}
	// The rules decide (the demo seed's castVotes applies the same ones).
	res, holdPeers := v.Judge(domain.VoteFacts{Owner: owner, AccountCreated: time.Unix(userCreated, 0), BurstPeers: burst})
	if !holdPeers {
		burst = nil
	}
	var countAt sql.NullInt64
	if !res.CountAt.IsZero() {
		countAt = sql.NullInt64{Int64: res.CountAt.Unix(), Valid: true}
	}
	var voteID int64
	err = tx.QueryRowContext(ctx, `INSERT INTO votes (listing_id, voter_key, created_at, user_id, status, held_reason, count_at, ip_hash, ua_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		listingID, key, at, v.UserID, res.Status, res.Reason, countAt, ipHash, uaHash).Scan(&voteID)
	if err != nil && isPGUniqueViolation(err) {
		// No vote of this person was there when this transaction read it: a
		// concurrent one of theirs was cast since. Run again (it finds it).
		return nil, raced{err}
	}
	if err != nil {
		return nil, mapErr(err, "vote", v.Slug)
	}
	for _, id := range burst {
		// The earlier votes of the burst are held too (the triggers uncount them).
		if _, err := tx.ExecContext(ctx, `UPDATE votes SET status = 'held', held_reason = 'burst', count_at = NULL WHERE id = ?`, id); err != nil {
			return nil, mapErr(err, "vote", v.Slug)
		}
	}
	if res.Status == domain.VoteCounted || burst != nil {
		if err := recomputeTrending(ctx, tx, listingID); err != nil {
			return nil, mapErr(err, "vote", v.Slug)
		}
	}
	if res.Reason == domain.HeldNewAccount && jobs != nil {
		if err := s.db.enqueueTx(ctx, tx, jobs(voteID, res.CountAt)...); err != nil {
			return nil, mapErr(err, "vote", v.Slug)
		}
	}
	return &res, nil
}

// RemoveVote implements domain.VoteStore (retried, DB.inTx).
func (s *Store) RemoveVote(ctx context.Context, userID int64, slug string) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		id, err := s.publicListingID(ctx, tx, slug)
		if err != nil {
			return err
		}
		var status string
		// A vote the site team discarded stays: it is not counted, and the
		// person cannot take it back to vote again (docs/moderation.md).
		err = tx.QueryRowContext(ctx, `DELETE FROM votes WHERE listing_id = ? AND voter_key = ? AND discarded_at IS NULL RETURNING status`,
			id, domain.VoterKey(userID)).Scan(&status)
		if err == sql.ErrNoRows {
			return nil // nothing to take back
		}
		if err != nil {
			return mapErr(err, "vote", slug)
		}
		if status == domain.VoteCounted {
			return mapErr(recomputeTrending(ctx, tx, id), "vote", slug)
		}
		return nil
	})
}

// CountDueVote implements domain.VoteStore (retried, DB.inTx).
func (s *Store) CountDueVote(ctx context.Context, voteID int64, at time.Time) (bool, error) {
	var counted bool
	err := s.db.inTx(ctx, func(tx *Tx) error {
		counted = false
		var listingID int64
		err := tx.QueryRowContext(ctx, `UPDATE votes SET status = 'counted', held_reason = '', count_at = NULL
			WHERE id = ? AND status = 'held' AND held_reason = 'new_account' AND count_at <= ? AND discarded_at IS NULL
			AND listing_id IN (SELECT id FROM listings WHERE site_id = ?) RETURNING listing_id`, voteID, at.Unix(), s.siteID).Scan(&listingID)
		if err == sql.ErrNoRows {
			return nil // taken back, held for another reason since, or not due
		}
		if err != nil {
			return err
		}
		if err := recomputeTrending(ctx, tx, listingID); err != nil {
			return err
		}
		counted = true
		return nil
	})
	return counted, mapErr(err, "vote", "")
}

// votedSlugsQuery is VotedSlugs' query: one person's votes on the site, found
// by votes_voter (migration 0037), then each one's listing, instead of one
// look-up per listing of the site (TestVotedSlugs_UsesVoterIndex). SQLite
// keeps its default statistics (no ANALYZE), under which both orders look
// alike and it took the site's listings first; CROSS JOIN is SQLite's way
// to fix the order (votes, then listings), and an inner join to PostgreSQL,
// which plans it from its statistics.
const votedSlugsQuery = `SELECT l.slug, CASE WHEN v.discarded_at IS NULL THEN v.held_reason ELSE 'discarded' END
		FROM votes v CROSS JOIN listings l
		WHERE l.id = v.listing_id AND l.site_id = ? AND v.voter_key = ?`

// VotedSlugs implements domain.VoteStore.
func (s *Store) VotedSlugs(ctx context.Context, userID int64) (map[string]string, error) {
	rows, err := s.db.sql.QueryContext(ctx, votedSlugsQuery, s.siteID, domain.VoterKey(userID))
	if err != nil {
		return nil, mapErr(err, "vote", "")
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var slug, held string
		if err := rows.Scan(&slug, &held); err != nil {
			return nil, mapErr(err, "vote", "")
		}
		out[slug] = held
	}
	return out, mapErr(rows.Err(), "vote", "")
}

// CountedVoteTimes implements domain.VoteDayCounter: the times of listing
// slug's counted (not held, not discarded) votes cast in [from, to).
func (s *Store) CountedVoteTimes(ctx context.Context, slug string, from, to time.Time) ([]time.Time, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT v.created_at FROM votes v JOIN listings l ON l.id = v.listing_id
		WHERE l.site_id = ? AND l.slug = ? AND v.status = 'counted' AND v.discarded_at IS NULL AND v.created_at >= ? AND v.created_at < ?`,
		s.siteID, slug, from.Unix(), to.Unix())
	if err != nil {
		return nil, mapErr(err, "vote", "")
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, mapErr(err, "vote", "")
		}
		out = append(out, time.Unix(at, 0).UTC())
	}
	return out, mapErr(rows.Err(), "vote", "")
}
