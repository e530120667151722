package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestProgrammes_PagesAndConsole: the console's programme form is the site
// team's only; a broken rule shows the form again, 400, naming the field,
// and stores nothing; a programme made there has a page where a signed-in
// person votes for an entry with the site's vote form and comes back to the
// page; when voting closes on the clock and the clock decides, the page
// shows the winner without vote buttons, the winner's listing page shows the
// trophy in its cabinet and its owner's notifications say so.
func TestProgrammes_PagesAndConsole(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	ctx := context.Background()
	count := func() int { return len(e.rows(t, "programmes", nil)) }

	want(t, "a stranger's GET", e.do(t, http.MethodGet, "/admin/programmes", nil, "Cookie", "session=someone"), http.StatusNotFound)
	want(t, "a stranger's POST", e.post(t, "/admin/programmes", url.Values{"name": {"X"}}, "Cookie", "session=someone"), http.StatusNotFound)
	want(t, "the console", e.do(t, http.MethodGet, "/admin/programmes", nil, e.team...), http.StatusOK, "Create a programme", "No programmes yet.")
	form := url.Values{"name": {"Spring Picks"}, "description": {"Our favourites."}, "entry_opens": {"2026-11-18"}, "entry_closes": {"2026-11-19"},
		"voting_opens": {"2026-11-18"}, "voting_closes": {"2026-11-20"}, "winners": {"1"}}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for kk, vv := range form {
			f[kk] = vv
		}
		f.Set(k, v)
		return f
	}
	for _, bad := range []struct{ field, value, says string }{
		{"voting_closes", "2026-11-18", "voting_closes: voting cannot close before entries do"},
		{"entry_opens", "2026-02-30", "entry_opens: a real calendar date"},
		{"winners", "11", "winners: 1-10 winners per category"},
		{"winners", "many", "winners: a whole number"},
		{"categories", "no-such-category", "is not a category of this site"},
		{"name", "  ", "name: write some text"},
	} {
		res := e.post(t, "/admin/programmes", with(bad.field, bad.value), e.team...)
		want(t, "the form with "+bad.field+"="+bad.value, res, http.StatusBadRequest, bad.says, `name="`+bad.field+`"`)
		if n := count(); n != 0 {
			t.Fatalf("a refused form stored %d programmes", n)
		}
	}
	res := e.post(t, "/admin/programmes", form, e.team...)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/admin/programmes?created=spring-picks" || count() != 1 {
		t.Fatalf("creating: %d %s, %d programmes", res.status, res.header.Get("Location"), count())
	}
	want(t, "the console after", e.do(t, http.MethodGet, "/admin/programmes?created=spring-picks", nil, e.team...), http.StatusOK,
		"Programme <a href=\"/programmes/spring-picks\">spring-picks</a> created.", "Voting open")
	want(t, "the same name again", e.post(t, "/admin/programmes", form, e.team...), http.StatusConflict, "exists already")

	// Notably (ann's, live) is entered; a person of a month votes on the page.
	pid := fixtures.ID(t, e.db, "programmes", fixtures.Cols{"slug": "spring-picks"})
	fixtures.Insert(t, e.db, "programme_entries", fixtures.Cols{"programme_id": pid, "listing_id": e.listing, "category": "", "created_at": testNow.Unix()})
	users := storage.NewAuthStore(e.db)
	fan, err := users.UpsertUser(ctx, auth.EmailIssuer, "fan@example.com", "fan@example.com", "", testNow.AddDate(0, -1, 0))
	if err != nil {
		t.Fatal(err)
	}
	as := func(id int64) http.Handler {
		return New(e.svc, WithAccount(func(*http.Request) (int64, string, bool) { return id, "x@example.com", true }))
	}
	serve := func(h http.Handler, method, path string, form url.Values) (int, http.Header, string) {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req := httptest.NewRequest(method, path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, rec.Header(), string(b)
	}
	st, _, page := serve(as(fan.ID), "GET", "/programmes/spring-picks", nil)
	if st != 200 || !strings.Contains(page, `action="/listings/notably/vote"`) || !strings.Contains(page, `name="next" value="/programmes/spring-picks"`) ||
		!strings.Contains(page, "0</strong> programme votes") {
		t.Fatalf("the programme page while voting (%d):\n%s", st, excerpt(page))
	}
	st, hdr, _ := serve(as(fan.ID), "POST", "/listings/notably/vote", url.Values{"next": {"/programmes/spring-picks"}})
	if st != http.StatusSeeOther || hdr.Get("Location") != "/programmes/spring-picks" {
		t.Fatalf("the vote: %d %s", st, hdr.Get("Location"))
	}
	if _, _, page = serve(as(fan.ID), "GET", "/programmes/spring-picks", nil); !strings.Contains(page, "1</strong> programme vote<") ||
		!strings.Contains(page, `action="/listings/notably/unvote"`) {
		t.Fatalf("the programme page after the vote:\n%s", excerpt(page))
	}

	// Voting closes; the clock decides (the job's call).
	e.clock.Set(testNow.AddDate(0, 0, 3))
	t.Cleanup(func() { e.clock.Set(testNow) })
	if wins, err := e.svc.CloseProgramme(ctx, pid); err != nil || len(wins) != 1 {
		t.Fatalf("CloseProgramme: %v %v", wins, err)
	}
	_, _, page = serve(as(fan.ID), "GET", "/programmes/spring-picks", nil)
	if !strings.Contains(page, "Winner #1") || strings.Contains(page, "/listings/notably/unvote") || !strings.Contains(page, "Finished") {
		t.Fatalf("the finished programme page:\n%s", excerpt(page))
	}
	want(t, "the winner's listing page", e.do(t, http.MethodGet, "/listings/notably", nil), http.StatusOK, "Trophy cabinet", "Spring Picks: Overall")
	ownerID, err := strconv.ParseInt(fixtures.Column(t, e.db, "listings", e.listing, "owner_id"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, page = serve(as(ownerID), "GET", "/notifications", nil); !strings.Contains(page, "won #1 in Spring Picks") || !strings.Contains(page, "1 community vote.") {
		t.Fatalf("the owner's notifications:\n%s", excerpt(page))
	}
}
