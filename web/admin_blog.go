package web

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/web/shell"
)

// The blog and the founder interview questions on the console (/admin/blog,
// /admin/interview; admins only, like the settings: a moderator and
// everyone else get the 404 page; docs/console.md "Blog and interview
// questions"). A post is written in Markdown with FAQs; Preview renders it
// with the blog's own renderer without saving; it is published now,
// scheduled (a time in UTC) or taken back.

// blogFAQRows is how many empty question rows the post form offers past
// the post's FAQs (never beyond console.BlogFAQsMax rows in all).
const blogFAQRows = 2

// scheduleLayout is the value of a datetime-local field (in UTC here).
const scheduleLayout = "2006-01-02T15:04"

// blogRow is one post of the list.
type blogRow struct {
	console.AdminBlogPost
	Status string
}

// blogListPage is the data of admin_blog.html.
type blogListPage struct {
	Email string
	Posts []blogRow
}

// faqRow is one question-and-answer pair of the post form, with its problems.
type faqRow struct {
	N                  int // from 1
	Question, Answer   string
	QProblem, AProblem string
}

// blogEditPage is the data of admin_blog_post.html.
type blogEditPage struct {
	Email                                        string
	ID                                           int64 // 0: a new post
	Title, Slug, Excerpt, Markdown, Author, Tags string
	FAQs                                         []faqRow
	// Problems are the form's problems by field; Problem the summary of a
	// refused form or why a publication change was refused.
	Problems map[string]string
	Problem  string
	// Preview is the rendered Markdown of a preview (nothing saved).
	Previewing bool
	Preview    template.HTML
	PreviewFAQ []domain.FAQ
	// Status and PublishedAt are the stored post's; ScheduleAt the
	// schedule field's value.
	Status      string
	PublishedAt *time.Time
	ScheduleAt  string
	Notice      string
	Now         string
	Max         map[string]int
}

// interviewPage is the data of admin_interview.html.
type interviewPage struct {
	Email     string
	Questions []interviewRow
	// New is the add form's values; Problems its problems (or, with
	// EditID, those of question EditID's form).
	NewQuestion, NewTopic string
	// EditID is the question whose refused form EditQuestion and
	// EditTopic keep.
	EditID                  int64
	EditQuestion, EditTopic string
	Problems                map[string]string
	Problem, Notice         string
	Max                     map[string]int
}

// interviewRow is one question with the values its edit form shows.
type interviewRow struct {
	console.AdminInterviewQuestion
	First, Last bool
}

// parseBlogPages parses the templates of routeBlog's pages (pageSet).
func parseBlogPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).Funcs(template.FuncMap{"fieldOf": fieldOf}).ParseFS(templateFS, "templates/parts.html"))
	for _, name := range []string{"admin_blog", "admin_blog_post", "admin_interview"} {
		pages[name] = template.Must(template.Must(t.Clone()).ParseFS(templateFS, "templates/"+name+".html"))
	}
}

// routeBlog registers the blog and interview pages.
func (h *handler) routeBlog(mux *http.ServeMux) {
	mux.Handle("GET /admin/blog", h.adminRoute(console.RoleAdmin, false, h.blogHome))
	mux.Handle("GET /admin/blog/new", h.adminRoute(console.RoleAdmin, false, h.blogNew))
	mux.Handle("POST /admin/blog/new", h.adminRoute(console.RoleAdmin, true, h.blogCreate))
	mux.Handle("GET /admin/blog/{id}", h.adminRoute(console.RoleAdmin, false, h.blogEdit))
	mux.Handle("POST /admin/blog/{id}", h.adminRoute(console.RoleAdmin, true, h.blogSave))
	mux.Handle("POST /admin/blog/{id}/publish", h.adminRoute(console.RoleAdmin, true, h.blogPublish))
	mux.Handle("POST /admin/blog/{id}/schedule", h.adminRoute(console.RoleAdmin, true, h.blogSchedule))
	mux.Handle("POST /admin/blog/{id}/unpublish", h.adminRoute(console.RoleAdmin, true, h.blogUnpublish))
	mux.Handle("GET /admin/interview", h.adminRoute(console.RoleAdmin, false, h.interviewHome))
	mux.Handle("POST /admin/interview", h.adminRoute(console.RoleAdmin, true, h.interviewAdd))
	mux.Handle("POST /admin/interview/{id}", h.adminRoute(console.RoleAdmin, true, h.interviewEdit))
	mux.Handle("POST /admin/interview/{id}/move", h.adminRoute(console.RoleAdmin, true, h.interviewMove))
	mux.Handle("POST /admin/interview/{id}/remove", h.adminRoute(console.RoleAdmin, true, h.interviewRemove))
}

