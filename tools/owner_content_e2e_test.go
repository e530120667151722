package tools

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// contentTransports are the two ways the tests call the operations.
func contentTransports(env *catEnv, key string) []struct {
	name string
	call func(t *testing.T) draftCaller
} {
	return []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	}
}

// slugOf is the slug of listing id.
func slugOf(t *testing.T, env *catEnv, id int64) string {
	t.Helper()
	return fixtures.Column(t, env.db, "listings", id, "slug")
}

// userFollows counts the follows of signed-in people (follower key user:...).
func userFollows(t *testing.T, env *catEnv) int {
	t.Helper()
	demoPeople := map[string]bool{} // the demo data's people follow listings too
	for _, u := range fixtures.Rows(t, env.db, "users", nil) {
		if strings.HasSuffix(u["email"], "@"+demo.PeopleEmailDomain) {
			demoPeople["user:"+u["id"]] = true
		}
	}
	n := 0
	for _, r := range fixtures.Rows(t, env.db, "follows", nil) {
		if strings.HasPrefix(r["follower_key"], "user:") && !demoPeople[r["follower_key"]] {
			n++
		}
	}
	return n
}

// answersText is every stored interview answer, in row order.
func answersText(t *testing.T, env *catEnv) string {
	t.Helper()
	var out []string
	for _, r := range fixtures.Rows(t, env.db, "interview_answers", nil) {
		out = append(out, r["answer"])
	}
	return strings.Join(out, ",")
}

// withFanOut wires the owner's content jobs on env's database and clock:
// the update fan-out runs when the test calls env.runJobs.
func withFanOut(t *testing.T, env *catEnv) *recordingMailer {
	t.Helper()
	mailer := withOwning(t, env, nil)
	runner := env.quietRunner()
	env.svc.Owner.EnqueueAt = runner.EnqueueAt
	env.svc.RegisterOwnerContentJobs(runner)
	return mailer
}

// signInMail records the sign-in links auth sends.
type signInMail struct {
	mu   sync.Mutex
	sent []string
}

func (m *signInMail) Send(_ context.Context, to, _, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+"|"+body)
	return nil
}

