package domain

import (
	"encoding/json"
	"time"
)

// SubmitListingInput is the body of POST /drafts.
type SubmitListingInput struct {
	URL string `json:"url" jsonschema:"required,maxLength=2048,pattern=^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$" jsonschema_description:"The product's web site, an http or https URL (usually its home page)."`
}

// DraftIDInput names one draft.
type DraftIDInput struct {
	ID string `json:"id" jsonschema:"required,format=uuid,maxLength=36" jsonschema_description:"The draft id (a UUID) that submit_listing returned."`
}

// ListMyDraftsInput pages through the caller's drafts.
type ListMyDraftsInput struct {
	Pagination
}

// DraftFieldsPatch are the draft profile fields a PATCH may set; null removes a
// field. Only the fields sent are touched.
type DraftFieldsPatch struct {
	Name             *string  `json:"name,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	Tagline          *string  `json:"tagline,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	ShortDescription *string  `json:"short_description,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	Description      *string  `json:"description,omitempty" jsonschema:"maxLength=20000" jsonschema_extras:"nullable=true"`
	Stage            *string  `json:"stage,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true" jsonschema_description:"A business stage slug (see get_site_info)."`
	Categories       []string `json:"categories,omitempty" jsonschema:"maxItems=20,maxLength=200" jsonschema_extras:"nullable=true" jsonschema_description:"Category names from list_categories; the first is primary."`
	Tags             []string `json:"tags,omitempty" jsonschema:"maxItems=20,maxLength=200" jsonschema_extras:"nullable=true"`
	PricingModel     *string  `json:"pricing_model,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	PricingSummary   *string  `json:"pricing_summary,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	Country          *string  `json:"country,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true" jsonschema_description:"ISO 3166 two-letter code, e.g. DE."`
	City             *string  `json:"city,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	FoundedYear      *string  `json:"founded_year,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true" jsonschema_description:"Year the company was founded, e.g. \"2019\"."`
	Features         []string `json:"features,omitempty" jsonschema:"maxItems=20,maxLength=200" jsonschema_extras:"nullable=true"`
	USPs             []string `json:"usps,omitempty" jsonschema:"maxItems=20,maxLength=200" jsonschema_extras:"nullable=true"`
	Keywords         []string `json:"keywords,omitempty" jsonschema:"maxItems=20,maxLength=200" jsonschema_extras:"nullable=true"`
	ContactEmail     *string  `json:"contact_email,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`
	DemoVideoURL     *string  `json:"demo_video_url,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true" jsonschema_description:"A video link (YouTube, Vimeo, Loom, ...)."`
	LogoURL          *string  `json:"logo_url,omitempty" jsonschema:"maxLength=500" jsonschema_extras:"nullable=true"`

	// sent are the keys present in the request, null ones included.
	sent map[string]json.RawMessage
}

// UnmarshalJSON remembers which keys were sent, so null (remove) is told apart
// from absent (leave alone).
func (p *DraftFieldsPatch) UnmarshalJSON(b []byte) error {
	type plain DraftFieldsPatch
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	return json.Unmarshal(b, &p.sent)
}

// FounderInput is a founder item of update_draft.
type FounderInput struct {
	Name  string `json:"name" jsonschema:"required,minLength=1,maxLength=160"`
	Title string `json:"title,omitempty" jsonschema:"maxLength=160" jsonschema_description:"Role, e.g. CEO."`
	Bio   string `json:"bio,omitempty" jsonschema:"maxLength=3000"`
}

// FAQInput is an FAQ item of update_draft.
type FAQInput struct {
	Question string `json:"question" jsonschema:"required,minLength=1,maxLength=300"`
	Answer   string `json:"answer" jsonschema:"required,minLength=1,maxLength=1500"`
}

// MilestoneInput is a milestone item of update_draft.
type MilestoneInput struct {
	Date        string `json:"date" jsonschema:"required,format=date,maxLength=10" jsonschema_description:"YYYY-MM-DD."`
	Title       string `json:"title" jsonschema:"required,minLength=1,maxLength=200"`
	Description string `json:"description,omitempty" jsonschema:"maxLength=2000"`
	URL         string `json:"url,omitempty" jsonschema:"maxLength=500,pattern=^https://" jsonschema_description:"An https link."`
}

// StoryInput are the story sections of a draft.
type StoryInput struct {
	Title        *string `json:"title,omitempty" jsonschema:"maxLength=8000"`
	Story        *string `json:"story,omitempty" jsonschema:"maxLength=8000"`
	WhyStarted   *string `json:"why_started,omitempty" jsonschema:"maxLength=8000"`
	Problem      *string `json:"problem,omitempty" jsonschema:"maxLength=8000"`
	Journey      *string `json:"journey,omitempty" jsonschema:"maxLength=8000"`
	Challenges   *string `json:"challenges,omitempty" jsonschema:"maxLength=8000"`
	Achievements *string `json:"achievements,omitempty" jsonschema:"maxLength=8000"`
	Lessons      *string `json:"lessons,omitempty" jsonschema:"maxLength=8000"`
	WhatsNext    *string `json:"whats_next,omitempty" jsonschema:"maxLength=8000"`
}

