package domain

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
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
//
// Build it with New, which checks every dependency once. The fields stay
// exported so that tests can build the part of a Service they exercise; a
// method whose dependency is nil answers with an internal error.
type Service struct {
	Store Store
	Site  Site
	// Now returns the current time; tests replace it.
	Now func() time.Time
	// Claims, Free, MyListings, Edits and Content are the stores of the
	// owner's area: claims, the free queue, the caller's own listings,
	// listing edits and versions, and the owner's content (FAQs,
	// alternatives, updates).
	Claims     ClaimStore
	Free       FreeStore
	MyListings OwnerStore
	Edits      ListingEditStore
	Content    OwnerContentStore
	// Drafts serves the draft operations (submit_listing ...).
	Drafts *Drafting
	// Orders serves products, quotes, checkout and fulfilment.
	Orders *Ordering
	// Owner serves what the owner's area needs beyond its stores (page
	// reads, DNS, mail, scheduled jobs).
	Owner *Owning
	// Votes keeps the votes people cast on the site (public_votes.go).
	Votes VoteStore
	// VoteMinAccountAge holds the votes of younger accounts until they are
	// this old (--vote-min-account-age); 0 holds none for age.
	VoteMinAccountAge time.Duration
	// Weeks keeps what the weekly clock reads and writes (weeks.go).
	Weeks WeekStore
	// Reviews keeps the reviews people write on the site (public_reviews.go);
	// they are held by the votes' rules (VoteMinAccountAge, the burst rule).
	Reviews ReviewStore
	// Settings reads the site settings the site team stored
	// (console_reads.go); the console (domain/console) writes them.
	Settings SettingsReader
	// Redirects says where the slugs the site team renamed or merged lead
	// (console_reads.go).
	Redirects Redirects
	// Trophies keeps the trophy cabinets (trophies.go).
	Trophies TrophyStore
	// TrophyPages reads award pages (trophies_check.go); nil: Drafts.Fetcher, the site reader.
	TrophyPages Fetcher
	// Feeds lists a listing's public updates (feeds.go).
	Feeds FeedStore
	// OpenData keeps the weekly open-data export (opendata.go).
	OpenData OpenDataStore
	// Matches, when set, is the search that also says which words each
	// result matched; nil: Store.SearchListings without them.
	Matches MatchedSearcher
	// VoteDays, when set, counts a launch week's votes by day for the
	// listing page's chart; nil: no chart.
	VoteDays VoteDayCounter
	// Hooks serves the webhooks (webhooks.go); nil: none can be created or delivered.
	Hooks *Webhooking
}

// Deps is everything a Service is built from. Every field is required unless
// its comment says what nil means; New refuses a Deps with a required field
// missing, naming it, so that a wiring mistake fails at start instead of as
// an internal error on the first request that needs it.
type Deps struct {
	// Site is the directory served; its Key is required.
	Site Site
	// Now is the clock.
	Now func() time.Time
	// Store is the public directory: listings, categories, launches, boards.
	Store Store
	// The stores of the owner's area (see the fields of Service).
	Claims     ClaimStore
	Free       FreeStore
	MyListings OwnerStore
	Edits      ListingEditStore
	Content    OwnerContentStore
	// Votes keeps the votes people cast on the site.
	Votes VoteStore
	// VoteMinAccountAge is --vote-min-account-age (0: no hold for age).
	VoteMinAccountAge time.Duration
	// Weeks keeps the weekly clock's finalised weeks and awards.
	Weeks WeekStore
	// Reviews keeps the reviews people write on the site.
	Reviews ReviewStore
	// Settings reads the stored site settings.
	Settings SettingsReader
	// Redirects says where renamed categories' and merged listings' slugs lead.
	Redirects Redirects
	// Trophies keeps the trophy cabinets.
	Trophies TrophyStore
	// TrophyPages reads award pages; nil: Drafts.Fetcher.
	TrophyPages Fetcher
	// Feeds lists listings' public updates.
	Feeds FeedStore
	// OpenData keeps the weekly open-data export.
	OpenData OpenDataStore
	// Matches is optional: nil searches without the matched words.
	Matches MatchedSearcher
	// VoteDays is optional: nil draws no votes-by-day chart.
	VoteDays VoteDayCounter
	// Drafts needs its Store, Fetcher, Drafter, Enqueue and Mailer; Wake is
	// optional (nil: a new draft's build starts at the runner's next poll).
	// Its Drafter is the grounded extractor or the model drafter over it:
	// the model is optional, chosen by whoever builds the Drafter.
	Drafts *Drafting
	// Orders needs its Store, Payments, VAT, EnqueueAt and Options. Orders.VIES is
	// optional (nil: VAT numbers are checked offline only); Payments is the
	// built-in TestPayments unless Stripe is configured.
	Orders *Ordering
	// Owner needs its Pages, Resolver, Mailer and EnqueueAt.
	Owner *Owning
	// Jobs runs the durable jobs; New registers every job kind of the
	// Service on it (drafts, orders, the free launch, owners' updates).
	Jobs *Runner
	// Logger receives what the job handlers log; nil: slog.Default().
	Logger *slog.Logger
}

