package domain

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// What owners write besides the listing's fields: updates (followers are
// told, see owner_content_news.go), milestones, the founder story and the account's
// interview answers. docs/owner-content.md says what is public when.

// Bounds of the owner's content (spec "Own listings", "Milestone", "Story",
// "Interview answer", "Limits").
const (
	MaxUpdateTitle      = 200
	MaxUpdateBody       = 5000
	MaxMilestoneTitle   = 200
	MaxMilestoneText    = 2000
	MaxMilestoneURL     = 500
	MaxMilestones       = 50 // per listing, as a draft's milestones
	MaxStoryTitle       = 200
	MaxStorySection     = 8000
	MaxInterviewAnswers = 30 // per call
	MaxInterviewAnswer  = 4000
)

// ListingRef is what the owner's content operations need to know about one
// of the caller's listings: whether it and its paid sections are public.
type ListingRef struct {
	ID       int64
	Slug     string
	Name     string
	Status   string
	Plan     string
	Unlocked []string
}

// Public reports whether the listing has a public page (scheduled or live).
func (r ListingRef) Public() bool { return r.Status == ListingScheduled || r.Status == ListingLive }

// SectionUnlocked reports whether a paid section shows on the public page
// (once the listing is public): the paid plan unlocks every one.
func (r ListingRef) SectionUnlocked(section string) bool {
	return r.Plan == PlanPaid || slices.Contains(r.Unlocked, section)
}

// OwnerContentStore keeps what owners write. Every method taking a userID and
// a listingID answers ENotFound, worded the same, when the listing does not
// exist or is not the user's; nothing is written then.
type OwnerContentStore interface {
	// PostUpdate saves an update of the listing posted by userID and returns
	// it, the listing, and how many signed-in followers (other than userID)
	// followed it by then. jobs (may be nil) is called inside the write
	// transaction with those three and returns the jobs to store with the
	// update, in the same transaction (its followers' fan-out). Each of
	// events (the update.posted webhook) is called in that transaction too and
	// its event written for every owner of the listing.
	PostUpdate(ctx context.Context, userID, listingID int64, title, body string, at time.Time,
		jobs func(u *PostedUpdate, ref ListingRef, told int) []JobSpec,
		events ...func(u *PostedUpdate, ref ListingRef) ListingEventFunc) (*PostedUpdate, ListingRef, int, error)
	// AddMilestone adds a milestone; EConflict when the listing has max already.
	AddMilestone(ctx context.Context, userID, listingID int64, m Milestone, max int) (*Milestone, ListingRef, error)
	// DeleteMilestone deletes a milestone of the listing and returns it;
	// ENotFound when the listing has no such milestone.
	DeleteMilestone(ctx context.Context, userID, listingID, milestoneID int64) (*Milestone, ListingRef, error)
	// SetStory replaces the listing's story; nil clears it.
	SetStory(ctx context.Context, userID, listingID int64, story *Story, at time.Time) (ListingRef, error)
	// SetInterviewAnswers writes the account's answers in one transaction (an
	// empty answer removes it) and returns all of them. Question ids are
	// checked by the caller.
	SetInterviewAnswers(ctx context.Context, userID int64, answers []InterviewAnswerInput, at time.Time) ([]InterviewAnswer, error)
	// PublicListingPages are the page URLs of userID's public listings.
	PublicListingPages(ctx context.Context, userID int64) ([]string, error)

	OwnerNewsStore
}

func (s *Service) contentStore() (OwnerContentStore, error) {
	if s.Content == nil {
		return nil, Errorf(EInternal, "the owner's content is not configured")
	}
	return s.Content, nil
}

