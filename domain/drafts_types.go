package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Draft statuses. crawling, drafting and ready are the spec's; failed is ours:
// the site could not be read (robots.txt forbids it, it does not answer, it is
// not a web page), and error says why. A failed draft can still be filled in by
// hand and submitted.
const (
	DraftCrawling = "crawling"
	DraftDrafting = "drafting"
	DraftReady    = "ready"
	DraftFailed   = "failed"
)

// Per-field states: the spec's, and pending (ours), shown while the draft is
// being built, before the site has been read (docs/drafts.md).
const (
	StatePending  = "pending"   // the site has not been read yet: nothing is known
	StateAI       = "ai"        // drafted from the site, with evidence
	StateNotFound = "not_found" // the site does not state it; left blank on purpose
	StateEdited   = "edited"    // the user changed the AI's value
	StateManual   = "manual"    // the user typed a value the site did not state
	StateOverride = "override"  // locked: AI redrafts leave it alone
	StateDeleted  = "deleted"   // the user removed the value
)

// FieldStateMeaning is what each field state means, as a draft's
// field_states tells the model (docs/drafts.md).
var FieldStateMeaning = map[string]string{
	StatePending:  "not read yet; poll get_draft",
	StateAI:       "drafted from the site (see evidence)",
	StateNotFound: "the site does not state it: ask the person, never guess",
	StateEdited:   "the person changed the AI's value (ai_value keeps it)",
	StateManual:   "typed by the person; not on the site",
	StateOverride: "locked: AI redrafts leave it alone",
	StateDeleted:  "removed by the person",
}

// DraftField is one profile field of a draft.
type DraftField struct {
	// Value is a string, a list of strings, or null.
	Value    any        `json:"value" jsonschema_description:"The value: a string, a list of strings (categories, tags, features, usps, keywords) or null."`
	State    string     `json:"state" jsonschema:"enum=pending,enum=ai,enum=not_found,enum=edited,enum=manual,enum=override,enum=deleted" jsonschema_description:"pending: the draft is still being built and the site not read yet (value null; poll get_draft); ai: drafted from the site, with evidence; not_found: the site was read and does not state it (ask the person, never guess); edited: the person changed the AI's value (ai_value keeps it); manual: the person typed a value the site does not state; override: locked against AI redrafts; deleted: the person removed the value."`
	Evidence []Evidence `json:"evidence,omitempty" jsonschema_description:"Where on the site the value comes from: quotes cut from the page text, with the page URL."`
	// AIValue is the AI's original, kept while the user's value differs (what restore puts back).
	AIValue any `json:"ai_value,omitempty"`
	// TypedValue is the person's value a regenerate replaced with the site's.
	TypedValue any `json:"typed_value,omitempty" jsonschema_description:"The value the person had typed before regenerate replaced it with the site's grounded value; send it in fields to put it back. Cleared by the next edit of the field."`
	// Note says what the last regenerate did to a value the person typed.
	Note string `json:"note,omitempty" jsonschema_description:"What the last regenerate of this field did to the value the person had typed: kept because the site states nothing for it, or replaced by the site's value (typed_value keeps the typed one)."`
}

// DraftFAQ is a question and answer of a draft.
type DraftFAQ struct {
	Question string     `json:"question"`
	Answer   string     `json:"answer"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// DraftFounder is a founder of a draft; the first is primary.
type DraftFounder struct {
	Name     string     `json:"name"`
	Title    string     `json:"title,omitempty"`
	Bio      string     `json:"bio,omitempty"`
	Socials  Socials    `json:"socials,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Invited is the invite email when the founder added themselves through an invite.
	Invited string `json:"invited,omitempty"`
}

// DraftSEO is the listing page's search engine title and meta description.
type DraftSEO struct {
	Title string `json:"title,omitempty"`
	Meta  string `json:"meta,omitempty"`
}

// CompetitorComparison sets the draft next to a competitor's site.
type CompetitorComparison struct {
	URL  string `json:"url"`
	Name string `json:"name,omitempty"`
	// Rows compare the facts both sites may state; an empty cell means that site does not state it.
	Rows []CompetitorRow `json:"rows"`
	// OnlyOurs and OnlyTheirs are features stated by one site and not the other.
	OnlyOurs   []string `json:"only_ours,omitempty"`
	OnlyTheirs []string `json:"only_theirs,omitempty"`
	ReadAt     string   `json:"read_at"`
}

// CompetitorRow is one fact of a competitor comparison.
type CompetitorRow struct {
	Field  string `json:"field"`
	Ours   string `json:"ours"`
	Theirs string `json:"theirs"`
}

// DraftDoc is the editable state of a draft, stored as one document.
type DraftDoc struct {
	Fields         map[string]*DraftField `json:"fields"`
	FAQs           []DraftFAQ             `json:"faqs"`
	Founders       []DraftFounder         `json:"founders"`
	CompanySocials Socials                `json:"company_socials"`
	FounderSocials Socials                `json:"founder_socials"`
	Story          Story                  `json:"story"`
	Milestones     []Milestone            `json:"milestones"`
	CompetitorURL  string                 `json:"competitor_url,omitempty"`
	Competitor     *CompetitorComparison  `json:"competitor,omitempty"`
	SEO            DraftSEO               `json:"seo"`
	// Existing is the listing the site already has (drafts_listed.go), as
	// found when the draft was submitted and built.
	Existing *ExistingListing `json:"existing_listing,omitempty"`
	// Edited names the sections (faqs, founders, company_socials, story, milestones)
	// the user replaced, so a redraft of the whole profile leaves them alone.
	Edited []string `json:"edited,omitempty"`
}

