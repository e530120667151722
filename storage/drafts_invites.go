package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// ---- Invites ----

// inviteCols are the columns scanInvite reads from draft_invites i.
const inviteCols = `i.id, i.email, i.created_at, i.accepted_at`

// scanInvite reads inviteCols; an invite with accepted_at is "accepted", else "sent".
func scanInvite(row interface{ Scan(...any) error }, extra ...any) (*domain.DraftInvite, error) {
	inv := &domain.DraftInvite{}
	var created int64
	var accepted sql.NullInt64
	if err := row.Scan(append([]any{&inv.ID, &inv.Email, &created, &accepted}, extra...)...); err != nil {
		return nil, err
	}
	inv.CreatedAt = time.Unix(created, 0).UTC()
	inv.AcceptedAt = unixTime(accepted)
	inv.Status = "sent"
	if inv.AcceptedAt != nil {
		inv.Status = "accepted"
	}
	return inv, nil
}

// AddDraftInvite records an invite to draftID for email (see domain.DraftStore).
// Addresses are compared case-insensitively; maxInvites <= 0 means no limit.
func (s *Store) AddDraftInvite(ctx context.Context, draftID, email, tokenHash string, maxInvites int, now time.Time) (*domain.DraftInvite, error) {
	return retry(ctx, func() (*domain.DraftInvite, error) {
		return s.addDraftInvite(ctx, draftID, email, tokenHash, maxInvites, now)
	})
}

// addDraftInvite is AddDraftInvite's transaction (AddDraftInvite retries it).
func (s *Store) addDraftInvite(ctx context.Context, draftID, email, tokenHash string, maxInvites int, now time.Time) (*domain.DraftInvite, error) {
	email = strings.TrimSpace(email)
	if email == "" || tokenHash == "" {
		return nil, fmt.Errorf("storage: draft invite: email and token hash are required")
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, mapErr(err, "invite", "")
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM drafts WHERE id = ? AND site_id = ?`, draftID, s.siteID).Scan(&one); err != nil {
		return nil, mapErr(err, "draft", draftID)
	}
	inv, err := scanInvite(tx.QueryRowContext(ctx, `SELECT `+inviteCols+` FROM draft_invites i
		WHERE i.draft_id = ? AND lower(i.email) = lower(?) ORDER BY i.id LIMIT 1`, draftID, email))
	switch {
	case err == nil:
		// Invited before: a new link replaces the old one (the old token stops
		// working); an invite not accepted yet starts its validity again.
		if _, err := tx.ExecContext(ctx, `UPDATE draft_invites SET hash = ?,
			created_at = CASE WHEN accepted_at IS NULL THEN ? ELSE created_at END WHERE id = ?`, tokenHash, now.Unix(), inv.ID); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		if inv.AcceptedAt == nil {
			inv.CreatedAt = now.UTC().Truncate(time.Second)
		}
	case err == sql.ErrNoRows:
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT lower(email)) FROM draft_invites WHERE draft_id = ?`,
			draftID).Scan(&n); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		if maxInvites > 0 && n >= maxInvites {
			return nil, domain.Invalid("email", "max_invites",
				"This listing already has %d invites, the most allowed; to send a new link, invite one of those addresses again.", n)
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO draft_invites (draft_id, email, hash, created_at)
			VALUES (?, ?, ?, ?) RETURNING id`, draftID, email, tokenHash, now.Unix()).Scan(&id); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		inv = &domain.DraftInvite{ID: id, Email: email, Status: "sent", CreatedAt: time.Unix(now.Unix(), 0).UTC()}
	default:
		return nil, mapErr(err, "invite", "")
	}
	if err := tx.Commit(); err != nil {
		return nil, mapErr(err, "invite", "")
	}
	return inv, nil
}

// DraftInvites lists the invites of draftID in the order they were made.
func (s *Store) DraftInvites(ctx context.Context, draftID string) ([]domain.DraftInvite, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+inviteCols+` FROM draft_invites i
		JOIN drafts d ON d.id = i.draft_id WHERE i.draft_id = ? AND d.site_id = ? ORDER BY i.id`,
		draftID, s.siteID)
	if err != nil {
		return nil, mapErr(err, "invite", "")
	}
	defer rows.Close()
	out := []domain.DraftInvite{}
	for rows.Next() {
		inv, err := scanInvite(rows)
		if err != nil {
			return nil, mapErr(err, "invite", "")
		}
		out = append(out, *inv)
	}
	return out, mapErr(rows.Err(), "invite", "")
}

// errInviteLink is the not_found answer for an unknown or replaced invite link.
// It does not echo the token's hash.
var errInviteLink = domain.Errorf(domain.ENotFound,
	"This invite link is not valid, or a newer invite replaced it; ask the listing's owner to invite you again.")

// DraftInviteByHash finds an invite of this site by its token hash.
func (s *Store) DraftInviteByHash(ctx context.Context, tokenHash string) (string, *domain.DraftInvite, error) {
	var draftID string
	inv, err := scanInvite(s.db.sql.QueryRowContext(ctx, `SELECT `+inviteCols+`, i.draft_id FROM draft_invites i
		JOIN drafts d ON d.id = i.draft_id WHERE i.hash = ? AND d.site_id = ?`, tokenHash, s.siteID), &draftID)
	if err == sql.ErrNoRows {
		return "", nil, errInviteLink
	}
	if err != nil {
		return "", nil, mapErr(err, "invite", "")
	}
	return draftID, inv, nil
}

// AcceptDraftInvite marks invite id accepted by userID at now. Accepting again
// by the same user changes nothing; an invite another account accepted gives a
// conflict.
func (s *Store) AcceptDraftInvite(ctx context.Context, id, userID int64, now time.Time) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.acceptDraftInvite(ctx, id, userID, now) })
	return err
}

// acceptDraftInvite is AcceptDraftInvite's transaction (AcceptDraftInvite retries it).
func (s *Store) acceptDraftInvite(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "invite", "")
	}
	defer tx.Rollback()
	var by sql.NullInt64
	key := strconv.FormatInt(id, 10)
	if err := tx.QueryRowContext(ctx, `SELECT i.accepted_by FROM draft_invites i JOIN drafts d ON d.id = i.draft_id
		WHERE i.id = ? AND d.site_id = ?`, id, s.siteID).Scan(&by); err != nil {
		return mapErr(err, "invite", key)
	}
	switch {
	case by.Valid && by.Int64 == userID:
		return nil
	case by.Valid:
		return domain.Errorf(domain.EConflict, "This invite was already accepted by another account; ask for a new invite.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE draft_invites SET accepted_by = ?, accepted_at = ? WHERE id = ?`,
		userID, now.Unix(), id); err != nil {
		return mapErr(err, "invite", key)
	}
	return mapErr(tx.Commit(), "invite", key)
}
