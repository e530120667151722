package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
)

// Owner edits of a listing (update_my_listing): they publish at once and are
// kept as versions (one per call that changes something, with the before and
// after value of each changed field), which the owner sees in get_my_listing
// and the site team reviews, and may revert, on /admin. docs/owner-edits.md.

// EditableFieldNames are the keys of update_my_listing's fields, in the
// spec's order. Each is also the name of the listing column it writes.
var EditableFieldNames = []string{"tagline", "short_description", "description", "pricing_model", "pricing_summary",
	"country", "city", "founded_year", "demo_video_url", "contact_email", "features", "usps", "keywords",
	"headline", "summary", "seo_title", "seo_description"}

// TravelFieldNames are the fields apply_to carries to the same company's
// listings on other sites (only those of them sent in the call).
var TravelFieldNames = []string{"headline", "summary", "seo_title", "seo_description"}

// ApplyToAll is the apply_to value naming every other site.
const ApplyToAll = "all"

// Kinds of listing versions.
const (
	VersionEdit    = "edit"     // update_my_listing on the listing itself
	VersionApplyTo = "apply_to" // fields carried from the same company's listing on another site
	VersionRevert  = "revert"   // the site team put back the before values of an earlier version
)

// HistoryLength is how many versions get_my_listing shows.
const HistoryLength = 20

// ListingFieldsPatch are the editable listing fields of update_my_listing.
// Only the fields sent are touched; an empty string or list clears one, and
// founded_year null clears it.
type ListingFieldsPatch struct {
	Tagline          *string  `json:"tagline,omitempty" jsonschema:"maxLength=200"`
	ShortDescription *string  `json:"short_description,omitempty" jsonschema:"maxLength=300"`
	Description      *string  `json:"description,omitempty" jsonschema:"maxLength=20000"`
	PricingModel     *string  `json:"pricing_model,omitempty" jsonschema:"maxLength=40" jsonschema_description:"Lower case, e.g. freemium, subscription, one-time, open-source."`
	PricingSummary   *string  `json:"pricing_summary,omitempty" jsonschema:"maxLength=300"`
	Country          *string  `json:"country,omitempty" jsonschema:"maxLength=2,pattern=^([A-Za-z]{2})?$" jsonschema_description:"ISO 3166 two-letter country code such as DE; an empty string clears it."`
	City             *string  `json:"city,omitempty" jsonschema:"maxLength=120"`
	FoundedYear      *int     `json:"founded_year,omitempty" jsonschema:"minimum=1800,maximum=2100" jsonschema_extras:"nullable=true" jsonschema_description:"Year the company was founded, 1800-2100; null clears it."`
	DemoVideoURL     *string  `json:"demo_video_url,omitempty" jsonschema:"maxLength=500" jsonschema_description:"An http or https video link (YouTube, Vimeo, Loom, ...)."`
	ContactEmail     *string  `json:"contact_email,omitempty" jsonschema:"maxLength=254,format=email"`
	Features         []string `json:"features,omitempty" jsonschema:"maxItems=20,maxLength=200"`
	USPs             []string `json:"usps,omitempty" jsonschema:"maxItems=20,maxLength=200"`
	Keywords         []string `json:"keywords,omitempty" jsonschema:"maxItems=20,maxLength=200"`
	Headline         *string  `json:"headline,omitempty" jsonschema:"maxLength=200" jsonschema_description:"This site's headline for the listing (apply_to can carry it)."`
	Summary          *string  `json:"summary,omitempty" jsonschema:"maxLength=20000" jsonschema_description:"This site's summary of the listing (apply_to can carry it)."`
	SEOTitle         *string  `json:"seo_title,omitempty" jsonschema:"maxLength=200" jsonschema_description:"The listing page's search engine title (apply_to can carry it)."`
	SEODescription   *string  `json:"seo_description,omitempty" jsonschema:"maxLength=320" jsonschema_description:"The listing page's meta description (apply_to can carry it)."`

	// sent are the keys present in the request, null ones included.
	sent map[string]json.RawMessage
}

