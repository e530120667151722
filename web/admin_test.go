package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

// teamCookie marks a request as the site team's in these tests; the real
// wiring passes auth's session check and an allow-list of emails.
const teamCookie = "session=team"

func teamOnly(r *http.Request) (string, bool) {
	if r.Header.Get("Cookie") == teamCookie {
		return "ops@launchdir.test", true
	}
	return "", false
}

// launchPrice reads the price of launch from list_products.
func launchPrice(t *testing.T, svc *domain.Service) int64 {
	t.Helper()
	list, err := svc.ListProducts(context.Background(), domain.ListProductsInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list.Items {
		if p.Code == domain.ProductLaunch {
			return p.PriceCents
		}
	}
	t.Fatal("list_products has no launch")
	return 0
}

func TestAdmin_Hidden(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]Option{"NoAdminOption": nil, "NotTeam": {WithAdmin(teamOnly)}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newOrderEnv(t, nil, opts...)
			cookie := []string{"Cookie", "session=someone"}
			res := e.do(t, http.MethodGet, "/admin", nil, cookie...)
			want(t, "GET /admin", res, http.StatusNotFound, "Page not found")
			wantNot(t, "GET /admin", res, "Product prices")
			res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"1"}}, cookie...)
			want(t, "POST /admin/prices", res, http.StatusNotFound)
			want(t, "POST /admin/work/1/done", e.do(t, http.MethodPost, "/admin/work/1/done", url.Values{}, cookie...), http.StatusNotFound)
			if got := launchPrice(t, e.svc); got != 4900 {
				t.Errorf("a refused request set the launch price to %d", got)
			}
		})
	}
}