// withPages serves the site's pages and sign-in next to the API, as serve
// does (web.WithAccount from auth's session), and returns a function that
// signs a person in with an emailed link and returns their browser. opts are
// added to the pages' options.
func withPages(t *testing.T, env *catEnv, opts ...web.Option) func(email string) *http.Client {
	t.Helper()
	mail := &signInMail{}
	a, err := auth.New(auth.Config{Origin: env.URL, SiteName: "Launchdir", Store: env.store, Mailer: mail,
		Now: func() time.Time { return catNow }})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("/", web.New(env.svc, append([]web.Option{web.WithAccount(a.SignedInUser)}, opts...)...))
	var h http.Handler = mux
	env.pages.Store(&h)
	linkRE := regexp.MustCompile(`/signin/email\?token=[A-Za-z0-9_-]+`)
	return func(email string) *http.Client {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(env.URL+"/signin", url.Values{"email": {email}, "next": {"/notifications"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		mail.mu.Lock()
		last := mail.sent[len(mail.sent)-1]
		mail.mu.Unlock()
		link := linkRE.FindString(last)
		if !strings.HasPrefix(last, email+"|") || link == "" {
			t.Fatalf("no sign-in link mailed to %s: %q", email, last)
		}
		res, err = c.Get(env.URL + link)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in link: %d", res.StatusCode)
		}
		return c
	}
}

// page requests a page with the person's browser; form posts come from the
// page's own origin unless hdr says otherwise.
// It returns the status, the body and the Location of a redirect.
func page(t *testing.T, c *http.Client, method, u string, form url.Values, hdr ...string) (int, string, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header.Get("Location")
}

// mailsAfterJobs runs the due jobs and returns the mails whose text contains
// s, which must then be n.
func mailsAfterJobs(t *testing.T, env *catEnv, m *recordingMailer, s string, n int) []string {
	t.Helper()
	env.runJobs(t)
	var got []string
	m.mu.Lock()
	for _, x := range m.sent {
		if strings.Contains(x, s) {
			got = append(got, x)
		}
	}
	m.mu.Unlock()
	if len(got) != n {
		t.Fatalf("mails about %q: %d, want %d: %v", s, len(got), n, got)
	}
	return got
}

// TestOwnerContent_Updates posts updates over REST and MCP: the bounds, 404
// and 401, the public pages, and followers told once each.
func TestOwnerContent_Updates(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	mailer := withFanOut(t, env)
	signIn := withPages(t, env)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16"})
	hidden := env.ownedListing(t, "owner@example.com")
	theirs := env.ownedListing(t, "someone@example.com", fixtures.Cols{"status": "live"})
	slug := slugOf(t, env, live)
	hiddenSlug := slugOf(t, env, hidden)
	listingPage := env.URL + "/listings/" + slug

	// Two signed-in followers (Follow button) and one anonymous follow row.
	ann, bob := signIn("ann@example.com"), signIn("bob@example.com")
	for _, c := range []*http.Client{ann, bob} {
		st, body, _ := page(t, c, "GET", listingPage, nil)
		if st != 200 || !strings.Contains(body, `action="/listings/`+slug+`/follow"`) {
			t.Fatalf("listing page for a signed-in person: %d, no Follow form: %s", st, body)
		}
		if st, _, loc := page(t, c, "POST", listingPage+"/follow", url.Values{}); st != http.StatusSeeOther || loc != "/listings/"+slug {
			t.Fatalf("follow: %d %s", st, loc)
		}
		if _, body, _ = page(t, c, "GET", listingPage, nil); !strings.Contains(body, ">Unfollow</button>") {
			t.Fatalf("after following the page offers no Unfollow")
		}
	}
	fixtures.Insert(t, env.db, "follows", fixtures.Cols{"listing_id": live, "follower_key": "anon-visitor-1", "created_at": 0})
	if got := listingColumn(t, env, live, "follows_count"); got != "3" {
		t.Fatalf("follows_count = %s, want 3", got)
	}

	for _, tr := range contentTransports(env, key) {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			title := "Dark mode <b>ships</b> via " + tr.name
			st, u := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": "  " + title + " ",
				"body": "Line one\r\nLine two & <script>alert(1)</script>\tend"})
			if st != 201 || u["title"] != title || u["body"] != "Line one\nLine two & <script>alert(1)</script>\tend" ||
				u["public"] != true || u["followers_told"] != float64(2) || u["page_url"] != listingPage || u["id"] == nil {
				t.Fatalf("post_listing_update: %d %v", st, u)
			}
			id := int64(u["id"].(float64))
			mails := mailsAfterJobs(t, env, mailer, title, 2)
			to := []string{strings.Split(mails[0], "|")[0], strings.Split(mails[1], "|")[0]}
			if !(to[0] == "ann@example.com" && to[1] == "bob@example.com" || to[1] == "ann@example.com" && to[0] == "bob@example.com") {
				t.Fatalf("mailed %v, want ann and bob", to)
			}
			if n := fixtures.Count(t, env.db, "notifications", fixtures.Cols{"update_id": id}); n != 2 {
				t.Fatalf("notifications of the update: %d, want 2", n)
			}
			// The job again (a retry, a restart): nobody is told twice.
			if err := env.svc.TellFollowers(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			mailsAfterJobs(t, env, mailer, title, 2)
			if n := fixtures.Count(t, env.db, "notifications", fixtures.Cols{"update_id": id}); n != 2 {
				t.Fatalf("notifications after a second run: %d, want 2", n)
			}
			escaped := "Dark mode &lt;b&gt;ships&lt;/b&gt; via " + tr.name
			for _, p := range []string{env.URL + "/updates", listingPage} {
				st, body, _ := page(t, ann, "GET", p, nil)
				if st != 200 || !strings.Contains(body, escaped) || strings.Contains(body, "<script>alert") {
					t.Fatalf("%s: %d; the update is missing or not escaped", p, st)
				}
			}
			_, body, _ := page(t, bob, "GET", env.URL+"/notifications", nil)
			if !strings.Contains(body, escaped) || !strings.Contains(body, "Mark all read") {
				t.Fatalf("bob's notifications do not show the update unread")
			}

			// Bounds: each just inside is above; just outside stores nothing.
			before := countRows(t, env, "listing_updates", nil)
			for _, c := range []struct {
				name        string
				title, body string
				field, rule string
			}{
				{"Title201", strings.Repeat("t", 201), "b", "title", "maxLength"},
				{"Body5001", "t", strings.Repeat("b", 5001), "body", "maxLength"},
				{"TitleBlank", " \t ", "b", "title", "required"},
				{"BodyBlank", "t", "\n\n  ", "body", "required"},
				{"TitleNewline", "two\nlines", "b", "title", "plain_text"},
				{"BodyControl", "t", "bell \x07", "body", "plain_text"},
			} {
				st, p := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": c.title, "body": c.body})
				wantInvalid(t, c.name, st, p, c.field, c.rule)
			}
			if st, p := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": "t"}); st != 400 {
				t.Fatalf("no body: %d %v", st, p)
			}
			if n := countRows(t, env, "listing_updates", nil); n != before {
				t.Fatalf("refused updates stored rows: %d -> %d", before, n)
			}
			st, u = call(t, "post_listing_update", map[string]any{"listing_id": live, "title": strings.Repeat("t", 200),
				"body": strings.Repeat("b", 5000)})
			if st != 201 || len(u["title"].(string)) != 200 || len(u["body"].(string)) != 5000 {
				t.Fatalf("title 200 and body 5000: %d", st)
			}

			for _, id := range []int64{theirs, 999999} {
				st, p := call(t, "post_listing_update", map[string]any{"listing_id": id, "title": "t", "body": "b"})
				if st != 404 || p["code"] != "not_found" || !strings.Contains(p["detail"].(string), "You have no listing") {
					t.Fatalf("listing %d: %d %v", id, st, p)
				}
			}

			// A listing that is not public keeps the update and tells nobody.
			hTitle := "Hidden news via " + tr.name
			st, u = call(t, "post_listing_update", map[string]any{"listing_id": hidden, "title": hTitle, "body": "b"})
			if st != 201 || u["public"] != false || u["followers_told"] != float64(0) || u["page_url"] != nil {
				t.Fatalf("update of a draft listing: %d %v", st, u)
			}
			if _, body, _ := page(t, ann, "GET", env.URL+"/updates", nil); strings.Contains(body, hTitle) {
				t.Fatalf("an update of a draft listing is on /updates")
			}
		})
	}

	// Once the listing is public its kept updates appear.
	fixtures.Update(t, env.db, "listings", fixtures.Cols{"status": "live"}, fixtures.Cols{"id": hidden})
	if _, body, _ := page(t, ann, "GET", env.URL+"/updates", nil); !strings.Contains(body, "Hidden news via rest") {
		t.Fatalf("the kept update is not on /updates once the listing is live")
	}
	if _, body, _ := page(t, ann, "GET", env.URL+"/listings/"+hiddenSlug, nil); !strings.Contains(body, "Hidden news via mcp") {
		t.Fatalf("the kept update is not on the listing page once it is live")
	}

	// Without a token: 401.
	r := catDo(t, env, "POST", "/v1/me/listings/"+strconv.FormatInt(live, 10)+"/updates", []byte(`{"title":"t","body":"b"}`),
		map[string]string{"Content-Type": "application/json"})
	if r.status != 401 {
		t.Fatalf("no token: %d %s", r.status, r.body)
	}
}

