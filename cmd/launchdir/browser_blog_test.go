//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_BlogPost: an admin opens the blog from /admin, writes a post
// with a FAQ, is refused a slug that is no slug (the problem next to the
// field), previews the post (the blog's rendering above the form, nothing
// saved), saves it as a draft, schedules it a day ahead (it is not on the
// blog), publishes it now and reads it on the public blog page with its
// FAQ; then adds an interview question and moves it up.
func TestBrowser_BlogPost(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/blog']")
			p.Shot("posts")
			p.CheckClean("posts")
			p.Click("a[href='/admin/blog/new']")
			slug := "launch-notes-" + strings.ToLower(vp.Name)
			title := "Launch notes for " + vp.Name
			p.Fill("#post-title", title)
			p.Fill("#post-slug", "Launch Notes!")
			p.Fill("#post-author", "The site team")
			p.Fill("#post-tags", "launch, notes")
			p.Fill("#post-excerpt", "What we learned in launch week.")
			p.Fill("#post-markdown", "## What worked\n\nA **short** list:\n\n- a clear tagline\n- a [launch guide](/blog)\n\n| Day | Votes |\n|---|---|\n| Mon | 12 |\n| Tue | 30 |\n")
			p.Fill("#faq-q-1", "Who wrote this?")
			p.Fill("#faq-a-1", "The site team, after the week closed.")
			p.Click("button[value=save]")
			if got := p.Text("#post-slug-problem"); !strings.Contains(got, "lowercase letters") {
				t.Errorf("no problem next to the refused slug: %q", got)
			}
			p.Shot("refused-slug")
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			p.Fill("#post-slug", slug)
			p.Click("button[value=preview]")
			if got := p.Text(".preview"); !strings.Contains(got, "What worked") || !strings.Contains(got, "Who wrote this?") {
				t.Errorf("the preview reads:\n%s", got)
			}
			if n := p.Count(".preview table"); n != 1 {
				t.Errorf("the preview has %d tables, want 1", n)
			}
			p.Shot("preview")
			p.CheckClean("preview")
			p.Click("button[value=save]")
			if got := p.Text(".notice"); !strings.Contains(got, "Saved as a draft") {
				t.Fatalf("after saving: %q\n%s", got, p.Text("main"))
			}
			p.Click("form[action$='/schedule'] button")
			if got := p.Text(".publication"); !strings.Contains(got, "scheduled") {
				t.Errorf("after scheduling, the publication reads:\n%s", got)
			}
			p.Shot("scheduled")
			p.CheckClean("scheduled")
			p.Go(origin + "/blog")
			if got := p.Text("main"); strings.Contains(got, title) {
				t.Errorf("the scheduled post is on the blog already")
			}
			p.Go(origin + "/admin/blog")
			p.Click("a[href^='/admin/blog/']:not([href$='new'])")
			p.Click("form[action$='/publish'] button")
			if got := p.Text(".notice"); !strings.Contains(got, "Published") {
				t.Errorf("after publishing: %q", got)
			}
			p.Click(".publication a[href='/blog/" + slug + "']")
			if got := p.Text("main"); !strings.Contains(got, title) || !strings.Contains(got, "The site team, after the week closed.") {
				t.Errorf("the public post reads:\n%s", got)
			}
			p.Shot("published")
			p.CheckClean("published")
			p.Go(origin + "/blog")
			if got := p.Text("main"); !strings.Contains(got, title) {
				t.Errorf("the blog does not list the post:\n%s", got)
			}

			// The interview questions: add one, move it up, see the order.
			p.Go(origin + "/admin")
			p.Click("a[href='/admin/interview']")
			question := "What did launch week teach you (" + vp.Name + ")?"
			p.Fill("#new-question", question)
			p.Fill("#new-topic", "lessons")
			p.Click("form[action='/admin/interview'] button[type=submit]")
			if got := p.Text(".notice"); !strings.Contains(got, "Question added") {
				t.Errorf("after adding a question: %q", got)
			}
			p.Click(".interview-questions li:last-child form[action$='/move'] button")
			if got := p.Text(".interview-questions li:last-child"); strings.Contains(got, question) {
				t.Errorf("the new question is last after moving it up:\n%s", got)
			}
			p.Shot("interview")
			p.CheckClean("interview")
		})
	}
}
