package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// The blog and the founder interview questions on the console
// (docs/console.md "Blog and interview questions"): admins write and
// edit posts in Markdown with FAQs, publish them now, schedule them or take
// them back; list_blog_posts and get_blog_post (and the blog pages) show a
// post only once its published_at has come. Every change is in the audit
// log, written in the same transaction as the change.

// Bounds of a blog post, in characters.
const (
	BlogTitleMax    = 200
	BlogSlugMax     = 220
	BlogExcerptMax  = 500
	BlogMarkdownMax = 20000 // a form post is at most 64 KiB; 20,000 characters of text fit
	BlogAuthorMax   = 120
	BlogTagsMax     = 10
	BlogTagMax      = 40
	BlogFAQsMax     = 10 // as a listing's FAQs (spec "FAQ item")
	FAQQuestionMax  = 300
	FAQAnswerMax    = 1500
	// BlogScheduleMax is how far ahead a post may be scheduled.
	BlogScheduleMax = 366 * 24 * time.Hour
)

// Bounds of the interview questions, in characters.
const (
	InterviewQuestionMax = 300
	InterviewTopicMax    = 60
	// InterviewQuestionsMax is as many as answer_interview takes in one call.
	InterviewQuestionsMax = 30
)

// Status of a blog post at a time.
const (
	BlogDraft     = "draft"
	BlogScheduled = "scheduled"
	BlogPublished = "published"
)