// SocialsInput are links by platform.
type SocialsInput struct {
	LinkedIn    *string `json:"linkedin,omitempty" jsonschema:"maxLength=500"`
	X           *string `json:"x,omitempty" jsonschema:"maxLength=500"`
	Facebook    *string `json:"facebook,omitempty" jsonschema:"maxLength=500"`
	Instagram   *string `json:"instagram,omitempty" jsonschema:"maxLength=500"`
	TikTok      *string `json:"tiktok,omitempty" jsonschema:"maxLength=500"`
	YouTube     *string `json:"youtube,omitempty" jsonschema:"maxLength=500"`
	Threads     *string `json:"threads,omitempty" jsonschema:"maxLength=500"`
	Pinterest   *string `json:"pinterest,omitempty" jsonschema:"maxLength=500"`
	GitHub      *string `json:"github,omitempty" jsonschema:"maxLength=500"`
	Reddit      *string `json:"reddit,omitempty" jsonschema:"maxLength=500"`
	ProductHunt *string `json:"producthunt,omitempty" jsonschema:"maxLength=500"`
	Medium      *string `json:"medium,omitempty" jsonschema:"maxLength=500"`
	Website     *string `json:"website,omitempty" jsonschema:"maxLength=500"`
	Custom      *string `json:"custom,omitempty" jsonschema:"maxLength=500"`
}

// SEOInput is the draft's SEO title and meta description.
type SEOInput struct {
	Title *string `json:"title,omitempty" jsonschema:"maxLength=70"`
	Meta  *string `json:"meta,omitempty" jsonschema:"maxLength=170"`
}

// UpdateDraftInput is PATCH /drafts/{id}: every key optional, only changed parts sent.
type UpdateDraftInput struct {
	ID             string            `json:"id" jsonschema:"required,format=uuid,maxLength=36" jsonschema_description:"The draft id."`
	Fields         *DraftFieldsPatch `json:"fields,omitempty" jsonschema_description:"Profile fields to set; null removes a field. A typed value becomes state edited (or manual where the site stated nothing)."`
	LockFields     []string          `json:"lock_fields,omitempty" jsonschema:"maxItems=20,maxLength=40" jsonschema_description:"Field names to lock against AI redrafts (state override)."`
	Regenerate     []string          `json:"regenerate,omitempty" jsonschema:"maxItems=5,maxLength=40" jsonschema_description:"Field names the AI redrafts from the site's evidence (locked fields are refused). Takes a few seconds."`
	Restore        []string          `json:"restore,omitempty" jsonschema:"maxItems=20,maxLength=40" jsonschema_description:"Field names to put back to the AI's original value (this also unlocks them)."`
	FAQs           []FAQInput        `json:"faqs,omitempty" jsonschema:"maxItems=10" jsonschema_description:"Replaces all FAQs (up to 5 recommended, 10 at most)."`
	CompanySocials *SocialsInput     `json:"company_socials,omitempty" jsonschema_description:"Company links by platform; an empty string removes one."`
	FounderSocials *SocialsInput     `json:"founder_socials,omitempty" jsonschema_description:"The primary founder's links by platform; an empty string removes one."`
	Founders       []FounderInput    `json:"founders,omitempty" jsonschema:"maxItems=6" jsonschema_description:"Replaces the founders; the first is primary."`
	Story          *StoryInput       `json:"story,omitempty" jsonschema_description:"Story sections to set; an empty string clears one."`
	Milestones     []MilestoneInput  `json:"milestones,omitempty" jsonschema:"maxItems=50" jsonschema_description:"Replaces all milestones."`
	CompetitorURL  *string           `json:"competitor_url,omitempty" jsonschema:"maxLength=2048" jsonschema_description:"A competitor's site to read and compare with; an empty string clears it."`
	SEO            *SEOInput         `json:"seo,omitempty"`

	// sent are the top-level keys present, so an empty list ("faqs": []) clears while absent leaves alone.
	sent map[string]json.RawMessage
}

// UnmarshalJSON remembers which keys were sent.
func (p *UpdateDraftInput) UnmarshalJSON(b []byte) error {
	type plain UpdateDraftInput
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	return json.Unmarshal(b, &p.sent)
}

// InviteCofounderInput is POST /drafts/{id}/invites.
type InviteCofounderInput struct {
	ID    string `json:"id" jsonschema:"required,format=uuid,maxLength=36" jsonschema_description:"The draft id."`
	Email string `json:"email" jsonschema:"required,format=email,maxLength=254" jsonschema_description:"The co-founder's email address."`
}

// DraftProgress says how far a draft's build is.
type DraftProgress struct {
	Phase        string `json:"phase" jsonschema:"enum=queued,enum=reading_site,enum=drafting,enum=retrying" jsonschema_description:"queued, reading_site (robots.txt and pages), drafting (extracting the profile) or retrying (the site did not answer; trying again)."`
	PagesRead    int    `json:"pages_read"`
	PagesPlanned int    `json:"pages_planned"`
	Percent      int    `json:"percent" jsonschema_description:"Rough share of the build done, 0-100."`
	Message      string `json:"message"`
}

