package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// blogEnv is an orderEnv with a moderator on the site team.
func blogEnv(t *testing.T, engine string) *orderEnv {
	t.Helper()
	e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
	if err := e.console.GrantTeamRole(context.Background(), "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
		t.Fatal(err)
	}
	return e
}

// postValues is a good post form, changed by the pairs kv (name, value).
func postValues(kv ...string) url.Values {
	v := url.Values{"title": {"Launch week notes"}, "slug": {"launch-week-notes"}, "excerpt": {"What we learned."},
		"author": {"The team"}, "tags": {"launch, notes"}, "markdown": {"# Notes\n\nSome **bold** words."},
		"faq_question": {"Who writes these?", ""}, "faq_answer": {"The site team.", ""}, "action": {"save"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// auditOf returns the audit entries of action, newest first.
func auditOf(t *testing.T, e *orderEnv, action string) []console.AuditEntry {
	t.Helper()
	es, _, err := e.console.AuditLog(context.Background(), console.AuditFilter{Action: action})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// posts is every stored post.
func posts(t *testing.T, e *orderEnv) []console.AdminBlogPost {
	t.Helper()
	ps, err := e.console.AdminBlogPosts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// createPost creates a post through the form and returns its id.
func createPost(t *testing.T, e *orderEnv, form url.Values) int64 {
	t.Helper()
	res := e.post(t, "/admin/blog/new", form, as("ops")...)
	if res.status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", res.status, excerpt(res.body))
	}
	loc := res.header.Get("Location")
	id, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/blog/"), "?done=created"), 10, 64)
	if err != nil {
		t.Fatalf("create redirected to %q", loc)
	}
	return id
}

// TestBlogAdmin_Permissions: the blog and interview pages and every form
// are the admins'; a moderator, a stranger and nobody get the 404 page and
// change nothing.
func TestBlogAdmin_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := blogEnv(t, engine)
		id := createPost(t, e, postValues())
		qid, err := e.console.AddInterviewQuestion(context.Background(), "ops@launchdir.test", "Why now?", "")
		if err != nil {
			t.Fatal(err)
		}
		p, q := fmt.Sprint(id), fmt.Sprint(qid)
		for _, c := range []struct {
			path string
			post url.Values
		}{
			{"/admin/blog", nil}, {"/admin/blog/new", nil}, {"/admin/blog/" + p, nil}, {"/admin/interview", nil},
			{"/admin/blog/new", postValues("slug", "other")},
			{"/admin/blog/new", postValues("slug", "other", "action", "preview")},
			{"/admin/blog/" + p, postValues("title", "Taken over")},
			{"/admin/blog/" + p + "/publish", url.Values{}},
			{"/admin/blog/" + p + "/schedule", url.Values{"publish_at": {testNow.Add(48 * time.Hour).Format("2006-01-02T15:04")}}},
			{"/admin/blog/" + p + "/unpublish", url.Values{}},
			{"/admin/interview", url.Values{"question": {"Taken over?"}}},
			{"/admin/interview/" + q, url.Values{"question": {"Taken over?"}}},
			{"/admin/interview/" + q + "/move", url.Values{"direction": {"down"}}},
			{"/admin/interview/" + q + "/remove", url.Values{}},
		} {
			for _, who := range []string{"ops", "mod", "someone", ""} {
				var hdr []string
				if who != "" {
					hdr = as(who)
				}
				if c.post != nil {
					if who == "ops" {
						continue
					}
					if res := e.post(t, c.path, c.post, hdr...); res.status != 404 {
						t.Errorf("%q POST %s: %d, want 404", who, c.path, res.status)
					}
					continue
				}
				want := 404
				if who == "ops" {
					want = 200
				}
				if res := e.get2(t, c.path, hdr); res.status != want {
					t.Errorf("%q GET %s: %d, want %d", who, c.path, res.status, want)
				}
			}
		}
		ps := posts(t, e)
		if len(ps) != 1 || ps[0].Title != "Launch week notes" || ps[0].PublishedAt != nil {
			t.Errorf("refused posts changed the posts: %+v", ps)
		}
		qs, _ := e.console.AdminInterviewQuestions(context.Background())
		if len(qs) != 1 || qs[0].Question != "Why now?" {
			t.Errorf("refused posts changed the questions: %+v", qs)
		}
		for _, a := range []string{"blog.edit", "blog.publish", "blog.schedule", "blog.unpublish", "interview.edit", "interview.move", "interview.remove"} {
			if es := auditOf(t, e, a); len(es) != 0 {
				t.Errorf("refused posts wrote %s entries: %+v", a, es)
			}
		}
		want(t, "admin's /admin", e.get2(t, "/admin", as("ops")), 200, `href="/admin/blog"`, `href="/admin/interview"`)
		wantNot(t, "moderator's /admin", e.get2(t, "/admin", as("mod")), `href="/admin/blog"`, `href="/admin/interview"`)
	})
}

// TestBlogAdmin_WritePreviewScheduleUnpublish walks one post: created as a
// draft (blog.create, the Markdown kept as length and hash), previewed (the
// blog's rendering, raw HTML and javascript: links dropped, nothing
// stored), edited (blog.edit before and after), scheduled (invisible on
// the blog until the clock passes its time), published, unpublished.
func TestBlogAdmin_WritePreviewScheduleUnpublish(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := blogEnv(t, engine)
		ops := as("ops")
		id := createPost(t, e, postValues())
		path := fmt.Sprintf("/admin/blog/%d", id)
		want(t, "the new draft", e.get2(t, path+"?done=created", ops), 200, "Saved as a draft.", `value="Launch week notes"`,
			`<span class="status status-draft">draft</span>`, `value="Who writes these?"`, "The site team.")
		es := auditOf(t, e, "blog.create")
		if len(es) != 1 || es[0].Target != fmt.Sprintf("blog_post:%d", id) || es[0].Actor != "ops@launchdir.test" || es[0].Before != nil {
			t.Fatalf("blog.create entries: %+v", es)
		}
		var after map[string]any
		if err := json.Unmarshal(es[0].After, &after); err != nil {
			t.Fatal(err)
		}
		md, _ := after["markdown"].(map[string]any)
		if after["title"] != "Launch week notes" || md["chars"] != float64(len("# Notes\n\nSome **bold** words.")) || len(fmt.Sprint(md["sha256"])) != 16 ||
			strings.Contains(string(es[0].After), "bold") || after["faq_count"] != float64(1) {
			t.Errorf("blog.create after: %s", es[0].After)
		}
		// A draft is not on the blog.
		want(t, "draft on /blog", e.get(t, "/blog"), 200)
		wantNot(t, "draft on /blog", e.get(t, "/blog"), "Launch week notes")
		want(t, "draft's page", e.get(t, "/blog/launch-week-notes"), 404)

		// Preview: the blog's rendering, no raw HTML, nothing stored.
		evil := "## Hello\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[click](javascript:alert(3)) and [ok](https://example.com)"
		res := e.post(t, path, postValues("title", "Changed <b>title</b>", "markdown", evil, "action", "preview"), ops...)
		want(t, "preview", res, 200, "Preview", "(not saved)", "<h2", "Hello</h2>", `<a href="https://example.com">ok</a>`,
			"Changed <b>title</b>", `<dt>Who writes these?</dt>`)
		if got := posts(t, e); got[0].Title != "Launch week notes" || strings.Contains(got[0].Markdown, "Hello") {
			t.Errorf("a preview stored the post: %+v", got[0])
		}
		if es := auditOf(t, e, "blog.edit"); len(es) != 0 {
			t.Errorf("a preview wrote blog.edit: %+v", es)
		}
		// A new post's preview stores nothing either.
		want(t, "new post preview", e.post(t, "/admin/blog/new", postValues("slug", "fresh", "action", "preview"), ops...), 200, "(not saved)", "<strong>bold</strong>")
		if got := posts(t, e); len(got) != 1 {
			t.Errorf("a preview of a new post stored it: %d posts", len(got))
		}

		// Edit: blog.edit with before and after; the same form again writes nothing.
		wantRedirect(t, "edit", e.post(t, path, postValues("title", "Launch week, notes", "markdown", "New text."), ops...), path+"?done=saved")
		wantRedirect(t, "edit again", e.post(t, path, postValues("title", "Launch week, notes", "markdown", "New text."), ops...), path+"?done=saved")
		es = auditOf(t, e, "blog.edit")
		if len(es) != 1 || !strings.Contains(string(es[0].Before), `"title":"Launch week notes"`) || !strings.Contains(string(es[0].After), `"title":"Launch week, notes"`) ||
			!strings.Contains(string(es[0].After), `"chars":9`) {
			t.Errorf("blog.edit entries: %+v", es)
		}

		// Schedule: a time that has passed (or is now) is refused next to its
		// field, as is one beyond 366 days; one minute ahead is taken.
		layout := "2006-01-02T15:04"
		now := e.clock.Now()
		for _, at := range []string{now.Format(layout), now.Add(-time.Minute).Format(layout)} {
			res := e.post(t, path+"/schedule", url.Values{"publish_at": {at}}, ops...)
			want(t, "schedule at "+at, res, 400, `id="post-publish_at-problem"`, "has passed", "Publish now", `value="`+at+`"`)
		}
		want(t, "schedule beyond a year", e.post(t, path+"/schedule", url.Values{"publish_at": {now.Add(366*24*time.Hour + time.Minute).Format(layout)}}, ops...),
			400, `id="post-publish_at-problem"`, "at most 366 days ahead")
		want(t, "schedule nonsense", e.post(t, path+"/schedule", url.Values{"publish_at": {"tomorrow"}}, ops...), 400, "such as 2026-12-01T09:00")
		if got := posts(t, e); got[0].PublishedAt != nil || len(auditOf(t, e, "blog.schedule")) != 0 {
			t.Fatalf("refused schedules changed the post: %+v", got[0])
		}
		wantRedirect(t, "schedule a year ahead", e.post(t, path+"/schedule", url.Values{"publish_at": {now.Add(366 * 24 * time.Hour).Format(layout)}}, ops...), path+"?done=schedule")
		at := now.Add(time.Minute).Truncate(time.Minute)
		if !at.After(now) {
			at = at.Add(time.Minute)
		}
		wantRedirect(t, "reschedule", e.post(t, path+"/schedule", url.Values{"publish_at": {at.Format(layout)}}, ops...), path+"?done=schedule")
		es = auditOf(t, e, "blog.schedule")
		if len(es) != 2 || !strings.Contains(string(es[0].After), at.Format("2006-01-02T15:04:05Z")) || string(es[1].Before) != `{"published_at":null}` {
			t.Errorf("blog.schedule entries: %+v", es)
		}
		want(t, "the list", e.get2(t, "/admin/blog", ops), 200, `<span class="status status-scheduled">scheduled</span>`, at.Format("2006-01-02 15:04"))
		// Scheduled: not on the blog until its time.
		wantNot(t, "scheduled on /blog", e.get(t, "/blog"), "Launch week, notes")
		want(t, "scheduled post's page", e.get(t, "/blog/launch-week-notes"), 404)
		e.clock.Set(at.Add(-time.Second))
		want(t, "a second before", e.get(t, "/blog/launch-week-notes"), 404)
		e.clock.Set(at)
		want(t, "at its time, /blog", e.get(t, "/blog"), 200, "Launch week, notes")
		want(t, "at its time, the page", e.get(t, "/blog/launch-week-notes"), 200, "New text.", "Who writes these?")
		want(t, "the list", e.get2(t, "/admin/blog", ops), 200, `<span class="status status-published">published</span>`)
		want(t, "publish a published post", e.post(t, path+"/publish", url.Values{}, ops...), 409, "published already")

		// Unpublish: off the blog at once; publish now: back on it.
		wantRedirect(t, "unpublish", e.post(t, path+"/unpublish", url.Values{}, ops...), path+"?done=unpublish")
		want(t, "unpublished post's page", e.get(t, "/blog/launch-week-notes"), 404)
		want(t, "unpublish a draft", e.post(t, path+"/unpublish", url.Values{}, ops...), 409, "a draft already")
		wantRedirect(t, "publish", e.post(t, path+"/publish", url.Values{}, ops...), path+"?done=publish")
		want(t, "published post's page", e.get(t, "/blog/launch-week-notes"), 200, "New text.")
		for _, a := range []string{"blog.unpublish", "blog.publish"} {
			if es := auditOf(t, e, a); len(es) != 1 || es[0].Target != fmt.Sprintf("blog_post:%d", id) {
				t.Errorf("%s entries: %+v", a, es)
			}
		}
		want(t, "the post's audit log", e.get2(t, "/admin/audit?target="+url.QueryEscape(fmt.Sprintf("blog_post:%d", id)), ops), 200,
			"blog.create", "blog.edit", "blog.schedule", "blog.unpublish", "blog.publish")
		want(t, "unknown post", e.get2(t, "/admin/blog/999", ops), 404)
		want(t, "unknown post publish", e.post(t, "/admin/blog/999/publish", url.Values{}, ops...), 404)
	})
}

