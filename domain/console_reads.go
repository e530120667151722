package domain

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// What the core reads of the site team's console (domain/console): the
// settings in effect, where the slugs the team renamed or merged lead, and
// the names and statuses the console writes that the public operations
// show. The console itself (its rules and its writes) is domain/console.

// Setting keys. The free queue's keys are the JSON names of FreeSettings.
const (
	SettingSiteName         = "site_name"
	SettingSitePurpose      = "site_purpose"
	SettingFreeWeeksMin     = "free_weeks_min"
	SettingFreeWeeksMax     = "free_weeks_max"
	SettingFreeWeekCapacity = "free_week_capacity"
	SettingBadgeCheckHours  = "badge_check_hours"
	SettingVoteMinAgeHours  = "vote_min_account_age_hours"
)

// SettingsReader reads the stored site settings; the console writes them.
type SettingsReader interface {
	// StoredSettings returns the stored settings by key (absent: not stored).
	StoredSettings(ctx context.Context) (map[string]string, error)
}

// Redirects says where a slug the site team changed leads now.
type Redirects interface {
	// CategoryRedirectSlug is the slug of the category an old slug (of a
	// renamed or merged category) points at; "" when slug is no old slug.
	CategoryRedirectSlug(ctx context.Context, slug string) (string, error)
	// MergedSlug is the slug of the listing that slug was merged into
	// ("" when none).
	MergedSlug(ctx context.Context, slug string) (string, error)
}

// storedSettings are the stored settings; none when they cannot be read
// (then the defaults apply and the failure is logged).
func (s *Service) storedSettings(ctx context.Context) map[string]string {
	st := s.Settings
	if st == nil {
		return nil
	}
	stored, err := st.StoredSettings(ctx)
	if err != nil {
		slog.Default().Error("domain: reading the site settings; using the defaults", "err", err)
		return nil
	}
	return stored
}

// SiteNow is the site as the request of ctx sees it (Site.In) with the
// name and purpose in effect now: the stored settings, else the configured
// ones.
func (s *Service) SiteNow(ctx context.Context) Site {
	site := s.Site.In(ctx)
	stored := s.storedSettings(ctx)
	if v, ok := stored[SettingSiteName]; ok && v != "" {
		site.Name = v
	}
	if v, ok := stored[SettingSitePurpose]; ok && v != "" {
		site.Purpose = v
	}
	return site
}

// voteMinAccountAge is the vote rule's minimum account age in effect now.
func (s *Service) voteMinAccountAge(ctx context.Context) time.Duration {
	if v, ok := s.storedSettings(ctx)[SettingVoteMinAgeHours]; ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return time.Duration(n) * time.Hour
		}
	}
	return s.VoteMinAccountAge
}

// Statuses the console gives a listing (storage/migrations/0022).
const (
	// ListingHidden: the site team hid it; HiddenStatus keeps the status
	// unhiding puts back.
	ListingHidden = "hidden"
	// ListingMerged: merged into another listing (MergedInto); its slug
	// redirects there.
	ListingMerged = "merged"
)

// VoteDiscarded is what VotedSlugs says of a vote the site team discarded.
const VoteDiscarded = "discarded"

// Sources of a revenue figure.
const (
	RevenueVerified = "verified"
	RevenueOwner    = "owner"
)

// RevenueSourceLabel says a source as a person reads it.
func RevenueSourceLabel(source string) string {
	if source == RevenueVerified {
		return "verified by the site team"
	}
	return "stated by the owner"
}

// ListingRevenue is a listing's latest monthly revenue, as its profile shows it.
type ListingRevenue struct {
	Month       string `json:"month" jsonschema_description:"The month, YYYY-MM."`
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency"`
	Source      string `json:"source" jsonschema:"enum=verified,enum=owner" jsonschema_description:"verified: checked by the site team; owner: stated by the owner, not checked."`
}

// CategorySlugMax is the longest category slug (the spec's slug pattern).
const CategorySlugMax = 220

// reSlugJunk is what Slugify turns into a hyphen.
var reSlugJunk = regexp.MustCompile(`[^a-z0-9]+`)

// Slugify makes a category slug from a name: lower case letters and digits
// with single hyphens between words ("AI & Data" is "ai-data").
func Slugify(name string) string {
	s := reSlugJunk.ReplaceAllString(strings.ToLower(name), "-")
	s = strings.Trim(s, "-")
	if len(s) > CategorySlugMax {
		s = strings.TrimRight(s[:CategorySlugMax], "-")
	}
	return s
}

// currentCategorySlug is the slug of the category an old slug points at;
// slug itself when it is no old slug (a live slug is never one).
func (s *Service) currentCategorySlug(ctx context.Context, slug string) (string, error) {
	if s.Redirects == nil || slug == "" {
		return slug, nil
	}
	to, err := s.Redirects.CategoryRedirectSlug(ctx, slug)
	if err != nil || to == "" {
		return slug, err
	}
	return to, nil
}

// MergedSlug is the slug a merged listing's slug now leads to ("" when slug
// was not merged).
func (s *Service) MergedSlug(ctx context.Context, slug string) (string, error) {
	if s.Redirects == nil {
		return "", nil // a Service built without them: nothing was merged
	}
	return s.Redirects.MergedSlug(ctx, slug)
}

// ListingEditValues are the fields in sets, as the listing's version
// stores them, checked by update_my_listing's rules: what the console's
// edit of a listing writes.
func ListingEditValues(in *UpdateMyListingInput) (map[string]json.RawMessage, error) {
	return editValues(in)
}
