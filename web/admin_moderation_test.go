package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage"
)

// queueEnv is an order env whose listing Notably (owned by ann) is live in
// this week, with the site team's /admin.
type queueEnv struct {
	*orderEnv
	team []string
}

func newQueueEnv(t *testing.T) *queueEnv {
	t.Helper()
	e := &queueEnv{orderEnv: newOrderEnv(t, nil, WithAdmin(teamOnly)), team: []string{"Cookie", teamCookie}}
	if _, err := e.db.UpdateRows(context.Background(), "listings", map[string]any{"status": "live", "launch_week": "2026-11-16",
		"launched_at": testNow.Unix()}, map[string]any{"id": e.listing}); err != nil {
		t.Fatal(err)
	}
	return e
}

// rows reads the rows of table matching where.
func (e *queueEnv) rows(t *testing.T, table string, where map[string]any) []storage.Row {
	t.Helper()
	rows, err := e.db.Rows(context.Background(), table, where)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// logged fails unless moderation_log has n rows.
func (e *queueEnv) logged(t *testing.T, what string, n int) {
	t.Helper()
	if got := len(e.rows(t, "moderation_log", nil)); got != n {
		t.Errorf("%s: %d rows in moderation_log, want %d", what, got, n)
	}
}

// vote casts a vote for Notably by email's account from network (created
// now, so held for its age unless it is ann's, the owner's) and returns its id.
func (e *queueEnv) vote(t *testing.T, email, network string) int64 {
	t.Helper()
	ctx := context.Background()
	u, err := storage.NewAuthStore(e.db).UpsertUser(ctx, "urn:launchdir:email", email, email, "", testNow)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Vote(ctx, u.ID, "notably", network, "Firefox"); err != nil {
		t.Fatal(err)
	}
	rows := e.rows(t, "votes", map[string]any{"voter_key": domain.VoterKey(u.ID)})
	var id int64
	fmt.Sscan(rows[0]["id"], &id)
	return id
}

// votes is Notably's all-time count as get_listing shows it.
func (e *queueEnv) votes(t *testing.T) int {
	t.Helper()
	l, err := e.svc.GetListing(context.Background(), domain.SlugInput{Slug: "notably"})
	if err != nil {
		t.Fatal(err)
	}
	return l.Votes
}

// plain is res with the page's text only: tags dropped, spaces collapsed.
func plain(res response) response {
	res.body = strings.Join(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(res.body, " ")), " ")
	return res
}

func TestAdminQueue_Hidden(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	id := e.vote(t, "fresh@example.com", "203.0.113.7")
	cookie := []string{"Cookie", "session=someone"}
	want(t, "GET /admin/queue", e.do(t, http.MethodGet, "/admin/queue", nil, cookie...), http.StatusNotFound, "Page not found")
	for _, path := range []string{fmt.Sprintf("/admin/queue/votes/%d/count", id), fmt.Sprintf("/admin/queue/votes/%d/discard", id),
		"/admin/queue/reviews/1/hide", "/admin/queue/disqualify", "/admin/queue/requalify"} {
		form := url.Values{"listing": {"notably"}, "week": {"2026-11-16"}, "reason": {"Bought votes"}}
		want(t, "POST "+path, e.do(t, http.MethodPost, path, form, cookie...), http.StatusNotFound)
	}
	e.logged(t, "after strangers' posts", 0)
	if v := e.rows(t, "votes", map[string]any{"id": id})[0]; v["status"] != "held" || v["discarded_at"] != "" {
		t.Errorf("a stranger's post changed the vote: %v", v)
	}
	if n := len(e.rows(t, "week_disqualifications", nil)); n != 0 {
		t.Errorf("a stranger's post disqualified: %d rows", n)
	}
	want(t, "the admin page links the queue", e.do(t, http.MethodGet, "/admin", nil, e.team...), http.StatusOK, `href="/admin/queue"`)
}