// rawBody is the preview page of markdown without HTML unescaping, for
// the checks that must see the markup as sent.
func rawBody(t *testing.T, e *orderEnv, path, markdown string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(postValues("markdown", markdown, "action", "preview").Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", "session=ops")
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBlogAdmin_PreviewEscapes: the preview's rendered Markdown carries no
// script, event handler, raw HTML element or javascript: link, as sent.
func TestBlogAdmin_PreviewEscapes(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := blogEnv(t, engine)
		evil := "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n<div onclick=\"x()\">raw</div>\n\n[click](javascript:alert(3))\n\n[ok](https://example.com)"
		body := rawBody(t, e, "/admin/blog/new", evil)
		start := strings.Index(body, `<div class="markdown">`)
		end := strings.Index(body, `<form method="post" action="/admin/blog/new"`)
		if start < 0 || end < start {
			t.Fatalf("no preview on the page:\n%s", excerpt(body))
		}
		preview := body[start:end]
		for _, bad := range []string{"<script", "onerror", "onclick", "<img", "<div onclick", "javascript:"} {
			if strings.Contains(preview, bad) {
				t.Errorf("the preview lets %q through:\n%s", bad, preview)
			}
		}
		if !strings.Contains(preview, `<a href="https://example.com">ok</a>`) {
			t.Errorf("the preview lacks the good link:\n%s", preview)
		}
		// The textarea keeps what was typed, escaped.
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("the form does not keep the typed Markdown escaped")
		}
	})
}