// plainText checks and normalises a plain-text value of field: line breaks
// (CRLF, CR) become LF, surrounding white space is trimmed, and control
// characters are refused: all of them in a one-line value (a title), all but
// LF and TAB otherwise. Nothing is interpreted as HTML or Markdown; pages
// escape it. Blank after trimming is "" (the caller decides if that is allowed).
func plainText(field, v string, max int, oneLine bool) (string, error) {
	v = strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", "\n"), "\r", "\n")
	v = strings.TrimSpace(v)
	for i, r := range []rune(v) {
		if r == utf8.RuneError {
			return "", Invalid(field, "plain_text", "%s: character %d is not valid UTF-8 text.", field, i+1)
		}
		if !unicode.IsControl(r) || (!oneLine && (r == '\n' || r == '\t')) {
			continue
		}
		what := "control characters"
		if oneLine {
			what = "line breaks, tabs or other control characters"
		}
		return "", Invalid(field, "plain_text", "%s: plain text without %s; character %d is U+%04X.", field, what, i+1, r)
	}
	if n := utf8.RuneCountInString(v); n > max {
		return "", Invalid(field, "maxLength", "%s: at most %d characters; this has %d.", field, max, n)
	}
	return v, nil
}

// requiredText is plainText for a value that may not be blank.
func requiredText(field, v string, max int, oneLine bool) (string, error) {
	v, err := plainText(field, v, max, oneLine)
	if err == nil && v == "" {
		err = Invalid(field, "required", "%s: write some text; it is blank.", field)
	}
	return v, err
}

// PostListingUpdateInput is the body of post_listing_update.
type PostListingUpdateInput struct {
	ListingID int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	Title     string `json:"title" jsonschema:"minLength=1,maxLength=200" jsonschema_description:"One line of plain text, 1-200 characters."`
	Body      string `json:"body" jsonschema:"minLength=1,maxLength=5000" jsonschema_description:"Plain text, 1-5000 characters; line breaks are kept, HTML and Markdown are shown as typed."`
}