// DraftError says why a draft could not be built.
type DraftError struct {
	Reason  string `json:"reason" jsonschema_description:"robots, refused, unreachable, http_status, content_type, too_large, redirects or internal."`
	Message string `json:"message"`
}

// DraftRecord is a draft as stored.
type DraftRecord struct {
	ID           string
	UserID       int64
	URL          string
	Status       string
	Phase        string
	PagesDone    int
	PagesPlanned int
	Error        *DraftError
	Doc          DraftDoc
	// AI is the last grounded drafter output (restore reads it).
	AI *Drafted
	// Crawl is what was read from the site (loaded only when asked for).
	Crawl     *SiteCrawl
	ListingID int64
	// Version increases with every write; UpdateDraft refuses a stale one.
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// DraftInvite is a co-founder invited to add their own founder profile.
type DraftInvite struct {
	ID         int64      `json:"id"`
	Email      string     `json:"email"`
	Status     string     `json:"status" jsonschema:"enum=sent,enum=accepted"`
	CreatedAt  time.Time  `json:"created_at"`
	AcceptedAt *time.Time `json:"accepted_at,omitempty"`
}

// ErrStale is returned by DraftStore.UpdateDraft when the draft changed since it was read.
var ErrStale = Errorf(EConflict, "The draft was changed by another request at the same time; send the change again.")

// DraftStore keeps drafts, invites and the listings drafts become.
type DraftStore interface {
	// CreateDraft stores a new draft and, in the same transaction, the jobs
	// it needs (its build).
	CreateDraft(ctx context.Context, d *DraftRecord, jobs ...JobSpec) error
	// OrphanDrafts lists the drafts being built (crawling or drafting) that
	// have no queued build job.
	OrphanDrafts(ctx context.Context) ([]string, error)
	// Draft returns a draft of any user (the Service checks the owner); ENotFound when absent.
	Draft(ctx context.Context, id string, withCrawl bool) (*DraftRecord, error)
	// UserDrafts lists a user's drafts newest first.
	UserDrafts(ctx context.Context, userID int64, offset, limit int) ([]DraftRecord, int, error)
	// UpdateDraft writes the draft's status, progress, error, doc, ai, listing id (and
	// crawl when withCrawl) if its Version is still d.Version; it then increments
	// d.Version. ErrStale otherwise. events (webhooks' outbox) are written in
	// the same transaction.
	UpdateDraft(ctx context.Context, d *DraftRecord, withCrawl bool, events ...WebhookEvent) error
	// SetDraftProgress records the build's progress without touching the rest.
	SetDraftProgress(ctx context.Context, id, phase string, done, planned int, now time.Time) error
	// SaveOwnListing creates (id 0) or updates a listing of userID from w and returns its id.
	SaveOwnListing(ctx context.Context, userID, id int64, w *ListingWrite) (int64, error)
	// SaveDraftAndListing writes d as UpdateDraft does and, when w is not
	// nil, d's listing from w as SaveOwnListing does (a new one when
	// d.ListingID is 0; d.ListingID then holds its id), in one transaction:
	// when either write fails, neither is stored.
	SaveDraftAndListing(ctx context.Context, d *DraftRecord, w *ListingWrite) error
	// AddDraftInvite records an invite (tokenHash is the SHA-256 hex of the link's token).
	// Inviting an address again replaces its token and is not counted twice; more than
	// max distinct addresses gives an EInvalid error.
	AddDraftInvite(ctx context.Context, draftID, email, tokenHash string, max int, now time.Time) (*DraftInvite, error)
	DraftInvites(ctx context.Context, draftID string) ([]DraftInvite, error)
	// DraftInviteByHash finds an invite by its token hash; ENotFound when absent.
	DraftInviteByHash(ctx context.Context, tokenHash string) (draftID string, inv *DraftInvite, err error)
	// ListingsAtDomain lists the listings whose domain is registrable or a
	// subdomain of it that userID may be told of: public ones (scheduled or
	// live) and userID's own, whatever their status.
	ListingsAtDomain(ctx context.Context, userID int64, registrable string) ([]DomainListing, error)
	// AcceptDraftInvite marks the invite accepted by userID.
	AcceptDraftInvite(ctx context.Context, id, userID int64, now time.Time) error
}

// ListingWrite is what a submitted draft writes to its listing.
type ListingWrite struct {
	Name             string
	Tagline          string
	ShortDescription string
	Description      string
	URL              string
	Domain           string
	LogoURL          string
	Stage            string // a stage slug or ""
	PricingModel     string
	PricingSummary   string
	Country          string // ISO alpha-2 upper case or ""
	City             string
	FoundedYear      int // 0: unknown
	ContactEmail     string
	DemoVideoURL     string
	Keywords         []string
	Features         []string
	USPs             []string
	FAQs             []FAQ
	Socials          Socials
	Story            *Story
	Milestones       []Milestone
	// Categories are category slugs; the first is primary.
	Categories        []string
	Founders          []FounderWrite
	NotFoundOnWebsite []string
	SEOTitle          string
	SEODescription    string
	// Parts, when not nil, limits the update of an existing listing to these
	// parts: draft field names (tags count as keywords), "faqs", "socials",
	// "founders", "story", "milestones" and "seo". nil writes every part (the
	// first submit). Once a listing exists it is also edited directly
	// (update_my_listing, milestones, story, paid extra categories), so a
	// draft edit must only write what that edit changed.
	Parts map[string]bool
}

// FounderWrite is a founder a submitted draft names.
type FounderWrite struct {
	Name, Title, Bio string
	Socials          Socials
}

// Mailer sends a message to a person (the outbox, and SMTP when configured).
type Mailer interface {
	SendMail(ctx context.Context, to, subject, body string) error
}

// jsonEqual reports whether two JSON-able values encode the same.
func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
