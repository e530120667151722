package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Votes are cast by signed-in people on the site only: there is no vote
// operation in the catalog, no REST route and no MCP tool (docs/votes.md).
// A vote counts at once unless it is held: an account younger than
// Service.VoteMinAccountAge (counted when the account is old enough, by
// VoteCountJob), an owner of the listing (never counted) or a burst (kept
// held for the site team). Only counted votes count anywhere.

// Vote statuses and the reasons a vote is held.
const (
	VoteCounted    = "counted"
	VoteHeld       = "held"
	HeldNewAccount = "new_account"
	HeldOwner      = "owner"
	HeldBurst      = "burst"
)

// The burst rule: when BurstVotes or more votes for one listing come from
// one network within BurstWindow, each from an account younger than
// BurstAccountAge, all of them are held (reason burst), the earlier ones
// included.
const (
	BurstVotes      = 3
	BurstWindow     = 10 * time.Minute
	BurstAccountAge = 7 * 24 * time.Hour
)

// DefaultVoteMinAccountAge is the default of --vote-min-account-age.
const DefaultVoteMinAccountAge = 24 * time.Hour

// VoteCountJob counts a vote held for its account's age once the account is
// old enough; its key is the vote id.
const VoteCountJob = "vote_count"

// VoterKey is the votes.voter_key of a signed-in account (the demo data's
// votes have other keys and no account).
func VoterKey(userID int64) string { return fmt.Sprintf("user:%d", userID) }

// VoteCast is one vote as the site received it. Network (ratelimit.Network)
// and UserAgent are stored only as keyed hashes.
type VoteCast struct {
	UserID    int64
	Slug      string
	Network   string
	UserAgent string
	At        time.Time
	// MinAccountAge holds the votes of younger accounts until they are this old.
	MinAccountAge time.Duration
	// The burst rule (see BurstVotes); BurstVotes 0 turns it off.
	BurstVotes      int
	BurstWindow     time.Duration
	BurstAccountAge time.Duration
}

// VoteFacts is what the vote rules (VoteCast.Judge) need to know of a vote
// as it arrives; the store gathers them.
type VoteFacts struct {
	Owner          bool      // the voter owns the listing (its submitter or a co-owner)
	AccountCreated time.Time // when the voter's account was made
	// BurstPeers are the earlier votes for the listing from the vote's
	// network that BurstPeer accepts.
	BurstPeers []int64
}

// BurstPeer reports whether an earlier vote for the same listing from the
// same network, cast at at by an account made at created (owner: the vote of
// an owner), makes a burst with v: cast within BurstWindow before v by an
// account younger than BurstAccountAge, not an owner's. CastVote's query
// states the same condition in SQL; the demo seed, with its votes in
// memory, uses this.
func (v VoteCast) BurstPeer(at, created time.Time, owner bool) bool {
	return !owner && at.After(v.At.Add(-v.BurstWindow)) && created.After(v.At.Add(-v.BurstAccountAge))
}

// Judge applies the vote rules to v with its facts: an owner's vote is held
// (never counts); a vote of a young account that makes BurstVotes with its
// burst peers is held as a burst, and holdPeers says the peers are held too;
// a vote of an account younger than MinAccountAge is held until CountAt;
// any other vote counts. Storage applies it to every vote (CastVote and the
// demo data's votes).
func (v VoteCast) Judge(f VoteFacts) (res VoteResult, holdPeers bool) {
	res = VoteResult{Status: VoteCounted, New: true}
	young := f.AccountCreated.After(v.At.Add(-v.BurstAccountAge))
	switch {
	case f.Owner:
		res.Status, res.Reason = VoteHeld, HeldOwner
	case young && v.BurstVotes > 0 && len(f.BurstPeers)+1 >= v.BurstVotes:
		res.Status, res.Reason = VoteHeld, HeldBurst
		holdPeers = true
	case f.AccountCreated.After(v.At.Add(-v.MinAccountAge)):
		res.Status, res.Reason = VoteHeld, HeldNewAccount
		res.CountAt = f.AccountCreated.Add(v.MinAccountAge).UTC()
	}
	return res, holdPeers
}

