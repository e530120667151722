package domain

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Draft building limits.
const (
	// MaxInvites is the spec's "up to 10 invites" per listing.
	MaxInvites = 10
	// InviteDays is how long an invite link works.
	InviteDays = 14
	// DraftJob is the job kind that builds a draft.
	DraftJob = "draft.build"
)

// Drafting is what the draft operations need beyond the Store.
type Drafting struct {
	Store   DraftStore
	Fetcher Fetcher
	Drafter Drafter
	// Enqueue adds a durable job (Runner.Enqueue).
	Enqueue func(ctx context.Context, kind, key string, payload any) error
	// Wake, when set, starts the build of a new draft at once (Runner.Wake);
	// without it the runner finds the job at its next poll.
	Wake   func()
	Mailer Mailer
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// CheckSiteURL checks a URL a user gives us to read: http or https, a host
// name, no credentials. It returns the URL normalised (lower-case scheme and
// host, no fragment, "/" path when empty).
func CheckSiteURL(field, raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (strings.ToLower(u.Scheme) != "http" && strings.ToLower(u.Scheme) != "https") || u.Host == "" || u.Hostname() == "" {
		return "", Invalid(field, "format", "%s must be an http or https URL with a host name, like https://example.com.", field)
	}
	if u.User != nil {
		return "", Invalid(field, "format", "%s must not contain a user name or password.", field)
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

func (s *Service) drafting() (*Drafting, error) {
	if s.Drafts == nil || s.Drafts.Store == nil {
		return nil, errors.New("drafting is not configured")
	}
	return s.Drafts, nil
}

// SubmitListing starts a draft from a product URL: the site is read and an AI
// drafts the profile in the background; nothing is published or charged.
func (s *Service) SubmitListing(ctx context.Context, in SubmitListingInput) (*DraftView, error) {
	c, d, err := callerWith(ctx, s.drafting)
	if err != nil {
		return nil, err
	}
	u, err := CheckSiteURL("url", in.URL)
	if err != nil {
		return nil, err
	}
	now := s.now()
	rec := &DraftRecord{
		ID: NewUUID(), UserID: c.UserID, URL: u, Status: DraftCrawling, Phase: "queued",
		Doc: emptyDoc(), CreatedAt: now, UpdatedAt: now,
	}
	if rec.Doc.Existing, err = s.listingAtDomain(ctx, d, c.UserID, u, 0); err != nil {
		return nil, err
	}
	// The draft and its build job are written together: a crash cannot
	// leave a draft crawling with no job to build it.
	if err := d.Store.CreateDraft(ctx, rec, JobSpec{Kind: DraftJob, Key: rec.ID}); err != nil {
		return nil, err
	}
	if d.Wake != nil {
		d.Wake()
	}
	return s.draftView(ctx, rec)
}

// RecoverDrafts queues the build of every draft that is being built but has
// no queued build job: one left by a crash between writing a draft and its
// job, from before the two were written in one transaction. It is
// idempotent (a draft with a queued job is not listed, and enqueueing reuses
// a queued job), and returns the ids it queued. serve calls it at start,
// before the job runner starts (docs/drafts.md).
func (s *Service) RecoverDrafts(ctx context.Context) ([]string, error) {
	d, err := s.drafting()
	if err != nil {
		return nil, err
	}
	ids, err := d.Store.OrphanDrafts(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if err := d.Enqueue(ctx, DraftJob, id, nil); err != nil {
			return nil, fmt.Errorf("recover draft %s: %w", id, err)
		}
	}
	return ids, nil
}

// emptyDoc is a draft before the AI has drafted: every field not found yet.
func emptyDoc() DraftDoc {
	doc := DraftDoc{Fields: map[string]*DraftField{}}
	for _, f := range DraftFieldNames {
		doc.Fields[f] = &DraftField{State: StateNotFound}
	}
	return doc
}

// ownDraft loads a draft of the caller; another user's draft is 404, so its
// existence is not revealed.
func (s *Service) ownDraft(ctx context.Context, id string, withCrawl bool) (*Drafting, *DraftRecord, error) {
	c, d, err := callerWith(ctx, s.drafting)
	if err != nil {
		return nil, nil, err
	}
	if !uuidRE.MatchString(id) {
		return nil, nil, Invalid("id", "format", "id must be a draft id (a UUID like 0f8fad5b-d9cb-469f-a165-70867728950e), as submit_listing returned it.")
	}
	rec, err := d.Store.Draft(ctx, strings.ToLower(id), withCrawl)
	if err != nil {
		return nil, nil, err
	}
	if rec.UserID != c.UserID {
		return nil, nil, NotFound("draft", id)
	}
	return d, rec, nil
}

// GetDraft returns one of the caller's drafts.
func (s *Service) GetDraft(ctx context.Context, in DraftIDInput) (*DraftView, error) {
	_, rec, err := s.ownDraft(ctx, in.ID, true)
	if err != nil {
		return nil, err
	}
	return s.draftView(ctx, rec)
}

// ListMyDrafts lists the caller's drafts, newest first.
func (s *Service) ListMyDrafts(ctx context.Context, in ListMyDraftsInput) (*DraftList, error) {
	c, d, err := callerWith(ctx, s.drafting)
	if err != nil {
		return nil, err
	}
	recs, total, err := d.Store.UserDrafts(ctx, c.UserID, in.Offset(), in.Limit())
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	out := &DraftList{Items: []DraftSummary{}, Page: NewPage(page, per, total)}
	for i := range recs {
		r := &recs[i]
		var comp *int
		if !building(r) {
			c, _ := completeness(&r.Doc)
			comp = &c
		}
		name, _ := r.Doc.Fields["name"].text()
		out.Items = append(out.Items, DraftSummary{
			ID: r.ID, Status: r.Status, URL: r.URL, Name: name, Completeness: comp,
			Progress: progressOf(r), ListingID: r.ListingID, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		})
	}
	return out, nil
}

// draftView renders a stored draft.
func (s *Service) draftView(ctx context.Context, r *DraftRecord) (*DraftView, error) {
	v := &DraftView{
		ID: r.ID, Status: r.Status, URL: r.URL, Progress: progressOf(r), Error: r.Error,
		Fields: map[string]DraftField{}, FAQs: nonNil(r.Doc.FAQs), Founders: nonNil(r.Doc.Founders),
		CompanySocials: nonNilMap(r.Doc.CompanySocials), FounderSocials: nonNilMap(r.Doc.FounderSocials),
		Story: r.Doc.Story, Milestones: nonNil(r.Doc.Milestones), CompetitorURL: r.Doc.CompetitorURL,
		Competitor: r.Doc.Competitor, SEO: r.Doc.SEO, NotFoundOnWebsite: []string{}, ListingID: r.ListingID,
		ExistingListing: r.Doc.Existing,
		CreatedAt:       r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if v.Progress != nil {
		v.PollAfterSeconds = 3
	}
	if building(r) {
		// Before the first pass has finished nothing is known: no field is
		// not_found yet and there is no completeness to give.
		for _, name := range DraftFieldNames {
			v.Fields[name] = DraftField{State: StatePending}
		}
		v.Missing = []string{}
	} else {
		for _, name := range DraftFieldNames {
			f := r.Doc.Fields[name]
			if f == nil {
				f = &DraftField{State: StateNotFound}
			}
			v.Fields[name] = *f
			if f.State == StateNotFound {
				v.NotFoundOnWebsite = append(v.NotFoundOnWebsite, name)
			}
		}
		comp, missing := completeness(&r.Doc)
		v.Completeness, v.Missing = &comp, missing
	}
	v.FieldStates = map[string]string{}
	for _, f := range v.Fields {
		v.FieldStates[f.State] = FieldStateMeaning[f.State]
	}
	if r.Crawl != nil {
		v.Language = r.Crawl.Language
		for _, p := range r.Crawl.Pages {
			v.PagesRead = append(v.PagesRead, p.URL)
		}
	}
	invites, err := s.Drafts.Store.DraftInvites(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	v.Invites = nonNil(invites)
	return v, nil
}

func nonNilMap(m Socials) Socials {
	if m == nil {
		return Socials{}
	}
	return m
}

// building reports whether the draft's first pass has not finished: it is
// queued, its site is being read, or the profile is being drafted.
func building(r *DraftRecord) bool {
	return r.Status == DraftCrawling || r.Status == DraftDrafting
}

// progressOf describes a build in progress (nil when it is over).
func progressOf(r *DraftRecord) *DraftProgress {
	if !building(r) {
		return nil
	}
	p := &DraftProgress{Phase: r.Phase, PagesRead: r.PagesDone, PagesPlanned: r.PagesPlanned}
	switch {
	case r.Status == DraftDrafting:
		p.Phase, p.Percent, p.Message = "drafting", 85, "The site was read; drafting the profile from its pages."
	case r.Phase == "retrying":
		p.Percent, p.Message = 5, "The site did not answer; trying again shortly."
	case r.Phase == "reading_site":
		p.Percent = 10
		if r.PagesPlanned > 0 {
			p.Percent = 10 + 70*r.PagesDone/r.PagesPlanned
		}
		p.Message = fmt.Sprintf("Reading the site: %d of %d pages.", r.PagesDone, r.PagesPlanned)
	default:
		p.Phase, p.Percent, p.Message = "queued", 0, "Waiting for a worker to start reading the site."
	}
	return p
}

// sections that count towards completeness besides the profile fields.
var draftSections = []string{"faqs", "founders", "company_socials"}

// completeness returns the share of fields and sections with a value and the missing ones.
func completeness(doc *DraftDoc) (int, []string) {
	missing := []string{}
	total := len(DraftFieldNames) + len(draftSections)
	for _, name := range DraftFieldNames {
		if f := doc.Fields[name]; f == nil || isEmptyValue(f.Value) {
			missing = append(missing, name)
		}
	}
	if len(doc.FAQs) == 0 {
		missing = append(missing, "faqs")
	}
	if len(doc.Founders) == 0 {
		missing = append(missing, "founders")
	}
	if len(doc.CompanySocials) == 0 {
		missing = append(missing, "company_socials")
	}
	return 100 * (total - len(missing)) / total, missing
}

func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []string:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// text returns a field's value as a string.
func (f *DraftField) text() (string, bool) {
	if f == nil {
		return "", false
	}
	s, ok := f.Value.(string)
	return s, ok && s != ""
}

// list returns a field's value as a list.
func (f *DraftField) list() []string {
	if f == nil {
		return nil
	}
	switch x := f.Value.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, v := range x {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// InviteCofounder emails a co-founder a link to add their own founder profile
// after signing in.
func (s *Service) InviteCofounder(ctx context.Context, in InviteCofounderInput) (*InviteOutput, error) {
	d, rec, err := s.ownDraft(ctx, in.ID, false)
	if err != nil {
		return nil, err
	}
	addr, err := mail.ParseAddress(in.Email)
	if err != nil || addr.Name != "" || !strings.Contains(addr.Address, ".") {
		return nil, Invalid("email", "format", "email must be a plain email address like ana@example.com.")
	}
	c, _ := CallerFrom(ctx)
	if strings.EqualFold(addr.Address, c.Email) {
		return nil, Invalid("email", "self", "That is your own address; invite a co-founder instead, or add yourself with founders in update_draft.")
	}
	tok := InviteTokenPrefix + RandomHex(24)
	inv, err := d.Store.AddDraftInvite(ctx, rec.ID, strings.ToLower(addr.Address), SecretHash(tok), MaxInvites, s.now())
	if err != nil {
		return nil, err
	}
	name, ok := rec.Doc.Fields["name"].text()
	if !ok {
		name = rec.URL
	}
	who := c.Name
	if who == "" {
		who = c.Email
	}
	link := s.Site.In(ctx).URL(InvitePath + "/" + tok)
	body := fmt.Sprintf("%s invited you to add your founder profile to %s on %s.\n\n"+
		"Open this link, sign in with this email address, and fill in your name, role and bio:\n%s\n\n"+
		"The link works for %d days. If you do not know %s, ignore this message.\n",
		who, name, s.SiteNow(ctx).Name, link, InviteDays, who)
	if d.Mailer != nil {
		if err := d.Mailer.SendMail(ctx, inv.Email, fmt.Sprintf("Add your founder profile to %s", name), body); err != nil {
			return nil, fmt.Errorf("send invite: %w", err)
		}
	}
	all, err := d.Store.DraftInvites(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	return &InviteOutput{DraftInvite: *inv, DraftID: rec.ID, InvitesLeft: max(0, MaxInvites-len(all)), ExpiresInDays: InviteDays}, nil
}

// InvitePath is where an invite link leads (InvitePath + "/" + token).
const InvitePath = "/invites"

// yearOf parses a founded year value.
func yearOf(s string) (int, bool) {
	y, err := strconv.Atoi(strings.TrimSpace(s))
	return y, err == nil && y >= 1800 && y <= 2100
}

// containsFold reports whether list has s, ignoring case.
func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}
