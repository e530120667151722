package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"time"
)

// UpdateDraft edits a ready (or failed) draft: field values, locks, restores,
// AI redrafts, FAQs, founders, socials, story, milestones, competitor and SEO.
// When the draft was already submitted, its listing is updated too.
func (s *Service) UpdateDraft(ctx context.Context, in UpdateDraftInput) (*DraftView, error) {
	d, rec, err := s.ownDraft(ctx, in.ID, len(in.Regenerate) > 0)
	if err != nil {
		return nil, err
	}
	if err := buildingConflict(rec); err != nil {
		return nil, err
	}
	cats, err := s.Store.CategoryTree(ctx)
	if err != nil {
		return nil, err
	}
	choices := categoryChoices(cats, "")
	if err := checkUpdate(&in, rec, choices); err != nil {
		return nil, err
	}
	// The slow parts (reading a competitor's site, asking the AI) run before
	// the write, so a failure changes nothing.
	var regen *Drafted
	if len(in.Regenerate) > 0 {
		if rec.Crawl == nil || len(rec.Crawl.Pages) == 0 {
			return nil, Invalid("regenerate", "no_evidence", "The site could not be read, so there is no evidence to redraft from; type the values in fields instead.")
		}
		if regen, err = s.draftFrom(ctx, rec.Crawl, in.Regenerate); err != nil {
			return nil, fmt.Errorf("regenerate: %w", err)
		}
	}
	var comp *CompetitorComparison
	compURL := ""
	if in.CompetitorURL != nil && *in.CompetitorURL != "" {
		if compURL, err = CheckSiteURL("competitor_url", *in.CompetitorURL); err != nil {
			return nil, err
		}
		if comp, err = s.compareCompetitor(ctx, rec, compURL); err != nil {
			return nil, err
		}
	}
	defer lockDraft(rec.ID)() // draft_retry.go
	for attempt := 1; ; attempt++ {
		applyUpdate(rec, &in, regen, choices)
		if in.CompetitorURL != nil {
			rec.Doc.CompetitorURL, rec.Doc.Competitor = compURL, comp
		}
		var w *ListingWrite
		if parts := in.listingParts(); rec.ListingID != 0 && len(parts) > 0 {
			if w, err = s.listingWrite(ctx, rec); err != nil {
				return nil, err
			}
			w.Parts = parts
		}
		rec.UpdatedAt = s.now()
		err = d.Store.SaveDraftAndListing(ctx, rec, w)
		if errors.Is(err, ErrStale) && attempt < draftWriteAttempts {
			if _, rec, err = s.ownDraft(ctx, in.ID, len(in.Regenerate) > 0); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		v, err := s.draftView(ctx, rec)
		if err == nil {
			v.Warnings = overListingBounds(&rec.Doc)
		}
		return v, err
	}
}

// buildingConflict refuses edits while the draft is being built.
func buildingConflict(rec *DraftRecord) error {
	if building(rec) {
		return Errorf(EConflict, "The draft is still being built (status %s); poll get_draft every few seconds until it is ready, then edit.", rec.Status)
	}
	return nil
}

// checkUpdate checks the rules the schema cannot express, naming the field.
func checkUpdate(in *UpdateDraftInput, rec *DraftRecord, cats []CategoryChoice) error {
	for _, l := range []struct {
		key   string
		names []string
	}{{"lock_fields", in.LockFields}, {"regenerate", in.Regenerate}, {"restore", in.Restore}} {
		key := l.key
		for i, n := range l.names {
			if !slices.Contains(DraftFieldNames, n) {
				return Invalid(fmt.Sprintf("%s[%d]", key, i), "enum", "%q is not a draft field; use one of: %s.", n, strings.Join(DraftFieldNames, ", "))
			}
		}
	}
	for i, n := range in.Regenerate {
		f := rec.Doc.Fields[n]
		restoring := slices.Contains(in.Restore, n)
		if (f != nil && f.State == StateOverride && !restoring) || slices.Contains(in.LockFields, n) {
			return Invalid(fmt.Sprintf("regenerate[%d]", i), "locked", "%s is locked against AI redrafts (state override); restore it first (restore also unlocks) or leave it out of regenerate.", n)
		}
		if fs := in.Fields; fs != nil {
			if _, sent := fs.sent[n]; sent {
				return Invalid(fmt.Sprintf("regenerate[%d]", i), "conflict", "%s is both set in fields and named in regenerate; do one or the other.", n)
			}
		}
	}
	if in.Fields != nil {
		for _, name := range DraftFieldNames {
			raw, sent := in.Fields.sent[name]
			if !sent || string(raw) == "null" {
				continue
			}
			if _, err := fieldValue(name, raw, cats); err != nil {
				return err
			}
		}
	}
	for i, f := range in.Founders {
		if strings.TrimSpace(f.Name) == "" {
			return Invalid(fmt.Sprintf("founders[%d].name", i), "minLength", "founders[%d].name must not be blank.", i)
		}
	}
	for i, m := range in.Milestones {
		if _, err := time.Parse(time.DateOnly, m.Date); err != nil {
			return Invalid(fmt.Sprintf("milestones[%d].date", i), "format", "milestones[%d].date must be a date YYYY-MM-DD.", i)
		}
	}
	for _, p := range SocialPlatforms { // in a fixed order, so the error named is always the same
		for _, l := range []struct {
			key string
			in  *SocialsInput
		}{{"company_socials", in.CompanySocials}, {"founder_socials", in.FounderSocials}} {
			if v := socialsMap(l.in)[p]; v != "" && !isHTTPURL(v) {
				return Invalid(l.key+"."+p, "format", "%s.%s must be an http or https link.", l.key, p)
			}
		}
	}
	return nil
}

// fieldValue decodes and checks one typed field value, returning it in its
// canonical form (country codes upper case, category names as listed).
func fieldValue(name string, raw json.RawMessage, cats []CategoryChoice) (any, error) {
	field := "fields." + name
	if DraftListFields[name] {
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, Invalid(field, "type", "%s must be a list of strings or null.", field)
		}
		out := make([]string, 0, len(list))
		for i, item := range list {
			item = NormalizeSpace(item)
			if item == "" {
				return nil, Invalid(fmt.Sprintf("%s[%d]", field, i), "minLength", "%s[%d] must not be blank.", field, i)
			}
			if name == "categories" {
				j := slices.IndexFunc(cats, func(c CategoryChoice) bool { return strings.EqualFold(c.Name, item) || c.Slug == item })
				if j < 0 {
					return nil, Invalid(fmt.Sprintf("%s[%d]", field, i), "enum", "%q is not a category; use names from list_categories.", item)
				}
				item = cats[j].Name
			}
			if !containsFold(out, item) {
				out = append(out, item)
			}
		}
		return out, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, Invalid(field, "type", "%s must be a string or null.", field)
	}
	v = strings.TrimSpace(v)
	if name != "description" {
		v = NormalizeSpace(v)
	}
	switch name {
	case "country":
		if v == "" {
			break
		}
		code := strings.ToUpper(v)
		if c, ok := CountryCode(v); ok {
			code = c
		}
		if CountryName(code) == "" {
			return nil, Invalid(field, "country", "%s must be an ISO 3166 two-letter country code such as DE or US.", field)
		}
		v = code
	case "founded_year":
		if _, ok := yearOf(v); v != "" && !ok {
			return nil, Invalid(field, "year", "%s must be a year between 1800 and 2100, like \"2019\".", field)
		}
	case "stage":
		if v != "" && !IsStage(v) {
			return nil, Invalid(field, "enum", "%s must be a stage slug: %s.", field, StageSlugs())
		}
	case "contact_email":
		if a, err := mail.ParseAddress(v); v != "" && (err != nil || a.Address != v) {
			return nil, Invalid(field, "format", "%s must be a plain email address like hello@example.com.", field)
		}
	case "demo_video_url", "logo_url":
		if v != "" && !isHTTPURL(v) {
			return nil, Invalid(field, "format", "%s must be an http or https link.", field)
		}
	}
	return v, nil
}

