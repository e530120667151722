package domain

import (
	"context"
	"slices"
	"strconv"
	"time"
)

// Listing statuses: the whole list. The spec names submitted, awaiting_badge,
// scheduled and live; a submitted draft is saved as draft (docs/drafts.md).
// Only scheduled and live listings are public.
const (
	ListingDraft         = "draft"
	ListingSubmitted     = "submitted"
	ListingAwaitingBadge = "awaiting_badge"
	ListingScheduled     = "scheduled"
	ListingLive          = "live"
	ListingRejected      = "rejected"
	ListingArchived      = "archived"
)

// MyListingSummary is one of the caller's listings, in any status.
type MyListingSummary struct {
	ID      int64  `json:"id" jsonschema_description:"The listing_id to use with get_my_listing and in order items."`
	Slug    string `json:"slug"`
	Name    string `json:"name"`
	Tagline string `json:"tagline,omitempty"`
	URL     string `json:"url,omitempty"`
	Status  string `json:"status" jsonschema:"enum=draft,enum=submitted,enum=awaiting_badge,enum=scheduled,enum=live,enum=rejected,enum=archived,enum=hidden,enum=merged" jsonschema_description:"draft (saved, not published), submitted, awaiting_badge (free queue, waiting for our badge on the homepage), scheduled (public, launches in launch_week), live, rejected, archived, hidden (by the site team: see moderation), merged (into another listing)."`
	Plan    string `json:"plan" jsonschema:"enum=free,enum=paid"`
	// LaunchWeek is nil until the listing has a launch week.
	LaunchWeek *string `json:"launch_week" jsonschema_extras:"nullable=true" jsonschema_description:"Monday (YYYY-MM-DD) of the launch week; null until there is one (a draft)."`
	Featured   bool    `json:"featured"`
	Verified   bool    `json:"verified"`
	// UnlockedSections are the paid sections shown publicly (all of them on the paid plan).
	UnlockedSections []string `json:"unlocked_sections" jsonschema_description:"Paid sections shown publicly: story, milestones, media (all on the paid plan), trophies."`
	// PageURL is the public page, for scheduled and live listings only.
	PageURL string `json:"page_url,omitempty"`
	// QueuePosition and ExpectedLaunchDate are set in the free queue (free
	// plan, awaiting_badge or scheduled): see docs/free-launch.md.
	QueuePosition      int       `json:"queue_position,omitempty" jsonschema_description:"Free queue only: 1 + the free listings waiting for an earlier week, or for the same week and queued before this one."`
	ExpectedLaunchDate string    `json:"expected_launch_date,omitempty" jsonschema_description:"Free queue only: the Monday (YYYY-MM-DD) it goes live, once the badge is found."`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
	// Moderation is set while the site team has hidden or unpublished the listing.
	Moderation *ListingModeration `json:"moderation,omitempty" jsonschema_description:"Only when the site team hid or unpublished the listing: what, when and why."`
}

