package domain

import (
	"context"
	"time"
)

// The emailed claim link: the page it opens and its Confirm button.

// ClaimLink is what the page an emailed link opens shows.
type ClaimLink struct {
	Claim
	// ClaimantEmail is who becomes an owner when the link is confirmed.
	ClaimantEmail string
	// Open is true while the link may still be confirmed.
	Open bool
	// Closed says why it may not, when it may not.
	Closed string
}

// linkClaim returns the claim whose emailed link has secret.
func (s *Service) linkClaim(ctx context.Context, secret string) (ClaimStore, *ClaimRecord, error) {
	st, err := s.claimStore()
	if err != nil {
		return nil, nil, err
	}
	rec, err := st.LinkClaim(ctx, SecretHash(secret))
	return st, rec, err
}

// ClaimLinkPage reads the claim of an emailed link for its page; ENotFound
// when no claim has the link (never mailed, or replaced by a newer link).
func (s *Service) ClaimLinkPage(ctx context.Context, secret string) (*ClaimLink, error) {
	_, rec, err := s.linkClaim(ctx, secret)
	if err != nil {
		return nil, err
	}
	out := &ClaimLink{Claim: *s.claimView(rec), ClaimantEmail: rec.ClaimantEmail}
	if err := s.claimOpen(rec); err != nil {
		out.Closed = err.(*Error).Message
	} else {
		out.Open = true
	}
	return out, nil
}

// ConfirmClaimLink verifies the email claim of an emailed link (the person
// pressed Confirm on its page). EGone, with claimOpen's reason, when the
// link no longer works (verified, expired, replaced, the listing moved).
func (s *Service) ConfirmClaimLink(ctx context.Context, secret string) (*ClaimLink, error) {
	st, rec, err := s.linkClaim(ctx, secret)
	if err != nil {
		return nil, err
	}
	if err := s.claimOpen(rec); err != nil {
		return nil, &Error{Code: EGone, Message: err.(*Error).Message}
	}
	v, err := s.completeClaim(ctx, st, rec, s.now().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	return &ClaimLink{Claim: *v, ClaimantEmail: rec.ClaimantEmail}, nil
}