// TestAdminQueue_Votes: the team sees held votes with why, who, when and
// the network; counts one (the listing's count moves, the log names the
// team member), discards one, cannot count an owner's vote, and a second
// decision, a vote taken back or a cross-site form changes and logs nothing.
func TestAdminQueue_Votes(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	// Two fresh accounts and the owner, from one network (two are not a burst).
	ben, cy, owner := e.vote(t, "ben@example.com", "203.0.113.7"), e.vote(t, "cy@example.com", "203.0.113.7"), e.vote(t, "ann@notably.test", "203.0.113.7")
	before := e.votes(t)

	res := e.do(t, http.MethodGet, "/admin/queue", nil, e.team...)
	want(t, "the queue", res, http.StatusOK, "Review queue", "Held votes (3)", "3 waiting", "ben@example.com, account created Nov 18, 2026 12:00 UTC",
		"New account: counts by itself on Nov 19, 2026 12:00 UTC", "Owner of the listing: never counts",
		"3 held votes for this listing from this network", fmt.Sprintf(`action="/admin/queue/votes/%d/count"`, ben),
		fmt.Sprintf(`action="/admin/queue/votes/%d/discard"`, owner), "No decisions yet")
	wantNot(t, "the queue", res, fmt.Sprintf(`action="/admin/queue/votes/%d/count"`, owner))
	if res.header.Get("Cache-Control") != "no-store" || res.header.Get("X-Robots-Tag") == "" {
		t.Errorf("the queue may be cached or indexed: %v", res.header)
	}

	wantRedirect(t, "count ben's vote", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/count", ben), url.Values{}, e.team...), "/admin/queue#votes")
	if got := e.votes(t); got != before+1 {
		t.Errorf("votes after counting ben's: %d, want %d", got, before+1)
	}
	log := e.rows(t, "moderation_log", nil)
	if len(log) != 1 || log[0]["actor"] != "ops@launchdir.test" || log[0]["action"] != "count_vote" || log[0]["vote_id"] != fmt.Sprint(ben) ||
		log[0]["listing_id"] != fmt.Sprint(e.listing) || log[0]["created_at"] != fmt.Sprint(testNow.Unix()) {
		t.Fatalf("the log after counting: %v", log)
	}
	want(t, "counting it again", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/count", ben), url.Values{}, e.team...),
		http.StatusConflict, "counts already", "Review queue")
	e.logged(t, "counting twice", 1)

	want(t, "a cross-site discard", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/discard", cy), url.Values{}, "Cookie", teamCookie,
		"Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
	e.logged(t, "a cross-site discard", 1)
	wantRedirect(t, "discard cy's vote", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/discard", cy), url.Values{}, e.team...), "/admin/queue#votes")
	if v := e.rows(t, "votes", map[string]any{"id": cy})[0]; v["status"] != "held" || v["discarded_at"] != fmt.Sprint(testNow.Unix()) {
		t.Errorf("cy's vote after discarding: %v", v)
	}
	want(t, "discarding it again", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/discard", cy), url.Values{}, e.team...),
		http.StatusConflict, "discarded already")
	want(t, "counting the owner's vote", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/count", owner), url.Values{}, e.team...),
		http.StatusConflict, "an owner's vote never counts")
	if got := e.votes(t); got != before+1 {
		t.Errorf("votes after the refusals: %d, want %d", got, before+1)
	}

	// A vote taken back meanwhile.
	dee := e.vote(t, "dee@example.com", "198.51.100.1")
	u, _ := storage.NewAuthStore(e.db).UpsertUser(context.Background(), "urn:launchdir:email", "dee@example.com", "dee@example.com", "", testNow)
	if err := e.svc.Unvote(context.Background(), u.ID, "notably"); err != nil {
		t.Fatal(err)
	}
	want(t, "a vote taken back", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/count", dee), url.Values{}, e.team...),
		http.StatusNotFound, "taken back")
	want(t, "a malformed id", e.post(t, "/admin/queue/votes/x/count", url.Values{}, e.team...), http.StatusNotFound)
	want(t, "an unknown decision", e.post(t, fmt.Sprintf("/admin/queue/votes/%d/approve", owner), url.Values{}, e.team...), http.StatusNotFound)
	e.logged(t, "after the refusals", 2)

	res = plain(e.do(t, http.MethodGet, "/admin/queue", nil, e.team...))
	want(t, "the queue after the decisions", res, http.StatusOK, "Held votes (1)",
		fmt.Sprintf("ops@launchdir.test discarded vote #%d for Notably", cy), fmt.Sprintf("ops@launchdir.test counted vote #%d for Notably", ben),
		"Nov 18, 2026 12:00 UTC")
	wantNot(t, "the queue after the decisions", res, fmt.Sprintf("Vote #%d by", ben))
}

// TestAdminQueue_Reviews: a held review is counted or discarded, a counted
// one hidden and shown again, each logged; a decision on a review in
// another state is a 409 that logs nothing.
func TestAdminQueue_Reviews(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	review := func(author string, stars int, status, reason string) int64 {
		id, err := e.db.InsertRow(context.Background(), "reviews", map[string]any{"listing_id": e.listing, "author_name": author, "stars": stars,
			"body": "Review by " + author + ", long enough to read.", "status": status, "held_reason": reason, "created_at": testNow.Unix()})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	flagged, held, shown := review("Fay", 1, "held", "flagged"), review("Gil", 4, "held", "burst"), review("Hal", 5, "counted", "")
	res := e.do(t, http.MethodGet, "/admin/queue", nil, e.team...)
	want(t, "the queue", res, http.StatusOK, "Held reviews (2)", "Flagged as not genuine", "Fay (no account)", "1 of 5 stars.",
		"Review by Fay, long enough to read.", fmt.Sprintf(`action="/admin/queue/reviews/%d/count"`, flagged),
		fmt.Sprintf(`action="/admin/queue/reviews/%d/hide"`, shown))
	status := func(id int64) string { return e.rows(t, "reviews", map[string]any{"id": id})[0]["status"] }
	steps := []struct {
		id       int64
		decision string
		code     int
		status   string
		section  string
	}{
		{held, "count", http.StatusSeeOther, "counted", "reviews"},
		{held, "count", http.StatusConflict, "counted", ""},
		{flagged, "discard", http.StatusSeeOther, "discarded", "reviews"},
		{flagged, "hide", http.StatusConflict, "discarded", ""},
		{shown, "hide", http.StatusSeeOther, "hidden", "recent"},
		{shown, "hide", http.StatusConflict, "hidden", ""},
		{shown, "unhide", http.StatusSeeOther, "counted", "recent"},
		{999999, "hide", http.StatusNotFound, "", ""},
	}
	logged := 0
	for _, s := range steps {
		what := fmt.Sprintf("%s review %d", s.decision, s.id)
		res := e.post(t, fmt.Sprintf("/admin/queue/reviews/%d/%s", s.id, s.decision), url.Values{}, e.team...)
		if s.code == http.StatusSeeOther {
			logged++
			wantRedirect(t, what, res, "/admin/queue#"+s.section)
		} else {
			want(t, what, res, s.code)
		}
		e.logged(t, what, logged)
		if s.status != "" && status(s.id) != s.status {
			t.Errorf("%s: status %s, want %s", what, status(s.id), s.status)
		}
	}
	res = plain(e.do(t, http.MethodGet, "/admin/queue", nil, e.team...))
	want(t, "the queue after the decisions", res, http.StatusOK, "No held reviews", fmt.Sprintf("ops@launchdir.test hid review #%d of Notably", shown),
		fmt.Sprintf("ops@launchdir.test showed review #%d of Notably again", shown), "(held: flagged)")
}

// TestAdminQueue_Disqualify: bad input is a 400 naming the field, with the
// form's values kept and nothing stored; a disqualification is stored and
// logged with its reason, refused twice, lifted; a finalised week is 409.
func TestAdminQueue_Disqualify(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	for _, c := range []struct {
		name, listing, week, reason, field, message string
	}{
		{"UnknownListing", "nobody", "2026-11-16", "Bought votes", "listing", `There is no listing "nobody"`},
		{"NoListing", " ", "2026-11-16", "Bought votes", "listing", "Name the listing by its slug"},
		{"NotAMonday", "notably", "2026-11-17", "Bought votes", "week", "2026-11-17 is a Tuesday: launch weeks start on Monday (2026-11-16)"},
		{"NotADate", "notably", "next week", "Bought votes", "week", `"next week" is not a date`},
		{"NoWeek", "notably", "", "Bought votes", "week", "Give the week as its Monday"},
		{"NotItsWeek", "notably", "2026-11-23", "Bought votes", "week", "Notably launches in the week of 2026-11-16, not 2026-11-23"},
		{"NoReason", "notably", "2026-11-16", "  ", "reason", "Give the reason"},
		{"LongReason", "notably", "2026-11-16", strings.Repeat("é", 501), "reason", "at most 500 characters; it has 501"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.post(t, "/admin/queue/disqualify", url.Values{"listing": {c.listing}, "week": {c.week}, "reason": {c.reason}}, e.team...)
			want(t, c.name, res, http.StatusBadRequest, "<strong>"+c.field+"</strong>: ", c.message, `aria-invalid="true"`, "Disqualify a listing")
			if c.listing == "nobody" && !strings.Contains(res.body, `value="nobody"`) {
				t.Errorf("the refused form lost its listing")
			}
			if n := len(e.rows(t, "week_disqualifications", nil)); n != 0 {
				t.Errorf("a refused form stored %d disqualifications", n)
			}
			e.logged(t, c.name, 0)
		})
	}

	reason := strings.Repeat("r", console.MaxModerationReason)
	form := url.Values{"listing": {"notably"}, "week": {"2026-11-16"}, "reason": {reason}}
	want(t, "a cross-site form", e.post(t, "/admin/queue/disqualify", form, "Cookie", teamCookie, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
	if n := len(e.rows(t, "week_disqualifications", nil)); n != 0 {
		t.Fatalf("a cross-site form stored %d disqualifications", n)
	}
	e.logged(t, "a cross-site form", 0)
	wantRedirect(t, "disqualify", e.post(t, "/admin/queue/disqualify", form, e.team...), "/admin/queue#weeks")
	rows := e.rows(t, "week_disqualifications", nil)
	if len(rows) != 1 || rows[0]["listing_id"] != fmt.Sprint(e.listing) || rows[0]["week"] != "2026-11-16" || rows[0]["reason"] != reason ||
		rows[0]["decided_by"] != "ops@launchdir.test" {
		t.Fatalf("week_disqualifications: %v", rows)
	}
	if log := e.rows(t, "moderation_log", nil); len(log) != 1 || log[0]["action"] != "disqualify" || log[0]["week"] != "2026-11-16" || log[0]["reason"] != reason {
		t.Fatalf("the log: %v", log)
	}
	want(t, "twice", e.post(t, "/admin/queue/disqualify", form, e.team...), http.StatusConflict, "disqualified from the week of 2026-11-16 already")
	res := e.do(t, http.MethodGet, "/admin/queue", nil, e.team...)
	want(t, "the queue", res, http.StatusOK, "week of Nov 16, 2026", `action="/admin/queue/requalify"`)
	want(t, "the queue's log", plain(res), http.StatusOK, "ops@launchdir.test disqualified Notably from the week of Nov 16, 2026")

	lift := url.Values{"listing": {"notably"}, "week": {"2026-11-16"}}
	wantRedirect(t, "lift", e.post(t, "/admin/queue/requalify", lift, e.team...), "/admin/queue#weeks")
	if n := len(e.rows(t, "week_disqualifications", nil)); n != 0 {
		t.Fatalf("after lifting: %d rows", n)
	}
	want(t, "lift again", e.post(t, "/admin/queue/requalify", lift, e.team...), http.StatusNotFound, "not disqualified")
	e.logged(t, "after lifting", 2)

	// The weekly clock finalised the week: nothing changes any more.
	if _, err := e.db.InsertRow(context.Background(), "finalised_weeks", map[string]any{"site_id": 1, "week": "2026-11-16",
		"finalised_at": testNow.Unix()}); err != nil {
		t.Fatal(err)
	}
	want(t, "after finalisation", e.post(t, "/admin/queue/disqualify", form, e.team...), http.StatusConflict, "finalised already")
	if n := len(e.rows(t, "week_disqualifications", nil)); n != 0 {
		t.Errorf("a finalised week got %d disqualifications", n)
	}
	e.logged(t, "after finalisation", 2)
}
