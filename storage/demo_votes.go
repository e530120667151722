package storage

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// castDemoVotes casts every vote of d, oldest first, in the seeding
// transaction, as castVote casts a person's vote on the site: the listing
// must be live, one vote per person and listing, the facts of each vote
// (owner, account age, burst peers by domain.VoteCast.BurstPeer) judged by
// domain.VoteCast.Judge, the audit hashes, the earlier votes of a burst held
// too, a vote held for its account's age with its job (domain.VoteCountJobs),
// and trending_score recomputed from the counted votes. castVote asks the
// database for each fact; here, thousands of votes into a new site, they are
// kept in memory, which is what makes a fresh demo fast
// (TestCastDemoVotes_SameAsCastVote holds the two to the same result).
func (w *demoWriter) castDemoVotes(d *demo.Dataset, users []int64) {
	type cast struct {
		l *demo.Listing
		v demo.Vote
	}
	var all []cast
	for _, l := range d.Listings {
		for _, v := range l.Votes {
			all = append(all, cast{l, v})
		}
	}
	slices.SortStableFunc(all, func(a, b cast) int { return a.v.At.Compare(b.v.At) })
	votes := make([]domain.VoteCast, len(all))
	created := map[int64]time.Time{}
	for i, c := range all {
		p := d.People[c.v.Person]
		votes[i] = domain.PersonVote(users[c.v.Person], c.l.Slug, p.Network, p.UserAgent, c.v.At, domain.DefaultVoteMinAccountAge)
		created[users[c.v.Person]] = time.Unix(p.CreatedAt.Unix(), 0)
	}
	w.flush()
	if w.err == nil {
		w.err = castVotes(w.ctx, w.db, w.tx, w.siteID, votes, created)
	}
}

// peerVote is a vote as the burst rule sees it.
type peerVote struct {
	id          int64
	at, created time.Time
	owner       bool
}

// castVotes casts votes (oldest first) of accounts made at created into the
// site's listings in tx, as castDemoVotes says.
func castVotes(ctx context.Context, db *DB, tx *Tx, siteID int64, votes []domain.VoteCast, created map[int64]time.Time) error {
	listings := map[string]int64{}
	owners := map[[2]int64]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT l.id, l.slug, COALESCE(l.owner_id, 0) FROM listings l WHERE l.site_id = ? AND l.status = 'live'`, siteID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id, owner int64
		var slug string
		if err := rows.Scan(&id, &slug, &owner); err != nil {
			rows.Close()
			return err
		}
		listings[slug], owners[[2]int64{id, owner}] = id, true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	co, err := tx.QueryContext(ctx, `SELECT lo.listing_id, lo.user_id FROM listing_owners lo JOIN listings l ON l.id = lo.listing_id WHERE l.site_id = ?`, siteID)
	if err != nil {
		return err
	}
	for co.Next() {
		var l, u int64
		if err := co.Scan(&l, &u); err != nil {
			co.Close()
			return err
		}
		owners[[2]int64{l, u}] = true
	}
	co.Close()
	if len(votes) == 0 {
		return co.Err()
	}
	auditKey, err := voteAuditKey(ctx, tx, votes[0].At)
	if err != nil {
		return err
	}
	// On PostgreSQL the votes go in batches (demo_batch.go) with ids taken
	// from the column's sequence up front, in the order the inserts would
	// have taken them, instead of one INSERT ... RETURNING id round trip per
	// vote (65 s of the demo seed at load average 13-19).
	bw := &demoWriter{ctx: ctx, db: db, tx: tx, siteID: siteID}
	var reserved []int64
	if db.eng.pricedRoundTrips() {
		if reserved, err = reserveIDs(ctx, tx, "votes", len(votes)); err != nil {
			return err
		}
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO votes (listing_id, voter_key, created_at, user_id, status, held_reason, count_at, ip_hash, ua_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return err
	}
	defer ins.Close()
	voted := map[[2]int64]bool{}
	peers := map[string][]peerVote{} // by listing id and network hash
	touched := map[int64]bool{}
	for i, v := range votes {
		listingID, ok := listings[v.Slug]
		if !ok {
			return fmt.Errorf("vote for %s: not a live listing", v.Slug)
		}
		if voted[[2]int64{listingID, v.UserID}] {
			return fmt.Errorf("vote for %s: a second vote of account %d", v.Slug, v.UserID)
		}
		voted[[2]int64{listingID, v.UserID}] = true
		ipHash, uaHash := auditHash(auditKey, "network", v.Network), auditHash(auditKey, "user-agent", v.UserAgent)
		facts := domain.VoteFacts{Owner: owners[[2]int64{listingID, v.UserID}], AccountCreated: created[v.UserID]}
		group := fmt.Sprint(listingID, " ", ipHash)
		for _, p := range peers[group] {
			if !facts.Owner && v.BurstVotes > 0 && v.BurstPeer(p.at, p.created, p.owner) {
				facts.BurstPeers = append(facts.BurstPeers, p.id)
			}
		}
		res, holdPeers := v.Judge(facts)
		var countAt sql.NullInt64
		if !res.CountAt.IsZero() {
			countAt = sql.NullInt64{Int64: res.CountAt.Unix(), Valid: true}
		}
		var id int64
		if reserved != nil {
			id = reserved[i]
			bw.exec(`INSERT INTO votes (id, listing_id, voter_key, created_at, user_id, status, held_reason, count_at, ip_hash, ua_hash)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, listingID, domain.VoterKey(v.UserID), v.At.Unix(), v.UserID, res.Status, res.Reason, countAt, ipHash, uaHash)
		} else if err := ins.QueryRowContext(ctx, listingID, domain.VoterKey(v.UserID), v.At.Unix(), v.UserID, res.Status, res.Reason, countAt, ipHash, uaHash).Scan(&id); err != nil {
			return fmt.Errorf("vote for %s: %w", v.Slug, err)
		}
		at := time.Unix(v.At.Unix(), 0)
		peers[group] = append(peers[group], peerVote{id: id, at: at, created: facts.AccountCreated, owner: res.Reason == domain.HeldOwner})
		if holdPeers {
			for _, p := range facts.BurstPeers {
				if reserved != nil {
					bw.exec(`UPDATE votes SET status = 'held', held_reason = 'burst', count_at = NULL WHERE id = ?`, p)
				} else if _, err := tx.ExecContext(ctx, `UPDATE votes SET status = 'held', held_reason = 'burst', count_at = NULL WHERE id = ?`, p); err != nil {
					return err
				}
			}
		}
		if res.Reason == domain.HeldNewAccount {
			if bw.flush(); bw.err != nil {
				return bw.err
			}
			if err := db.enqueueTx(ctx, tx, domain.VoteCountJobs(id, res.CountAt)...); err != nil {
				return err
			}
		}
		touched[listingID] = true
	}
	if bw.flush(); bw.err != nil {
		return bw.err
	}
	for _, id := range slices.SortedFunc(maps.Keys(touched), cmp.Compare[int64]) {
		if err := recomputeTrending(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}

// reserveIDs takes n values of table's id sequence (PostgreSQL), in the
// order n inserts would have taken them.
func reserveIDs(ctx context.Context, tx *Tx, table string, n int) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT nextval(pg_get_serial_sequence(?, 'id')) AS id FROM generate_series(1, ?) ORDER BY id`, table, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := make([]int64, 0, n)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) != n {
		return nil, fmt.Errorf("reserve %d %s ids: got %d", n, table, len(ids))
	}
	return ids, nil
}