// TestOwnerContent_FollowAndNotifications uses the pages with real signed-in
// sessions: unfollow stops the news, notifications are marked read, forms
// from other sites and visitors change nothing.
func TestOwnerContent_FollowAndNotifications(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	mailer := withFanOut(t, env)
	signIn := withPages(t, env)
	key := env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live"})
	slug := slugOf(t, env, live)
	listingPage := env.URL + "/listings/" + slug
	call := restCaller(env, key)
	ann := signIn("ann@example.com")
	visitor := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	if _, body, _ := page(t, visitor, "GET", listingPage, nil); !strings.Contains(body, "Sign in to follow") || strings.Contains(body, "/follow\"") {
		t.Fatalf("a visitor is offered a Follow form")
	}
	if st, _, loc := page(t, visitor, "POST", listingPage+"/follow", url.Values{}); st != http.StatusSeeOther || !strings.HasPrefix(loc, "/signin?next=") {
		t.Fatalf("a visitor's follow: %d %s", st, loc)
	}
	if st, _, loc := page(t, visitor, "GET", env.URL+"/notifications", nil); st != http.StatusSeeOther || !strings.HasPrefix(loc, "/signin?next=") {
		t.Fatalf("a visitor's notifications: %d %s", st, loc)
	}
	if st, _, _ := page(t, ann, "POST", listingPage+"/follow", url.Values{}, "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden {
		t.Fatalf("a cross-site follow form: %d", st)
	}
	if n := userFollows(t, env); n != 0 {
		t.Fatalf("refused follows stored %d rows", n)
	}
	if st, _, _ := page(t, ann, "POST", env.URL+"/listings/no-such-listing/follow", url.Values{}); st != 404 {
		t.Fatalf("follow an unknown listing: %d", st)
	}
	page(t, ann, "POST", listingPage+"/follow", url.Values{})
	page(t, ann, "POST", listingPage+"/follow", url.Values{}) // twice: one row
	if n := userFollows(t, env); n != 1 {
		t.Fatalf("follow rows after following twice: %d", n)
	}

	_, body, _ := page(t, ann, "GET", env.URL+"/notifications", nil)
	if !strings.Contains(body, "No notifications yet") {
		t.Fatalf("empty notifications page: %s", body)
	}
	for _, title := range []string{"First news", "Second news"} {
		if st, u := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": title, "body": "b"}); st != 201 || u["followers_told"] != float64(1) {
			t.Fatalf("post: %d %v", st, u)
		}
		mailsAfterJobs(t, env, mailer, title, 1)
	}
	_, body, _ = page(t, ann, "GET", env.URL+"/notifications", nil)
	if !strings.Contains(body, "2 unread") || strings.Count(body, `<span class="tag">New</span>`) != 2 {
		t.Fatalf("notifications: two unread expected: %s", body)
	}
	if strings.Index(body, "Second news") > strings.Index(body, "First news") {
		t.Fatalf("notifications are not newest first")
	}
	if st, _, _ := page(t, ann, "POST", env.URL+"/notifications/read", url.Values{}, "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden {
		t.Fatalf("cross-site mark read: %d", st)
	}
	if st, _, loc := page(t, ann, "POST", env.URL+"/notifications/read", url.Values{}); st != http.StatusSeeOther || loc != "/notifications" {
		t.Fatalf("mark all read: %d %s", st, loc)
	}
	_, body, _ = page(t, ann, "GET", env.URL+"/notifications", nil)
	if !strings.Contains(body, "nothing unread") || strings.Contains(body, `<span class="tag">New</span>`) || !strings.Contains(body, "Second news") {
		t.Fatalf("after mark all read: %s", body)
	}

	page(t, ann, "POST", listingPage+"/unfollow", url.Values{})
	if st, u := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": "Third news", "body": "b"}); st != 201 || u["followers_told"] != float64(0) {
		t.Fatalf("post after unfollowing: %d %v", st, u)
	}
	if n := fixtures.Count(t, env.db, "notifications", fixtures.Cols{"user_id": fixtures.ID(t, env.db, "users", fixtures.Cols{"email": "ann@example.com"})}); n != 2 {
		t.Fatalf("ann has %d notifications after unfollowing, want 2", n)
	}
}