// applyUpdate applies a checked update to rec (restore, then values, then AI
// redrafts, then locks; then the sections).
func applyUpdate(rec *DraftRecord, in *UpdateDraftInput, regen *Drafted, cats []CategoryChoice) {
	doc := &rec.Doc
	if doc.Fields == nil {
		*doc = emptyDoc()
	}
	ai := rec.AI
	if ai == nil {
		ai = &Drafted{Fields: map[string]DraftedValue{}}
	}
	for _, n := range in.Restore {
		if v, ok := ai.Fields[n]; ok {
			doc.Fields[n] = &DraftField{Value: v.value(n), State: StateAI, Evidence: v.Evidence}
		} else {
			doc.Fields[n] = &DraftField{State: StateNotFound}
		}
	}
	if in.Fields != nil {
		for _, n := range DraftFieldNames {
			raw, sent := in.Fields.sent[n]
			if !sent {
				continue
			}
			cur := doc.Fields[n]
			if cur == nil {
				cur = &DraftField{State: StateNotFound}
			}
			aiv, hadAI := ai.Fields[n]
			var val any
			if string(raw) != "null" {
				val, _ = fieldValue(n, raw, cats) // checked by checkUpdate
			}
			next := &DraftField{Value: val, State: cur.State}
			switch {
			case isEmptyValue(val) && cur.State == StateNotFound:
				next.State = StateNotFound
			case isEmptyValue(val):
				next.Value, next.State = nil, StateDeleted
			case hadAI && jsonEqual(val, aiv.value(n)):
				next.State, next.Evidence = StateAI, aiv.Evidence
			case hadAI:
				next.State = StateEdited
			default:
				next.State = StateManual
			}
			if cur.State == StateOverride {
				next.State = StateOverride
			}
			if hadAI && next.State != StateAI {
				next.AIValue = aiv.value(n)
			}
			doc.Fields[n] = next
		}
	}
	if regen != nil {
		if rec.AI == nil {
			rec.AI = &Drafted{Fields: map[string]DraftedValue{}}
		}
		typed := map[string]*DraftField{}
		for _, n := range in.Regenerate {
			if v, ok := regen.Fields[n]; ok {
				rec.AI.Fields[n] = v
			} else {
				delete(rec.AI.Fields, n)
			}
			if f := doc.Fields[n]; f != nil && (f.State == StateEdited || f.State == StateManual) && !isEmptyValue(f.Value) {
				typed[n] = f
			}
		}
		applyAI(doc, rec.AI, in.Regenerate, false)
		for n, f := range typed {
			doc.Fields[n] = regeneratedTyped(doc.Fields[n], f)
		}
	}
	for _, n := range in.LockFields {
		f := doc.Fields[n]
		if f == nil {
			f = &DraftField{}
		}
		f.State = StateOverride
		if v, ok := ai.Fields[n]; ok && !jsonEqual(f.Value, v.value(n)) {
			f.AIValue = v.value(n)
		}
		doc.Fields[n] = f
	}
	applySections(doc, in)
}

