package console

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// People on the console (docs/console.md "People"): the
// site team finds an account, sees what it did, and suspends it. A
// suspended account's sessions, tokens and keys stop working at once (auth
// checks the suspension where it resolves each credential) and its votes
// and reviews are held with the reason HeldSuspended until it is
// unsuspended.

// HeldSuspended is the reason of a vote or review held because its account
// is suspended.
const HeldSuspended = "suspended"

// SuspendReasonMax is the longest suspension reason, in characters.
const SuspendReasonMax = 500

// PersonAccount is one account as the console lists it.
type PersonAccount struct {
	ID        int64
	Email     string
	Name      string
	CreatedAt time.Time
	// SignIn is how the account signs in: "email link" or the OpenID
	// Connect issuer.
	SignIn string
	// Suspended is set while the account is suspended, with why and by whom.
	Suspended       bool
	SuspendedAt     time.Time
	SuspendedReason string
	SuspendedBy     string
}

// AccountListing is a listing the account owns or co-owns.
type AccountListing struct {
	Slug, Name, Status string
	Owner              bool // the submitter (false: a co-owner)
}

// AccountVote is one vote of the account. Status is counted, held or
// discarded; Reason why a held vote is held.
type AccountVote struct {
	ID                       int64
	ListingSlug, ListingName string
	Status, Reason           string
	At                       time.Time
}

// AccountReview is one review of the account.
type AccountReview struct {
	ID                       int64
	ListingSlug, ListingName string
	Stars                    int
	Status, Reason           string
	At                       time.Time
}

// AccountOrder is one order of the account.
type AccountOrder struct {
	Number, Status, Currency string
	TotalCents               int64
	CreatedAt                time.Time
}

// AccountDetail is what the console shows of one account.
type AccountDetail struct {
	PersonAccount
	APIKeys  int // active (unrevoked) API keys
	Apps     int // connected OAuth clients
	Listings []AccountListing
	Votes    []AccountVote
	Reviews  []AccountReview
	Orders   []AccountOrder
}

// PeopleStore finds accounts and suspends them. storage.Store implements it
// next to TeamStore; the Service finds it on its Team store (see people).
type PeopleStore interface {
	// FindAccounts returns at most limit accounts whose email contains q
	// (case-insensitive) or whose id is q, newest first.
	FindAccounts(ctx context.Context, q string, limit int) ([]PersonAccount, error)
	// AccountDetail returns the account with id (ENotFound when none).
	AccountDetail(ctx context.Context, id int64) (*AccountDetail, error)
	// SuspendAccount suspends (or, with suspend false, unsuspends) the
	// account, holds (or restores) its votes and reviews and writes entry,
	// all in one transaction. ENotFound for no such account; EConflict when
	// it is already in that state.
	SuspendAccount(ctx context.Context, id int64, suspend bool, reason string, entry AuditEntry) error
}

// people is s.People; an error when it is not set.
func (s *Console) people() (PeopleStore, error) {
	if s.People != nil {
		return s.People, nil
	}
	return nil, fmt.Errorf("people are not configured (no People store)")
}

// FindAccounts finds accounts by email (a substring, case-insensitive) or id.
func (s *Console) FindAccounts(ctx context.Context, q string, limit int) ([]PersonAccount, error) {
	p, err := s.people()
	if err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	if utf8.RuneCountInString(q) > 254 {
		return nil, domain.Invalid("q", "maxLength", "Search by at most 254 characters of an email address, or an account id.")
	}
	return p.FindAccounts(ctx, q, limit)
}

// AccountDetail is the account with id and what it did.
func (s *Console) AccountDetail(ctx context.Context, id int64) (*AccountDetail, error) {
	p, err := s.people()
	if err != nil {
		return nil, err
	}
	return p.AccountDetail(ctx, id)
}

// SuspendAccount suspends the account with id, by actor, for reason (1-500
// characters). A member of the site team cannot suspend themselves or an
// admin (EConflict).
func (s *Console) SuspendAccount(ctx context.Context, actor string, id int64, reason string) error {
	p, err := s.people()
	if err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if n := utf8.RuneCountInString(reason); n < 1 {
		return domain.Invalid("reason", "required", "Give the reason for the suspension in 1-%d characters (it is kept in the audit log).", SuspendReasonMax)
	} else if n > SuspendReasonMax {
		return domain.Invalid("reason", "maxLength", "Give the reason for the suspension in 1-%d characters (it is kept in the audit log); this one has %d.", SuspendReasonMax, n)
	}
	a, err := p.AccountDetail(ctx, id)
	if err != nil {
		return err
	}
	if strings.EqualFold(a.Email, actor) {
		return domain.Errorf(domain.EConflict, "You cannot suspend your own account.")
	}
	if role, err := s.TeamRole(ctx, a.Email); err != nil {
		return err
	} else if role == RoleAdmin {
		return domain.Errorf(domain.EConflict, "%s is an admin of the site team: an admin cannot be suspended. Remove them from the team first.", a.Email)
	}
	return p.SuspendAccount(ctx, id, true, reason,
		s.auditEntry(actor, "account.suspend", "account:"+strconv.FormatInt(id, 10), map[string]bool{"suspended": false},
			map[string]any{"suspended": true, "reason": reason}))
}

// UnsuspendAccount lifts the suspension of the account with id, by actor.
func (s *Console) UnsuspendAccount(ctx context.Context, actor string, id int64) error {
	p, err := s.people()
	if err != nil {
		return err
	}
	a, err := p.AccountDetail(ctx, id)
	if err != nil {
		return err
	}
	return p.SuspendAccount(ctx, id, false, "",
		s.auditEntry(actor, "account.unsuspend", "account:"+strconv.FormatInt(id, 10),
			map[string]any{"suspended": true, "reason": a.SuspendedReason}, map[string]bool{"suspended": false}))
}
