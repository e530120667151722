package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// openDataEnv is the pages over a seeded database of its own (the export is
// stored in it) on clock.
type openDataEnv struct {
	*env
	st    *storage.Store
	clock *testclock.Clock
}

func newOpenDataEnv(t *testing.T, engine string) *openDataEnv {
	t.Helper()
	db := fixtures.OpenOn(t, engine, true)
	st, err := storage.NewStore(context.Background(), db, fixtures.Site)
	if err != nil {
		t.Fatal(err)
	}
	clock := testclock.New(testNow)
	svc := domain.NewService(st, fixtures.Site, clock.Now)
	srv := httptest.NewServer(New(svc))
	t.Cleanup(srv.Close)
	return &openDataEnv{env: &env{srv: srv, svc: svc, db: db}, st: st, clock: clock}
}

// openDataFile gets one file of the export and checks what every file carries.
func (e *openDataEnv) openDataFile(t *testing.T, file string, builtAt time.Time) response {
	t.Helper()
	res := e.get(t, "/open-data/"+file)
	if res.status != http.StatusOK {
		t.Fatalf("%s: %d %s", file, res.status, res.body)
	}
	want := "application/json; charset=utf-8"
	if strings.HasSuffix(file, ".csv") {
		want = "text/csv; charset=utf-8; header=present"
	}
	if got := res.header.Get("Content-Type"); got != want {
		t.Errorf("%s: Content-Type %q, want %q", file, got, want)
	}
	if got := res.header.Get("Link"); got != `<https://creativecommons.org/licenses/by/4.0/>; rel="license"` {
		t.Errorf("%s: licence Link %q", file, got)
	}
	if got := res.header.Get("Last-Modified"); got != builtAt.Format(http.TimeFormat) {
		t.Errorf("%s: Last-Modified %q, want the build time %s", file, got, builtAt.Format(http.TimeFormat))
	}
	if r := e.get(t, "/open-data/"+file, "If-None-Match", res.header.Get("ETag")); r.status != http.StatusNotModified {
		t.Errorf("%s: If-None-Match: %d, want 304", file, r.status)
	}
	return res
}

// readCSV parses a CSV file of the export.
func readCSV(t *testing.T, name, body string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v (%d rows)", name, err, len(rows))
	}
	return rows
}