// Notes of a regenerate of a value the person typed.
const (
	noteKeptTyped     = "Regenerated: the site states nothing for this field, so the value you typed is kept."
	noteReplacedTyped = "Regenerated: the site states this value (see evidence); the value you typed is in typed_value, send it in fields to put it back."
)

// regeneratedTyped is the field after a regenerate of typed, a value the
// person typed (state edited or manual): when the site states nothing the
// typed value stays (state manual), otherwise the site's grounded value
// replaces it and typed_value keeps it. Either way note says so.
func regeneratedTyped(ai, typed *DraftField) *DraftField {
	if ai.State != StateAI {
		return &DraftField{Value: typed.Value, State: StateManual, Note: noteKeptTyped}
	}
	if jsonEqual(ai.Value, typed.Value) {
		return ai
	}
	ai.TypedValue, ai.Note = typed.Value, noteReplacedTyped
	return ai
}

// applySections replaces or merges the draft's sections as the input says.
func applySections(doc *DraftDoc, in *UpdateDraftInput) {
	edited := func(sec string) {
		if !slices.Contains(doc.Edited, sec) {
			doc.Edited = append(doc.Edited, sec)
		}
	}
	if _, sent := in.sent["faqs"]; sent {
		doc.FAQs = nil
		for _, f := range in.FAQs {
			doc.FAQs = append(doc.FAQs, DraftFAQ{Question: strings.TrimSpace(f.Question), Answer: strings.TrimSpace(f.Answer)})
		}
		edited("faqs")
	}
	if _, sent := in.sent["founders"]; sent {
		old := doc.Founders
		doc.Founders = nil
		for _, f := range in.Founders {
			nf := DraftFounder{Name: NormalizeSpace(f.Name), Title: NormalizeSpace(f.Title), Bio: strings.TrimSpace(f.Bio)}
			// Keep what only the service knows (socials found, who was invited) for a founder named again.
			if i := slices.IndexFunc(old, func(o DraftFounder) bool { return strings.EqualFold(o.Name, nf.Name) }); i >= 0 {
				nf.Socials, nf.Invited = old[i].Socials, old[i].Invited
			}
			doc.Founders = append(doc.Founders, nf)
		}
		edited("founders")
	}
	if in.CompanySocials != nil {
		doc.CompanySocials = mergeSocials(doc.CompanySocials, in.CompanySocials)
		edited("company_socials")
	}
	if in.FounderSocials != nil {
		doc.FounderSocials = mergeSocials(doc.FounderSocials, in.FounderSocials)
	}
	if st := in.Story; st != nil {
		for k, v := range map[string]*string{"title": st.Title, "story": st.Story, "why_started": st.WhyStarted,
			"problem": st.Problem, "journey": st.Journey, "challenges": st.Challenges, "achievements": st.Achievements,
			"lessons": st.Lessons, "whats_next": st.WhatsNext} {
			if v != nil {
				setStory(&doc.Story, k, strings.TrimSpace(*v))
			}
		}
		edited("story")
	}
	if _, sent := in.sent["milestones"]; sent {
		doc.Milestones = nil
		for _, m := range in.Milestones {
			doc.Milestones = append(doc.Milestones, Milestone{Date: m.Date, Title: NormalizeSpace(m.Title), Description: strings.TrimSpace(m.Description), URL: m.URL})
		}
		edited("milestones")
	}
	if in.SEO != nil {
		if in.SEO.Title != nil {
			doc.SEO.Title = NormalizeSpace(*in.SEO.Title)
		}
		if in.SEO.Meta != nil {
			doc.SEO.Meta = NormalizeSpace(*in.SEO.Meta)
		}
	}
}

