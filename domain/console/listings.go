package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Listings on the console (docs/console.md "Listings"): the
// site team finds any listing in any status, hides it with a reason its
// owners see (moderators and admins) and unhides it, and admins unpublish
// it, merge a duplicate into another listing of the same company, transfer
// it to another account and edit its fields (a version like an owner's
// edit, checked by the same rules).

// TeamEditNote is the note of a version the site team wrote on the console.
const TeamEditNote = "Edited by the site team."

// ListingReasonMax is the longest reason for hiding or unpublishing a listing.
const ListingReasonMax = 500

// AdminListingStatuses are the statuses the console's search filters by.
var AdminListingStatuses = []string{domain.ListingDraft, domain.ListingSubmitted, domain.ListingAwaitingBadge, domain.ListingScheduled, domain.ListingLive,
	domain.ListingRejected, domain.ListingArchived, domain.ListingHidden, domain.ListingMerged}

// AdminListing is one listing as the console lists it.
type AdminListing struct {
	ID                  int64
	Slug, Name, Domain  string
	Status, Plan        string
	CompanyID           int64
	OwnerID             int64
	OwnerEmail          string // the submitter's email, "" when nobody owns it
	CreatedAt           time.Time
	HiddenAt            *time.Time
	HiddenReason        string
	HiddenBy            string
	HiddenStatus        string
	UnpublishedAt       *time.Time
	UnpublishedReason   string
	UnpublishedBy       string
	MergedInto          int64
	MergedIntoSlug      string
	Votes, Views        int
	Follows, ReviewsNum int
}

// Public is true when the listing shows on the site.
func (l *AdminListing) Public() bool {
	return l.Status == domain.ListingLive || l.Status == domain.ListingScheduled
}

// AdminListingDetail is what the console shows of one listing.
type AdminListingDetail struct {
	AdminListing
	// CoOwners are the emails of the owners besides the submitter.
	CoOwners []string
	// PendingClaims is how many claims of the listing are pending.
	PendingClaims int
	// Values are the editable fields (EditableFieldNames) as canonical JSON.
	Values map[string]json.RawMessage
	// History is the latest versions, newest first.
	History []domain.ListingVersionSummary
	// Siblings are the other listings of the same company on this site (merge candidates).
	Siblings []AdminListing
}

// AdminListingFilter selects listings for the console's search.
type AdminListingFilter struct {
	// Q matches name, domain or slug (substring, case-insensitive), an
	// owner's email (substring) or the id.
	Q      string
	Status string // "" for any
	Page   int    // 1, 2, ...
	Limit  int
}

// MergeCounts says what a merge moved to the survivor and what stayed on the
// merged listing (rows the survivor already had for the same person).
type MergeCounts struct {
	Votes, Reviews, Follows, Views, Updates, Owners, Categories, Versions int
	// Kept are rows left on the merged listing, by kind (a second vote or
	// review by the same person, a category or owner the survivor has).
	Kept map[string]int
}

// ListingAdminStore is the console's store for listings. storage.Store
// implements it; the Service finds it on its Team store (see listingAdmin).
// Each change writes its audit entry e in the same transaction.
type ListingAdminStore interface {
	AdminSearchListings(ctx context.Context, f AdminListingFilter) ([]AdminListing, int, error)
	// AdminListing returns listing id of this site in any status (ENotFound).
	AdminListing(ctx context.Context, id int64) (*AdminListingDetail, error)
	// HideListing hides (hide) or unhides the listing. EConflict when it is
	// hidden already (hide) or not hidden (unhide), or merged.
	HideListing(ctx context.Context, id int64, hide bool, reason string, e AuditEntry) error
	// UnpublishListing sets status archived with the reason. EConflict when
	// archived or merged already.
	UnpublishListing(ctx context.Context, id int64, reason string, e AuditEntry) error
	// MergeListings moves from's votes, reviews, follows, views, updates,
	// owners, categories and versions to into and marks from merged.
	MergeListings(ctx context.Context, from, into int64, e AuditEntry) (*MergeCounts, error)
	// TransferListing makes the account with email the listing's only owner
	// (ENotFound when there is no such account); that account's pending
	// claims of it are replaced.
	TransferListing(ctx context.Context, id int64, email string, e AuditEntry) error
	// TeamEditListing writes values as a version by the team member by
	// (by_team, reviewed at once); nil when nothing changed (no audit entry
	// either). e's Before and After are filled with the changed fields.
	TeamEditListing(ctx context.Context, id int64, values map[string]json.RawMessage, by string, e AuditEntry) (*domain.ListingVersionSummary, error)
	// MergedSlug is the slug of the listing that slug was merged into ("" when none).
	MergedSlug(ctx context.Context, slug string) (string, error)
}

