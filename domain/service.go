package domain

import (
	"context"
	"time"
)

// Site describes the directory this service instance serves.
type Site struct {
	Key          string    `json:"key"`
	Name         string    `json:"name"`
	Purpose      string    `json:"purpose"`
	BaseURL      string    `json:"-"` // public origin, e.g. https://launchdir.example
	FreeWeeksMin int       `json:"-"` // the free queue launches 6-8 weeks out (site setting)
	FreeWeeksMax int       `json:"-"`
	OpenedAt     time.Time `json:"-"` // first launch week of the site; earlier weeks are 404
	// FreeWeekCapacity is how many free listings one launch week takes and
	// BadgeCheckHours the time between two badge checks (site settings,
	// defaults 20 and 6). These and FreeWeeks* seed sites.settings when the
	// site row is created; the free launch reads them from there
	// (docs/free-launch.md).
	FreeWeekCapacity int `json:"-"`
	BadgeCheckHours  int `json:"-"`
}

// Service is the core of launchdir: one method per operation of the spec.
// It never sees HTTP; transports call it with typed inputs already checked
// against the operation's JSON Schema, and the Service checks the rules a
// schema cannot express.
type Service struct {
	Store Store
	Site  Site
	// Now returns the current time; tests replace it.
	Now func() time.Time
	// Drafts serves the draft operations (submit_listing ...); nil answers them
	// with an internal error.
	Drafts *Drafting
	// Orders serves products, quotes, checkout and fulfilment; nil answers
	// them with an internal error.
	Orders *Ordering
	// Owner serves what the owner's area needs beyond the Store (page reads,
	// DNS, mail, scheduled jobs); nil answers those operations with an
	// internal error.
	Owner *Owning
}

// NewService returns a Service over store for site, using the wall clock.
func NewService(store Store, site Site) *Service {
	return &Service{Store: store, Site: site, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC() }

// Pagination is embedded in inputs of paginated operations.
type Pagination struct {
	Page    int `json:"page,omitempty" jsonschema:"minimum=1,maximum=1000,default=1" jsonschema_description:"Page number, 1-1000."`
	PerPage int `json:"per_page,omitempty" jsonschema:"minimum=1,maximum=100,default=20" jsonschema_description:"Items per page, 1-100."`
}

// Norm returns page and per_page with defaults applied.
func (p Pagination) Norm() (page, perPage int) {
	page, perPage = p.Page, p.PerPage
	if page <= 0 {
		page = 1
	}
	if perPage <= 0 {
		perPage = 20
	}
	return page, perPage
}

// Offset is the number of items before the page.
func (p Pagination) Offset() int {
	page, perPage := p.Norm()
	return (page - 1) * perPage
}

// Limit is the page size.
func (p Pagination) Limit() int {
	_, perPage := p.Norm()
	return perPage
}

// Store is what the Service needs from persistence. storage implements it
// over SQLite; every method is scoped to one site. Not-found conditions are
// returned as *Error with ENotFound.
type Store interface {
	// SiteStats returns live listing, upcoming listing and category counts.
	SiteStats(ctx context.Context) (SiteStats, error)

	// SearchListings runs a full-text, typo-tolerant search with filters and a sort.
	SearchListings(ctx context.Context, q ListingQuery) ([]ListingSummary, int, error)
	// Listing returns the full public profile of a live or scheduled listing.
	// Paid-only sections are filled only when unlocked; the Service does not filter them again.
	Listing(ctx context.Context, slug string) (*Listing, error)
	// Alternatives returns owner-approved alternatives (Approved=true) then other
	// live listings in the same primary category, excluding the listing itself.
	Alternatives(ctx context.Context, slug string, limit int) ([]Alternative, error)
	// ListingAttributes returns the comparison attribute values a listing states, by attribute key.
	ListingAttributes(ctx context.Context, slug string) (map[string]string, error)

	// Categories returns every category with live listing counts (counts include subcategories).
	Categories(ctx context.Context) ([]CategoryNode, error)
	// Category returns one category's details.
	Category(ctx context.Context, slug string) (*Category, error)

	// WeekLaunches returns the launches of the week starting at monday: live ones ranked by
	// that week's votes, and scheduled ones.
	WeekLaunches(ctx context.Context, monday time.Time) (live []WeekLaunch, scheduled []ListingSummary, err error)
	// Launches returns one section of the launch feeds.
	Launches(ctx context.Context, q LaunchQuery) ([]ListingSummary, int, error)
	// Leaderboard returns one page of a board.
	Leaderboard(ctx context.Context, q BoardQuery) ([]BoardItem, int, error)

	Founders(ctx context.Context, q FounderQuery) ([]FounderSummary, int, error)
	Founder(ctx context.Context, slug string) (*Founder, error)
	BlogPosts(ctx context.Context, q BlogQuery) ([]BlogPostSummary, int, error)
	BlogPost(ctx context.Context, slug string) (*BlogPost, error)
	// Awards lists awards newest week first, optionally for one listing.
	Awards(ctx context.Context, listingSlug string, offset, limit int) ([]Award, int, error)
	// BadgeFacts returns what decides which badges a listing may show.
	BadgeFacts(ctx context.Context, slug string) (*BadgeFacts, error)
	InterviewQuestions(ctx context.Context) ([]InterviewQuestion, error)
}

// SiteStats counts what is on the site.
type SiteStats struct {
	LiveListings     int
	UpcomingListings int
	Categories       int
	// FirstWeek is the Monday of the site's earliest launch week (zero when nothing launched yet).
	FirstWeek time.Time
}
