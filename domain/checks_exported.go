package domain

import (
	"context"
	"time"
)

// The checks and views below are the package's own, exported under these
// names so that its tests, which are all in package domain_test, call them
// as they are: a test file inside package domain would make go test compile
// every module package that the external tests import and that imports
// domain (storage, storage/fixtures, auth, domain/extract, ...) a second
// time, against the test build of domain.

// CheckClaimEmail is checkClaimEmail: the address of an email claim of a
// listing at domain, lower-cased, or the invalid error naming email.
func CheckClaimEmail(email, domain string) (string, error) { return checkClaimEmail(email, domain) }

// CheckClaimDNS is checkClaimDNS: the claim's TXT record looked up through r.
func CheckClaimDNS(ctx context.Context, r TXTResolver, rec *ClaimRecord) ClaimCheck {
	return checkClaimDNS(ctx, r, rec)
}

// CheckClaim is checkClaim: the proof of a dns, meta or file claim looked
// for at now through o's resolver and page fetcher.
func (s *Service) CheckClaim(ctx context.Context, o *Owning, rec *ClaimRecord, now time.Time) ClaimCheck {
	return s.checkClaim(ctx, o, rec, now)
}

// ClaimView is claimView: the claim as its owner reads it.
func (s *Service) ClaimView(rec *ClaimRecord) *Claim { return s.claimView(rec) }

// ClaimOpen is claimOpen: why rec cannot be verified now, nil when it can.
func (s *Service) ClaimOpen(rec *ClaimRecord) error { return s.claimOpen(rec) }

// CheckFounderInput is checkFounderInput: an invitee's profile, normalised,
// or the invalid error naming its field.
func CheckFounderInput(in FounderInput) (DraftFounder, error) { return checkFounderInput(in) }

// WithInvitedFounder is withInvitedFounder: founders with f's entry claimed,
// updated or appended, in a new slice.
func WithInvitedFounder(founders []DraftFounder, f DraftFounder) ([]DraftFounder, error) {
	return withInvitedFounder(founders, f)
}

// SealWebhookSecret is sealSecret: a webhook secret as it is stored.
func (s *Service) SealWebhookSecret(secret string) (string, error) { return s.sealSecret(secret) }

// OpenWebhookSecret is openSecret: a stored webhook secret, opened.
func (s *Service) OpenWebhookSecret(stored string) (string, error) { return s.openSecret(stored) }

// NowUTC is the service's clock read in UTC, as every operation reads it.
func (s *Service) NowUTC() time.Time { return s.now() }
