package domain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// RegisterDraftJobs registers the draft build (DraftJob) with the job runner.
func (s *Service) RegisterDraftJobs(r *Runner, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	r.Handle(DraftJob, JobKind{
		Run: func(ctx context.Context, j Job) error { return s.buildDraft(ctx, j.Key, j.Attempt) },
		GiveUp: func(ctx context.Context, j Job, err error) {
			if ferr := s.failDraft(ctx, j.Key, err); ferr != nil {
				log.Error("drafts: recording a failed build", "draft", j.Key, "err", ferr)
			}
		},
		MaxAttempts: 4,
	})
}

// buildDraft reads the draft's site and drafts its profile. It checkpoints
// after the crawl, so a build resumed after a restart drafts from the pages
// already read; a finished draft is left alone (the job is idempotent).
func (s *Service) buildDraft(ctx context.Context, id string, attempt int) error {
	d := s.Drafts
	rec, err := d.Store.Draft(ctx, id, true)
	if ErrorCode(err) == ENotFound {
		return Permanent(err)
	}
	if err != nil {
		return err
	}
	if rec.Status == DraftReady || rec.Status == DraftFailed {
		return nil
	}
	if rec.Crawl == nil {
		crawl, err := s.crawlDraft(ctx, rec, attempt)
		if err != nil {
			return err
		}
		rec.Crawl, rec.Status, rec.Phase, rec.UpdatedAt = crawl, DraftDrafting, "drafting", s.now()
		rec.PagesDone, rec.PagesPlanned = len(crawl.Pages)+len(crawl.Skipped), len(crawl.Pages)+len(crawl.Skipped)
		if err := d.Store.UpdateDraft(ctx, rec, true); err != nil {
			return err
		}
	}
	drafted, err := s.draftFrom(ctx, rec.Crawl, nil)
	if err != nil {
		return err
	}
	existing, err := s.listingAtDomain(ctx, d, rec.UserID, rec.URL, rec.ListingID)
	if err != nil {
		return err
	}
	rec.AI = drafted
	rec.Doc = emptyDoc()
	rec.Doc.Existing = existing
	applyAI(&rec.Doc, drafted, DraftFieldNames, true)
	rec.Status, rec.Phase, rec.UpdatedAt = DraftReady, "", s.now()
	return d.Store.UpdateDraft(ctx, rec, false, s.draftEvent(rec))
}

// crawlDraft reads the site, reporting progress (at most every 200 ms).
func (s *Service) crawlDraft(ctx context.Context, rec *DraftRecord, attempt int) (*SiteCrawl, error) {
	d := s.Drafts
	var mu sync.Mutex
	var last time.Time
	progress := func(done, planned int) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) > 200*time.Millisecond || done == planned {
			last = now
			_ = d.Store.SetDraftProgress(ctx, rec.ID, "reading_site", done, planned, s.now())
		}
	}
	_ = d.Store.SetDraftProgress(ctx, rec.ID, "reading_site", 0, 0, s.now())
	crawl, err := d.Fetcher.Crawl(ctx, rec.URL, 0, progress)
	if err == nil {
		return crawl, nil
	}
	var ce *CrawlError
	if errors.As(err, &ce) && !ce.Temporary {
		return nil, Permanent(err)
	}
	if ctx.Err() == nil {
		_ = d.Store.SetDraftProgress(ctx, rec.ID, "retrying", 0, 0, s.now())
	}
	return nil, fmt.Errorf("crawl %s (attempt %d): %w", rec.URL, attempt, err)
}

// draftFrom runs the Drafter over a crawl and passes its output through the
// grounding gate; only lists the fields to redraft (nil: all).
func (s *Service) draftFrom(ctx context.Context, crawl *SiteCrawl, only []string) (*Drafted, error) {
	cats, err := s.Store.CategoryTree(ctx)
	if err != nil {
		return nil, err
	}
	req := DraftRequest{Site: crawl, Categories: categoryChoices(cats, ""), Only: only}
	for _, st := range Stages {
		req.Stages = append(req.Stages, st.Slug)
	}
	out, err := s.Drafts.Drafter.Draft(ctx, req)
	if err != nil {
		return nil, err
	}
	kept, _ := Ground(req, out)
	return kept, nil
}