// UnmarshalJSON remembers which keys were sent. founded_year may be written
// 2019.0 (an integer to JSON Schema), so it is decoded on its own.
func (p *ListingFieldsPatch) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &p.sent); err != nil {
		return err
	}
	rest := map[string]json.RawMessage{}
	for k, v := range p.sent {
		if k != "founded_year" {
			rest[k] = v
		}
	}
	rb, err := json.Marshal(rest)
	if err != nil {
		return err
	}
	type plain ListingFieldsPatch
	if err := json.Unmarshal(rb, (*plain)(p)); err != nil {
		return err
	}
	if raw, ok := p.sent["founded_year"]; ok && string(raw) != "null" {
		r, ok := new(big.Rat).SetString(string(raw))
		if !ok || !r.IsInt() || !r.Num().IsInt64() {
			return fmt.Errorf("founded_year: %s is not an integer", raw)
		}
		y := int(r.Num().Int64())
		p.FoundedYear = &y
	}
	return nil
}

// UpdateMyListingInput is PATCH /me/listings/{listing_id}.
type UpdateMyListingInput struct {
	ListingID int64               `json:"listing_id" jsonschema:"required,minimum=1" jsonschema_description:"The listing's id (list_my_listings)."`
	Fields    *ListingFieldsPatch `json:"fields,omitempty" jsonschema_extras:"minProperties=1" jsonschema_description:"Editable fields to set (at least one when fields is sent); only those sent change. An empty string or list clears one; founded_year null clears it."`
	ApplyTo   []string            `json:"apply_to,omitempty" jsonschema:"maxItems=60,maxLength=40" jsonschema_description:"[\"all\"] or site keys of OTHER sites: the headline, summary, seo_title and seo_description sent in this call's fields are also written to the same company's listings there (only listings you own or that have no owner). Default: this listing only."`
	Socials   *SocialsInput       `json:"socials,omitempty" jsonschema_description:"Company links by platform (http or https); replaces all of them. {} removes every link."`
	FAQs      []FAQInput          `json:"faqs,omitempty" jsonschema:"maxItems=10" jsonschema_description:"Replaces all FAQs, 10 at most. [] removes them all."`

	// sent are the top-level keys present, so "faqs": [] (clear) differs from absent.
	sent map[string]json.RawMessage
}

// UnmarshalJSON remembers which keys were sent.
func (p *UpdateMyListingInput) UnmarshalJSON(b []byte) error {
	type plain UpdateMyListingInput
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	return json.Unmarshal(b, &p.sent)
}

// ListingCopy is a listing's own copy on this site: what apply_to carries.
type ListingCopy struct {
	Headline       string `json:"headline"`
	Summary        string `json:"summary"`
	SEOTitle       string `json:"seo_title"`
	SEODescription string `json:"seo_description"`
}

// ListingVersionSummary is one version of a listing's history.
type ListingVersionSummary struct {
	Version int       `json:"version" jsonschema_description:"1, 2, ... per listing."`
	At      time.Time `json:"at"`
	By      string    `json:"by" jsonschema_description:"Email of the account that made the change."`
	Kind    string    `json:"kind" jsonschema:"enum=edit,enum=apply_to,enum=revert" jsonschema_description:"edit (update_my_listing), apply_to (carried from the same company's listing on another site) or revert (the site team put back an earlier version's values)."`
	Fields  []string  `json:"fields" jsonschema_description:"The fields this version changed."`
	Note    string    `json:"note,omitempty"`
}