// PostedUpdate is a listing update as its owner sees it.
type PostedUpdate struct {
	ID        int64     `json:"id"`
	ListingID int64     `json:"listing_id"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	PostedAt  time.Time `json:"posted_at"`
	// PageURL is the listing's public page, where the latest updates show;
	// empty while the listing is not public.
	PageURL string `json:"page_url,omitempty" jsonschema_description:"The listing's public page, which shows its latest updates; empty while the listing is not public."`
}

// PostListingUpdateOutput is the answer of post_listing_update.
type PostListingUpdateOutput struct {
	PostedUpdate
	Public        bool   `json:"public" jsonschema_description:"True when the listing is public (scheduled or live): the update is on its page and on the latest-updates page now. Otherwise it is kept and appears once the listing is public."`
	FollowersTold int    `json:"followers_told" jsonschema_description:"How many signed-in followers are told (by mail and in their notifications); 0 while the listing is not public."`
	UpdatesURL    string `json:"updates_url" jsonschema_description:"The site's latest-updates page."`
	Next          string `json:"next"`
}

// PostListingUpdate posts an update of one of the caller's listings. It shows
// on the listing's page and the latest-updates page once the listing is
// public; its followers at the time of posting are told by a job.
func (s *Service) PostListingUpdate(ctx context.Context, in PostListingUpdateInput) (*PostListingUpdateOutput, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	title, err := requiredText("title", in.Title, MaxUpdateTitle, true)
	if err != nil {
		return nil, err
	}
	body, err := requiredText("body", in.Body, MaxUpdateBody, false)
	if err != nil {
		return nil, err
	}
	if _, err := s.owning(); err != nil {
		return nil, err
	}
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	// The fan-out job is stored with the update, in one transaction: if it
	// cannot be queued, no update is saved, so a retry cannot post twice.
	fanOut := func(u *PostedUpdate, ref ListingRef, told int) []JobSpec {
		if !ref.Public() || told == 0 {
			return nil
		}
		return []JobSpec{{Kind: UpdateFanOutJob, Key: strconv.FormatInt(u.ID, 10), Payload: updateFanOut{UpdateID: u.ID}, RunAt: s.now()}}
	}
	// update.posted, to the owners' webhooks, commits with the update too.
	event := func(u *PostedUpdate, ref ListingRef) ListingEventFunc { return s.updatePostedEvent(ctx, u, ref) }
	u, ref, told, err := st.PostUpdate(ctx, c.UserID, in.ListingID, title, body, s.now(), fanOut, event)
	if err != nil {
		return nil, err
	}
	out := &PostListingUpdateOutput{PostedUpdate: *u, Public: ref.Public(), UpdatesURL: s.Site.In(ctx).URL(UpdatesPath)}
	if !out.Public {
		out.Next = "Kept: the listing is not public yet (" + ref.Status + "), so the update appears on its page and on the " +
			"latest-updates page once it is scheduled or live. Nobody is told about it."
		return out, nil
	}
	out.PageURL, out.FollowersTold = s.Site.In(ctx).ListingPageURL(ref.Slug), told
	out.Next = "Published on the listing's page and the latest-updates page; " + strconv.Itoa(told) +
		" follower(s) are told by mail and in their notifications."
	return out, nil
}

// AddMilestoneInput is the body of add_milestone.
type AddMilestoneInput struct {
	ListingID   int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	Date        string `json:"date" jsonschema:"format=date,pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$" jsonschema_description:"A real calendar date, YYYY-MM-DD."`
	Title       string `json:"title" jsonschema:"minLength=1,maxLength=200" jsonschema_description:"One line of plain text, 1-200 characters."`
	Description string `json:"description,omitempty" jsonschema:"maxLength=2000" jsonschema_description:"Plain text, at most 2000 characters."`
	URL         string `json:"url,omitempty" jsonschema:"maxLength=500" jsonschema_description:"An https:// link, at most 500 characters."`
}

// MilestoneOutput is the answer of add_milestone and delete_milestone.
type MilestoneOutput struct {
	ListingID int64     `json:"listing_id"`
	Milestone Milestone `json:"milestone"`
	// SectionUnlocked: milestones are a paid section.
	SectionUnlocked bool   `json:"section_unlocked" jsonschema_description:"True when the listing is on the paid plan or has the milestones section unlocked; only then do milestones show publicly."`
	Public          bool   `json:"public" jsonschema_description:"True when the milestones show on the public page now: section_unlocked and the listing is scheduled or live."`
	Next            string `json:"next"`
}

// AddMilestone adds a dated milestone to one of the caller's listings (at
// most MaxMilestones). Milestones show publicly only on paid listings or
// when the section is unlocked.
func (s *Service) AddMilestone(ctx context.Context, in AddMilestoneInput) (*MilestoneOutput, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	m, err := checkMilestone(in)
	if err != nil {
		return nil, err
	}
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	saved, ref, err := st.AddMilestone(ctx, c.UserID, in.ListingID, m, MaxMilestones)
	if err != nil {
		return nil, err
	}
	out := sectionAnswer(ref, SectionMilestones, "Added.")
	out.Milestone = *saved
	return out, nil
}

// checkMilestone validates what the schema cannot: a real calendar date, an
// https link, plain text.
func checkMilestone(in AddMilestoneInput) (Milestone, error) {
	var m Milestone
	if _, err := time.Parse(DateLayout, in.Date); err != nil || !weekRE.MatchString(in.Date) {
		return m, Invalid("date", "date", "date: a real calendar date as YYYY-MM-DD, e.g. 2026-03-31; %q is not one.", in.Date)
	}
	var err error
	if m.Title, err = requiredText("title", in.Title, MaxMilestoneTitle, true); err != nil {
		return m, err
	}
	if m.Description, err = plainText("description", in.Description, MaxMilestoneText, false); err != nil {
		return m, err
	}
	if m.URL = strings.TrimSpace(in.URL); m.URL != "" {
		u, perr := url.Parse(m.URL)
		if perr != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || strings.ContainsAny(m.URL, " \t\n\r") {
			return m, Invalid("url", "https", "url: an absolute https:// link such as https://example.com/news; %q is not one.", m.URL)
		}
		if utf8.RuneCountInString(m.URL) > MaxMilestoneURL {
			return m, Invalid("url", "maxLength", "url: at most %d characters.", MaxMilestoneURL)
		}
	}
	m.Date = in.Date
	return m, nil
}

// sectionAnswer says whether a paid section of ref shows publicly.
func sectionAnswer(ref ListingRef, section, done string) *MilestoneOutput {
	out := &MilestoneOutput{ListingID: ref.ID, SectionUnlocked: ref.SectionUnlocked(section)}
	out.Public = out.SectionUnlocked && ref.Public()
	switch {
	case out.Public:
		out.Next = done + " It shows on the listing's public page."
	case out.SectionUnlocked:
		out.Next = done + " It shows publicly once the listing is scheduled or live."
	default:
		out.Next = done + " Kept but not shown publicly: " + section + " is a paid section. It shows on the public page once " +
			"the listing is on the paid plan or the section is unlocked (list_products)."
	}
	return out
}

// DeleteMilestoneInput names a milestone of one of the caller's listings.
type DeleteMilestoneInput struct {
	ListingID   int64 `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	MilestoneID int64 `json:"milestone_id" jsonschema:"minimum=1" jsonschema_description:"The milestone's id (add_milestone and get_my_listing show it)."`
}