// categoryChoices flattens the category tree into the Drafter's list.
func categoryChoices(nodes []CategoryNode, parent string) []CategoryChoice {
	var out []CategoryChoice
	for _, n := range nodes {
		out = append(out, CategoryChoice{Slug: n.Slug, Name: n.Name, Parent: parent})
		out = append(out, categoryChoices(n.Subcategories, n.Name)...)
	}
	return out
}

// failDraft records why a build failed for good.
func (s *Service) failDraft(ctx context.Context, id string, cause error) error {
	for range 3 {
		rec, err := s.Drafts.Store.Draft(ctx, id, false)
		if err != nil {
			return err
		}
		if rec.Status == DraftReady || rec.Status == DraftFailed {
			return nil
		}
		de := &DraftError{Reason: "internal", Message: "The draft could not be built; fill in the fields yourself with update_draft, or submit the URL again later."}
		var ce *CrawlError
		if errors.As(cause, &ce) {
			de = &DraftError{Reason: ce.Reason, Message: ce.Message}
		}
		rec.Status, rec.Phase, rec.Error, rec.UpdatedAt = DraftFailed, "", de, s.now()
		if err := s.Drafts.Store.UpdateDraft(ctx, rec, false, s.draftEvent(rec)); !errors.Is(err, ErrStale) {
			return err
		}
	}
	return ErrStale
}

// applyAI writes drafted values into doc for the named fields. A field the
// user locked (override) is left alone. With sections, the FAQs, founders,
// socials, story and milestones are taken too unless the user replaced them.
func applyAI(doc *DraftDoc, ai *Drafted, fields []string, sections bool) {
	for _, name := range fields {
		f := doc.Fields[name]
		if f != nil && f.State == StateOverride {
			continue
		}
		if v, ok := ai.Fields[name]; ok {
			doc.Fields[name] = &DraftField{Value: v.value(name), State: StateAI, Evidence: v.Evidence}
		} else {
			doc.Fields[name] = &DraftField{State: StateNotFound}
		}
	}
	if !sections {
		return
	}
	edited := func(sec string) bool { return containsFold(doc.Edited, sec) }
	if !edited("faqs") {
		doc.FAQs = nil
		for _, f := range ai.FAQs {
			doc.FAQs = append(doc.FAQs, DraftFAQ{Question: f.Question, Answer: f.Answer, Evidence: f.Evidence})
		}
	}
	if !edited("founders") {
		doc.Founders = nil
		for _, f := range ai.Founders {
			doc.Founders = append(doc.Founders, DraftFounder{Name: f.Name, Title: f.Title, Bio: f.Bio, Socials: f.Socials, Evidence: f.Evidence})
		}
	}
	if !edited("company_socials") {
		doc.CompanySocials = Socials{}
		for p, l := range ai.Socials {
			doc.CompanySocials[p] = l.URL
		}
	}
	if !edited("story") {
		doc.Story = Story{}
		for k, sec := range ai.Story {
			setStory(&doc.Story, k, sec.Text)
		}
	}
	if !edited("milestones") {
		doc.Milestones = nil
		for _, m := range ai.Milestones {
			doc.Milestones = append(doc.Milestones, m.Milestone)
		}
	}
}

// value is the API value of a drafted value.
func (v DraftedValue) value(name string) any {
	if DraftListFields[name] {
		return append([]string(nil), v.List...)
	}
	return v.Text
}

// setStory sets one story section by its json name.
func setStory(st *Story, key, text string) {
	switch key {
	case "title":
		st.Title = text
	case "story":
		st.Story = text
	case "why_started":
		st.WhyStarted = text
	case "problem":
		st.Problem = text
	case "journey":
		st.Journey = text
	case "challenges":
		st.Challenges = text
	case "achievements":
		st.Achievements = text
	case "lessons":
		st.Lessons = text
	case "whats_next":
		st.WhatsNext = text
	}
}
