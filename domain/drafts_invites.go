package domain

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of the founder profile an invitee fills in (the same as
// update_draft's FounderInput schema, which the invite page cannot rely on).
const (
	maxFounderName  = 160
	maxFounderTitle = 160
	maxFounderBio   = 3000
	// MaxFounders is the spec's "founders (max 6, first is primary)".
	MaxFounders = 6
)

// InviteTokenPrefix starts every invite token (InviteCofounder makes them).
const InviteTokenPrefix = "ld_inv_"

// InviteInfo is what the invite page shows about an invite link.
type InviteInfo struct {
	DraftID string
	// ProductName is the draft's name, or its site URL while it has none.
	ProductName string
	ProductURL  string
	// Founders are the names the listing already shows, first is primary.
	Founders []string
	// Email is the invited address. The page shows it only to that address.
	Email     string
	InvitedAt time.Time
	// ExpiresAt is when an unaccepted link stops working (InviteDays after it was sent).
	ExpiresAt time.Time
	Expired   bool
	Accepted  bool
	// ForCaller reports whether the signed-in caller's email is the invited address.
	ForCaller bool
	// Building is true while the draft is being built from its site, when a
	// profile cannot be added yet.
	Building bool
	// Founder is the profile this invite added, to fill the form in again (nil before).
	Founder *DraftFounder
}

// errInviteToken is the answer for a link that is not an invite token at all;
// it says the same as the store's answer for an unknown one.
var errInviteToken = Errorf(ENotFound, "This invite link is not valid; check that the whole link from the mail was opened, or ask the listing's owner to invite you again.")

// invite loads an invite by its token and the draft it belongs to.
func (s *Service) invite(ctx context.Context, token string) (*Drafting, *DraftInvite, *DraftRecord, error) {
	d, err := s.drafting()
	if err != nil {
		return nil, nil, nil, err
	}
	if !strings.HasPrefix(token, InviteTokenPrefix) || len(token) > 200 {
		return nil, nil, nil, errInviteToken
	}
	draftID, inv, err := d.Store.DraftInviteByHash(ctx, SecretHash(token))
	if err != nil {
		return nil, nil, nil, err
	}
	rec, err := d.Store.Draft(ctx, draftID, false)
	if err != nil {
		return nil, nil, nil, err
	}
	return d, inv, rec, nil
}

// inviteExpires is when an invite link stops working unless it was accepted.
func inviteExpires(inv *DraftInvite) time.Time {
	return inv.CreatedAt.Add(InviteDays * 24 * time.Hour)
}

// invitedFounder returns the index of the founder entry an invite of email
// added, or -1.
func invitedFounder(founders []DraftFounder, email string) int {
	for i, f := range founders {
		if f.Invited != "" && strings.EqualFold(f.Invited, email) {
			return i
		}
	}
	return -1
}

// InviteInfo describes the invite of a link for the signed-in caller: which
// product, who was invited, whether it is accepted or expired. An unknown
// token is ENotFound.
func (s *Service) InviteInfo(ctx context.Context, token string) (*InviteInfo, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	_, inv, rec, err := s.invite(ctx, token)
	if err != nil {
		return nil, err
	}
	name, ok := rec.Doc.Fields["name"].text()
	if !ok {
		name = rec.URL
	}
	info := &InviteInfo{
		DraftID: rec.ID, ProductName: name, ProductURL: rec.URL, Founders: []string{}, Email: inv.Email,
		InvitedAt: inv.CreatedAt, ExpiresAt: inviteExpires(inv), Accepted: inv.AcceptedAt != nil,
		ForCaller: c.Email != "" && strings.EqualFold(c.Email, inv.Email),
		Building:  building(rec),
	}
	info.Expired = !info.Accepted && !s.now().Before(info.ExpiresAt)
	for _, f := range rec.Doc.Founders {
		info.Founders = append(info.Founders, f.Name)
	}
	if i := invitedFounder(rec.Doc.Founders, inv.Email); i >= 0 {
		f := rec.Doc.Founders[i]
		info.Founder = &f
	}
	return info, nil
}

// checkFounderInput checks and normalises an invitee's profile, naming the field.
func checkFounderInput(in FounderInput) (DraftFounder, error) {
	f := DraftFounder{Name: NormalizeSpace(in.Name), Title: NormalizeSpace(in.Title), Bio: strings.TrimSpace(in.Bio)}
	for _, c := range []struct {
		field, value string
		max          int
	}{{"name", f.Name, maxFounderName}, {"title", f.Title, maxFounderTitle}, {"bio", f.Bio, maxFounderBio}} {
		if !utf8.ValidString(c.value) {
			return f, Invalid(c.field, "format", "%s must be text (valid UTF-8).", c.field)
		}
		if n := utf8.RuneCountInString(c.value); n > c.max {
			return f, Invalid(c.field, "maxLength", "%s is %d characters long; shorten it to at most %d.", c.field, n, c.max)
		}
	}
	if f.Name == "" {
		return f, Invalid("name", "required", "name is required: the name the listing shows for you.")
	}
	return f, nil
}

// withInvitedFounder returns founders with f as the invitee's entry: their
// earlier entry (matched by the invited email) is updated; else an entry of
// the same name nobody claimed yet (one the AI drafted from the site) becomes
// theirs, so the listing does not name them twice; else f is appended.
func withInvitedFounder(founders []DraftFounder, f DraftFounder) ([]DraftFounder, error) {
	out := append([]DraftFounder(nil), founders...)
	i := invitedFounder(out, f.Invited)
	if i < 0 {
		for j, o := range out {
			if o.Invited == "" && strings.EqualFold(o.Name, f.Name) {
				i = j
				break
			}
		}
	}
	if i >= 0 {
		// Socials found or typed for them stay; the evidence was for the old text.
		f.Socials = out[i].Socials
		out[i] = f
		return out, nil
	}
	if len(out) >= MaxFounders {
		return nil, Invalid("founders", "maxItems",
			"The listing already names %d founders, the most it can show; ask the listing's owner to remove one, then send the form again.", len(out))
	}
	return append(out, f), nil
}

// AcceptInvite adds (or, accepted before, updates) the signed-in invitee's
// own founder profile on the invite's draft, and on its listing when the
// draft was submitted. The caller's email must be the invited address. An
// unaccepted link expires InviteDays after it was sent; once accepted, the
// invitee may use it again to change their profile.
func (s *Service) AcceptInvite(ctx context.Context, token string, in FounderInput) error {
	c, err := requireCaller(ctx)
	if err != nil {
		return err
	}
	d, inv, rec, err := s.invite(ctx, token)
	if err != nil {
		return err
	}
	if c.Email == "" {
		return Errorf(EForbidden, "Your account has no verified email address, and this invite is for the address it was mailed to; sign in with the invited address through the email link.")
	}
	if !strings.EqualFold(c.Email, inv.Email) {
		return Errorf(EForbidden, "This invite was sent to a different email address than the one you are signed in with; sign out and sign in with the invited address (the one the invite was mailed to).")
	}
	if inv.AcceptedAt == nil && !s.now().Before(inviteExpires(inv)) {
		return Errorf(EGone, "This invite expired on %s (a link works for %d days); ask the listing's owner to invite you again.",
			inviteExpires(inv).Format("2 January 2006"), InviteDays)
	}
	f, err := checkFounderInput(in)
	if err != nil {
		return err
	}
	f.Invited = strings.ToLower(inv.Email)
	// Everything that can refuse the change is checked before the invite is
	// marked accepted; a failure after it leaves the link usable again by the
	// same account (accepting twice is a no-op).
	if building(rec) {
		return Errorf(EConflict, "The listing is still being drafted from its website; open the invite link again in a minute.")
	}
	if _, err := withInvitedFounder(rec.Doc.Founders, f); err != nil {
		return err
	}
	if err := d.Store.AcceptDraftInvite(ctx, inv.ID, c.UserID, s.now()); err != nil {
		return err
	}
	defer lockDraft(rec.ID)() // draft_retry.go
	for attempt := 1; ; attempt++ {
		founders, err := withInvitedFounder(rec.Doc.Founders, f)
		if err != nil {
			return err
		}
		rec.Doc.Founders = founders
		// The founders are now the people's own: a later AI redraft keeps them.
		if !containsFold(rec.Doc.Edited, "founders") {
			rec.Doc.Edited = append(rec.Doc.Edited, "founders")
		}
		// A submitted draft's listing follows. When the owner's part of the
		// draft no longer makes a valid listing, the invitee cannot fix that:
		// the draft keeps their profile and the owner's next update_draft or
		// submit_draft, which reports the problem, carries it to the listing.
		var w *ListingWrite
		if rec.ListingID != 0 {
			if w, err = s.listingWrite(ctx, rec); err != nil && ErrorCode(err) != EInvalid {
				return err
			}
		}
		if w != nil {
			w.Parts = map[string]bool{"founders": true}
		}
		rec.UpdatedAt = s.now()
		err = d.Store.SaveDraftAndListing(ctx, rec, w)
		if errors.Is(err, ErrStale) && attempt < draftWriteAttempts {
			if rec, err = d.Store.Draft(ctx, rec.ID, false); err != nil {
				return err
			}
			continue
		}
		return err
	}
}