func TestAdmin_Prices(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil, WithAdmin(teamOnly))
	team := []string{"Cookie", teamCookie}

	res := e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page", res, http.StatusOK, "Signed in as ops@launchdir.test", "Product prices", "<code>launch</code>",
		"<code>billboard_min</code>", "$49.00", `name="cents"`, "No open work items", "No orders yet")
	if res.header.Get("X-Robots-Tag") == "" || res.header.Get("Cache-Control") != "no-store" {
		t.Errorf("the admin page may be indexed or cached: %v", res.header)
	}

	res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"5900"}}, team...)
	wantRedirect(t, "set the launch price", res, "/admin")
	if got := launchPrice(t, e.svc); got != 5900 {
		t.Fatalf("list_products after setting 5900: launch costs %d", got)
	}
	want(t, "the admin page after the change", e.do(t, http.MethodGet, "/admin", nil, team...), http.StatusOK, "$59.00")

	for _, c := range []struct {
		name, code, cents, message string
	}{
		{"NotANumber", "launch", "49.00", "whole number of cents"},
		{"Negative", "launch", "-1", "negative"},
		{"TooHigh", "launch", strconv.Itoa(domain.MaxPriceCents + 1), "at most 100000000 cents"},
		{"UnknownProduct", "lunch", "100", `There is no product "lunch"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {c.code}, "cents": {c.cents}}, team...)
			want(t, c.name, res, http.StatusBadRequest, c.message, "Product prices")
			if got := launchPrice(t, e.svc); got != 5900 {
				t.Errorf("a refused price changed launch to %d", got)
			}
		})
	}

	res = e.do(t, http.MethodPost, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"1"}}, "Cookie", teamCookie,
		"Sec-Fetch-Site", "cross-site")
	want(t, "a cross-site price form", res, http.StatusForbidden)
	if got := launchPrice(t, e.svc); got != 5900 {
		t.Errorf("a cross-site form set launch to %d", got)
	}
}

func TestAdmin_WorkAndOrders(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil, WithAdmin(teamOnly))
	team := []string{"Cookie", teamCookie}

	// An AI review, paid through the checkout page, is work for the site team.
	v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductAIReview, ListingID: e.listing,
		Options: map[string]any{"focus": "pricing"}})
	page := domain.CheckoutPath + token
	wantRedirect(t, "billing", e.post(t, page+"/billing", url.Values{"name": {"Ann Lee"}, "address": {"1 Main St"}, "country": {"US"}}), page)
	wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), e.srv.URL+page+"/test-pay")
	wantRedirect(t, "test payment", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
	if err := e.svc.FulfilOrder(context.Background(), v.Number); err != nil {
		t.Fatal(err)
	}
	work, err := e.svc.AdminWorkItems(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(work) != 1 || work[0].Kind != domain.ProductAIReview || work[0].OrderNumber != v.Number {
		t.Fatalf("open work items after paying an AI review: %+v", work)
	}
	id := strconv.FormatInt(work[0].ID, 10)

	res := e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page with work", res, http.StatusOK, "Open work items", "<td>ai_review</td>",
		"#"+strconv.FormatInt(e.listing, 10), "<dt>focus</dt><dd>pricing</dd>", `action="/admin/work/`+id+`/done"`,
		v.Number, "<td>paid</td>", "Ann Lee (US)", "$19.00")

	want(t, "finish an unknown item", e.do(t, http.MethodPost, "/admin/work/999999/done", url.Values{}, team...), http.StatusNotFound)
	want(t, "finish a malformed id", e.do(t, http.MethodPost, "/admin/work/x/done", url.Values{}, team...), http.StatusNotFound)
	wantRedirect(t, "mark done", e.do(t, http.MethodPost, "/admin/work/"+id+"/done", url.Values{}, team...), "/admin")
	if work, err := e.svc.AdminWorkItems(context.Background(), 0); err != nil || len(work) != 0 {
		t.Fatalf("open work items after marking done: %+v, %v", work, err)
	}
	res = e.do(t, http.MethodGet, "/admin", nil, team...)
	want(t, "the admin page after marking done", res, http.StatusOK, "No open work items", v.Number)
	// Marking it done again (a double click) changes nothing and is not an error.
	wantRedirect(t, "mark done again", e.do(t, http.MethodPost, "/admin/work/"+id+"/done", url.Values{}, team...), "/admin")
}

// mailbox records the sign-in links auth mails.
type mailbox struct {
	mu    sync.Mutex
	links map[string]string // address -> latest link
}

func (m *mailbox) Send(_ context.Context, to, _, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.links[strings.ToLower(to)] = regexp.MustCompile(`http://\S+/signin/email\?token=[A-Za-z0-9_-]+`).FindString(body)
	return nil
}

// teamSite serves the web pages of e's service next to auth's sign-in pages,
// as serve does, with --admin-emails team@launchdir.test, and returns its
// origin and a function that signs a browser in with an emailed link.
func teamSite(t *testing.T, e *orderEnv) (string, func(email string) *http.Client) {
	t.Helper()
	mails := &mailbox{links: map[string]string{}}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	az, err := auth.New(auth.Config{Origin: srv.URL, SiteName: "Launchdir", Store: storage.NewAuthStore(e.db), Mailer: mails,
		Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	az.Register(mux)
	mux.Handle("/", New(e.svc, WithConsole(e.console), WithAdmin(func(r *http.Request) (string, bool) {
		email, ok := az.SignedInEmail(r)
		return email, ok && strings.EqualFold(email, "team@launchdir.test")
	})))
	signIn := func(email string) *http.Client {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(srv.URL+"/signin", url.Values{"email": {email}, "next": {"/admin"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		mails.mu.Lock()
		link := mails.links[email]
		mails.mu.Unlock()
		if res.StatusCode != 200 || link == "" {
			t.Fatalf("sign-in of %s: %d, link %q", email, res.StatusCode, link)
		}
		if res, err = c.Get(link); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return c
	}
	return srv.URL, signIn
}

// browse does one request of a signed-in browser.
func browse(t *testing.T, c *http.Client, method, u string, hdr ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
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
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// TestAdmin_ListingEdits: an owner's edit is in the review queue of a
// signed-in admin with its before and after; the admin marks it reviewed,
// and reverts it, which the owner sees as a new version in their history.
func TestAdmin_ListingEdits(t *testing.T) {
	t.Parallel()
	e := newOrderEnv(t, nil)
	ctx := context.Background()
	// The listing goes live through a paid launch, so the queue links its page.
	v, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing})
	page := domain.CheckoutPath + token
	wantRedirect(t, "billing", e.post(t, page+"/billing", url.Values{"name": {"Ann Lee"}, "address": {"1 Main St"}, "country": {"US"}}), page)
	wantRedirect(t, "pay", e.post(t, page+"/pay", url.Values{}), e.srv.URL+page+"/test-pay")
	wantRedirect(t, "test payment", e.post(t, page+"/test-pay", url.Values{}), page+"/done")
	if err := e.svc.FulfilOrder(ctx, v.Number); err != nil {
		t.Fatal(err)
	}

	var in domain.UpdateMyListingInput
	if err := json.Unmarshal([]byte(`{"fields": {"tagline": "Notes <b>for</b> teams", "city": "Lisbon"},
		"faqs": [{"question": "Is there a free plan?", "answer": "Yes, for 3 people."}]}`), &in); err != nil {
		t.Fatal(err)
	}
	in.ListingID = e.listing
	out, err := e.svc.UpdateMyListing(e.caller, in)
	if err != nil || out.Version == nil || out.Status != domain.ListingLive {
		t.Fatalf("the owner's edit: %+v, %v", out, err)
	}

	origin, signIn := teamSite(t, e)
	team, ann := signIn("team@launchdir.test"), signIn("ann@notably.test")
	want(t, "the queue for the owner, who is not on the team", browse(t, ann, http.MethodGet, origin+"/admin"), http.StatusNotFound)

	res := browse(t, team, http.MethodGet, origin+"/admin")
	want(t, "the review queue", res, http.StatusOK, "Listing edits to review", "1 not reviewed yet",
		`<a href="`+e.srv.URL+`/listings/notably">Notably</a>`, "By ann@notably.test on Nov 18, 2026 12:00 UTC",
		"<code>tagline</code>", `<pre class="edit-before">Team notes in Markdown</pre>`,
		`<pre class="edit-after">Notes &lt;b&gt;for&lt;/b&gt; teams</pre>`, `<pre class="edit-before">(empty)</pre>`,
		`<pre class="edit-after">Lisbon</pre>`, "Q: Is there a free plan?\nA: Yes, for 3 people.", "Mark reviewed", "Product prices")
	queue, open, err := e.svc.ReviewQueue(ctx, 0)
	if err != nil || len(queue) != 1 || open != 1 {
		t.Fatalf("review queue: %d items, %d open, %v", len(queue), open, err)
	}
	id := strconv.FormatInt(queue[0].ID, 10)
	if !strings.Contains(res.body, `action="/admin/edits/`+id+`/reviewed"`) || !strings.Contains(res.body, `action="/admin/edits/`+id+`/revert"`) {
		t.Fatalf("the queue has no forms for version %s", id)
	}

	want(t, "a cross-site revert", browse(t, team, http.MethodPost, origin+"/admin/edits/"+id+"/revert", "Sec-Fetch-Site", "cross-site"),
		http.StatusForbidden)
	want(t, "the owner reverting", browse(t, ann, http.MethodPost, origin+"/admin/edits/"+id+"/revert"), http.StatusNotFound)
	want(t, "an unknown version", browse(t, team, http.MethodPost, origin+"/admin/edits/999999/reviewed"), http.StatusNotFound)
	want(t, "a malformed id", browse(t, team, http.MethodPost, origin+"/admin/edits/x/revert"), http.StatusNotFound)
	if mine, err := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.listing}); err != nil ||
		mine.Profile.Tagline != "Notes <b>for</b> teams" || len(mine.History) != 1 {
		t.Fatalf("refused forms changed the listing: %+v %v", mine, err)
	}

	res = browse(t, team, http.MethodPost, origin+"/admin/edits/"+id+"/reviewed")
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/admin#edits" {
		t.Fatalf("mark reviewed: %d %s", res.status, res.header.Get("Location"))
	}
	res = browse(t, team, http.MethodGet, origin+"/admin")
	want(t, "after marking reviewed", res, http.StatusOK, "0 not reviewed yet", "Reviewed by team@launchdir.test on Nov 18, 2026 12:00 UTC")
	wantNot(t, "after marking reviewed", res, "Mark reviewed")

	res = browse(t, team, http.MethodPost, origin+"/admin/edits/"+id+"/revert")
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/admin#edits" {
		t.Fatalf("revert: %d %s", res.status, res.header.Get("Location"))
	}
	mine, err := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.listing})
	if err != nil || mine.Profile.Tagline != "Team notes in Markdown" || mine.Profile.City != "" || len(mine.Profile.FAQs) != 0 {
		t.Fatalf("after the revert: %+v, %v", mine.Profile, err)
	}
	if len(mine.History) != 2 || mine.History[0].Version != 2 || mine.History[0].Kind != domain.VersionRevert ||
		mine.History[0].By != "team@launchdir.test" || !strings.Contains(mine.History[0].Note, "before version 1") ||
		strings.Join(mine.History[0].Fields, ",") != "tagline,city,faqs" {
		t.Fatalf("the owner's history after the revert: %+v", mine.History)
	}
	res = browse(t, team, http.MethodGet, origin+"/admin")
	want(t, "after the revert", res, http.StatusOK, "version 2 · revert", "The site team put back the values from before version 1.",
		`<pre class="edit-after">Team notes in Markdown</pre>`, "0 not reviewed yet")

	// Reverting the same version again changes nothing and stores no version.
	browse(t, team, http.MethodPost, origin+"/admin/edits/"+id+"/revert")
	if mine, _ := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.listing}); len(mine.History) != 2 {
		t.Fatalf("a second revert stored a version: %+v", mine.History)
	}
}