// FieldChange is one changed field of a version: its JSON value before and after.
type FieldChange struct {
	Field  string          `json:"field"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
}

// ListingVersion is a version as the site team's review queue shows it.
type ListingVersion struct {
	ListingVersionSummary
	// ID identifies the version in the review queue's forms.
	ID            int64
	ListingID     int64
	ListingSlug   string
	ListingName   string
	ListingStatus string
	// PageURL is the public page, for scheduled and live listings only.
	PageURL    string
	Changes    []FieldChange
	ReviewedBy string
	ReviewedAt *time.Time
}

// AppliedListing is what apply_to did with one listing (or site).
type AppliedListing struct {
	Site      string `json:"site" jsonschema_description:"The other site's key."`
	ListingID int64  `json:"listing_id,omitempty"`
	Slug      string `json:"slug,omitempty"`
	Result    string `json:"result" jsonschema:"enum=written,enum=unchanged,enum=skipped"`
	Version   int    `json:"version,omitempty" jsonschema_description:"The version written there (result written)."`
	Reason    string `json:"reason,omitempty" jsonschema_description:"Why it was skipped."`
}

// Results of apply_to for one listing or site.
const (
	AppliedWritten   = "written"
	AppliedUnchanged = "unchanged"
	AppliedSkipped   = "skipped"
)

// UpdateMyListingOutput is the answer of update_my_listing: the listing as
// it is now, the version stored and what apply_to did.
type UpdateMyListingOutput struct {
	MyListing
	// Version is the version this call stored; null when nothing changed.
	Version *ListingVersionSummary `json:"version" jsonschema_description:"The version this call stored; null when every value sent equals the current one (nothing is stored then)."`
	// AppliedTo reports each listing on another site that apply_to named.
	AppliedTo []AppliedListing `json:"applied_to"`
	Message   string           `json:"message"`
}

// ListingEdit is one checked update_my_listing call, as the store applies it.
type ListingEdit struct {
	UserID    int64
	Email     string
	ListingID int64
	// Values are the canonical JSON values of the fields sent (EditableFieldNames,
	// socials, faqs): strings, null or an integer, lists, objects.
	Values map[string]json.RawMessage
	// ApplyAll carries the travel fields to every other site; ApplyTo names sites.
	ApplyAll bool
	ApplyTo  []string
	// Travel are the values apply_to carries (a subset of Values).
	Travel map[string]json.RawMessage
	Now    time.Time
}

// ListingEditResult is what the store did with a ListingEdit.
type ListingEditResult struct {
	// Version is nil when nothing changed.
	Version   *ListingVersionSummary
	AppliedTo []AppliedListing
}

// ListingEditStore keeps listing edits and their versions.
type ListingEditStore interface {
	// SiteKeys lists the keys of every site in the database.
	SiteKeys(ctx context.Context) ([]string, error)
	// EditOwnListing writes e in one transaction: the values that differ from
	// the listing's, one version with the before and after of each changed
	// field, and the same for the listings apply_to reaches. ENotFound when
	// the listing is missing or not the user's (told apart from neither).
	EditOwnListing(ctx context.Context, e ListingEdit) (*ListingEditResult, error)
	// ListingEdits returns the listing's copy and its latest versions, newest first.
	ListingEdits(ctx context.Context, listingID int64, limit int) (ListingCopy, []ListingVersionSummary, error)
	// ReviewQueue lists versions of this site's listings, unreviewed first,
	// newest first, at most limit, and the number unreviewed.
	ReviewQueue(ctx context.Context, limit int) ([]ListingVersion, int, error)
	// MarkVersionReviewed records who reviewed version id and when (once; again is no change).
	MarkVersionReviewed(ctx context.Context, id int64, by string, now time.Time) error
	// RevertVersion writes back the before values of version id as a new
	// version by the team member by, and marks id reviewed. Nil when the
	// listing already holds those values.
	RevertVersion(ctx context.Context, id int64, by string, now time.Time) (*ListingVersionSummary, error)
}

func (s *Service) editStore() (ListingEditStore, error) {
	if s.Edits == nil {
		return nil, Errorf(EInternal, "listing edits are not configured")
	}
	return s.Edits, nil
}

// UpdateMyListing edits one of the caller's listings: fields, socials and
// FAQs publish at once and are kept as a version; apply_to carries the
// headline, summary and SEO fields sent to the same company's listings on
// other sites.
func (s *Service) UpdateMyListing(ctx context.Context, in UpdateMyListingInput) (*UpdateMyListingOutput, error) {
	c, st, err := callerWith(ctx, s.editStore)
	if err != nil {
		return nil, err
	}
	values, err := editValues(&in)
	if err != nil {
		return nil, err
	}
	e := ListingEdit{UserID: c.UserID, Email: c.Email, ListingID: in.ListingID, Values: values, Now: s.now()}
	if err := s.checkApplyTo(ctx, st, &in, &e); err != nil {
		return nil, err
	}
	res := &ListingEditResult{}
	if len(values) > 0 { // an empty patch writes nothing; GetMyListing checks the listing is the caller's
		if res, err = st.EditOwnListing(ctx, e); err != nil {
			return nil, err
		}
	}
	l, err := s.GetMyListing(ctx, GetMyListingInput{ListingID: in.ListingID})
	if err != nil {
		return nil, err
	}
	out := &UpdateMyListingOutput{MyListing: *l, Version: res.Version, AppliedTo: res.AppliedTo}
	if out.AppliedTo == nil {
		out.AppliedTo = []AppliedListing{}
	}
	switch {
	case len(values) == 0:
		out.Message = fmt.Sprintf("Nothing sent to change, so nothing changed and no version was stored. To edit the listing, "+
			"send fields (%s), socials or faqs.", strings.Join(EditableFieldNames, ", "))
	case res.Version == nil:
		out.Message = "Nothing changed on this listing: every value sent equals its current one, so no version was stored."
	default:
		out.Message = fmt.Sprintf("Saved and published as version %d (%s). The site team reviews edits and may revert one; "+
			"get_my_listing shows the history.", res.Version.Version, strings.Join(res.Version.Fields, ", "))
	}
	if len(e.Travel) > 0 {
		n := map[string]int{}
		for _, a := range out.AppliedTo {
			n[a.Result]++
		}
		out.Message += fmt.Sprintf(" apply_to: %d listing(s) on other sites written, %d already had these values, %d skipped (see reason).",
			n[AppliedWritten], n[AppliedUnchanged], n[AppliedSkipped])
	}
	return out, nil
}

// editValues checks the rules the schema cannot express and returns the
// canonical JSON value of every field sent (none for an empty patch).
func editValues(in *UpdateMyListingInput) (map[string]json.RawMessage, error) {
	values := map[string]json.RawMessage{}
	put := func(name string, v any) error {
		b, err := json.Marshal(v)
		values[name] = b
		return err
	}
	if f := in.Fields; f != nil {
		for _, name := range EditableFieldNames {
			raw, sent := f.sent[name]
			if !sent {
				continue
			}
			var v any
			switch name {
			case "founded_year":
				if f.FoundedYear != nil {
					v = *f.FoundedYear
				}
			case "summary":
				var str string
				if err := json.Unmarshal(raw, &str); err != nil {
					return nil, Invalid("fields.summary", "type", "fields.summary must be a string.")
				}
				v = strings.TrimSpace(str)
			default:
				if string(raw) == "null" {
					return nil, Invalid("fields."+name, "type", "fields.%s cannot be null; send an empty %s to clear it.", name,
						map[bool]string{true: "list", false: "string"}[DraftListFields[name]])
				}
				val, err := fieldValue(name, raw, nil)
				if err != nil {
					return nil, err
				}
				if name == "pricing_model" {
					val = strings.ToLower(val.(string))
				}
				v = val
			}
			if err := put(name, v); err != nil {
				return nil, err
			}
		}
	}
	if in.Socials != nil {
		links := Socials{}
		m := socialsMap(in.Socials)
		for _, p := range SocialPlatforms { // a fixed order, so the error named is always the same
			v := m[p]
			if v == "" {
				continue
			}
			if !isHTTPURL(v) {
				return nil, Invalid("socials."+p, "format", "socials.%s must be an http or https link.", p)
			}
			links[p] = v
		}
		if err := put("socials", links); err != nil {
			return nil, err
		}
	}
	if _, sent := in.sent["faqs"]; sent {
		faqs := []FAQ{}
		for i, f := range in.FAQs {
			q, a := strings.TrimSpace(f.Question), strings.TrimSpace(f.Answer)
			if q == "" {
				return nil, Invalid(fmt.Sprintf("faqs[%d].question", i), "minLength", "faqs[%d].question must not be blank.", i)
			}
			if a == "" {
				return nil, Invalid(fmt.Sprintf("faqs[%d].answer", i), "minLength", "faqs[%d].answer must not be blank.", i)
			}
			faqs = append(faqs, FAQ{Question: q, Answer: a})
		}
		if err := put("faqs", faqs); err != nil {
			return nil, err
		}
	}
	if len(values) == 0 && len(in.ApplyTo) > 0 {
		return nil, Invalid("apply_to", "requires", "apply_to carries only the headline, summary, seo_title and "+
			"seo_description sent in fields; send at least one of them.")
	}
	// No values at all ({} or only listing_id) is an empty patch: as in a JSON
	// merge patch (RFC 7396) it changes nothing, like values equal to the
	// current ones. The schema declares every key optional, so this is not an
	// error; "fields": {} is one, declared in the schema (minProperties).
	return values, nil
}

// checkApplyTo checks apply_to against the sites there are and fills the
// edit's targets and the values that travel.
func (s *Service) checkApplyTo(ctx context.Context, st ListingEditStore, in *UpdateMyListingInput, e *ListingEdit) error {
	if len(in.ApplyTo) == 0 {
		return nil
	}
	keys, err := st.SiteKeys(ctx)
	if err != nil {
		return err
	}
	for i, k := range in.ApplyTo {
		field := fmt.Sprintf("apply_to[%d]", i)
		switch {
		case k == ApplyToAll && len(in.ApplyTo) > 1:
			return Invalid(field, "all_alone", "\"all\" already names every other site; send [\"all\"] alone or only site keys.")
		case k == ApplyToAll:
			e.ApplyAll = true
		case k == s.Site.Key:
			return Invalid(field, "other_site", "%q is this site; apply_to names the other sites (this listing is always written).", k)
		case slices.Contains(in.ApplyTo[:i], k):
			return Invalid(field, "uniqueItems", "%q is named twice in apply_to.", k)
		case !slices.Contains(keys, k):
			others := slices.DeleteFunc(slices.Clone(keys), func(x string) bool { return x == s.Site.Key })
			return Invalid(field, "exists", "There is no site %q; the other sites are: %s (or send [\"all\"]).", k, listOrNone(others))
		default:
			e.ApplyTo = append(e.ApplyTo, k)
		}
	}
	e.Travel = map[string]json.RawMessage{}
	for _, name := range TravelFieldNames {
		if v, ok := e.Values[name]; ok {
			e.Travel[name] = v
		}
	}
	if len(e.Travel) == 0 {
		return Invalid("apply_to", "requires", "apply_to carries only the headline, summary, seo_title and seo_description "+
			"sent in fields; send at least one of them, or leave apply_to out.")
	}
	return nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// withEdits adds the listing's copy and history to an owner's view.
func (s *Service) withEdits(ctx context.Context, l *MyListing) error {
	st, err := s.editStore()
	if err != nil {
		return err
	}
	cp, hist, err := st.ListingEdits(ctx, l.ID, HistoryLength)
	if err != nil {
		return err
	}
	if hist == nil {
		hist = []ListingVersionSummary{}
	}
	l.SiteCopy, l.History = cp, hist
	return nil
}

// ReviewQueue lists the site's listing edits for the team's review,
// unreviewed first, newest first (limit <= 0: 50), with the number unreviewed.
func (s *Service) ReviewQueue(ctx context.Context, limit int) ([]ListingVersion, int, error) {
	st, err := s.editStore()
	if err != nil {
		return nil, 0, err
	}
	if limit <= 0 {
		limit = 50
	}
	return st.ReviewQueue(ctx, limit)
}

// MarkEditReviewed records that team member by reviewed version id.
func (s *Service) MarkEditReviewed(ctx context.Context, id int64, by string) error {
	st, err := s.editStore()
	if err != nil {
		return err
	}
	if id <= 0 {
		return NotFound("listing version", fmt.Sprint(id))
	}
	return st.MarkVersionReviewed(ctx, id, by, s.now())
}

// RevertEdit puts back the before values of version id as a new version by
// team member by (the owner sees it in the history); nil when the listing
// already holds them.
func (s *Service) RevertEdit(ctx context.Context, id int64, by string) (*ListingVersionSummary, error) {
	st, err := s.editStore()
	if err != nil {
		return nil, err
	}
	if id <= 0 {
		return nil, NotFound("listing version", fmt.Sprint(id))
	}
	return st.RevertVersion(ctx, id, by, s.now())
}