// blogField is one text field of the post form.
type blogField struct {
	Name, Label, Value string
	Max                int
	Help, Problem      string
}

// fieldOf is the field name of the post form e.
func fieldOf(e *blogEditPage, name, label, value string, maxLen int, help string) blogField {
	return blogField{Name: name, Label: label, Value: value, Max: maxLen, Help: help, Problem: e.Problems[name]}
}

// blogMax are the bounds the post form shows.
var blogMax = map[string]int{"title": console.BlogTitleMax, "slug": console.BlogSlugMax, "excerpt": console.BlogExcerptMax,
	"markdown": console.BlogMarkdownMax, "author": console.BlogAuthorMax, "tags": console.BlogTagsMax, "tag": console.BlogTagMax,
	"faqs": console.BlogFAQsMax, "question": console.FAQQuestionMax, "answer": console.FAQAnswerMax,
	"schedule_days": int(console.BlogScheduleMax / (24 * time.Hour))}

// blogHome is GET /admin/blog: every post with its status.
func (h *handler) blogHome(w http.ResponseWriter, r *http.Request, email string) {
	posts, err := h.console.AdminBlogPosts(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	now := h.svc.Now()
	p := &blogListPage{Email: email}
	for _, post := range posts {
		p.Posts = append(p.Posts, blogRow{AdminBlogPost: post, Status: post.Status(now)})
	}
	h.render(w, r, statusOK, "admin_blog", "Blog posts", "", p)
}

// postForm is the post a form sent.
func postForm(r *http.Request) console.BlogPostWrite {
	f := r.PostForm
	p := console.BlogPostWrite{Title: f.Get("title"), Slug: f.Get("slug"), Excerpt: f.Get("excerpt"),
		Markdown: f.Get("markdown"), Author: f.Get("author")}
	p.Tags = strings.Split(f.Get("tags"), ",")
	qs, as := f["faq_question"], f["faq_answer"]
	for i := 0; i < len(qs) || i < len(as); i++ {
		var q, a string
		if i < len(qs) {
			q = qs[i]
		}
		if i < len(as) {
			a = as[i]
		}
		p.FAQs = append(p.FAQs, domain.FAQ{Question: q, Answer: a})
	}
	return p
}

// newBlogEditPage fills the form with p; problems are by field.
func newBlogEditPage(email string, id int64, p console.BlogPostWrite, problems map[string]string) *blogEditPage {
	e := &blogEditPage{Email: email, ID: id, Title: p.Title, Slug: p.Slug, Excerpt: p.Excerpt, Markdown: p.Markdown,
		Author: p.Author, Problems: problems, Max: blogMax}
	var tags []string
	for _, t := range p.Tags {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	e.Tags = strings.Join(tags, ", ")
	var faqs []domain.FAQ
	for _, f := range p.FAQs {
		if strings.TrimSpace(f.Question) != "" || strings.TrimSpace(f.Answer) != "" {
			faqs = append(faqs, f)
		}
	}
	rows := max(len(faqs), min(len(faqs)+blogFAQRows, console.BlogFAQsMax))
	for i := 0; i < rows; i++ {
		row := faqRow{N: i + 1}
		if i < len(faqs) {
			row.Question, row.Answer = faqs[i].Question, faqs[i].Answer
		}
		e.FAQs = append(e.FAQs, row)
	}
	return e
}

// showBlogPost renders the post form with the stored post's publication
// (id > 0), the form's values and problems.
func (h *handler) showBlogPost(w http.ResponseWriter, r *http.Request, status int, e *blogEditPage) {
	now := h.svc.Now().UTC()
	e.Now = now.Format("2006-01-02 15:04")
	if e.ID > 0 {
		cur, err := h.console.AdminBlogPost(r.Context(), e.ID)
		if err != nil {
			h.serviceError(w, r, err)
			return
		}
		e.Status, e.PublishedAt = cur.Status(now), cur.PublishedAt
		if e.ScheduleAt == "" && e.Status == console.BlogScheduled {
			e.ScheduleAt = cur.PublishedAt.UTC().Format(scheduleLayout)
		}
	}
	if e.ScheduleAt == "" {
		e.ScheduleAt = now.Add(24 * time.Hour).Truncate(time.Hour).Format(scheduleLayout)
	}
	title := "New blog post"
	if e.ID > 0 {
		title = "Edit blog post"
	}
	h.render(w, r, status, "admin_blog_post", title, "", e)
}

// blogNew is GET /admin/blog/new: an empty form.
func (h *handler) blogNew(w http.ResponseWriter, r *http.Request, email string) {
	h.showBlogPost(w, r, statusOK, newBlogEditPage(email, 0, console.BlogPostWrite{}, nil))
}

// blogID is the {id} of the request, false (after a 404 page) when it is
// not a post of the site.
func (h *handler) blogID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		h.notFound(w, r)
		return 0, false
	}
	return id, true
}