// TestOwnerContent_Milestones adds and deletes milestones over REST and MCP.
func TestOwnerContent_Milestones(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOwning(t, env, nil)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	theirs := env.ownedListing(t, "someone@example.com", fixtures.Cols{"status": "live", "plan": "paid"})
	for _, tr := range contentTransports(env, key) {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			free := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live"})
			unlocked := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "unlocked_sections": `["milestones"]`})
			paid := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "plan": "paid"})
			url500 := "https://example.com/" + strings.Repeat("a", 500-len("https://example.com/"))
			ok := map[string]any{"listing_id": paid, "date": "2028-02-29", "title": strings.Repeat("t", 200),
				"description": strings.Repeat("d", 2000), "url": url500}
			st, m := call(t, "add_milestone", ok)
			ms, _ := m["milestone"].(map[string]any)
			if st != 201 || ms == nil || ms["id"] == nil || ms["date"] != "2028-02-29" || m["public"] != true || m["section_unlocked"] != true {
				t.Fatalf("add_milestone on a paid listing: %d %v", st, m)
			}
			paidMilestone := int64(ms["id"].(float64))
			before := countRows(t, env, "milestones", nil)
			for _, c := range []struct {
				name, key string
				value     any
				rule      string
			}{
				{"Title201", "title", strings.Repeat("t", 201), "maxLength"},
				{"TitleBlank", "title", "   ", "required"},
				{"Description2001", "description", strings.Repeat("d", 2001), "maxLength"},
				{"URL501", "url", url500 + "a", "maxLength"},
				{"URLHTTP", "url", "http://example.com/news", "https"},
				{"URLRelative", "url", "/news", "https"},
				{"DateFeb29", "date", "2026-02-29", ""},
				{"DateMonth13", "date", "2026-13-01", ""},
				{"DateShape", "date", "2026-1-5", ""},
			} {
				args := map[string]any{}
				for k, v := range ok {
					args[k] = v
				}
				args[c.key] = c.value
				st, p := call(t, "add_milestone", args)
				wantInvalid(t, c.name, st, p, c.key, c.rule)
			}
			if n := countRows(t, env, "milestones", nil); n != before {
				t.Fatalf("refused milestones stored rows: %d -> %d", before, n)
			}

			st, m = call(t, "add_milestone", map[string]any{"listing_id": free, "date": "2026-01-31", "title": "Free"})
			if st != 201 || m["public"] != false || m["section_unlocked"] != false {
				t.Fatalf("add_milestone on a free listing: %d %v", st, m)
			}
			st, m = call(t, "add_milestone", map[string]any{"listing_id": unlocked, "date": "2026-01-31", "title": "Unlocked"})
			if st != 201 || m["public"] != true {
				t.Fatalf("add_milestone with the section unlocked: %d %v", st, m)
			}
			for id, want := range map[int64]int{free: 0, unlocked: 1, paid: 1} {
				slug := slugOf(t, env, id)
				st, l := call(t, "get_listing", map[string]any{"slug": slug})
				got, _ := l["milestones"].([]any)
				if st != 200 || len(got) != want {
					t.Fatalf("get_listing of %d: %d milestones %v, want %d", id, st, l["milestones"], want)
				}
			}

			// At most 50: the 50th is added, the 51st is a 409.
			for i := 1; i <= 48; i++ {
				fixtures.Insert(t, env.db, "milestones", fixtures.Cols{"listing_id": free, "date": "2025-01-01", "title": fmt.Sprintf("filler %d", i)})
			}
			if st, p := call(t, "add_milestone", map[string]any{"listing_id": free, "date": "2026-02-01", "title": "50th"}); st != 201 {
				t.Fatalf("50th milestone: %d %v", st, p)
			}
			if st, p := call(t, "add_milestone", map[string]any{"listing_id": free, "date": "2026-02-02", "title": "51st"}); st != 409 || p["code"] != "conflict" {
				t.Fatalf("51st milestone: %d %v", st, p)
			}

			if st, p := call(t, "add_milestone", map[string]any{"listing_id": theirs, "date": "2026-01-31", "title": "x"}); st != 404 {
				t.Fatalf("someone else's listing: %d %v", st, p)
			}
			// delete: not on this listing, absent, someone else's: 404 worded the same.
			_, p1 := call(t, "delete_milestone", map[string]any{"listing_id": free, "milestone_id": paidMilestone})
			st, p2 := call(t, "delete_milestone", map[string]any{"listing_id": free, "milestone_id": 99999999})
			if st != 404 || p1["code"] != "not_found" || strings.ReplaceAll(p1["detail"].(string), strconv.FormatInt(paidMilestone, 10), "N") !=
				strings.ReplaceAll(p2["detail"].(string), "99999999", "N") {
				t.Fatalf("milestone of another listing vs none: %v / %v", p1, p2)
			}
			theirMilestone := fixtures.Insert(t, env.db, "milestones", fixtures.Cols{"listing_id": theirs, "date": "2026-01-01", "title": "theirs"})
			if st, p := call(t, "delete_milestone", map[string]any{"listing_id": theirs, "milestone_id": theirMilestone}); st != 404 ||
				!strings.Contains(p["detail"].(string), "You have no listing") {
				t.Fatalf("someone else's milestone: %d %v", st, p)
			}
			st, d := call(t, "delete_milestone", map[string]any{"listing_id": paid, "milestone_id": paidMilestone})
			dm, _ := d["milestone"].(map[string]any)
			if st != 200 || dm["id"] != float64(paidMilestone) || dm["title"] != strings.Repeat("t", 200) {
				t.Fatalf("delete_milestone: %d %v", st, d)
			}
			if st, _ := call(t, "delete_milestone", map[string]any{"listing_id": paid, "milestone_id": paidMilestone}); st != 404 {
				t.Fatalf("delete twice: %d", st)
			}
		})
	}
	r := catDo(t, env, "DELETE", "/v1/me/listings/1/milestones/1", nil, nil)
	if r.status != 401 {
		t.Fatalf("no token: %d", r.status)
	}
}

