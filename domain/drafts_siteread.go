package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// WebPage is one page of a product's web site as the Fetcher read it. Text and
// Data are the page's grounding corpus: a drafted value is kept only when each
// of its evidence quotes is found in them (see Grounded).
type WebPage struct {
	// URL is the page's final URL, after redirects.
	URL string `json:"url"`
	// Title is the document title (whitespace-normalised).
	Title string `json:"title,omitempty"`
	// HTML is the document, decoded to UTF-8, at most the fetch size limit.
	HTML string `json:"html"`
	// Text is the visible text (no script, style, template or hidden content),
	// whitespace-normalised (NormalizeSpace) within blocks, blocks (paragraphs, headings,
	// list items, table cells, ...) separated by "\n".
	Text string `json:"text"`
	// Data are the strings the page states outside its visible text, each
	// whitespace-normalised: the title, meta contents (description, Open Graph,
	// Twitter), JSON-LD string values, link targets (a href, iframe/video/source src,
	// resolved to absolute URLs), image alt texts.
	Data []string `json:"data,omitempty"`
}

// SiteCrawl is what the Fetcher read from one site.
type SiteCrawl struct {
	// URL is the URL as submitted; Pages[0] is its home page (after redirects).
	URL   string    `json:"url"`
	Pages []WebPage `json:"pages"`
	// Disallowed lists same-site URLs the crawl found but robots.txt forbade.
	Disallowed []string `json:"disallowed,omitempty"`
	// Skipped lists URLs that failed (status, size, type, time), with the reason.
	Skipped []SkippedPage `json:"skipped,omitempty"`
	// Language is the <html lang> of Pages[0], lower case ("en", "de-ch"),
	// or "" when it does not say. When the submitted home page had an
	// English alternate (hreflang), Pages[0] is that alternate.
	Language string `json:"language,omitempty"`
}

// SkippedPage is a page the crawl could not use.
type SkippedPage struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// Page returns the crawled page whose URL is url, or nil.
func (c *SiteCrawl) Page(url string) *WebPage {
	if c == nil {
		return nil
	}
	for i := range c.Pages {
		if c.Pages[i].URL == url {
			return &c.Pages[i]
		}
	}
	return nil
}

// CrawlProgress is told how many pages were read and how many are planned
// (planned may grow as links are found, never beyond the page budget).
type CrawlProgress func(done, planned int)

// Fetcher reads product web sites.
type Fetcher interface {
	// Crawl reads the site at rawURL: its robots.txt first, then the home page and
	// the pages that matter (about, pricing, features, FAQ, team, contact, changelog)
	// found by same-site links, up to maxPages pages (0: the fetcher's default budget).
	// It fails with a *CrawlError when the home page cannot be read.
	Crawl(ctx context.Context, rawURL string, maxPages int, progress CrawlProgress) (*SiteCrawl, error)
}

// Why a crawl failed (CrawlError.Reason).
const (
	CrawlRobots      = "robots"       // robots.txt forbids our user agent to read the home page
	CrawlRefused     = "refused"      // the address is not public (SSRF guard), or the scheme/port is not allowed
	CrawlUnreachable = "unreachable"  // DNS, connect or TLS failure, timeout
	CrawlStatus      = "http_status"  // the home page answered with an error status
	CrawlContentType = "content_type" // the home page is not HTML
	CrawlTooLarge    = "too_large"    // the home page exceeds the size limit
	CrawlRedirects   = "redirects"    // too many redirects
)

// CrawlError is why a site could not be read. Message is safe to show.
type CrawlError struct {
	Reason  string
	Message string
	// Temporary is true when trying again later may succeed (timeouts, 5xx, 429).
	Temporary bool
	// HTTPStatus is the status of a page that answered other than 2xx (Reason
	// CrawlStatus; FetchPage only), else 0.
	HTTPStatus int
}

func (e *CrawlError) Error() string { return e.Reason + ": " + e.Message }

// ---- Drafting ----

// DraftFieldNames are the draft profile fields of the spec's draft table, in its order.
var DraftFieldNames = []string{
	"name", "tagline", "short_description", "description", "stage", "categories", "tags",
	"pricing_model", "pricing_summary", "country", "city", "founded_year", "features", "usps",
	"keywords", "contact_email", "demo_video_url", "logo_url",
}

// DraftListFields are the draft profile fields whose value is a list of strings;
// all others are strings.
var DraftListFields = map[string]bool{"categories": true, "tags": true, "features": true, "usps": true, "keywords": true}