// socialsMap lists the platforms sent (an empty string removes one).
func socialsMap(in *SocialsInput) map[string]string {
	out := map[string]string{}
	if in == nil {
		return out
	}
	for p, v := range map[string]*string{"linkedin": in.LinkedIn, "x": in.X, "facebook": in.Facebook, "instagram": in.Instagram,
		"tiktok": in.TikTok, "youtube": in.YouTube, "threads": in.Threads, "pinterest": in.Pinterest, "github": in.GitHub,
		"reddit": in.Reddit, "producthunt": in.ProductHunt, "medium": in.Medium, "website": in.Website, "custom": in.Custom} {
		if v != nil {
			out[p] = strings.TrimSpace(*v)
		}
	}
	return out
}

func mergeSocials(cur Socials, in *SocialsInput) Socials {
	out := Socials{}
	for k, v := range cur {
		out[k] = v
	}
	for p, v := range socialsMap(in) {
		if v == "" {
			delete(out, p)
		} else {
			out[p] = v
		}
	}
	return out
}

// compareCompetitor reads a competitor's site (a few pages) and sets the
// draft's facts next to the facts the competitor's site states.
func (s *Service) compareCompetitor(ctx context.Context, rec *DraftRecord, u string) (*CompetitorComparison, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	crawl, err := s.Drafts.Fetcher.Crawl(ctx, u, 3, nil)
	if err != nil {
		msg := err.Error()
		var ce *CrawlError
		if errors.As(err, &ce) {
			msg = ce.Message
		}
		return nil, Invalid("competitor_url", "readable", "The competitor's site could not be read: %s", msg)
	}
	theirs, err := s.draftFrom(ctx, crawl, nil)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	c := &CompetitorComparison{URL: u, ReadAt: s.now().Format(time.RFC3339)}
	if v, ok := theirs.Fields["name"]; ok {
		c.Name = v.Text
	}
	for _, f := range []string{"tagline", "pricing_model", "pricing_summary", "categories", "stage", "country", "founded_year"} {
		ours := fieldString(rec.Doc.Fields[f])
		their := ""
		if v, ok := theirs.Fields[f]; ok {
			their = fieldString(&DraftField{Value: v.value(f)})
		}
		c.Rows = append(c.Rows, CompetitorRow{Field: f, Ours: ours, Theirs: their})
	}
	ourFeatures := rec.Doc.Fields["features"].list()
	theirFeatures := theirs.Fields["features"].List
	for _, f := range ourFeatures {
		if !containsFold(theirFeatures, f) {
			c.OnlyOurs = append(c.OnlyOurs, f)
		}
	}
	for _, f := range theirFeatures {
		if !containsFold(ourFeatures, f) {
			c.OnlyTheirs = append(c.OnlyTheirs, f)
		}
	}
	return c, nil
}