// New returns the Service built from d, with its job kinds registered on
// d.Jobs. A required dependency that is missing is an error naming every
// one missing ("domain.New: missing Deps.Claims, Deps.Drafts.Fetcher").
func New(d Deps) (*Service, error) {
	if missing := d.missing(); len(missing) > 0 {
		return nil, fmt.Errorf("domain.New: missing %s", strings.Join(missing, ", "))
	}
	s := &Service{Store: d.Store, Site: d.Site, Now: d.Now,
		Claims: d.Claims, Free: d.Free, MyListings: d.MyListings, Edits: d.Edits, Content: d.Content,
		Drafts: d.Drafts, Orders: d.Orders, Owner: d.Owner, Votes: d.Votes, VoteMinAccountAge: d.VoteMinAccountAge, Weeks: d.Weeks,
		Reviews: d.Reviews, Settings: d.Settings, Redirects: d.Redirects,
		Trophies: d.Trophies, TrophyPages: d.TrophyPages, Feeds: d.Feeds, OpenData: d.OpenData,
		Matches: d.Matches, VoteDays: d.VoteDays}
	s.RegisterDraftJobs(d.Jobs, d.Logger)
	s.RegisterOrderJobs(d.Jobs)
	s.RegisterFreeJobs(d.Jobs)
	s.RegisterOwnerContentJobs(d.Jobs)
	s.RegisterVoteJobs(d.Jobs)
	s.RegisterWeekJobs(d.Jobs)
	s.RegisterReviewJobs(d.Jobs)
	s.RegisterOpenDataJobs(d.Jobs)
	s.RegisterTrophyJobs(d.Jobs)
	s.RegisterProgrammeJobs(d.Jobs)
	s.RegisterWebhookJobs(d.Jobs)
	return s, nil
}

// missing names the required fields of d that are not set.
func (d Deps) missing() []string {
	var m []string
	need := func(ok bool, name string) {
		if !ok {
			m = append(m, "Deps."+name)
		}
	}
	need(d.Site.Key != "", "Site.Key")
	need(d.Now != nil, "Now")
	need(d.Store != nil, "Store")
	need(d.Claims != nil, "Claims")
	need(d.Free != nil, "Free")
	need(d.MyListings != nil, "MyListings")
	need(d.Edits != nil, "Edits")
	need(d.Content != nil, "Content")
	need(d.Votes != nil, "Votes")
	need(d.Weeks != nil, "Weeks")
	need(d.VoteMinAccountAge >= 0, "VoteMinAccountAge (not negative)")
	need(d.Reviews != nil, "Reviews")
	need(d.Settings != nil, "Settings")
	need(d.Redirects != nil, "Redirects")
	need(d.Trophies != nil, "Trophies")
	need(d.Feeds != nil, "Feeds")
	need(d.OpenData != nil, "OpenData")
	need(d.Jobs != nil, "Jobs")
	if need(d.Drafts != nil, "Drafts"); d.Drafts != nil {
		need(d.Drafts.Store != nil, "Drafts.Store")
		need(d.Drafts.Fetcher != nil, "Drafts.Fetcher")
		need(d.Drafts.Drafter != nil, "Drafts.Drafter")
		need(d.Drafts.Enqueue != nil, "Drafts.Enqueue")
		need(d.Drafts.Mailer != nil, "Drafts.Mailer")
	}
	if need(d.Orders != nil, "Orders"); d.Orders != nil {
		need(d.Orders.Store != nil, "Orders.Store")
		need(d.Orders.Payments != nil, "Orders.Payments")
		need(d.Orders.VAT != nil, "Orders.VAT")
		need(d.Orders.EnqueueAt != nil, "Orders.EnqueueAt")
		need(d.Orders.Options != nil, "Orders.Options")
	}
	if need(d.Owner != nil, "Owner"); d.Owner != nil {
		need(d.Owner.Pages != nil, "Owner.Pages")
		need(d.Owner.Resolver != nil, "Owner.Resolver")
		need(d.Owner.Mailer != nil, "Owner.Mailer")
		need(d.Owner.EnqueueAt != nil, "Owner.EnqueueAt")
	}
	return m
}

// Stores is one persistence that implements every store of the Service
// (storage.Store over SQLite or PostgreSQL).
type Stores interface {
	Store
	ClaimStore
	FreeStore
	OwnerStore
	ListingEditStore
	OwnerContentStore
	VoteStore
	WeekStore
	ReviewStore
	SettingsReader
	Redirects
	TrophyStore
	FeedStore
	OpenDataStore
	MatchedSearcher
	VoteDayCounter
}

// NewService returns a Service over st for site on the clock now, with
// every store of the Service st, the default vote age and no Drafts, Orders
// or Owner: a convenience for tests and fixtures, which set what they
// exercise. It checks nothing but the clock, which is required (a nil now
// panics here rather than at the first read); serve builds its Service with
// New.
func NewService(st Stores, site Site, now func() time.Time) *Service {
	if now == nil {
		panic("domain.NewService: the clock (now) is required")
	}
	s := &Service{Site: site, Now: now, VoteMinAccountAge: DefaultVoteMinAccountAge}
	if st != nil {
		s.Store, s.Claims, s.Free, s.MyListings, s.Edits, s.Content, s.Votes, s.Weeks = st, st, st, st, st, st, st, st
		s.Reviews, s.Settings, s.Redirects = st, st, st
		s.Trophies, s.Feeds, s.OpenData, s.Matches, s.VoteDays = st, st, st, st, st
	}
	return s
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
	// CategoryTree returns every category as Categories does, without the
	// listing counts (ListingCount 0): what choosing a category needs. The
	// counts are a query over every live listing, which a draft's update or
	// build has no use for (docs/scaling.md).
	CategoryTree(ctx context.Context) ([]CategoryNode, error)
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