// listingAdmin is s.ListingAdmin; an error when it is not set.
func (s *Console) listingAdmin() (ListingAdminStore, error) {
	if s.ListingAdmin != nil {
		return s.ListingAdmin, nil
	}
	return nil, fmt.Errorf("the listings console is not configured (no ListingAdmin store)")
}

// SearchAdminListings finds listings of this site in any status.
func (s *Console) SearchAdminListings(ctx context.Context, f AdminListingFilter) ([]AdminListing, int, error) {
	st, err := s.listingAdmin()
	if err != nil {
		return nil, 0, err
	}
	f.Q = strings.TrimSpace(f.Q)
	if n := utf8.RuneCountInString(f.Q); n > 254 {
		return nil, 0, domain.Invalid("q", "maxLength", "Search by at most 254 characters (a name, domain, slug, owner email or id); this has %d.", n)
	}
	if f.Status != "" && !slices.Contains(AdminListingStatuses, f.Status) {
		return nil, 0, domain.Invalid("status", "enum", "status must be one of %s, or empty for any.", strings.Join(AdminListingStatuses, ", "))
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.Limit < 1 || f.Limit > 100 {
		f.Limit = 50
	}
	return st.AdminSearchListings(ctx, f)
}

// AdminListing is listing id in any status, for the console.
func (s *Console) AdminListing(ctx context.Context, id int64) (*AdminListingDetail, error) {
	st, err := s.listingAdmin()
	if err != nil {
		return nil, err
	}
	return st.AdminListing(ctx, id)
}

// checkReason checks a hide or unpublish reason: 1-500 characters.
func checkReason(reason, what string) (string, error) {
	reason = strings.TrimSpace(reason)
	if n := utf8.RuneCountInString(reason); n < 1 {
		return "", domain.Invalid("reason", "required", "Give the reason for %s in 1-%d characters (the owners see it).", what, ListingReasonMax)
	} else if n > ListingReasonMax {
		return "", domain.Invalid("reason", "maxLength", "Give the reason for %s in 1-%d characters (the owners see it); this one has %d.", what, ListingReasonMax, n)
	}
	return reason, nil
}

func listingTarget(id int64) string { return "listing:" + strconv.FormatInt(id, 10) }

// HideListing hides listing id from every public read, by actor (a
// moderator or an admin), with a reason its owners see.
func (s *Console) HideListing(ctx context.Context, actor string, id int64, reason string) error {
	st, err := s.listingAdmin()
	if err != nil {
		return err
	}
	if reason, err = checkReason(reason, "hiding the listing"); err != nil {
		return err
	}
	l, err := st.AdminListing(ctx, id)
	if err != nil {
		return err
	}
	return st.HideListing(ctx, id, true, reason, s.auditEntry(actor, "listing.hide", listingTarget(id),
		map[string]string{"status": l.Status}, map[string]string{"status": domain.ListingHidden, "reason": reason}))
}

// UnhideListing puts a hidden listing back in the status it had.
func (s *Console) UnhideListing(ctx context.Context, actor string, id int64) error {
	st, err := s.listingAdmin()
	if err != nil {
		return err
	}
	l, err := st.AdminListing(ctx, id)
	if err != nil {
		return err
	}
	return st.HideListing(ctx, id, false, "", s.auditEntry(actor, "listing.unhide", listingTarget(id),
		map[string]string{"status": l.Status, "reason": l.HiddenReason}, map[string]string{"status": l.HiddenStatus}))
}

// UnpublishListing takes listing id down for good (status archived), by an
// admin, with a reason its owners see.
func (s *Console) UnpublishListing(ctx context.Context, actor string, id int64, reason string) error {
	st, err := s.listingAdmin()
	if err != nil {
		return err
	}
	if reason, err = checkReason(reason, "unpublishing the listing"); err != nil {
		return err
	}
	l, err := st.AdminListing(ctx, id)
	if err != nil {
		return err
	}
	return st.UnpublishListing(ctx, id, reason, s.auditEntry(actor, "listing.unpublish", listingTarget(id),
		map[string]string{"status": l.Status}, map[string]string{"status": domain.ListingArchived, "reason": reason}))
}

// MergeListings merges listing from into listing into: both of this site
// and of the same company (same company or same domain), neither merged.
func (s *Console) MergeListings(ctx context.Context, actor string, from, into int64) (*MergeCounts, error) {
	st, err := s.listingAdmin()
	if err != nil {
		return nil, err
	}
	if into < 1 {
		return nil, domain.Invalid("into", "required", "Choose the listing to keep (its id).")
	}
	if from == into {
		return nil, domain.Invalid("into", "not", "A listing cannot be merged into itself; choose the other listing of the company.")
	}
	a, err := st.AdminListing(ctx, from)
	if err != nil {
		return nil, err
	}
	b, err := st.AdminListing(ctx, into)
	if err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Code == domain.ENotFound {
			return nil, domain.Invalid("into", "exists", "There is no listing %d to merge into.", into)
		}
		return nil, err
	}
	if a.Status == domain.ListingMerged || b.Status == domain.ListingMerged {
		return nil, domain.Errorf(domain.EConflict, "One of the listings was merged already; merge into the listing it went to.")
	}
	same := a.CompanyID != 0 && a.CompanyID == b.CompanyID || a.Domain != "" && strings.EqualFold(a.Domain, b.Domain)
	if !same {
		return nil, domain.Invalid("into", "company", "%s and %s are not listings of one company (neither the same company nor the same domain); only duplicates are merged.", a.Name, b.Name)
	}
	return st.MergeListings(ctx, from, into, s.auditEntry(actor, "listing.merge", listingTarget(from),
		map[string]any{"status": a.Status, "slug": a.Slug}, map[string]any{"status": domain.ListingMerged, "merged_into": into, "into_slug": b.Slug}))
}