// DeleteMilestone deletes a milestone; 404 when it is not on that listing or
// the listing is not the caller's.
func (s *Service) DeleteMilestone(ctx context.Context, in DeleteMilestoneInput) (*MilestoneOutput, error) {
	c, st, err := callerWith(ctx, s.contentStore)
	if err != nil {
		return nil, err
	}
	m, ref, err := st.DeleteMilestone(ctx, c.UserID, in.ListingID, in.MilestoneID)
	if err != nil {
		return nil, err
	}
	out := sectionAnswer(ref, SectionMilestones, "Deleted.")
	out.Milestone = *m
	out.Next = "Deleted milestone " + strconv.FormatInt(m.ID, 10) + " (" + m.Date + ", " + m.Title + ")."
	return out, nil
}

// SetFounderStoryInput is the body of set_founder_story: the whole story.
type SetFounderStoryInput struct {
	ListingID    int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	Title        string `json:"title,omitempty" jsonschema:"maxLength=200" jsonschema_description:"One line, at most 200 characters."`
	Story        string `json:"story,omitempty" jsonschema:"maxLength=8000"`
	WhyStarted   string `json:"why_started,omitempty" jsonschema:"maxLength=8000"`
	Problem      string `json:"problem,omitempty" jsonschema:"maxLength=8000"`
	Journey      string `json:"journey,omitempty" jsonschema:"maxLength=8000"`
	Challenges   string `json:"challenges,omitempty" jsonschema:"maxLength=8000"`
	Achievements string `json:"achievements,omitempty" jsonschema:"maxLength=8000"`
	Lessons      string `json:"lessons,omitempty" jsonschema:"maxLength=8000"`
	WhatsNext    string `json:"whats_next,omitempty" jsonschema:"maxLength=8000"`
}

// SetFounderStoryOutput is the answer of set_founder_story.
type SetFounderStoryOutput struct {
	ListingID       int64  `json:"listing_id"`
	Story           Story  `json:"story" jsonschema_description:"The story as saved; {} when cleared."`
	Cleared         bool   `json:"cleared" jsonschema_description:"True when every section was empty: the listing has no story now."`
	SectionUnlocked bool   `json:"section_unlocked" jsonschema_description:"True when the listing is on the paid plan or has the story section unlocked; only then does the story show publicly."`
	Public          bool   `json:"public" jsonschema_description:"True when the story shows on the public page now: section_unlocked and the listing is scheduled or live."`
	Next            string `json:"next"`
}

// SetFounderStory replaces the story of one of the caller's listings; an
// all-empty body clears it. It is published with the listing when the story
// section is unlocked (or the plan is paid).
func (s *Service) SetFounderStory(ctx context.Context, in SetFounderStoryInput) (*SetFounderStoryOutput, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	var story Story
	if story.Title, err = plainText("title", in.Title, MaxStoryTitle, true); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name   string
		in     string
		target *string
	}{{"story", in.Story, &story.Story}, {"why_started", in.WhyStarted, &story.WhyStarted}, {"problem", in.Problem, &story.Problem},
		{"journey", in.Journey, &story.Journey}, {"challenges", in.Challenges, &story.Challenges},
		{"achievements", in.Achievements, &story.Achievements}, {"lessons", in.Lessons, &story.Lessons},
		{"whats_next", in.WhatsNext, &story.WhatsNext}} {
		if *f.target, err = plainText(f.name, f.in, MaxStorySection, false); err != nil {
			return nil, err
		}
	}
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	saved := &story
	if story == (Story{}) {
		saved = nil
	}
	ref, err := st.SetStory(ctx, c.UserID, in.ListingID, saved, s.now())
	if err != nil {
		return nil, err
	}
	sec := sectionAnswer(ref, SectionStory, "Saved.")
	out := &SetFounderStoryOutput{ListingID: ref.ID, Story: story, Cleared: saved == nil,
		SectionUnlocked: sec.SectionUnlocked, Public: sec.Public, Next: sec.Next}
	if out.Cleared {
		out.Public, out.Next = false, "Cleared: the listing has no founder story now."
	}
	return out, nil
}