// TestOpenData_FirstRequestAndWeeklyJob: with no export stored, the first
// request builds and stores it: its licence and build time, every public
// listing, each week from the first launch week to this one with its counted
// votes, every award; the CSV files hold the same build. The weekly job
// (registered and scheduled as serve does) rebuilds it after the next
// Monday's boundary, and the files then say so.
func TestOpenData_FirstRequestAndWeeklyJob(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		e := newOpenDataEnv(t, engine)
		if _, _, found, err := e.st.LatestOpenData(ctx); err != nil || found {
			t.Fatalf("an export is stored before any request: %v %v", found, err)
		}
		res := e.openDataFile(t, "export.json", testNow)
		var doc domain.OpenData
		if err := json.Unmarshal([]byte(res.body), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Licence != "CC BY 4.0" || doc.LicenceURL != domain.OpenDataLicenceURL || !doc.BuiltAt.Equal(testNow) ||
			doc.Source != "https://launchdir.test/" {
			t.Errorf("licence %q %q, built_at %v, source %q", doc.Licence, doc.LicenceURL, doc.BuiltAt, doc.Source)
		}
		if at, _, found, err := e.st.LatestOpenData(ctx); err != nil || !found || !at.Equal(testNow) {
			t.Fatalf("the first request stored no export: %v %v %v", at, found, err)
		}
		public := fixtures.Count(t, e.db, "listings", fixtures.Cols{"status": "live"}) +
			fixtures.Count(t, e.db, "listings", fixtures.Cols{"status": "scheduled"})
		if len(doc.Listings) != public || public == 0 {
			t.Errorf("%d listings, want the %d public ones", len(doc.Listings), public)
		}
		// Weeks: contiguous Mondays from the first launch week to this one;
		// their votes are the counted votes, all of them.
		first, _, err := e.svc.LaunchWeekRange(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Weeks) == 0 || doc.Weeks[0].Week != first.Format(domain.DateLayout) || doc.Weeks[len(doc.Weeks)-1].Week != "2026-11-16" {
			t.Fatalf("weeks %v, want %s to 2026-11-16", doc.Weeks, first.Format(domain.DateLayout))
		}
		votes, launches := 0, 0
		for i, w := range doc.Weeks {
			if i > 0 && weekStart(w.Week).Sub(weekStart(doc.Weeks[i-1].Week)) != 7*24*time.Hour {
				t.Errorf("week %s does not follow %s", w.Week, doc.Weeks[i-1].Week)
			}
			votes += w.Votes
			launches += w.Launches
		}
		if counted := fixtures.Count(t, e.db, "votes", fixtures.Cols{"status": "counted"}); votes != counted || votes == 0 {
			t.Errorf("the weeks hold %d votes, want the %d counted", votes, counted)
		}
		if live := fixtures.Count(t, e.db, "listings", fixtures.Cols{"status": "live"}); launches != live {
			t.Errorf("the weeks hold %d launches, want the %d live listings", launches, live)
		}
		aw, err := e.svc.ListAwards(ctx, domain.ListAwardsInput{})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Awards) != aw.Total || aw.Total == 0 {
			t.Errorf("%d awards, want %d", len(doc.Awards), aw.Total)
		}

		// The CSV files: a header row, then the same rows as the JSON.
		ls := readCSV(t, "listings.csv", e.openDataFile(t, "listings.csv", testNow).body)
		if len(ls) != len(doc.Listings)+1 || ls[0][0] != "slug" || ls[1][0] != doc.Listings[0].Slug || ls[1][1] != doc.Listings[0].Name {
			t.Errorf("listings.csv: %d rows, header %v, first %v", len(ls), ls[0], ls[1])
		}
		ws := readCSV(t, "weeks.csv", e.openDataFile(t, "weeks.csv", testNow).body)
		if len(ws) != len(doc.Weeks)+1 || strings.Join(ws[0], ",") != "week,launches,votes" {
			t.Errorf("weeks.csv: %d rows, header %v", len(ws), ws[0])
		}
		as := readCSV(t, "awards.csv", e.openDataFile(t, "awards.csv", testNow).body)
		if len(as) != len(doc.Awards)+1 || as[1][3] != doc.Awards[0].ListingSlug {
			t.Errorf("awards.csv: %d rows, first %v", len(as), as[1])
		}
		if r := e.get(t, "/open-data/secrets.csv"); r.status != http.StatusNotFound {
			t.Errorf("/open-data/secrets.csv: %d, want 404", r.status)
		}

		// The weekly job: this week's export exists, so serve's
		// EnsureOpenDataJob schedules next Monday's, which rebuilds it.
		runner := domain.NewRunner(storage.NewJobStore(e.db), domain.RunnerOptions{Now: e.clock.Now})
		e.svc.RegisterOpenDataJobs(runner)
		if err := e.svc.EnsureOpenDataJob(ctx, runner); err != nil {
			t.Fatal(err)
		}
		if n, err := runner.RunDue(ctx); err != nil || n != 0 {
			t.Fatalf("a job ran before the boundary: %d %v", n, err)
		}
		next := time.Date(2026, 11, 23, 0, 10, 0, 0, time.UTC)
		e.clock.Set(next)
		if n, err := runner.RunDue(ctx); err != nil || n != 1 {
			t.Fatalf("the weekly job ran %d times at %s: %v", n, next, err)
		}
		res2 := e.openDataFile(t, "export.json", next)
		var doc2 domain.OpenData
		if err := json.Unmarshal([]byte(res2.body), &doc2); err != nil {
			t.Fatal(err)
		}
		if !doc2.BuiltAt.Equal(next) || doc2.Weeks[len(doc2.Weeks)-1].Week != "2026-11-23" || res2.header.Get("ETag") == res.header.Get("ETag") {
			t.Errorf("after the job: built_at %v, last week %s", doc2.BuiltAt, doc2.Weeks[len(doc2.Weeks)-1].Week)
		}
		e.openDataFile(t, "weeks.csv", next)
		// It scheduled the Monday after: nothing more is due now.
		if n, err := runner.RunDue(ctx); err != nil || n != 0 {
			t.Errorf("ran %d more jobs at %s: %v", n, next, err)
		}
	})
}

