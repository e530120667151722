package domain

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// A site already listed (docs/drafts.md): a draft whose URL's registrable
// domain (public suffix aware) already has a listing names it, and
// submit_draft does not save a second listing of that site.

// DomainListing is a listing at a registrable domain, as one user may see
// it: public (scheduled or live), or their own whatever its status.
type DomainListing struct {
	ID                 int64
	Slug, Name, Status string
	Domain             string
	CallerOwns         bool
}

// ExistingListing is the listing a draft's site already has.
type ExistingListing struct {
	Slug              string `json:"slug" jsonschema_description:"The listing's slug (get_listing, claim_listing)."`
	Name              string `json:"name"`
	Domain            string `json:"domain" jsonschema_description:"The listing's own domain."`
	RegistrableDomain string `json:"registrable_domain" jsonschema_description:"The registrable domain (public suffix plus one label) the draft's URL and the listing share, e.g. example.co.uk for app.example.co.uk."`
	Yours             bool   `json:"yours" jsonschema_description:"true: you own the listing; edit it with update_my_listing instead of submitting this draft. false: someone else does; take it over with claim_listing."`
	ListingID         int64  `json:"listing_id,omitempty" jsonschema_description:"Only when yours: the listing_id for get_my_listing and update_my_listing."`
	Message           string `json:"message" jsonschema_description:"What this means and what to do, in a sentence to show the person."`
}

// siteRegistrable is the registrable domain of a site URL: the public
// suffix plus one label of its host (example.co.uk for www.example.co.uk
// and app.example.co.uk; alice.github.io for alice.github.io). "" for an IP
// address, a single-label host such as localhost, or a public suffix itself:
// those have no registrable domain to share.
func siteRegistrable(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" || net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		return ""
	}
	r, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return ""
	}
	return r
}

// SiteRegistrable is siteRegistrable for the storage layer's checks.
func SiteRegistrable(rawURL string) string { return siteRegistrable(rawURL) }

// listingAtDomain finds the listing a draft at siteURL would repeat: one
// the user owns (any status) first, otherwise a public one of someone else;
// exclude is the draft's own listing. nil when there is none.
func (s *Service) listingAtDomain(ctx context.Context, d *Drafting, userID int64, siteURL string, exclude int64) (*ExistingListing, error) {
	reg := siteRegistrable(siteURL)
	if reg == "" {
		return nil, nil
	}
	found, err := d.Store.ListingsAtDomain(ctx, userID, reg)
	if err != nil {
		return nil, err
	}
	var pick *DomainListing
	for i := range found {
		l := &found[i]
		if l.ID == exclude || RegistrableDomain(l.Domain) != reg {
			continue
		}
		if pick == nil || l.CallerOwns && !pick.CallerOwns {
			pick = l
		}
	}
	if pick == nil {
		return nil, nil
	}
	e := &ExistingListing{Slug: pick.Slug, Name: pick.Name, Domain: pick.Domain, RegistrableDomain: reg, Yours: pick.CallerOwns}
	if e.Yours {
		e.ListingID = pick.ID
		e.Message = fmt.Sprintf("You already have a listing of %s: %s (slug %s, listing_id %d). Edit it with update_my_listing "+
			"(listing_id %d); submit_draft does not save a second listing of the same site.", reg, pick.Name, pick.Slug, pick.ID, pick.ID)
	} else {
		e.Message = fmt.Sprintf("%s is already listed as %s (slug %s), owned by someone else. If the site is yours, take that "+
			"listing over with claim_listing (slug %s); submit_draft does not save a second listing of the same site.", reg, pick.Name, pick.Slug, pick.Slug)
	}
	return e, nil
}

// publishedByOther is the public listing of someone else at the same
// registrable domain as siteURL, other than listing exclude: nil when there is
// none (or when drafting, which keeps the domain index, is not configured).
// Two people may each have saved a listing of one site before either was
// public; the first to publish keeps the site and the other is sent to
// claim_listing (docs/drafts.md, "A site already listed").
func (s *Service) publishedByOther(ctx context.Context, userID, exclude int64, siteURL string) (*DomainListing, error) {
	reg := siteRegistrable(siteURL)
	if reg == "" || s.Drafts == nil || s.Drafts.Store == nil {
		return nil, nil
	}
	found, err := s.Drafts.Store.ListingsAtDomain(ctx, userID, reg)
	if err != nil {
		return nil, err
	}
	for i := range found {
		// ListingsAtDomain answers public listings and the caller's own.
		if l := &found[i]; l.ID != exclude && !l.CallerOwns && RegistrableDomain(l.Domain) == reg {
			return l, nil
		}
	}
	return nil, nil
}

// siteTakenMessage says why a listing cannot be published beside other.
func siteTakenMessage(listingID int64, other *DomainListing) string {
	return fmt.Sprintf("listing %d cannot be published: its site %s is already listed publicly as %s (slug %s), owned by someone else. "+
		"If the site is yours, take that listing over with claim_listing (slug %s) instead of publishing a second one.",
		listingID, RegistrableDomain(other.Domain), other.Name, other.Slug, other.Slug)
}
