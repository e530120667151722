package domain

import "time"

// Listing statuses. The list is open-ended; these are the ones the service uses.
const (
	StatusDraft         = "draft"
	StatusSubmitted     = "submitted"
	StatusAwaitingBadge = "awaiting_badge"
	StatusScheduled     = "scheduled"
	StatusLive          = "live"
)

// Listing plans.
const (
	PlanFree = "free"
	PlanPaid = "paid"
)

// Paid-only profile sections that an owner may have unlocked.
const (
	SectionStory      = "story"
	SectionMilestones = "milestones"
	SectionMedia      = "media"
)

// CategoryRef names a category inside other records.
type CategoryRef struct {
	Slug    string `json:"slug"`
	Name    string `json:"name"`
	Primary bool   `json:"primary,omitempty" jsonschema_description:"True for the listing's primary category."`
}

// ListingSummary is the short form of a listing used in search results, feeds,
// boards and anywhere a listing is referenced.
type ListingSummary struct {
	Slug            string       `json:"slug"`
	Name            string       `json:"name"`
	Tagline         string       `json:"tagline"`
	URL             string       `json:"url" jsonschema_description:"The product's own website."`
	PageURL         string       `json:"page_url" jsonschema_description:"The listing's page on this directory."`
	LogoURL         string       `json:"logo_url,omitempty"`
	PrimaryCategory *CategoryRef `json:"primary_category,omitempty"`
	Stage           string       `json:"stage,omitempty" jsonschema_description:"Business stage slug."`
	Country         string       `json:"country,omitempty" jsonschema_description:"ISO 3166 alpha-2 code."`
	PricingModel    string       `json:"pricing_model,omitempty"`
	Status          string       `json:"status" jsonschema_description:"live or scheduled (upcoming)."`
	Plan            string       `json:"plan" jsonschema:"enum=free,enum=paid"`
	Featured        bool         `json:"featured"`
	LaunchWeek      string       `json:"launch_week,omitempty" jsonschema_description:"Monday (YYYY-MM-DD) of the listing's launch week."`
	LaunchedAt      *time.Time   `json:"launched_at,omitempty"`
	Votes           int          `json:"votes" jsonschema_description:"All-time community votes."`
	Views           int          `json:"views"`
	Follows         int          `json:"follows"`
}

// FAQ is one question and answer.
type FAQ struct {
	Question string `json:"question" jsonschema:"maxLength=300"`
	Answer   string `json:"answer" jsonschema:"maxLength=1500"`
}

// Socials maps a platform key (linkedin, x, github, ...) to a link.
type Socials map[string]string

// SocialPlatforms are the platform keys a Socials object may use.
var SocialPlatforms = []string{"linkedin", "x", "facebook", "instagram", "tiktok", "youtube", "threads",
	"pinterest", "github", "reddit", "producthunt", "medium", "website", "custom"}

// Story holds the founder story sections.
type Story struct {
	Title        string `json:"title,omitempty"`
	Story        string `json:"story,omitempty"`
	WhyStarted   string `json:"why_started,omitempty"`
	Problem      string `json:"problem,omitempty"`
	Journey      string `json:"journey,omitempty"`
	Challenges   string `json:"challenges,omitempty"`
	Achievements string `json:"achievements,omitempty"`
	Lessons      string `json:"lessons,omitempty"`
	WhatsNext    string `json:"whats_next,omitempty"`
}

