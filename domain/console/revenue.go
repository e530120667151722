package console

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Revenue figures (docs/console.md "Domain Rating and
// revenue"). A figure is one listing's revenue of one month, in US cents,
// with its source: verified (entered by the site team on /admin/revenue,
// after checking it) or owner (stated by the listing's owner on
// /account/listings/{id}/revenue, not checked). A month may have one figure
// of each source; the revenue board and the listing page show the verified
// one when there is one, and always say which it is.

// MaxRevenueCents is the largest monthly figure accepted: $100,000,000.00.
const MaxRevenueCents = 100_000_000_00

// RevenueFigure is one stored figure.
type RevenueFigure struct {
	ListingID   int64
	Listing     string // the listing's name
	Slug        string
	Month       string // YYYY-MM
	AmountCents int64
	Currency    string
	Source      string
	SetBy       string
	SetAt       time.Time
}

// RevenueStore keeps revenue figures.
type RevenueStore interface {
	// RevenueListing returns the id and name of the site's listing with slug
	// (any status); ENotFound when there is none.
	RevenueListing(ctx context.Context, slug string) (id int64, name string, err error)
	// RevenueFigures lists the site's latest figures, newest set first
	// (listingID 0: every listing's).
	RevenueFigures(ctx context.Context, listingID int64, limit int) ([]RevenueFigure, error)
	// SetRevenueFigure stores f (replacing the figure of the same listing,
	// month and source) and the audit entry audit makes of the figure it
	// replaced (nil: none), in one transaction.
	SetRevenueFigure(ctx context.Context, f RevenueFigure, audit func(before *RevenueFigure) *AuditEntry) error
}

// revenueStore is s.Revenue; an error when it is not set.
func (s *Console) revenueStore() (RevenueStore, error) {
	if s.Revenue != nil {
		return s.Revenue, nil
	}
	return nil, domain.Errorf(domain.EInternal, "revenue figures are not configured")
}

var (
	revenueMonthRe  = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])$`)
	revenueAmountRe = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]{1,2})?$`)
)

// CheckRevenue validates a month (YYYY-MM, 2000-01 to the current month of
// now) and an amount in dollars ("1234", "1,234.50", "$99.9"; 0 to
// 100,000,000.00), returning the amount in cents.
func CheckRevenue(month, amount string, now time.Time) (string, int64, []domain.FieldError) {
	var fe []domain.FieldError
	month = strings.TrimSpace(month)
	switch {
	case !revenueMonthRe.MatchString(month):
		fe = append(fe, domain.FieldError{Field: "month", Rule: "pattern", Message: fmt.Sprintf("The month is YYYY-MM, e.g. %s.", now.UTC().Format("2006-01"))})
	case month < "2000-01":
		fe = append(fe, domain.FieldError{Field: "month", Rule: "minimum", Message: "The month is 2000-01 or later."})
	case month > now.UTC().Format("2006-01"):
		fe = append(fe, domain.FieldError{Field: "month", Rule: "maximum", Message: fmt.Sprintf("The month %s has not ended or begun; the latest is %s.", month, now.UTC().Format("2006-01"))})
	}
	a := strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(amount), "$"), ",", "")
	var cents int64
	if !revenueAmountRe.MatchString(a) {
		fe = append(fe, domain.FieldError{Field: "amount", Rule: "pattern", Message: "The amount is in US dollars, a number with at most 2 decimals, e.g. 1234.50."})
	} else {
		whole, frac, _ := strings.Cut(a, ".")
		w, _ := strconv.ParseInt(whole, 10, 64)
		f, _ := strconv.ParseInt((frac + "00")[:2], 10, 64)
		cents = w*100 + f
		if cents > MaxRevenueCents {
			fe = append(fe, domain.FieldError{Field: "amount", Rule: "maximum", Message: "The amount is at most $100,000,000.00 a month."})
		}
	}
	return month, cents, fe
}