// Evidence is a quote cut from a crawled page and the page's URL.
type Evidence struct {
	Quote string `json:"quote"`
	URL   string `json:"url"`
}

// DraftedValue is one value a Drafter proposes. Exactly one of Text and List is
// used, as DraftListFields says.
type DraftedValue struct {
	Text     string     `json:"text,omitempty"`
	List     []string   `json:"list,omitempty"`
	Evidence []Evidence `json:"evidence"`
}

// DraftedFAQ is a question and answer found on the site.
type DraftedFAQ struct {
	FAQ
	Evidence []Evidence `json:"evidence"`
}

// DraftedFounder is a founder or team member the site names.
type DraftedFounder struct {
	Name     string     `json:"name"`
	Title    string     `json:"title,omitempty"`
	Bio      string     `json:"bio,omitempty"`
	Socials  Socials    `json:"socials,omitempty"`
	Evidence []Evidence `json:"evidence"`
}

// DraftedLink is a company social link found on the site.
type DraftedLink struct {
	URL      string     `json:"url"`
	Evidence []Evidence `json:"evidence"`
}

// DraftedMilestone is a dated event the site states.
type DraftedMilestone struct {
	Milestone
	Evidence []Evidence `json:"evidence"`
}

// DraftedSection is one story section.
type DraftedSection struct {
	Text     string     `json:"text"`
	Evidence []Evidence `json:"evidence"`
}

// Drafted is a Drafter's proposal for a profile. A field the site does not state
// is absent (it becomes state not_found); nothing may be invented.
type Drafted struct {
	// Fields maps a name of DraftFieldNames to its value.
	Fields map[string]DraftedValue `json:"fields"`
	FAQs   []DraftedFAQ            `json:"faqs,omitempty"`
	// Founders: the first is the primary founder.
	Founders []DraftedFounder `json:"founders,omitempty"`
	// Socials maps a platform of SocialPlatforms to the company's link.
	Socials    map[string]DraftedLink    `json:"socials,omitempty"`
	Story      map[string]DraftedSection `json:"story,omitempty"` // keys: the json names of Story's fields
	Milestones []DraftedMilestone        `json:"milestones,omitempty"`
}

// CategoryChoice is one category of the site's list a Drafter may choose.
type CategoryChoice struct {
	Slug   string `json:"slug"`
	Name   string `json:"name"`
	Parent string `json:"parent,omitempty"` // the parent category's name
}

// DraftRequest is what a Drafter works from.
type DraftRequest struct {
	Site *SiteCrawl
	// Categories is the site's category list; "categories" values must be names from it
	// (the first is primary).
	Categories []CategoryChoice
	// Stages are the business stage slugs "stage" may take.
	Stages []string
	// Only, when set, names the profile fields to redraft (regenerate); the Drafter
	// may skip the others (the caller keeps only these).
	Only []string
}

// Drafter drafts a profile from a crawled site.
type Drafter interface {
	Draft(ctx context.Context, req DraftRequest) (*Drafted, error)
}

// ---- Grounding ----

// NormalizeSpace collapses every run of white space (Unicode, including
// non-breaking spaces) to one ASCII space and trims both ends.
func NormalizeSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u00a0' || r == '\u200b' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// QuoteOnPage reports whether quote (whitespace-normalised) occurs verbatim in
// the page's Text (within one line or across lines joined by a space) or in one
// of its Data strings.
func QuoteOnPage(p *WebPage, quote string) bool {
	q := NormalizeSpace(quote)
	if p == nil || q == "" {
		return false
	}
	if strings.Contains(p.Text, q) || strings.Contains(strings.ReplaceAll(p.Text, "\n", " "), q) {
		return true
	}
	for _, d := range p.Data {
		if strings.Contains(d, q) {
			return true
		}
	}
	return false
}

// ErrUngrounded marks evidence that is not on the crawled site.
var ErrUngrounded = errors.New("evidence not found on the site")

// CheckEvidence returns nil when ev is non-empty and every quote is found on
// the crawled page it names.
func CheckEvidence(site *SiteCrawl, ev []Evidence) error {
	if len(ev) == 0 {
		return fmt.Errorf("%w: no evidence", ErrUngrounded)
	}
	for _, e := range ev {
		if !QuoteOnPage(site.Page(e.URL), e.Quote) {
			return fmt.Errorf("%w: %q on %s", ErrUngrounded, e.Quote, e.URL)
		}
	}
	return nil
}