// TestBlogAdmin_Bounds: every rule of the post form just inside is stored
// and just outside is a 400 page with the problem next to its field and
// nothing stored.
func TestBlogAdmin_Bounds(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := blogEnv(t, engine)
		ops := as("ops")
		faqs := func(n int, q, a string) []string {
			var kv []string
			for i := 0; i < n; i++ {
				kv = append(kv, fmt.Sprintf("%s %d", q, i), a)
			}
			return kv
		}
		withFAQs := func(v url.Values, pairs []string) url.Values {
			v.Del("faq_question")
			v.Del("faq_answer")
			for i := 0; i+1 < len(pairs); i += 2 {
				v.Add("faq_question", pairs[i])
				v.Add("faq_answer", pairs[i+1])
			}
			return v
		}
		tags := func(n, size int) string {
			var out []string
			for i := 0; i < n; i++ {
				s := fmt.Sprintf("t%d", i)
				out = append(out, s+strings.Repeat("x", size-len(s)))
			}
			return strings.Join(out, ", ")
		}
		n := 0
		slug := func() string { n++; return fmt.Sprintf("post-%d", n) }
		for _, c := range []struct {
			name    string
			form    url.Values
			problem string // "" inside; else the id of the problem next to the field
			message string
		}{
			{"title 200", postValues("slug", slug(), "title", strings.Repeat("é", 200)), "", ""},
			{"title 201", postValues("slug", slug(), "title", strings.Repeat("t", 201)), "post-title-problem", "at most 200 characters"},
			{"title empty", postValues("slug", slug(), "title", "  "), "post-title-problem", "The title is required"},
			{"slug 220", postValues("slug", strings.Repeat("s", 220)), "", ""},
			{"slug 221", postValues("slug", strings.Repeat("s", 221)), "post-slug-problem", "at most 220"},
			{"slug pattern", postValues("slug", "Not-A-Slug"), "post-slug-problem", "lowercase letters"},
			{"slug leading hyphen", postValues("slug", "-a"), "post-slug-problem", "lowercase letters"},
			{"slug taken", postValues("slug", "post-1"), "post-slug-problem", `Another post has the slug "post-1"`},
			{"excerpt 500", postValues("slug", slug(), "excerpt", strings.Repeat("e", 500)), "", ""},
			{"excerpt 501", postValues("slug", slug(), "excerpt", strings.Repeat("e", 501)), "post-excerpt-problem", "at most 500"},
			{"markdown 20000", postValues("slug", slug(), "markdown", strings.Repeat("m", 20000)), "", ""},
			{"markdown 20001", postValues("slug", slug(), "markdown", strings.Repeat("m", 20001)), "post-markdown-problem", "at most 20000"},
			{"markdown empty", postValues("slug", slug(), "markdown", "\n \n"), "post-markdown-problem", "The text is required"},
			{"author 120", postValues("slug", slug(), "author", strings.Repeat("a", 120)), "", ""},
			{"author 121", postValues("slug", slug(), "author", strings.Repeat("a", 121)), "post-author-problem", "at most 120"},
			{"author empty", postValues("slug", slug(), "author", ""), "post-author-problem", "The author is required"},
			{"10 tags of 40", postValues("slug", slug(), "tags", tags(10, 40)), "", ""},
			{"11 tags", postValues("slug", slug(), "tags", tags(11, 5)), "post-tags-problem", "at most 10 tags"},
			{"a tag of 41", postValues("slug", slug(), "tags", tags(1, 41)), "post-tags-problem", "at most 40 characters"},
			{"10 FAQs", withFAQs(postValues("slug", slug()), faqs(10, strings.Repeat("q", 290), strings.Repeat("a", 1500))), "", ""},
			{"11 FAQs", withFAQs(postValues("slug", slug()), faqs(11, "q", "a")), "post-faqs-problem", "at most 10 questions"},
			{"question 300", withFAQs(postValues("slug", slug()), []string{strings.Repeat("q", 300), "a"}), "", ""},
			{"question 301", withFAQs(postValues("slug", slug()), []string{strings.Repeat("q", 301), "a"}), "faq-q-1-problem", "at most 300"},
			{"answer 1501", withFAQs(postValues("slug", slug()), []string{"", "", "q", strings.Repeat("a", 1501)}), "faq-a-1-problem", "answer 1 has 1501"},
			{"answer missing", withFAQs(postValues("slug", slug()), []string{"q?", ""}), "faq-a-1-problem", "Question 1 has no answer"},
			{"second kept pair", withFAQs(postValues("slug", slug()), []string{"q1?", "a1.", "", "", "q2?", ""}), "faq-a-2-problem", "Question 2 has no answer"},
			{"question missing", withFAQs(postValues("slug", slug()), []string{"", "a."}), "faq-q-1-problem", "no question"},
		} {
			before := len(posts(t, e))
			res := e.post(t, "/admin/blog/new", c.form, ops...)
			if c.problem == "" {
				if res.status != http.StatusSeeOther {
					t.Errorf("%s: %d, want 303: %s", c.name, res.status, excerpt(res.body))
				}
				if got := len(posts(t, e)); got != before+1 {
					t.Errorf("%s: %d posts, want %d", c.name, got, before+1)
				}
				continue
			}
			want(t, c.name, res, 400, `id="`+c.problem+`"`, c.message, "Nothing was saved")
			if got := len(posts(t, e)); got != before {
				t.Errorf("%s refused but stored: %d posts, want %d", c.name, got, before)
			}
		}
		// An edit is held to the same rules and changes nothing when refused.
		ps := posts(t, e)
		id := ps[0].ID // the newest
		path := fmt.Sprintf("/admin/blog/%d", id)
		want(t, "refused edit", e.post(t, path, postValues("slug", ps[0].Slug, "title", strings.Repeat("t", 201)), ops...), 400,
			`id="post-title-problem"`, `value="`+strings.Repeat("t", 201)+`"`)
		want(t, "edit to a taken slug", e.post(t, path, postValues("slug", "post-1"), ops...), 400, `id="post-slug-problem"`, `value="post-1"`)
		if got, _ := e.console.AdminBlogPost(context.Background(), id); got.Title != ps[0].Title || got.Slug != ps[0].Slug {
			t.Errorf("a refused edit stored: %+v", got)
		}
		if es := auditOf(t, e, "blog.edit"); len(es) != 0 {
			t.Errorf("a refused edit wrote blog.edit: %+v", es)
		}
	})
}