// SetVerifiedRevenue stores the site team's verified figure of a listing
// (by slug) for a month and writes the audit entry revenue.set with the
// figure before and after.
func (s *Console) SetVerifiedRevenue(ctx context.Context, actor, slug, month, amount string) (*RevenueFigure, error) {
	st, err := s.revenueStore()
	if err != nil {
		return nil, err
	}
	month, cents, fe := CheckRevenue(month, amount, s.now())
	slug = strings.ToLower(strings.TrimSpace(slug))
	var id int64
	var name string
	if slug == "" {
		fe = append([]domain.FieldError{{Field: "listing", Rule: "required", Message: "Name the listing by its slug (the last part of its address)."}}, fe...)
	} else if id, name, err = st.RevenueListing(ctx, slug); err != nil {
		if domain.ErrorCode(err) != domain.ENotFound {
			return nil, err
		}
		fe = append([]domain.FieldError{{Field: "listing", Rule: "exists", Message: fmt.Sprintf("There is no listing with the slug %q.", slug)}}, fe...)
	}
	if len(fe) > 0 {
		return nil, &domain.Error{Code: domain.EInvalid, Message: fe[0].Message, Fields: fe}
	}
	f := RevenueFigure{ListingID: id, Listing: name, Slug: slug, Month: month, AmountCents: cents, Currency: "USD",
		Source: domain.RevenueVerified, SetBy: actor, SetAt: s.now()}
	err = st.SetRevenueFigure(ctx, f, func(before *RevenueFigure) *AuditEntry {
		var b any
		if before != nil {
			b = revenueAudit(*before)
		}
		e := s.auditEntry(actor, "revenue.set", "listing "+slug+" "+month, b, revenueAudit(f))
		return &e
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

func revenueAudit(f RevenueFigure) map[string]any {
	return map[string]any{"listing": f.Slug, "month": f.Month, "amount_cents": f.AmountCents, "currency": f.Currency, "source": f.Source}
}

// StateOwnerRevenue stores the owner's own figure of one of their listings
// (userID must own listingID, else ENotFound). It does not replace a
// verified figure: the board keeps showing the verified one for that month.
func (s *Console) StateOwnerRevenue(ctx context.Context, userID, listingID int64, month, amount string) (*RevenueFigure, error) {
	st, err := s.revenueStore()
	if err != nil {
		return nil, err
	}
	own, err := s.ownerStore()
	if err != nil {
		return nil, err
	}
	l, err := own.OwnListing(ctx, userID, listingID)
	if err != nil {
		return nil, err
	}
	month, cents, fe := CheckRevenue(month, amount, s.now())
	if len(fe) > 0 {
		return nil, &domain.Error{Code: domain.EInvalid, Message: fe[0].Message, Fields: fe}
	}
	f := RevenueFigure{ListingID: listingID, Listing: l.Name, Slug: l.Slug, Month: month, AmountCents: cents, Currency: "USD",
		Source: domain.RevenueOwner, SetBy: fmt.Sprintf("owner (account %d)", userID), SetAt: s.now()}
	if err := st.SetRevenueFigure(ctx, f, func(*RevenueFigure) *AuditEntry { return nil }); err != nil {
		return nil, err
	}
	return &f, nil
}

// RevenueFigures lists the latest figures (of one listing, or all).
func (s *Console) RevenueFigures(ctx context.Context, listingID int64, limit int) ([]RevenueFigure, error) {
	st, err := s.revenueStore()
	if err != nil {
		return nil, err
	}
	return st.RevenueFigures(ctx, listingID, limit)
}

// OwnListingName is the name of one of userID's listings; ENotFound when
// it is not theirs.
func (s *Console) OwnListingName(ctx context.Context, userID, listingID int64) (string, error) {
	own, err := s.ownerStore()
	if err != nil {
		return "", err
	}
	l, err := own.OwnListing(ctx, userID, listingID)
	if err != nil {
		return "", err
	}
	return l.Name, nil
}