// VoteResult is the state of a person's vote after CastVote.
type VoteResult struct {
	Status string // VoteCounted or VoteHeld
	Reason string // why it is held: HeldNewAccount, HeldOwner, HeldBurst
	// CountAt is when a vote held for its account's age counts.
	CountAt time.Time
	// New is false when the person had voted already (nothing changed).
	New bool
}

// VoteStore keeps votes (storage.Store implements it).
type VoteStore interface {
	// CastVote stores v's vote for the live listing v.Slug with its audit
	// data and its status, and the jobs jobs returns for a vote held for
	// its account's age, in one transaction. A second vote of the same
	// person changes nothing and returns the first one's state.
	CastVote(ctx context.Context, v VoteCast, jobs func(voteID int64, countAt time.Time) []JobSpec) (*VoteResult, error)
	// RemoveVote takes back userID's vote for listing slug, if any.
	RemoveVote(ctx context.Context, userID int64, slug string) error
	// CountDueVote counts vote voteID if it is still held for its
	// account's age and that time has come by at; false when it did nothing.
	CountDueVote(ctx context.Context, voteID int64, at time.Time) (bool, error)
	// VotedSlugs returns the slugs of the listings userID voted for, each
	// with "" for a counted vote, the reason it is held, or VoteDiscarded.
	VotedSlugs(ctx context.Context, userID int64) (map[string]string, error)
}

func (s *Service) voteStore() (VoteStore, error) {
	if s.Votes == nil {
		return nil, Errorf(EInternal, "votes are not configured")
	}
	return s.Votes, nil
}

type voteCountPayload struct {
	VoteID int64 `json:"vote_id"`
}

// Vote casts the signed-in account userID's vote for listing slug from
// network and userAgent (stored hashed).
func (s *Service) Vote(ctx context.Context, userID int64, slug, network, userAgent string) (*VoteResult, error) {
	st, err := s.voteStore()
	if err != nil {
		return nil, err
	}
	return st.CastVote(ctx, PersonVote(userID, slug, network, userAgent, s.now(), s.voteMinAccountAge(ctx)), VoteCountJobs)
}

// PersonVote is the VoteCast of a person's vote at time at under the site's
// rules: the burst rule's constants and the given minimum account age.
// Service.Vote and the demo data's votes (storage.SeedDemo) use it.
func PersonVote(userID int64, slug, network, userAgent string, at time.Time, minAccountAge time.Duration) VoteCast {
	return VoteCast{UserID: userID, Slug: slug, Network: network, UserAgent: userAgent, At: at,
		MinAccountAge: minAccountAge, BurstVotes: BurstVotes, BurstWindow: BurstWindow, BurstAccountAge: BurstAccountAge}
}

// VoteCountJobs returns the job that counts vote voteID, held for its
// account's age, at countAt: the jobs argument of VoteStore.CastVote.
func VoteCountJobs(voteID int64, countAt time.Time) []JobSpec {
	return []JobSpec{{Kind: VoteCountJob, Key: fmt.Sprint(voteID), Payload: voteCountPayload{VoteID: voteID}, RunAt: countAt}}
}

// Unvote takes back userID's vote for listing slug.
func (s *Service) Unvote(ctx context.Context, userID int64, slug string) error {
	st, err := s.voteStore()
	if err != nil {
		return err
	}
	return st.RemoveVote(ctx, userID, slug)
}

// VotedSlugs returns the slugs of the listings userID voted for, each with
// "" for a counted vote, the reason it is held, or VoteDiscarded.
func (s *Service) VotedSlugs(ctx context.Context, userID int64) (map[string]string, error) {
	st, err := s.voteStore()
	if err != nil {
		return nil, err
	}
	return st.VotedSlugs(ctx, userID)
}

// RegisterVoteJobs registers the vote jobs with the runner: counting a vote
// held for its account's age.
func (s *Service) RegisterVoteJobs(r *Runner) {
	r.Handle(VoteCountJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p voteCountPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		st, err := s.voteStore()
		if err != nil {
			return Permanent(err)
		}
		_, err = st.CountDueVote(ctx, p.VoteID, s.now())
		return err
	}, MaxAttempts: 8})
}