// TestInterviewAdmin: add, edit, move and remove questions, each audited
// with before and after; the bounds just inside and outside; a refused
// form changes nothing; removing a question removes its answers.
func TestInterviewAdmin(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := blogEnv(t, engine)
		ops := as("ops")
		ctx := context.Background()
		list := func() []console.AdminInterviewQuestion {
			t.Helper()
			qs, err := e.console.AdminInterviewQuestions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return qs
		}
		wantRedirect(t, "add 300", e.post(t, "/admin/interview", url.Values{"question": {strings.Repeat("q", 300)}, "topic": {strings.Repeat("t", 60)}}, ops...), "/admin/interview?done=add")
		wantRedirect(t, "add", e.post(t, "/admin/interview", url.Values{"question": {"What problem do you solve?"}, "topic": {"problem"}}, ops...), "/admin/interview?done=add")
		for _, c := range []struct{ name, q, topic, problem, message string }{
			{"question 301", strings.Repeat("q", 301), "", "new-question-problem", "at most 300"},
			{"question empty", " ", "", "new-question-problem", "The question is required"},
			{"topic 61", "Why?", strings.Repeat("t", 61), "new-topic-problem", "at most 60"},
		} {
			want(t, c.name, e.post(t, "/admin/interview", url.Values{"question": {c.q}, "topic": {c.topic}}, ops...), 400, `id="`+c.problem+`"`, c.message)
		}
		qs := list()
		if len(qs) != 2 || qs[1].Question != "What problem do you solve?" || qs[1].Position != 2 {
			t.Fatalf("questions: %+v", qs)
		}
		if es := auditOf(t, e, "interview.add"); len(es) != 2 || es[0].Target != fmt.Sprintf("interview_question:%d", qs[1].ID) ||
			!strings.Contains(string(es[0].After), `"position":2`) {
			t.Errorf("interview.add entries: %+v", es)
		}
		first, second := qs[0].ID, qs[1].ID

		// Edit: a refused edit keeps what was typed next to the field.
		res := e.post(t, fmt.Sprintf("/admin/interview/%d", second), url.Values{"question": {strings.Repeat("x", 301)}, "topic": {"t"}}, ops...)
		want(t, "refused edit", res, 400, fmt.Sprintf(`id="q-%d-problem"`, second), "at most 300", strings.Repeat("x", 301))
		wantRedirect(t, "edit", e.post(t, fmt.Sprintf("/admin/interview/%d", second), url.Values{"question": {"What problem do you solve, and for whom?"}, "topic": {"problem"}}, ops...), "/admin/interview?done=edit")
		if es := auditOf(t, e, "interview.edit"); len(es) != 1 || !strings.Contains(string(es[0].Before), "What problem do you solve?") ||
			!strings.Contains(string(es[0].After), "and for whom?") {
			t.Errorf("interview.edit entries: %+v", es)
		}

		// Move: the second up; the first up again is a conflict.
		wantRedirect(t, "move up", e.post(t, fmt.Sprintf("/admin/interview/%d/move", second), url.Values{"direction": {"up"}}, ops...), "/admin/interview?done=move")
		if qs := list(); qs[0].ID != second || qs[1].ID != first || qs[0].Position != 1 {
			t.Errorf("after the move: %+v", qs)
		}
		want(t, "move the first up", e.post(t, fmt.Sprintf("/admin/interview/%d/move", second), url.Values{"direction": {"up"}}, ops...), 409, "the first already")
		want(t, "move sideways", e.post(t, fmt.Sprintf("/admin/interview/%d/move", second), url.Values{"direction": {"left"}}, ops...), 400, "up or down")
		if es := auditOf(t, e, "interview.move"); len(es) != 1 || string(es[0].Before) != `{"position":2}` || string(es[0].After) != `{"position":1}` {
			t.Errorf("interview.move entries: %+v", es)
		}
		out, err := e.svc.ListInterviewQuestions(ctx, domain.Empty{})
		if err != nil || len(out.Items) != 2 || out.Items[0].ID != second {
			t.Errorf("list_interview_questions after the move: %+v %v", out, err)
		}

		// Remove: the question and its answers go; the entry says how many.
		if _, err := e.svc.AnswerInterview(e.caller, domain.AnswerInterviewInput{Answers: []domain.InterviewAnswerInput{{QuestionID: second, Answer: "Notes."}}}); err != nil {
			t.Fatal(err)
		}
		want(t, "the page", e.get2(t, "/admin/interview", ops), 200, "Remove (and its 1 answer)")
		wantRedirect(t, "remove", e.post(t, fmt.Sprintf("/admin/interview/%d/remove", second), url.Values{}, ops...), "/admin/interview?done=remove")
		if qs := list(); len(qs) != 1 || qs[0].ID != first {
			t.Errorf("after the removal: %+v", qs)
		}
		if es := auditOf(t, e, "interview.remove"); len(es) != 1 || !strings.Contains(string(es[0].Before), `"answers":1`) || es[0].After != nil {
			t.Errorf("interview.remove entries: %+v", es)
		}
		want(t, "remove again", e.post(t, fmt.Sprintf("/admin/interview/%d/remove", second), url.Values{}, ops...), 404)

		// At most 30 questions: the 30th is taken, the 31st refused.
		for i := len(list()); i < console.InterviewQuestionsMax; i++ {
			if _, err := e.console.AddInterviewQuestion(ctx, "ops@launchdir.test", fmt.Sprintf("Question %d?", i), ""); err != nil {
				t.Fatal(err)
			}
		}
		want(t, "the 31st", e.post(t, "/admin/interview", url.Values{"question": {"One more?"}}, ops...), 400, "There are 30 questions already")
		if n := len(list()); n != console.InterviewQuestionsMax {
			t.Errorf("%d questions, want %d", n, console.InterviewQuestionsMax)
		}
	})
}
