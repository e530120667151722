package tools

import (
	"html"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web"
)

// TestPages_ValidateAsTheAPI: a page request with a value out of the
// operation's schema (a sort, a status, a q too long, a slug, ...) is the
// API's 400 shown as a page: the same fields, rules and messages as the REST
// call of the same operation, because pages call the same validator
// (domain/validate) over the same input struct. Before, pages re-checked
// some bounds by hand with messages of their own, and a bad slug was a 404.
func TestPages_ValidateAsTheAPI(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	pages := web.New(env.svc)
	env.pages.Store(&pages)
	long := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct{ page, rest string }{
		{"/search?sort=bogus", "/v1/listings?sort=bogus"},
		{"/search?q=" + long(201), "/v1/listings?q=" + long(201)},
		{"/search?status=gone", "/v1/listings?status=gone"},
		{"/search?category=Bad_Slug", "/v1/listings?category=Bad_Slug"},
		{"/search?sort=bogus&status=gone", "/v1/listings?sort=bogus&status=gone"},
		{"/listings/Not_A_Slug", "/v1/listings/Not_A_Slug"},
		{"/categories/Not_A_Slug", "/v1/categories/Not_A_Slug"},
		{"/founders/Not_A_Slug", "/v1/founders/Not_A_Slug"},
		{"/blog/Not_A_Slug", "/v1/blog/Not_A_Slug"},
		{"/founders?country=USA", "/v1/founders?country=USA"},
		{"/founders?q=" + long(121), "/v1/founders?q=" + long(121)},
		{"/blog?q=" + long(201), "/v1/blog?q=" + long(201)},
		{"/launches?section=bogus", "/v1/launches?section=bogus"},
		{"/launches/weeks/someday", "/v1/launches/weeks/someday"},
		{"/leaderboards/community-weekly?week=someday", "/v1/leaderboards/community-weekly?week=someday"},
		{"/awards?listing=Bad_Slug", "/v1/awards?listing=Bad_Slug"},
	} {
		t.Run(c.page[:min(len(c.page), 40)], func(t *testing.T) {
			r := catDo(t, env, "GET", c.rest, nil, nil)
			if r.status != 400 {
				t.Fatalf("REST %s: %d, want 400", c.rest, r.status)
			}
			want := catProblem(t, r).Errors
			if len(want) == 0 {
				t.Fatalf("REST %s names no field", c.rest)
			}
			p := catDo(t, env, "GET", c.page, nil, nil)
			if p.status != 400 || !strings.HasPrefix(p.header.Get("Content-Type"), "text/html") {
				t.Fatalf("page %s: %d %s, want a 400 page", c.page, p.status, p.header.Get("Content-Type"))
			}
			body := string(p.body)
			for _, f := range want {
				line := "<code>" + html.EscapeString(f.Field) + "</code> (" + f.Rule + "): " + html.EscapeString(f.Message)
				if !strings.Contains(body, line) {
					t.Errorf("page %s lacks the API's %s", c.page, line)
				}
			}
			if n := strings.Count(body, "<li><code>"); n != len(want) {
				t.Errorf("page %s names %d fields, the API %d", c.page, n, len(want))
			}
		})
	}
}