// DraftView is a draft as the operations return it.
type DraftView struct {
	ID     string `json:"id" jsonschema:"format=uuid"`
	Status string `json:"status" jsonschema:"enum=crawling,enum=drafting,enum=ready,enum=failed" jsonschema_description:"crawling and drafting: still building, poll get_draft again in a few seconds; ready: edit with update_draft, then submit_draft; failed: error says why (fields may still be filled in by hand)."`
	URL    string `json:"url"`
	// Progress is set while the draft is being built.
	Progress *DraftProgress `json:"progress,omitempty"`
	// PollAfterSeconds suggests when to call get_draft again while building.
	PollAfterSeconds int         `json:"poll_after_seconds,omitempty"`
	Error            *DraftError `json:"error,omitempty"`
	// Fields holds every draft profile field (DraftFieldNames) with its value, state and evidence.
	Fields map[string]DraftField `json:"fields"`
	// FieldStates says what each state among Fields means (only the states
	// present): the MCP copy of the output schema keeps no nested
	// descriptions, so the result explains itself.
	FieldStates    map[string]string     `json:"field_states"`
	FAQs           []DraftFAQ            `json:"faqs"`
	Founders       []DraftFounder        `json:"founders"`
	CompanySocials Socials               `json:"company_socials"`
	FounderSocials Socials               `json:"founder_socials"`
	Story          Story                 `json:"story"`
	Milestones     []Milestone           `json:"milestones"`
	CompetitorURL  string                `json:"competitor_url,omitempty"`
	Competitor     *CompetitorComparison `json:"competitor,omitempty"`
	SEO            DraftSEO              `json:"seo"`
	// Completeness is the share (0-100) of profile fields and sections that
	// have a value; absent while the draft is being built.
	Completeness *int `json:"completeness,omitempty" jsonschema_description:"Share (0-100) of profile fields and sections that have a value. Absent while status is crawling or drafting: nothing is judged before the site has been read."`
	// Missing names the fields and sections still empty (empty while building).
	Missing []string `json:"missing" jsonschema_description:"The fields and sections still empty; an empty list while status is crawling or drafting (fields are pending then)."`
	// NotFoundOnWebsite names the fields the site does not state (state not_found).
	NotFoundOnWebsite []string `json:"not_found_on_website"`
	// ExistingListing is the listing this site already has, when it has one.
	ExistingListing *ExistingListing `json:"existing_listing,omitempty" jsonschema_description:"Set when the URL's registrable domain already has a listing: yours (edit it with update_my_listing) or someone else's (take it over with claim_listing). submit_draft then answers 409 rather than saving a second listing of the site."`
	PagesRead       []string         `json:"pages_read,omitempty" jsonschema_description:"The site's pages the draft was made from."`
	// Language is the language of the pages the draft was made from.
	Language string        `json:"language,omitempty" jsonschema_description:"The language the draft was made from: the <html lang> of the home page read (its English alternate when the site has one), lower case, e.g. en, de or pt-br. Absent until the site has been read, or when the site declares none."`
	Invites  []DraftInvite `json:"invites"`
	// Warnings are set by update_draft alone: values the draft keeps that its
	// listing cannot (longer than the listing's bound).
	Warnings []DraftWarning `json:"warnings,omitempty" jsonschema_description:"update_draft only: stored values longer than a listing allows; submit_draft refuses them until shortened."`
	// ListingID is the listing this draft was saved as (after submit_draft).
	ListingID int64     `json:"listing_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// DraftSummary is a draft in list_my_drafts.
type DraftSummary struct {
	ID           string         `json:"id" jsonschema:"format=uuid"`
	Status       string         `json:"status" jsonschema:"enum=crawling,enum=drafting,enum=ready,enum=failed"`
	URL          string         `json:"url"`
	Name         string         `json:"name,omitempty"`
	Completeness *int           `json:"completeness,omitempty" jsonschema_description:"Share (0-100) of profile fields and sections that have a value; absent while the draft is being built."`
	Progress     *DraftProgress `json:"progress,omitempty"`
	ListingID    int64          `json:"listing_id,omitempty"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
}

// DraftList is one page of the caller's drafts.
type DraftList struct {
	Items []DraftSummary `json:"items"`
	Page
}

// SubmitDraftOutput is the result of submit_draft.
type SubmitDraftOutput struct {
	ListingID int64  `json:"listing_id"`
	DraftID   string `json:"draft_id"`
	Status    string `json:"status" jsonschema_description:"The listing's status now: draft (saved, not published) on the first submit; a listing already launched keeps its status."`
	// Created is false when this updated the listing an earlier submit_draft made.
	Created bool   `json:"created"`
	Next    string `json:"next" jsonschema_description:"What to do next to publish."`
}

// InviteOutput is the result of invite_cofounder.
type InviteOutput struct {
	DraftInvite
	DraftID       string `json:"draft_id"`
	InvitesLeft   int    `json:"invites_left"`
	ExpiresInDays int    `json:"expires_in_days"`
}