// Milestone is a dated event in a listing's history.
type Milestone struct {
	ID          int64  `json:"id,omitempty"`
	Date        string `json:"date" jsonschema:"format=date"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// Media is an image or video attached to a listing (a paid section).
type Media struct {
	Kind    string `json:"kind" jsonschema:"enum=image,enum=video"`
	URL     string `json:"url"`
	Caption string `json:"caption,omitempty"`
}

// ListingUpdate is a post by the listing's team.
type ListingUpdate struct {
	Title    string    `json:"title"`
	Body     string    `json:"body"`
	PostedAt time.Time `json:"posted_at"`
}

// FounderRef names a founder on a listing.
type FounderRef struct {
	Slug    string `json:"slug,omitempty" jsonschema_description:"The founder's slug (get_founder); absent, like page_url, until the founder has a page."`
	Name    string `json:"name"`
	Title   string `json:"title,omitempty" jsonschema_description:"Role at the company."`
	Primary bool   `json:"primary,omitempty"`
	PageURL string `json:"page_url,omitempty" jsonschema_description:"The founder's page (get_founder). Founders have a page while on a live listing; absent before that."`
}

// Rating is the community rating from counted (genuine) reviews only
// (docs/reviews.md); a listing without any has none (nil).
type Rating struct {
	Average float64 `json:"average" jsonschema:"minimum=1,maximum=5" jsonschema_description:"Mean stars (1-5) over the counted reviews, rounded to two decimals."`
	Count   int     `json:"count" jsonschema:"minimum=1" jsonschema_description:"Number of counted reviews."`
}

// DRPoint is one Domain Rating reading.
type DRPoint struct {
	Date  string `json:"date"`
	Value int    `json:"value"`
}

// DomainRating is the third-party Domain Rating of the listing's domain with its trend.
type DomainRating struct {
	Current int       `json:"current" jsonschema_description:"Latest Domain Rating, 0-100, from a third-party SEO provider."`
	Trend   string    `json:"trend" jsonschema:"enum=up,enum=down,enum=flat"`
	Change  int       `json:"change" jsonschema_description:"Difference between the latest and the earliest reading in history."`
	AsOf    string    `json:"as_of"`
	Source  string    `json:"source"`
	History []DRPoint `json:"history"`
}

// AwardRef is an award a listing won.
type AwardRef struct {
	Week  string `json:"week"`
	Rank  int    `json:"rank"`
	Title string `json:"title"`
}

// PaidPlacement is what a listing's owners paid into the billboard: a PAID
// ranking by money contributed, kept apart from the community votes.
type PaidPlacement struct {
	Paid        bool   `json:"paid" jsonschema_description:"Always true: this is paid placement."`
	Label       string `json:"label" jsonschema_description:"What this is, to show with the amount."`
	AmountCents int64  `json:"amount_cents" jsonschema_description:"Money contributed to the billboard, in cents."`
	AmountLabel string `json:"amount_label" jsonschema_description:"The amount as a person reads it, marked as paid."`
	BoardURL    string `json:"board_url" jsonschema_description:"The billboard's page on this directory."`
}

// MoreData points a result to more data: the MCP tool and
// its arguments first, for a model connected over MCP only, and the REST URL
// that answers the same.
type MoreData struct {
	Tool      string         `json:"tool" jsonschema_description:"The tool to call (MCP)."`
	Arguments map[string]any `json:"arguments" jsonschema_description:"The tool's arguments."`
	What      string         `json:"what" jsonschema_description:"What the data is: alternatives, badges or category."`
	URL       string         `json:"url" jsonschema_description:"The same data over REST (GET)."`
}

// MoreForStatus is more as a listing in status may show it: the listing's
// alternatives and badges are public data of a scheduled or live listing
// only (get_alternatives and get_badges answer not_found before), so an
// owner's view of a listing in another status does not point to them.
func MoreForStatus(status string, more []MoreData) []MoreData {
	if status == ListingScheduled || status == ListingLive {
		return more
	}
	out := []MoreData{}
	for _, m := range more {
		if m.Tool != "get_alternatives" && m.Tool != "get_badges" {
			out = append(out, m)
		}
	}
	return out
}

// PaidPlacementLabel is the label of every PaidPlacement.
const PaidPlacementLabel = "PAID placement on the billboard: ranked by money contributed, not by community votes."

// Listing is the full public profile of a listing.
type Listing struct {
	ListingSummary
	Company           string            `json:"company"`
	ShortDescription  string            `json:"short_description,omitempty"`
	Description       string            `json:"description"`
	Features          []string          `json:"features"`
	USPs              []string          `json:"usps"`
	Keywords          []string          `json:"keywords"`
	PricingSummary    string            `json:"pricing_summary,omitempty"`
	City              string            `json:"city,omitempty"`
	FoundedYear       *int              `json:"founded_year,omitempty"`
	Categories        []CategoryRef     `json:"categories"`
	Founders          []FounderRef      `json:"founders"`
	FAQs              []FAQ             `json:"faqs"`
	Socials           Socials           `json:"socials"`
	LatestUpdates     []ListingUpdate   `json:"latest_updates"`
	CommunityRating   *Rating           `json:"community_rating" jsonschema_extras:"nullable=true" jsonschema_description:"Mean stars of the counted reviews (people's reviews on the site that passed the holding rules of votes); null when the listing has no counted review."`
	Reviews           ReviewList        `json:"reviews" jsonschema_description:"The latest counted reviews, newest first, and how many there are."`
	DomainRating      *DomainRating     `json:"domain_rating,omitempty"`
	Revenue           *ListingRevenue   `json:"revenue,omitempty" jsonschema_description:"The latest monthly revenue and its source (verified by the site team, or stated by the owner)."`
	Awards            []AwardRef        `json:"awards"`
	PaidPlacement     *PaidPlacement    `json:"paid_placement,omitempty" jsonschema_description:"The listing's place on the billboard, a PAID ranking by money contributed: never a community number. Absent when nothing was contributed."`
	DemoVideoURL      string            `json:"demo_video_url,omitempty"`
	ContactEmail      string            `json:"contact_email,omitempty"`
	Links             map[string]string `json:"links" jsonschema_description:"website, page, badges and other useful links."`
	More              []MoreData        `json:"more" jsonschema_description:"Where more data about this listing is: the tool to call with its arguments (MCP), and the same as a REST URL."`
	Story             *Story            `json:"story,omitempty" jsonschema_description:"Paid-only section; present only when unlocked."`
	Milestones        []Milestone       `json:"milestones,omitempty" jsonschema_description:"Paid-only section; present only when unlocked."`
	Media             []Media           `json:"media,omitempty" jsonschema_description:"Paid-only section; present only when unlocked."`
	NotFoundOnWebsite []string          `json:"not_found_on_website" jsonschema_description:"Facts the company's own site did not state; left blank on purpose, never invented."`
	Verified          bool              `json:"verified" jsonschema_description:"The owner proved control of the domain. Verified is not paid."`
	// Interview holds the interview answers of the accounts that own the
	// listing (answer_interview), in question order.
	Interview []InterviewAnswer `json:"interview,omitempty" jsonschema_description:"The founder interview: answers of the listing's owners, in question order."`
}

// Page describes the page of a paginated list.
type Page struct {
	Page    int  `json:"page"`
	PerPage int  `json:"per_page"`
	Total   int  `json:"total"`
	HasMore bool `json:"has_more"`
}

// NewPage builds the page description for total matching items.
func NewPage(page, perPage, total int) Page {
	return Page{Page: page, PerPage: perPage, Total: total, HasMore: page*perPage < total}
}