// blogSlug is the pattern of a post slug (spec: as a listing slug).
var blogSlug = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,219}$`)

// BlogPostWrite is what the console writes of a post.
type BlogPostWrite struct {
	Title, Slug, Excerpt, Markdown, Author string
	Tags                                   []string
	FAQs                                   []domain.FAQ
}

// AdminBlogPost is a post as the console sees it, published or not.
type AdminBlogPost struct {
	ID int64
	BlogPostWrite
	// PublishedAt is nil for a draft; in the future for a scheduled post.
	PublishedAt *time.Time
}

// Status is the post's status at now.
func (p *AdminBlogPost) Status(now time.Time) string {
	switch {
	case p.PublishedAt == nil:
		return BlogDraft
	case p.PublishedAt.After(now):
		return BlogScheduled
	}
	return BlogPublished
}

// AdminInterviewQuestion is an interview question with how many accounts answered it.
type AdminInterviewQuestion struct {
	domain.InterviewQuestion
	Answers int
}

// BlogAdminStore keeps the posts and interview questions the console edits.
// storage.Store implements it next to TeamStore; the Service finds it on its
// Team store (see blogAdmin). Every change writes its audit entry in the
// same transaction; an entry with an empty Target gets the new row's
// ("blog_post:<id>", "interview_question:<id>").
type BlogAdminStore interface {
	// AdminBlogPosts lists every post of the site: drafts first, then by
	// publication time, newest first.
	AdminBlogPosts(ctx context.Context) ([]AdminBlogPost, error)
	// AdminBlogPost is the post with id (ENotFound when none).
	AdminBlogPost(ctx context.Context, id int64) (*AdminBlogPost, error)
	// BlogSlugTaken reports whether another post than id (0: any) has slug.
	BlogSlugTaken(ctx context.Context, slug string, id int64) (bool, error)
	// CreateBlogPost stores a new draft and returns its id.
	CreateBlogPost(ctx context.Context, p BlogPostWrite, entry AuditEntry) (int64, error)
	// UpdateBlogPost replaces the post's text (not its publication).
	UpdateBlogPost(ctx context.Context, id int64, p BlogPostWrite, entry AuditEntry) error
	// SetBlogPublished sets the publication time (nil: a draft again).
	SetBlogPublished(ctx context.Context, id int64, at *time.Time, entry AuditEntry) error
	// AdminInterviewQuestions lists the questions in order with their answer counts.
	AdminInterviewQuestions(ctx context.Context) ([]AdminInterviewQuestion, error)
	// AddInterviewQuestion appends a question and returns its id.
	AddInterviewQuestion(ctx context.Context, question, topic string, entry AuditEntry) (int64, error)
	// UpdateInterviewQuestion replaces a question's text and topic.
	UpdateInterviewQuestion(ctx context.Context, id int64, question, topic string, entry AuditEntry) error
	// OrderInterviewQuestions numbers the questions 1, 2, ... in the order of ids.
	OrderInterviewQuestions(ctx context.Context, ids []int64, entry AuditEntry) error
	// RemoveInterviewQuestion deletes a question and its answers.
	RemoveInterviewQuestion(ctx context.Context, id int64, entry AuditEntry) error
}

// blogAdmin is s.Blog; an error when it is not set.
func (s *Console) blogAdmin() (BlogAdminStore, error) {
	if s.Blog != nil {
		return s.Blog, nil
	}
	return nil, fmt.Errorf("the blog console is not configured (no Blog store)")
}

// blogProblems collects the field errors of one form.
type blogProblems []domain.FieldError

func (p *blogProblems) add(field, rule, format string, args ...any) {
	*p = append(*p, domain.FieldError{Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

func (p blogProblems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &domain.Error{Code: domain.EInvalid, Message: p[0].Message, Fields: p}
}

// textBound checks that v has min-max characters.
func (p *blogProblems) textBound(field, label, v string, minLen, maxLen int) {
	n := utf8.RuneCountInString(v)
	switch {
	case n < minLen && n == 0:
		p.add(field, "required", "%s is required (1-%d characters).", label, maxLen)
	case n < minLen:
		p.add(field, "minLength", "%s is %d-%d characters; this one has %d.", label, minLen, maxLen, n)
	case n > maxLen:
		p.add(field, "maxLength", "%s is at most %d characters; this one has %d.", label, maxLen, n)
	}
}

// CheckBlogPost trims p and checks every field; the error names each field
// that is wrong (tags as "tags", the FAQs as "faqs.<n>.question" and
// "faqs.<n>.answer", n from 1 over the pairs kept: an empty pair is
// dropped and not counted).
func CheckBlogPost(p BlogPostWrite) (BlogPostWrite, error) {
	var bad blogProblems
	p.Title, p.Slug, p.Excerpt, p.Author = strings.TrimSpace(p.Title), strings.TrimSpace(p.Slug), strings.TrimSpace(p.Excerpt), strings.TrimSpace(p.Author)
	p.Markdown = strings.TrimRight(strings.ReplaceAll(p.Markdown, "\r\n", "\n"), " \n\t")
	bad.textBound("title", "The title", p.Title, 1, BlogTitleMax)
	switch {
	case p.Slug == "":
		bad.add("slug", "required", "The slug is required: lowercase letters, digits and hyphens, such as how-to-launch.")
	case len(p.Slug) > BlogSlugMax:
		bad.add("slug", "maxLength", "The slug is at most %d characters; this one has %d.", BlogSlugMax, len(p.Slug))
	case !blogSlug.MatchString(p.Slug):
		bad.add("slug", "pattern", "The slug is lowercase letters, digits and hyphens, starting with a letter or digit (such as how-to-launch); %q is not one.", p.Slug)
	}
	bad.textBound("excerpt", "The excerpt", p.Excerpt, 0, BlogExcerptMax)
	bad.textBound("markdown", "The text", p.Markdown, 1, BlogMarkdownMax)
	bad.textBound("author", "The author", p.Author, 1, BlogAuthorMax)
	var tags []string
	for _, t := range p.Tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" || slices.Contains(tags, t) {
			continue
		}
		tags = append(tags, t)
	}
	p.Tags = tags
	if p.Tags == nil {
		p.Tags = []string{}
	}
	if len(p.Tags) > BlogTagsMax {
		bad.add("tags", "maxItems", "A post has at most %d tags; this one has %d.", BlogTagsMax, len(p.Tags))
	}
	for _, t := range p.Tags {
		if n := utf8.RuneCountInString(t); n > BlogTagMax {
			bad.add("tags", "maxLength", "A tag is at most %d characters; %q has %d.", BlogTagMax, t, n)
			break
		}
	}
	var faqs []domain.FAQ
	for _, f := range p.FAQs {
		f.Question, f.Answer = strings.TrimSpace(f.Question), strings.TrimSpace(f.Answer)
		if f.Question == "" && f.Answer == "" {
			continue
		}
		n := strconv.Itoa(len(faqs) + 1)
		switch q := utf8.RuneCountInString(f.Question); {
		case q == 0:
			bad.add("faqs."+n+".question", "required", "Question %s has an answer but no question.", n)
		case q > FAQQuestionMax:
			bad.add("faqs."+n+".question", "maxLength", "A question is at most %d characters; question %s has %d.", FAQQuestionMax, n, q)
		}
		switch a := utf8.RuneCountInString(f.Answer); {
		case a == 0:
			bad.add("faqs."+n+".answer", "required", "Question %s has no answer.", n)
		case a > FAQAnswerMax:
			bad.add("faqs."+n+".answer", "maxLength", "An answer is at most %d characters; answer %s has %d.", FAQAnswerMax, n, a)
		}
		faqs = append(faqs, f)
	}
	p.FAQs = faqs
	if p.FAQs == nil {
		p.FAQs = []domain.FAQ{}
	}
	if len(p.FAQs) > BlogFAQsMax {
		bad.add("faqs", "maxItems", "A post has at most %d questions and answers; this one has %d.", BlogFAQsMax, len(p.FAQs))
	}
	return p, bad.err()
}

// longText is how the audit log keeps a long text: its length and the
// start of its SHA-256, not the text (which is in the post).
type longText struct {
	Chars  int    `json:"chars"`
	SHA256 string `json:"sha256"`
}

func newLongText(s string) longText {
	sum := sha256.Sum256([]byte(s))
	return longText{Chars: utf8.RuneCountInString(s), SHA256: hex.EncodeToString(sum[:8])}
}

// blogAudit is a post as its audit entries keep it: the short fields as
// they are, the Markdown and the FAQs as length and hash.
type blogAudit struct {
	Title    string   `json:"title"`
	Slug     string   `json:"slug"`
	Excerpt  string   `json:"excerpt"`
	Author   string   `json:"author"`
	Tags     []string `json:"tags"`
	Markdown longText `json:"markdown"`
	FAQs     longText `json:"faqs"`
	FAQCount int      `json:"faq_count"`
}

func newBlogAudit(p BlogPostWrite) blogAudit {
	var faqs strings.Builder
	for _, f := range p.FAQs {
		faqs.WriteString(f.Question + "\n" + f.Answer + "\n")
	}
	return blogAudit{Title: p.Title, Slug: p.Slug, Excerpt: p.Excerpt, Author: p.Author, Tags: p.Tags,
		Markdown: newLongText(p.Markdown), FAQs: newLongText(faqs.String()), FAQCount: len(p.FAQs)}
}

// blogTarget is the audit target of post id.
func blogTarget(id int64) string { return "blog_post:" + strconv.FormatInt(id, 10) }

// AdminBlogPosts lists every post, drafts and scheduled ones too.
func (s *Console) AdminBlogPosts(ctx context.Context) ([]AdminBlogPost, error) {
	b, err := s.blogAdmin()
	if err != nil {
		return nil, err
	}
	return b.AdminBlogPosts(ctx)
}

// AdminBlogPost is the post with id, published or not.
func (s *Console) AdminBlogPost(ctx context.Context, id int64) (*AdminBlogPost, error) {
	b, err := s.blogAdmin()
	if err != nil {
		return nil, err
	}
	return b.AdminBlogPost(ctx, id)
}

// checkSlugFree refuses a slug another post has.
func checkSlugFree(ctx context.Context, b BlogAdminStore, p BlogPostWrite, id int64) error {
	taken, err := b.BlogSlugTaken(ctx, p.Slug, id)
	if err != nil {
		return err
	}
	if taken {
		return domain.Invalid("slug", "unique", "Another post has the slug %q already; choose another.", p.Slug)
	}
	return nil
}

// CreateBlogPost stores a new post as a draft, by actor (blog.create).
func (s *Console) CreateBlogPost(ctx context.Context, actor string, p BlogPostWrite) (int64, error) {
	b, err := s.blogAdmin()
	if err != nil {
		return 0, err
	}
	if p, err = CheckBlogPost(p); err != nil {
		return 0, err
	}
	if err := checkSlugFree(ctx, b, p, 0); err != nil {
		return 0, err
	}
	return b.CreateBlogPost(ctx, p, s.auditEntry(actor, "blog.create", "", nil, newBlogAudit(p)))
}

// EditBlogPost replaces the text of post id, by actor (blog.edit); its
// publication stays as it is. A form that changes nothing writes nothing.
func (s *Console) EditBlogPost(ctx context.Context, actor string, id int64, p BlogPostWrite) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	if p, err = CheckBlogPost(p); err != nil {
		return err
	}
	cur, err := b.AdminBlogPost(ctx, id)
	if err != nil {
		return err
	}
	if err := checkSlugFree(ctx, b, p, id); err != nil {
		return err
	}
	before, after := newBlogAudit(cur.BlogPostWrite), newBlogAudit(p)
	if fmt.Sprint(before) == fmt.Sprint(after) {
		return nil
	}
	return b.UpdateBlogPost(ctx, id, p, s.auditEntry(actor, "blog.edit", blogTarget(id), before, after))
}

// publishedAudit is the publication of a post in the audit log.
func publishedAudit(at *time.Time) map[string]any {
	if at == nil {
		return map[string]any{"published_at": nil}
	}
	return map[string]any{"published_at": at.UTC().Format(time.RFC3339)}
}

// PublishBlogPost publishes post id now, by actor (blog.publish); a
// scheduled post is published at once. A published post is a conflict.
func (s *Console) PublishBlogPost(ctx context.Context, actor string, id int64) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	cur, err := b.AdminBlogPost(ctx, id)
	if err != nil {
		return err
	}
	now := s.now().Truncate(time.Second)
	if cur.Status(now) == BlogPublished {
		return domain.Errorf(domain.EConflict, "The post is published already (since %s).", cur.PublishedAt.UTC().Format("Jan 2, 2006 15:04 UTC"))
	}
	return b.SetBlogPublished(ctx, id, &now, s.auditEntry(actor, "blog.publish", blogTarget(id), publishedAudit(cur.PublishedAt), publishedAudit(&now)))
}

// ScheduleBlogPost has post id published at at, by actor (blog.schedule).
// at must be in the future (a time that has passed is refused rather than
// published: Publish now says that) and at most BlogScheduleMax ahead. A
// published post is a conflict: unpublish it first.
func (s *Console) ScheduleBlogPost(ctx context.Context, actor string, id int64, at time.Time) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	cur, err := b.AdminBlogPost(ctx, id)
	if err != nil {
		return err
	}
	now := s.now()
	at = at.UTC().Truncate(time.Second)
	switch {
	case !at.After(now):
		return domain.Invalid("publish_at", "future", "Choose a time in the future (UTC): %s has passed. To publish now, use Publish now.", at.Format("2006-01-02 15:04"))
	case at.Sub(now) > BlogScheduleMax:
		return domain.Invalid("publish_at", "maximum", "Schedule a post at most %d days ahead; %s is further.", int(BlogScheduleMax/(24*time.Hour)), at.Format("2006-01-02 15:04"))
	case cur.Status(now) == BlogPublished:
		return domain.Errorf(domain.EConflict, "The post is published already; unpublish it before scheduling it.")
	}
	return b.SetBlogPublished(ctx, id, &at, s.auditEntry(actor, "blog.schedule", blogTarget(id), publishedAudit(cur.PublishedAt), publishedAudit(&at)))
}

// UnpublishBlogPost makes post id a draft again, by actor (blog.unpublish):
// a published post leaves the blog at once, a scheduled one is not
// published at its time. A draft is a conflict.
func (s *Console) UnpublishBlogPost(ctx context.Context, actor string, id int64) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	cur, err := b.AdminBlogPost(ctx, id)
	if err != nil {
		return err
	}
	if cur.PublishedAt == nil {
		return domain.Errorf(domain.EConflict, "The post is a draft already.")
	}
	return b.SetBlogPublished(ctx, id, nil, s.auditEntry(actor, "blog.unpublish", blogTarget(id), publishedAudit(cur.PublishedAt), publishedAudit(nil)))
}

// interviewTarget is the audit target of question id.
func interviewTarget(id int64) string { return "interview_question:" + strconv.FormatInt(id, 10) }

// checkInterviewQuestion trims and checks a question and its topic.
func checkInterviewQuestion(question, topic string) (string, string, error) {
	var bad blogProblems
	question, topic = strings.TrimSpace(question), strings.TrimSpace(topic)
	bad.textBound("question", "The question", question, 1, InterviewQuestionMax)
	bad.textBound("topic", "The topic", topic, 0, InterviewTopicMax)
	return question, topic, bad.err()
}

// AdminInterviewQuestions lists the questions in order with their answer counts.
func (s *Console) AdminInterviewQuestions(ctx context.Context) ([]AdminInterviewQuestion, error) {
	b, err := s.blogAdmin()
	if err != nil {
		return nil, err
	}
	return b.AdminInterviewQuestions(ctx)
}

// interviewQuestion finds question id among qs (ENotFound when absent).
func interviewQuestion(qs []AdminInterviewQuestion, id int64) (int, error) {
	for i, q := range qs {
		if q.ID == id {
			return i, nil
		}
	}
	return 0, domain.NotFound("interview question", strconv.FormatInt(id, 10))
}

// AddInterviewQuestion appends a question, by actor (interview.add); a
// site has at most InterviewQuestionsMax.
func (s *Console) AddInterviewQuestion(ctx context.Context, actor, question, topic string) (int64, error) {
	b, err := s.blogAdmin()
	if err != nil {
		return 0, err
	}
	if question, topic, err = checkInterviewQuestion(question, topic); err != nil {
		return 0, err
	}
	qs, err := b.AdminInterviewQuestions(ctx)
	if err != nil {
		return 0, err
	}
	if len(qs) >= InterviewQuestionsMax {
		return 0, domain.Invalid("question", "maxItems", "There are %d questions already, the most a founder answers in one call; remove one first.", len(qs))
	}
	return b.AddInterviewQuestion(ctx, question, topic, s.auditEntry(actor, "interview.add", "", nil,
		map[string]any{"question": question, "topic": topic, "position": len(qs) + 1}))
}

// EditInterviewQuestion replaces question id's text and topic, by actor
// (interview.edit); the founders' answers stay. Changing nothing writes nothing.
func (s *Console) EditInterviewQuestion(ctx context.Context, actor string, id int64, question, topic string) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	qs, err := b.AdminInterviewQuestions(ctx)
	if err != nil {
		return err
	}
	i, err := interviewQuestion(qs, id)
	if err != nil {
		return err
	}
	if question, topic, err = checkInterviewQuestion(question, topic); err != nil {
		return err
	}
	cur := qs[i]
	if cur.Question == question && cur.Topic == topic {
		return nil
	}
	return b.UpdateInterviewQuestion(ctx, id, question, topic, s.auditEntry(actor, "interview.edit", interviewTarget(id),
		map[string]string{"question": cur.Question, "topic": cur.Topic}, map[string]string{"question": question, "topic": topic}))
}

// MoveInterviewQuestion moves question id one place up (delta -1) or down
// (+1), by actor (interview.move). Moving the first up or the last down is
// a conflict.
func (s *Console) MoveInterviewQuestion(ctx context.Context, actor string, id int64, delta int) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	if delta != -1 && delta != 1 {
		return domain.Invalid("direction", "enum", "A question moves up or down one place.")
	}
	qs, err := b.AdminInterviewQuestions(ctx)
	if err != nil {
		return err
	}
	i, err := interviewQuestion(qs, id)
	if err != nil {
		return err
	}
	j := i + delta
	if j < 0 || j >= len(qs) {
		return domain.Errorf(domain.EConflict, "The question is the %s already.", map[bool]string{true: "first", false: "last"}[j < 0])
	}
	qs[i], qs[j] = qs[j], qs[i]
	ids := make([]int64, len(qs))
	for k, q := range qs {
		ids[k] = q.ID
	}
	return b.OrderInterviewQuestions(ctx, ids, s.auditEntry(actor, "interview.move", interviewTarget(id),
		map[string]int{"position": i + 1}, map[string]int{"position": j + 1}))
}

// RemoveInterviewQuestion deletes question id and the founders' answers to
// it, by actor (interview.remove); the entry keeps the question and how
// many answers went with it.
func (s *Console) RemoveInterviewQuestion(ctx context.Context, actor string, id int64) error {
	b, err := s.blogAdmin()
	if err != nil {
		return err
	}
	qs, err := b.AdminInterviewQuestions(ctx)
	if err != nil {
		return err
	}
	i, err := interviewQuestion(qs, id)
	if err != nil {
		return err
	}
	q := qs[i]
	return b.RemoveInterviewQuestion(ctx, id, s.auditEntry(actor, "interview.remove", interviewTarget(id),
		map[string]any{"question": q.Question, "topic": q.Topic, "position": i + 1, "answers": q.Answers}, nil))
}