// InterviewAnswerInput is one answer of answer_interview.
type InterviewAnswerInput struct {
	QuestionID int64  `json:"question_id" jsonschema:"minimum=1" jsonschema_description:"A question id from list_interview_questions."`
	Answer     string `json:"answer" jsonschema:"maxLength=4000" jsonschema_description:"Plain text, at most 4000 characters; an empty answer removes your answer to that question."`
}

// AnswerInterviewInput is the body of answer_interview.
type AnswerInterviewInput struct {
	Answers []InterviewAnswerInput `json:"answers" jsonschema:"minItems=1,maxItems=30" jsonschema_description:"1-30 answers, each question at most once."`
}

// InterviewAnswer is one of an account's interview answers with its question.
type InterviewAnswer struct {
	QuestionID int64     `json:"question_id"`
	Question   string    `json:"question"`
	Topic      string    `json:"topic,omitempty"`
	Answer     string    `json:"answer"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// AnswerInterviewOutput is the answer of answer_interview.
type AnswerInterviewOutput struct {
	Items []InterviewAnswer `json:"items" jsonschema_description:"Every interview answer of your account, in question order."`
	// PublishedOn are the public pages that show the answers.
	PublishedOn []string `json:"published_on" jsonschema_description:"The public pages of your scheduled and live listings; each shows your answers in an Interview section."`
	Next        string   `json:"next"`
}

// AnswerInterview sets, changes or removes (empty answer) the caller's
// answers to the founder interview questions. Answers belong to the account
// and show on the public pages of every listing it owns.
func (s *Service) AnswerInterview(ctx context.Context, in AnswerInterviewInput) (*AnswerInterviewOutput, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	if len(in.Answers) == 0 || len(in.Answers) > MaxInterviewAnswers {
		return nil, Invalid("answers", "maxItems", "answers: send 1-%d answers per call.", MaxInterviewAnswers)
	}
	qs, err := s.Store.InterviewQuestions(ctx)
	if err != nil {
		return nil, err
	}
	known := map[int64]bool{}
	for _, q := range qs {
		known[q.ID] = true
	}
	seen := map[int64]int{}
	answers := make([]InterviewAnswerInput, len(in.Answers))
	for i, a := range in.Answers {
		field := "answers[" + strconv.Itoa(i) + "]"
		if !known[a.QuestionID] {
			return nil, Invalid(field+".question_id", "exists",
				"%s.question_id: there is no interview question %d; list_interview_questions gives the ids.", field, a.QuestionID)
		}
		if j, dup := seen[a.QuestionID]; dup {
			return nil, Invalid(field+".question_id", "uniqueItems",
				"%s.question_id: question %d is answered twice in this call (also answers[%d]); send each question once.", field, a.QuestionID, j)
		}
		seen[a.QuestionID] = i
		text, err := plainText(field+".answer", a.Answer, MaxInterviewAnswer, false)
		if err != nil {
			return nil, err
		}
		answers[i] = InterviewAnswerInput{QuestionID: a.QuestionID, Answer: text}
	}
	st, err := s.contentStore()
	if err != nil {
		return nil, err
	}
	items, err := st.SetInterviewAnswers(ctx, c.UserID, answers, s.now())
	if err != nil {
		return nil, err
	}
	pages, err := st.PublicListingPages(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	out := &AnswerInterviewOutput{Items: items, PublishedOn: pages}
	if out.Items == nil {
		out.Items = []InterviewAnswer{}
	}
	if out.PublishedOn == nil {
		out.PublishedOn = []string{}
	}
	if len(pages) == 0 {
		out.Next = "Saved. They show in an Interview section on your listings' public pages once one of them is scheduled or live."
	} else {
		out.Next = "Saved. They show in an Interview section on the public page of each of your scheduled and live listings."
	}
	return out, nil
}