// ListingModeration is what the site team did to a listing and why, as its
// owners see it (docs/console.md "Listings").
type ListingModeration struct {
	Action string    `json:"action" jsonschema:"enum=hidden,enum=unpublished" jsonschema_description:"hidden (off the site until the site team unhides it) or unpublished (archived)."`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// Week is the launch week, "" when there is none.
func (l *MyListingSummary) Week() string {
	if l.LaunchWeek == nil {
		return ""
	}
	return *l.LaunchWeek
}

// MyListing is one of the caller's listings with its whole profile.
type MyListing struct {
	MyListingSummary
	// Profile is the profile as the public page shows it, with every paid
	// section the owner has written, unlocked or not.
	Profile *Listing `json:"profile"`
	// Next says what the owner can do now, in one sentence.
	Next string `json:"next"`
	// SiteCopy and History come from update_my_listing (owner_edit.go).
	SiteCopy ListingCopy             `json:"site_copy" jsonschema_description:"This site's headline, summary and SEO fields."`
	History  []ListingVersionSummary `json:"history" jsonschema_description:"The latest 20 versions of your edits, newest first."`
	// BadgeChecks are the free launch's badge checks (free queue only).
	BadgeChecks *BadgeChecks `json:"badge_checks,omitempty" jsonschema_description:"Free launch: when our badge is checked next and the last result."`
}

// MyListingList is the answer of list_my_listings.
type MyListingList struct {
	Items []MyListingSummary `json:"items"`
	Page
}

// OwnerStore reads the listings a user owns.
type OwnerStore interface {
	// OwnListings lists userID's listings of the site in any status, newest first.
	OwnListings(ctx context.Context, userID int64, offset, limit int) ([]MyListingSummary, int, error)
	// OwnListing returns one of userID's listings with its profile; ENotFound
	// when it does not exist or is not theirs (the two are not told apart).
	OwnListing(ctx context.Context, userID, id int64) (*MyListing, error)
}

// ListMyListingsInput pages the caller's listings.
type ListMyListingsInput struct {
	Pagination
}

// GetMyListingInput names one of the caller's listings.
type GetMyListingInput struct {
	ListingID int64 `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"The listing's id (submit_draft and list_my_listings return it)."`
}

func (s *Service) ownerStore() (OwnerStore, error) {
	if s.MyListings == nil {
		return nil, Errorf(EInternal, "own listings are not configured")
	}
	return s.MyListings, nil
}

// ListMyListings lists every listing the caller owns, in any status.
func (s *Service) ListMyListings(ctx context.Context, in ListMyListingsInput) (*MyListingList, error) {
	c, st, err := callerWith(ctx, s.ownerStore)
	if err != nil {
		return nil, err
	}
	items, total, err := st.OwnListings(ctx, c.UserID, in.Offset(), in.Limit())
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	out := &MyListingList{Items: []MyListingSummary{}, Page: NewPage(page, per, total)}
	for i := range items {
		out.Items = append(out.Items, ownView(items[i]))
	}
	if _, err := s.fillFreeQueue(ctx, out.Items); err != nil {
		return nil, err
	}
	return out, nil
}

// GetMyListing returns one of the caller's listings: status, plan, launch
// week, unlocked paid sections and the whole profile. 404 for others'.
func (s *Service) GetMyListing(ctx context.Context, in GetMyListingInput) (*MyListing, error) {
	c, st, err := callerWith(ctx, s.ownerStore)
	if err != nil {
		return nil, err
	}
	l, err := st.OwnListing(ctx, c.UserID, in.ListingID)
	if err != nil {
		return nil, err
	}
	l.MyListingSummary = ownView(l.MyListingSummary)
	if err := s.withEdits(ctx, l); err != nil {
		return nil, err
	}
	one := []MyListingSummary{l.MyListingSummary}
	facts, err := s.fillFreeQueue(ctx, one)
	if err != nil {
		return nil, err
	}
	if f, ok := facts[l.ID]; ok {
		l.MyListingSummary, l.BadgeChecks = one[0], &f.Checks
	}
	switch l.Status {
	case ListingDraft, ListingSubmitted:
		l.Next = "Not published. " + publishWays(ctx, l.ID, "Publish it free with choose_free_listing (a launch week 6-8 weeks out, once our badge is on the homepage) "+
			"or paid with create_checkout and an item {\"product\": \"launch\", \"listing_id\": "+strconv.FormatInt(l.ID, 10)+"}.")
	case ListingAwaitingBadge:
		l.Next = "In the free queue for the week of " + l.Week() + ", waiting for our badge on the homepage (choose_free_listing " +
			"gives the code; call it again after adding the badge to check at once)."
		if !Serves(ctx, "choose_free_listing") {
			l.Next = "In the free queue for the week of " + l.Week() + ", waiting for our badge on the homepage (the listings toolset's " +
				"free launch tool gives the code and checks again at once)."
		}
	case ListingScheduled:
		l.Next = "Scheduled: it goes live when the week of " + l.Week() + " starts."
	case ListingLive:
		l.Next = "Live. list_products shows extras such as featured, extra_categories and relaunch."
		if !Serves(ctx, "list_products") {
			l.Next = "Live. Extras such as featured, extra_categories and relaunch are on the price list (public or orders toolset)."
		}
	case ListingHidden:
		l.Next = "Hidden by the site team and not shown publicly; moderation.reason says why. Contact the site team to have it shown again."
	case ListingMerged:
		l.Next = "Merged by the site team into another listing of the same company; its address leads there."
	default:
		l.Next = "This listing is " + l.Status + " and not shown publicly."
	}
	return l, nil
}

// ownView completes a summary: the paid plan unlocks every paid section, and
// only public listings have a public page.
func ownView(v MyListingSummary) MyListingSummary {
	if v.Plan == PlanPaid {
		for _, sec := range PaidSections {
			if !slices.Contains(v.UnlockedSections, sec) {
				v.UnlockedSections = append(v.UnlockedSections, sec)
			}
		}
		slices.Sort(v.UnlockedSections)
	}
	if v.UnlockedSections == nil {
		v.UnlockedSections = []string{}
	}
	if v.Status != ListingScheduled && v.Status != ListingLive {
		v.PageURL = ""
	}
	return v
}