// TransferListing makes the account with email the only owner of listing
// id, by an admin: the previous owners lose access.
func (s *Console) TransferListing(ctx context.Context, actor string, id int64, email string) error {
	st, err := s.listingAdmin()
	if err != nil {
		return err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return domain.Invalid("email", "required", "Give the email of the account that gets the listing.")
	}
	if n := utf8.RuneCountInString(email); n > 254 || !strings.Contains(email, "@") {
		return domain.Invalid("email", "format", "Give the email address of an account (at most 254 characters, with an @).")
	}
	l, err := st.AdminListing(ctx, id)
	if err != nil {
		return err
	}
	before := append([]string{l.OwnerEmail}, l.CoOwners...)
	return st.TransferListing(ctx, id, email, s.auditEntry(actor, "listing.transfer", listingTarget(id),
		map[string]any{"owners": before}, map[string]any{"owners": []string{email}}))
}

// AdminEditListing edits listing id's fields as the site team member actor:
// checked by update_my_listing's rules (the caller validates in against its
// schema first, like any operation input), kept as a version in the same
// history as the owners' edits, marked as the site team's.
func (s *Console) AdminEditListing(ctx context.Context, actor string, in domain.UpdateMyListingInput) (*domain.ListingVersionSummary, error) {
	st, err := s.listingAdmin()
	if err != nil {
		return nil, err
	}
	if len(in.ApplyTo) > 0 {
		return nil, domain.Invalid("apply_to", "not", "The console edits this listing only.")
	}
	values, err := domain.ListingEditValues(&in)
	if err != nil {
		return nil, err
	}
	if _, err := st.AdminListing(ctx, in.ListingID); err != nil {
		return nil, err
	}
	if len(values) == 0 {
		return nil, nil
	}
	return st.TeamEditListing(ctx, in.ListingID, values, actor, s.auditEntry(actor, "listing.edit", listingTarget(in.ListingID), nil, nil))
}