// TestOwnerContent_Story sets, publishes and clears the founder story.
func TestOwnerContent_Story(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOwning(t, env, nil)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	theirs := env.ownedListing(t, "someone@example.com", fixtures.Cols{"status": "live"})
	for _, tr := range contentTransports(env, key) {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			free := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live"})
			paid := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "plan": "paid"})
			full := map[string]any{"title": strings.Repeat("T", 200)}
			for _, s := range domain.StorySections[1:] {
				full[s] = strings.Repeat("s", 8000)
			}
			for id, public := range map[int64]bool{free: false, paid: true} {
				args := map[string]any{"listing_id": id}
				for k, v := range full {
					args[k] = v
				}
				st, out := call(t, "set_founder_story", args)
				story, _ := out["story"].(map[string]any)
				if st != 200 || out["public"] != public || story["whats_next"] != strings.Repeat("s", 8000) {
					t.Fatalf("set_founder_story on %d: %d public=%v", id, st, out["public"])
				}
				slug := slugOf(t, env, id)
				_, l := call(t, "get_listing", map[string]any{"slug": slug})
				if (l["story"] != nil) != public {
					t.Fatalf("get_listing of %d: story shown = %v, want %v", id, l["story"] != nil, public)
				}
			}
			saved := listingColumn(t, env, paid, "story")
			for _, c := range []struct{ name, key, value, rule string }{
				{"Title201", "title", strings.Repeat("T", 201), "maxLength"},
				{"TitleNewline", "title", "a\nb", "plain_text"},
				{"Story8001", "story", strings.Repeat("s", 8001), "maxLength"},
				{"Lessons8001", "lessons", strings.Repeat("s", 8001), "maxLength"},
				{"ProblemControl", "problem", "bell \x07 here", "plain_text"},
				// NUL is refused by the input reader before any rule of the field.
				{"ProblemNUL", "problem", "nul \x00 here", "format"},
			} {
				st, p := call(t, "set_founder_story", map[string]any{"listing_id": paid, c.key: c.value})
				wantInvalid(t, c.name, st, p, c.key, c.rule)
			}
			if got := listingColumn(t, env, paid, "story"); got != saved {
				t.Fatalf("a refused story changed the stored one")
			}
			if st, p := call(t, "set_founder_story", map[string]any{"listing_id": theirs, "title": "x"}); st != 404 || p["code"] != "not_found" {
				t.Fatalf("someone else's listing: %d %v", st, p)
			}
			// PUT replaces the whole story; all empty clears it.
			st, out := call(t, "set_founder_story", map[string]any{"listing_id": paid, "journey": "Only the journey."})
			if st != 200 || len(out["story"].(map[string]any)) != 1 {
				t.Fatalf("replace: %d %v", st, out)
			}
			st, out = call(t, "set_founder_story", map[string]any{"listing_id": paid, "title": "  ", "story": ""})
			if st != 200 || out["cleared"] != true || out["public"] != false || listingColumn(t, env, paid, "story") != "" {
				t.Fatalf("clear: %d %v", st, out)
			}
		})
	}
}