// blogEdit is GET /admin/blog/{id}.
func (h *handler) blogEdit(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.blogID(w, r)
	if !ok {
		return
	}
	cur, err := h.console.AdminBlogPost(r.Context(), id)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	e := newBlogEditPage(email, id, cur.BlogPostWrite, nil)
	e.Notice = map[string]string{"created": "Saved as a draft.", "saved": "Saved.", "publish": "Published: the post is on the blog now.",
		"schedule": "Scheduled.", "unpublish": "Unpublished: the post is a draft again."}[r.URL.Query().Get("done")]
	h.showBlogPost(w, r, statusOK, e)
}

// problemsOf turns a refusal into problems by field, nil when err is no
// refusal of the form.
func problemsOf(err error) map[string]string {
	problems := invalidFields(err)
	if problems != nil && len(problems) == 0 {
		var de *domain.Error
		errors.As(err, &de)
		problems[""] = de.Message
	}
	return problems
}

// savePost is the post form's POST for id (0: a new post): Preview renders
// it without saving; Save stores it.
func (h *handler) savePost(w http.ResponseWriter, r *http.Request, email string, id int64) {
	p := postForm(r)
	if r.PostForm.Get("action") == "preview" {
		h.previewPost(w, r, email, id, p)
		return
	}
	var err error
	done := "saved"
	if id == 0 {
		id, err = h.console.CreateBlogPost(r.Context(), email, p)
		done = "created"
	} else {
		err = h.console.EditBlogPost(r.Context(), email, id, p)
	}
	if problems := problemsOf(err); problems != nil {
		e := h.refusedPost(email, id, p, problems)
		h.showBlogPost(w, r, pageStatus(domain.EInvalid), e)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin saved a blog post", "admin", email, "post", id)
	http.Redirect(w, r, fmt.Sprintf("/admin/blog/%d?done=%s", id, done), statusSeeOther)
}

// refusedPost is the form of a refused post: what was typed, each problem
// next to its field (the domain numbers the FAQ pairs as the form shows
// them, empty pairs dropped).
func (h *handler) refusedPost(email string, id int64, p console.BlogPostWrite, problems map[string]string) *blogEditPage {
	e := newBlogEditPage(email, id, p, problems)
	e.Problem = "Nothing was saved: correct the fields marked below."
	for i := range e.FAQs {
		n := strconv.Itoa(e.FAQs[i].N)
		e.FAQs[i].QProblem, e.FAQs[i].AProblem = problems["faqs."+n+".question"], problems["faqs."+n+".answer"]
	}
	return e
}

// previewPost renders p's Markdown and FAQs as the blog would, above the
// form, and saves nothing.
func (h *handler) previewPost(w http.ResponseWriter, r *http.Request, email string, id int64, p console.BlogPostWrite) {
	if id > 0 {
		if _, err := h.console.AdminBlogPost(r.Context(), id); err != nil {
			h.serviceError(w, r, err)
			return
		}
	}
	body, err := renderMarkdown(p.Markdown)
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	e := newBlogEditPage(email, id, p, nil)
	e.Previewing, e.Preview = true, body
	for _, f := range p.FAQs {
		if strings.TrimSpace(f.Question) != "" || strings.TrimSpace(f.Answer) != "" {
			e.PreviewFAQ = append(e.PreviewFAQ, f)
		}
	}
	h.showBlogPost(w, r, statusOK, e)
}

// blogCreate is POST /admin/blog/new.
func (h *handler) blogCreate(w http.ResponseWriter, r *http.Request, email string) {
	h.savePost(w, r, email, 0)
}

// blogSave is POST /admin/blog/{id}.
func (h *handler) blogSave(w http.ResponseWriter, r *http.Request, email string) {
	if id, ok := h.blogID(w, r); ok {
		h.savePost(w, r, email, id)
	}
}

// blogPublication runs a change of post id's publication; a refusal (400
// or 409) is shown on the post's page with the stored post in the form.
func (h *handler) blogPublication(w http.ResponseWriter, r *http.Request, email, done string, change func(id int64) error) {
	id, ok := h.blogID(w, r)
	if !ok {
		return
	}
	err := change(id)
	var de *domain.Error
	if err != nil && errors.As(err, &de) && (de.Code == domain.EInvalid || de.Code == domain.EConflict) {
		cur, cerr := h.console.AdminBlogPost(r.Context(), id)
		if cerr != nil {
			h.serviceError(w, r, cerr)
			return
		}
		e := newBlogEditPage(email, id, cur.BlogPostWrite, problemsOf(err))
		if e.Problems == nil {
			e.Problem = de.Message
		}
		e.ScheduleAt = strings.TrimSpace(r.PostForm.Get("publish_at"))
		status := pageStatus(domain.EInvalid)
		if de.Code == domain.EConflict {
			status = pageStatus(domain.EConflict)
		}
		h.showBlogPost(w, r, status, e)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin changed a blog post's publication", "admin", email, "post", id, "change", done)
	http.Redirect(w, r, fmt.Sprintf("/admin/blog/%d?done=%s", id, done), statusSeeOther)
}

// blogPublish is POST /admin/blog/{id}/publish.
func (h *handler) blogPublish(w http.ResponseWriter, r *http.Request, email string) {
	h.blogPublication(w, r, email, "publish", func(id int64) error { return h.console.PublishBlogPost(r.Context(), email, id) })
}

// blogSchedule is POST /admin/blog/{id}/schedule: publish_at, a
// datetime-local value in UTC.
func (h *handler) blogSchedule(w http.ResponseWriter, r *http.Request, email string) {
	h.blogPublication(w, r, email, "schedule", func(id int64) error {
		raw := strings.TrimSpace(r.PostForm.Get("publish_at"))
		at, err := time.ParseInLocation(scheduleLayout, raw, time.UTC)
		if err != nil {
			if at, err = time.ParseInLocation(scheduleLayout+":05", raw, time.UTC); err != nil {
				return domain.Invalid("publish_at", "format", "Enter the time as a date and a time in UTC, such as 2026-12-01T09:00; %q is not one.", raw)
			}
		}
		return h.console.ScheduleBlogPost(r.Context(), email, id, at)
	})
}

// blogUnpublish is POST /admin/blog/{id}/unpublish.
func (h *handler) blogUnpublish(w http.ResponseWriter, r *http.Request, email string) {
	h.blogPublication(w, r, email, "unpublish", func(id int64) error { return h.console.UnpublishBlogPost(r.Context(), email, id) })
}

// interviewMax are the bounds the interview forms show.
var interviewMax = map[string]int{"question": console.InterviewQuestionMax, "topic": console.InterviewTopicMax,
	"questions": console.InterviewQuestionsMax}

// showInterview renders the questions; p carries a refused form's values.
func (h *handler) showInterview(w http.ResponseWriter, r *http.Request, status int, p *interviewPage) {
	qs, err := h.console.AdminInterviewQuestions(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	for i, q := range qs {
		p.Questions = append(p.Questions, interviewRow{AdminInterviewQuestion: q, First: i == 0, Last: i == len(qs)-1})
	}
	p.Max = interviewMax
	h.render(w, r, status, "admin_interview", "Interview questions", "", p)
}

// interviewHome is GET /admin/interview.
func (h *handler) interviewHome(w http.ResponseWriter, r *http.Request, email string) {
	p := &interviewPage{Email: email}
	p.Notice = map[string]string{"add": "Question added.", "edit": "Question saved.", "move": "Question moved.",
		"remove": "Question removed."}[r.URL.Query().Get("done")]
	h.showInterview(w, r, statusOK, p)
}

// interviewChange runs one change; a refusal is shown on the page (400 for
// a form's problems, 409 for a conflict), anything else as the service's error.
func (h *handler) interviewChange(w http.ResponseWriter, r *http.Request, email, done string, p *interviewPage, err error) {
	if problems := problemsOf(err); problems != nil {
		p.Email, p.Problems = email, problems
		p.Problem = "Nothing was changed: correct the fields marked below."
		if problems["question"] == "" && problems["topic"] == "" {
			// A problem of no field on the page (a move's direction).
			var de *domain.Error
			errors.As(err, &de)
			p.Problems, p.Problem = nil, de.Message
		}
		h.showInterview(w, r, pageStatus(domain.EInvalid), p)
		return
	}
	var de *domain.Error
	if err != nil && errors.As(err, &de) && de.Code == domain.EConflict {
		p.Email, p.Problem = email, de.Message
		h.showInterview(w, r, pageStatus(domain.EConflict), p)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin changed the interview questions", "admin", email, "change", done)
	http.Redirect(w, r, "/admin/interview?done="+done, statusSeeOther)
}

// interviewAdd is POST /admin/interview: question and topic.
func (h *handler) interviewAdd(w http.ResponseWriter, r *http.Request, email string) {
	q, topic := r.PostForm.Get("question"), r.PostForm.Get("topic")
	_, err := h.console.AddInterviewQuestion(r.Context(), email, q, topic)
	h.interviewChange(w, r, email, "add", &interviewPage{NewQuestion: q, NewTopic: topic}, err)
}

// interviewID is the {id} of the request (after a 404 page when not one).
func (h *handler) interviewID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	return h.blogID(w, r)
}

// interviewEdit is POST /admin/interview/{id}: question and topic.
func (h *handler) interviewEdit(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.interviewID(w, r)
	if !ok {
		return
	}
	q, topic := r.PostForm.Get("question"), r.PostForm.Get("topic")
	err := h.console.EditInterviewQuestion(r.Context(), email, id, q, topic)
	h.interviewChange(w, r, email, "edit", &interviewPage{EditID: id, EditQuestion: q, EditTopic: topic}, err)
}

// interviewMove is POST /admin/interview/{id}/move: direction up or down.
func (h *handler) interviewMove(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.interviewID(w, r)
	if !ok {
		return
	}
	delta := map[string]int{"up": -1, "down": 1}[r.PostForm.Get("direction")]
	err := h.console.MoveInterviewQuestion(r.Context(), email, id, delta)
	h.interviewChange(w, r, email, "move", &interviewPage{EditID: id}, err)
}

// interviewRemove is POST /admin/interview/{id}/remove.
func (h *handler) interviewRemove(w http.ResponseWriter, r *http.Request, email string) {
	id, ok := h.interviewID(w, r)
	if !ok {
		return
	}
	err := h.console.RemoveInterviewQuestion(r.Context(), email, id)
	h.interviewChange(w, r, email, "remove", &interviewPage{}, err)
}