// fieldString renders a field value as one string (lists joined by ", ").
func fieldString(f *DraftField) string {
	if f == nil {
		return ""
	}
	if s, ok := f.text(); ok {
		return s
	}
	return strings.Join(f.list(), ", ")
}

// submitLocks serialises submit_draft per draft in this process, so two
// concurrent submits of a new draft create one listing.
var submitLocks sync.Map

// SubmitDraft saves the draft as the caller's listing (not published). Run
// again after edits, it updates the same listing.
func (s *Service) SubmitDraft(ctx context.Context, in DraftIDInput) (*SubmitDraftOutput, error) {
	if _, _, err := s.ownDraft(ctx, in.ID, false); err != nil {
		return nil, err
	}
	mu, _ := submitLocks.LoadOrStore(strings.ToLower(in.ID), &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	d, rec, err := s.ownDraft(ctx, in.ID, false)
	if err != nil {
		return nil, err
	}
	if err := buildingConflict(rec); err != nil {
		return nil, err
	}
	w, err := s.listingWrite(ctx, rec)
	if err != nil {
		return nil, err
	}
	created := rec.ListingID == 0
	if created {
		// A second listing of a site already listed is not saved: its owner
		// edits the one there is, anyone else claims it (drafts_listed.go).
		e, err := s.listingAtDomain(ctx, d, rec.UserID, rec.URL, 0)
		if err != nil {
			return nil, err
		}
		if e != nil {
			return nil, Errorf(EConflict, "%s", e.Message)
		}
	}
	var id int64
	if !created {
		// Every draft edit since the first submit already reached the
		// listing, part by part; writing the whole draft again would undo
		// what the owner changed on the listing itself.
		w.Parts = map[string]bool{}
		if id, err = d.Store.SaveOwnListing(ctx, rec.UserID, rec.ListingID, w); err != nil {
			return nil, err
		}
	} else {
		// The new listing and the draft's link to it are one write.
		defer lockDraft(rec.ID)() // drafts_retry.go
		for attempt := 1; ; attempt++ {
			rec.UpdatedAt = s.now()
			err = d.Store.SaveDraftAndListing(ctx, rec, w)
			if !errors.Is(err, ErrStale) || attempt >= draftWriteAttempts {
				break
			}
			if _, rec, err = s.ownDraft(ctx, in.ID, false); err != nil {
				break
			}
			if w, err = s.listingWrite(ctx, rec); err != nil {
				break
			}
			if rec.ListingID != 0 {
				w.Parts = map[string]bool{}
			}
		}
		if err != nil {
			return nil, err
		}
		id = rec.ListingID
	}
	// The answer says what the listing is now and what to do in that state:
	// a draft resubmitted after its listing was scheduled or went live is
	// not "saved but not published".
	l, err := s.GetMyListing(ctx, GetMyListingInput{ListingID: id})
	if err != nil {
		return nil, err
	}
	next := "Saved. " + l.Next + " Later edits of this draft update the listing."
	if l.Status == ListingDraft || l.Status == ListingSubmitted {
		next = "The listing is saved but not published. " + publishWays(ctx, id, "Publish it with choose_free_listing (free launch week queue) or create_checkout "+
			"with product launch and this listing_id (the person pays on checkout_url).") + " Later edits of this draft update the listing."
	}
	return &SubmitDraftOutput{ListingID: id, DraftID: rec.ID, Status: l.Status, Created: created, Next: next}, nil
}

// listingParts names the parts of the listing an update_draft call changes
// (ListingWrite.Parts): the fields sent, regenerated or restored, and the
// sections sent. Locking fields and the competitor change no listing part.
func (in *UpdateDraftInput) listingParts() map[string]bool {
	parts := map[string]bool{}
	if in.Fields != nil {
		for name := range in.Fields.sent {
			parts[name] = true
		}
	}
	for _, name := range append(slices.Clone(in.Regenerate), in.Restore...) {
		parts[name] = true
	}
	for key, part := range map[string]string{"faqs": "faqs", "company_socials": "socials", "founder_socials": "founders",
		"founders": "founders", "story": "story", "milestones": "milestones", "seo": "seo"} {
		if _, ok := in.sent[key]; ok {
			parts[part] = true
		}
	}
	return parts
}