// TestOwnerContent_Interview answers the interview and finds the answers on
// the public page of the account's listing.
func TestOwnerContent_Interview(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOwning(t, env, nil)
	key := env.apiKey(t, "owner@example.com")
	// The demo has 14 questions; 31 distinct ids are needed for the bounds.
	site := fixtures.First(t, env.db, "sites")
	for i := 1; i <= 20; i++ {
		fixtures.Insert(t, env.db, "interview_questions", fixtures.Cols{"site_id": site, "question": fmt.Sprintf("Extra question %d", i), "topic": "extra", "position": 100 + i})
	}
	var ids []string
	for _, id := range fixtures.IDs(t, env.db, "interview_questions", nil, "position") {
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	if len(ids) < 31 {
		t.Fatalf("%d questions", len(ids))
	}
	answers := func(n int, text string) []any {
		out := []any{}
		for i := range n {
			id, _ := strconv.Atoi(ids[i])
			out = append(out, map[string]any{"question_id": id, "answer": text})
		}
		return out
	}
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live"})
	slug := slugOf(t, env, live)
	for _, tr := range contentTransports(env, key) {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			st, out := call(t, "answer_interview", map[string]any{"answers": answers(30, strings.Repeat("a", 4000))})
			items, _ := out["items"].([]any)
			pub, _ := out["published_on"].([]any)
			if st != 200 || len(items) != 30 || len(pub) != 1 || pub[0] != env.URL+"/listings/"+slug {
				t.Fatalf("30 answers: %d %d items, published_on %v", st, len(items), out["published_on"])
			}
			first := items[0].(map[string]any)
			if first["question"] != "What problem made you start this company?" {
				t.Fatalf("first answer's question: %v", first)
			}
			before := answersText(t, env)
			st, p := call(t, "answer_interview", map[string]any{"answers": answers(31, "x")})
			wantInvalid(t, "31 answers", st, p, "answers", "")
			st, p = call(t, "answer_interview", map[string]any{"answers": []any{}})
			wantInvalid(t, "no answers", st, p, "answers", "")
			st, p = call(t, "answer_interview", map[string]any{"answers": []any{map[string]any{"question_id": 1, "answer": strings.Repeat("a", 4001)}}})
			wantInvalid(t, "answer 4001", st, p, "answers[0].answer", "maxLength")
			first0, _ := strconv.Atoi(ids[0])
			st, p = call(t, "answer_interview", map[string]any{"answers": []any{
				map[string]any{"question_id": first0, "answer": "changed"}, map[string]any{"question_id": 99999, "answer": "x"}}})
			wantInvalid(t, "unknown question", st, p, "answers[1].question_id", "exists")
			st, p = call(t, "answer_interview", map[string]any{"answers": []any{
				map[string]any{"question_id": first0, "answer": "changed"}, map[string]any{"question_id": first0, "answer": "again"}}})
			wantInvalid(t, "a question twice", st, p, "answers[1].question_id", "uniqueItems")
			st, p = call(t, "answer_interview", map[string]any{"answers": []any{map[string]any{"question_id": 0, "answer": "x"}}})
			wantInvalid(t, "question_id 0", st, p, "answers[0].question_id", "minimum")
			if after := answersText(t, env); after != before {
				t.Fatalf("refused answers changed the stored ones")
			}

			// An empty answer removes it; others keep theirs.
			second, _ := strconv.Atoi(ids[1])
			st, out = call(t, "answer_interview", map[string]any{"answers": []any{
				map[string]any{"question_id": first0, "answer": ""}, map[string]any{"question_id": second, "answer": "Plain <i>text</i>"}}})
			items, _ = out["items"].([]any)
			if st != 200 || len(items) != 29 || items[0].(map[string]any)["answer"] != "Plain <i>text</i>" {
				t.Fatalf("remove one: %d %d items", st, len(items))
			}
			_, l := call(t, "get_listing", map[string]any{"slug": slug})
			iv, _ := l["interview"].([]any)
			if len(iv) != 29 || iv[0].(map[string]any)["question"] != "What were you doing before you founded it?" {
				t.Fatalf("get_listing interview: %d answers", len(iv))
			}
		})
	}
	r := catDo(t, env, "PUT", "/v1/me/interview", []byte(`{"answers":[{"question_id":1,"answer":"x"}]}`),
		map[string]string{"Content-Type": "application/json"})
	if r.status != 401 {
		t.Fatalf("no token: %d", r.status)
	}
}