// emailRE matches an e-mail address anywhere.
var emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)

// personalFields are names of fields that would carry personal data.
var personalFields = []string{"email", "e-mail", "mail", "user", "account", "voter", "owner", "author", "reviewer",
	"ip", "phone", "name_of", "contact", "password", "token", "session", "key"}

// TestOpenData_NoPersonalData scans every file of the export of the demo data,
// whose database holds people's e-mail addresses and listings' contact
// e-mails, for an e-mail address and for a field named after personal data.
func TestOpenData_NoPersonalData(t *testing.T) {
	t.Parallel()
	e := newOpenDataEnv(t, "sqlite")
	ctx := context.Background()
	// The data has what must not leak: accounts and a contact e-mail.
	if n := fixtures.Count(t, e.db, "users", nil); n == 0 {
		t.Fatal("the demo data has no account: the scan would prove nothing")
	}
	body, _, err := e.svc.OpenDataExport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var doc domain.OpenData
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	contact := ""
	for _, l := range doc.Listings {
		if full, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: l.Slug}); err == nil && full.ContactEmail != "" {
			contact = full.ContactEmail
			break
		}
	}
	if contact == "" {
		t.Fatal("no public listing of the demo data has a contact e-mail: the scan would prove nothing")
	}
	for _, file := range openDataFiles {
		res := e.openDataFile(t, file, testNow)
		if m := emailRE.FindString(res.body); m != "" {
			t.Errorf("%s holds the e-mail address %q", file, m)
		}
		var names []string
		if strings.HasSuffix(file, ".csv") {
			names = readCSV(t, file, res.body)[0]
		} else {
			var v any
			if err := json.Unmarshal([]byte(res.body), &v); err != nil {
				t.Fatal(err)
			}
			names = jsonKeys(v, nil)
		}
		for _, n := range names {
			for _, p := range personalFields {
				if n == p || strings.HasPrefix(n, p+"_") || strings.HasSuffix(n, "_"+p) || strings.Contains(n, "_"+p+"_") {
					t.Errorf("%s has the field %q (personal: %q)", file, n, p)
				}
			}
		}
	}
}

// jsonKeys collects every object key in v.
func jsonKeys(v any, into []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			into = append(jsonKeys(c, into), k)
		}
	case []any:
		for _, c := range x {
			into = jsonKeys(c, into)
		}
	}
	return into
}

// TestOpenData_LinkedFromDocs: /docs links the export's files and the feeds
// and states the licence; every link answers.
func TestOpenData_LinkedFromDocs(t *testing.T) {
	res := demo().get(t, "/docs")
	if !strings.Contains(res.body, `href="https://creativecommons.org/licenses/by/4.0/" rel="license"`) ||
		!strings.Contains(res.body, "CC BY 4.0") {
		t.Errorf("/docs does not state the licence")
	}
	for _, path := range []string{"/open-data/export.json", "/open-data/listings.csv", "/open-data/weeks.csv", "/open-data/awards.csv",
		"/feeds/this-week.rss", "/feeds/upcoming.atom", "/feeds/awards.json", "/feeds/blog.rss"} {
		if !strings.Contains(res.body, `href="`+path+`"`) {
			t.Errorf("/docs does not link %s", path)
		}
		if r := demo().get(t, path); r.status != http.StatusOK {
			t.Errorf("%s: %d", path, r.status)
		}
	}
}
