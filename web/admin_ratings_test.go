package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// byUIDCookie signs in the account whose id is the "uid" cookie.
func byUIDCookie(r *http.Request) (int64, string, bool) {
	c, err := r.Cookie("uid")
	if err != nil {
		return 0, "", false
	}
	id, err := strconv.ParseInt(c.Value, 10, 64)
	return id, "", err == nil
}

// upload posts a multipart form (file named name with body, and source) to
// /admin/ratings as who.
func (e *orderEnv) upload(t *testing.T, who, name, body, source string) response {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if name != "" {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, body)
	}
	mw.WriteField("source", source)
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/admin/ratings", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if who != "" {
		req.Header.Set("Cookie", "session="+who)
	}
	client := *e.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	rb, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: string(rb)}
}

// rowCount counts the rows of table.
func (e *orderEnv) rowCount(t *testing.T, table string, where map[string]any) int {
	t.Helper()
	rows, err := e.db.Rows(context.Background(), table, where)
	if err != nil {
		t.Fatal(err)
	}
	return len(rows)
}

// newestAudit is the newest audit entry of action.
func newestAudit(t *testing.T, svc *console.Console, action string) *console.AuditEntry {
	t.Helper()
	es, _, err := svc.AuditLog(context.Background(), console.AuditFilter{Action: action})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) == 0 {
		return nil
	}
	return &es[0]
}

const goodCSV = "Target,Domain Rating,Date\nhttps://www.Notably.test/pricing,45,2026-10-01\nnotably.test,50,2026-11-01\nelsewhere.example,0,2026-11-18\n"

// TestRatings_Permissions: the Domain Rating and revenue pages and forms are
// the admins'; a moderator, a signed-in stranger and a visitor get the 404
// page and store nothing.
func TestRatings_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ctx := context.Background()
		if err := e.console.GrantTeamRole(ctx, "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
			t.Fatal(err)
		}
		imp, err := e.console.PreviewRatingImport(ctx, "ops@launchdir.test", "a.csv", "ahrefs", strings.NewReader(goodCSV))
		if err != nil {
			t.Fatal(err)
		}
		id := strconv.FormatInt(imp.ID, 10)
		for _, who := range []string{"mod", "someone", ""} {
			var hdr []string
			if who != "" {
				hdr = as(who)
			}
			for _, p := range []string{"/admin/ratings", "/admin/ratings/imports/" + id, "/admin/revenue"} {
				if res := e.do(t, http.MethodGet, p, nil, hdr...); res.status != 404 {
					t.Errorf("%q GET %s: %d, want 404", who, p, res.status)
				}
			}
			if res := e.upload(t, who, "b.csv", goodCSV, "ahrefs"); res.status != 404 {
				t.Errorf("%q upload: %d, want 404", who, res.status)
			}
			for _, p := range []string{"/admin/ratings/imports/" + id + "/confirm", "/admin/ratings/imports/" + id + "/discard"} {
				if res := e.do(t, http.MethodPost, p, url.Values{}, hdr...); res.status != 404 {
					t.Errorf("%q POST %s: %d, want 404", who, p, res.status)
				}
			}
			if res := e.do(t, http.MethodPost, "/admin/revenue", url.Values{"listing": {"notably"}, "month": {"2026-10"}, "amount": {"10"}}, hdr...); res.status != 404 {
				t.Errorf("%q POST /admin/revenue: %d, want 404", who, res.status)
			}
		}
		if n := e.rowCount(t, "rating_imports", nil); n != 1 {
			t.Errorf("refused uploads kept imports: %d, want the one of the test", n)
		}
		if n := e.rowCount(t, "domain_ratings", nil) + e.rowCount(t, "revenue_figures", nil); n != 0 {
			t.Errorf("refused posts stored %d readings or figures", n)
		}
		if got, _ := e.console.RatingImport(ctx, imp.ID); got.Status != console.ImportPending {
			t.Errorf("import is %s after refused decisions", got.Status)
		}
		want(t, "admin's /admin", e.get2(t, "/admin", as("ops")), 200, `href="/admin/ratings"`, `href="/admin/revenue"`)
		wantNot(t, "moderator's /admin", e.get2(t, "/admin", as("mod")), `href="/admin/ratings"`, `href="/admin/revenue"`)
		want(t, "ratings page", e.get2(t, "/admin/ratings", as("ops")), 200, `enctype="multipart/form-data"`, `name="file"`, `name="source"`, "1,048,576 bytes", "5,000 rows", "a.csv")
		want(t, "revenue page", e.get2(t, "/admin/revenue", as("ops")), 200, `name="listing"`, `name="month"`, `name="amount"`)
	})
}

// TestRatings_PreviewConfirm: an upload is checked whole and shown with its
// accepted and refused rows (line and reason), nothing stored; confirming
// stores the accepted rows (hosts normalised, a domain without a listing
// kept), once, with a rating.import audit entry and its counts; the same
// file again changes nothing; a discarded file stores nothing.
func TestRatings_PreviewConfirm(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ctx := context.Background()
		file := "url;DR;date;notes\n" + // a semicolon file, columns renamed and reordered
			"https://www.Notably.test/pricing;0;2026-10-01;x\n" + // line 2: rating 0, inside
			"notably.test;100;2026-11-18;today\n" + // line 3: rating 100 and today, inside
			"a.example;-1;2026-11-01;\n" + // line 4
			"a.example;101;2026-11-01;\n" + // line 5
			"a.example;45.5;2026-11-01;\n" + // line 6
			"a.example;45;2026-13-01;\n" + // line 7
			"a.example;45;2026/11/01;\n" + // line 8
			"a.example;45;2026-11-19;\n" + // line 9: tomorrow
			"NOTABLY.test;7;2026-11-18;\n" + // line 10: same domain and date as line 3
			"not a host;5;2026-11-01;\n" + // line 11
			"b.example;45.0;2026-11-01;\n" // line 12: 45.0 is 45; no listing has b.example
		res := e.upload(t, "ops", "export.csv", file, "ahrefs")
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.header.Get("Location"), "/admin/ratings/imports/") {
			t.Fatalf("upload: %d %q\n%s", res.status, res.header.Get("Location"), excerpt(res.body))
		}
		page := res.header.Get("Location")
		if n := e.rowCount(t, "domain_ratings", nil); n != 0 {
			t.Fatalf("%d readings stored before the confirmation", n)
		}
		want(t, "preview", e.get2(t, page, as("ops")), 200, "3 row(s) accepted, 8 refused", "Nothing is stored yet",
			"Refused rows (8)", "Accepted rows (3)",
			"<td>4</td><td>rating: \"-1\" is not a whole number 0-100</td>",
			"<td>5</td><td>rating: 101 is above 100</td>",
			"<td>6</td><td>rating: \"45.5\" is not a whole number 0-100</td>",
			"<td>7</td><td>date: \"2026-13-01\" is not a date YYYY-MM-DD</td>",
			"<td>8</td><td>date: \"2026/11/01\" is not a date YYYY-MM-DD</td>",
			"<td>9</td><td>date: 2026-11-19 is after today (2026-11-18)</td>",
			"<td>10</td><td>the same domain and date as line 3</td>",
			"<td>11</td><td>domain:",
			"<td>2</td><td>notably.test</td><td>2026-10-01</td><td>0</td><td>Notably</td>",
			"<td>3</td><td>notably.test</td><td>2026-11-18</td><td>100</td><td>Notably</td>",
			"<td>12</td><td>b.example</td><td>2026-11-01</td><td>45</td><td><span class=\"muted\">no listing yet (kept)</span>")
		wantRedirect(t, "confirm", e.post(t, page+"/confirm", url.Values{}, as("ops")...), page+"?done=1")
		want(t, "confirmed", e.get2(t, page+"?done=1", as("ops")), 200, "Stored.", "3 reading(s) added, 0 updated, 0 unchanged")
		rows, err := e.db.Rows(ctx, "domain_ratings", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%s %s %s %s linked=%v", r["domain"], r["date"], r["value"], r["source"], r["listing_id"] != ""))
		}
		if w := "[notably.test 2026-10-01 0 ahrefs linked=true notably.test 2026-11-18 100 ahrefs linked=true b.example 2026-11-01 45 ahrefs linked=false]"; fmt.Sprint(got) != w {
			t.Errorf("stored %v, want %s", got, w)
		}
		a := newestAudit(t, e.console, "rating.import")
		if a == nil || a.Actor != "ops@launchdir.test" || !strings.Contains(string(a.After), `"accepted":3`) || !strings.Contains(string(a.After), `"refused":8`) ||
			!strings.Contains(string(a.After), `"added":3`) || !strings.Contains(string(a.After), `"source":"ahrefs"`) {
			t.Errorf("audit entry: %+v", a)
		}
		// Confirmed already: a second confirmation is refused and changes nothing.
		want(t, "confirm twice", e.post(t, page+"/confirm", url.Values{}, as("ops")...), 409, "was confirmed already")

		// The same file again: accepted, and stores nothing new; a corrected
		// value of one reading replaces it, other dates stay.
		res = e.upload(t, "ops", "export.csv", file, "ahrefs")
		again := res.header.Get("Location")
		want(t, "preview again", e.get2(t, again, as("ops")), 200, "<td>100</td><td>Notably</td><td>100</td>")
		wantRedirect(t, "confirm again", e.post(t, again+"/confirm", url.Values{}, as("ops")...), again+"?done=1")
		want(t, "confirmed again", e.get2(t, again, as("ops")), 200, "0 reading(s) added, 0 updated, 3 unchanged")
		res = e.upload(t, "ops", "fix.csv", "domain,rating,date\nnotably.test,99,2026-11-18\n", "ahrefs")
		wantRedirect(t, "confirm fix", e.post(t, res.header.Get("Location")+"/confirm", url.Values{}, as("ops")...), res.header.Get("Location")+"?done=1")
		if n := e.rowCount(t, "domain_ratings", map[string]any{"domain": "notably.test"}); n != 2 {
			t.Errorf("notably.test has %d readings, want 2 (history kept)", n)
		}
		if n := e.rowCount(t, "domain_ratings", map[string]any{"domain": "notably.test", "value": 99}); n != 1 {
			t.Errorf("the corrected reading is not stored")
		}

		// Discarded: nothing stored, and it cannot be confirmed after.
		res = e.upload(t, "ops", "other.csv", "domain,rating,date\nc.example,10,2026-11-01\n", "moz")
		other := res.header.Get("Location")
		wantRedirect(t, "discard", e.post(t, other+"/discard", url.Values{}, as("ops")...), other+"?done=1")
		want(t, "confirm discarded", e.post(t, other+"/confirm", url.Values{}, as("ops")...), 409, "was discarded already")
		if n := e.rowCount(t, "domain_ratings", map[string]any{"domain": "c.example"}); n != 0 {
			t.Errorf("a discarded import stored %d readings", n)
		}
		// A file of refused rows only cannot be confirmed.
		res = e.upload(t, "ops", "bad.csv", "domain,rating,date\nd.example,101,2026-11-01\n", "moz")
		want(t, "all refused", e.post(t, res.header.Get("Location")+"/confirm", url.Values{}, as("ops")...), 400, "has no accepted row")
		want(t, "history", e.get2(t, "/admin/ratings", as("ops")), 200, "export.csv", "fix.csv", "other.csv", "discarded by ops@launchdir.test", "bad.csv")
		for _, p := range []string{"/admin/ratings/imports/999", "/admin/ratings/imports/x"} {
			if res := e.get2(t, p, as("ops")); res.status != 404 {
				t.Errorf("GET %s: %d, want 404", p, res.status)
			}
		}
	})
}

// TestRatings_FileRules: a file refused as a whole (size, rows, header,
// source) keeps nothing and says why next to its field; each bound is
// tried just inside and just outside.
func TestRatings_FileRules(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		imports := func() int { return e.rowCount(t, "rating_imports", nil) }
		refused := func(what string, res response, status int, field string, has ...string) {
			t.Helper()
			before := imports()
			want(t, what, res, status, append(has, `id="ratings-`+field+`-problem"`)...)
			if imports() != before {
				t.Errorf("%s: an import was kept", what)
			}
		}
		accepted := func(what string, res response) {
			t.Helper()
			if res.status != http.StatusSeeOther {
				t.Fatalf("%s: %d\n%s", what, res.status, excerpt(res.body))
			}
		}
		// Size: exactly 1 MiB is accepted, one byte more is refused.
		head := "domain,rating,date,note\n"
		var b strings.Builder
		b.WriteString(head)
		for i := 0; i < 1000; i++ {
			fmt.Fprintf(&b, "site%d.example,%d,2026-11-01,\n", i, i%101)
		}
		pad := console.MaxRatingsFileBytes - b.Len() - len("last.example,1,2026-11-01,\n")
		b.WriteString("last.example,1,2026-11-01," + strings.Repeat("x", pad) + "\n")
		mib := b.String()
		if len(mib) != console.MaxRatingsFileBytes {
			t.Fatalf("test file is %d bytes", len(mib))
		}
		accepted("1 MiB", e.upload(t, "ops", "mib.csv", mib, "ahrefs"))
		refused("1 MiB + 1", e.upload(t, "ops", "big.csv", mib+"\n", "ahrefs"), 413, "file", "larger than 1 MiB")
		refused("far too big", e.upload(t, "ops", "huge.csv", mib+strings.Repeat("y", 100<<10), "ahrefs"), 413, "file", "larger than 1 MiB")
		// Rows: 5000 are accepted, 5001 refused.
		rows := func(n int) string {
			var b strings.Builder
			b.WriteString("domain,rating,date\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "s%d.example,1,2026-11-01\n", i)
			}
			return b.String()
		}
		accepted("5000 rows", e.upload(t, "ops", "rows.csv", rows(console.MaxRatingsRows), "ahrefs"))
		refused("5001 rows", e.upload(t, "ops", "rows.csv", rows(console.MaxRatingsRows+1), "ahrefs"), 400, "file", "more than 5000 rows")
		// Header and content.
		refused("no date column", e.upload(t, "ops", "x.csv", "domain,rating\na.example,1\n", "ahrefs"), 400, "file", "no date column")
		refused("no header", e.upload(t, "ops", "x.csv", "a.example,1,2026-11-01\n", "ahrefs"), 400, "file", "no domain or rating or date column")
		refused("empty", e.upload(t, "ops", "x.csv", "", "ahrefs"), 400, "file", "The file is empty")
		refused("header only", e.upload(t, "ops", "x.csv", "domain,rating,date\n", "ahrefs"), 400, "file", "no rows")
		refused("no file", e.upload(t, "ops", "", "", "ahrefs"), 400, "file", "Choose a CSV file")
		refused("not UTF-8", e.upload(t, "ops", "x.csv", "domain,rating,date\n\xff.example,1,2026-11-01\n", "ahrefs"), 400, "file", "not UTF-8")
		// Source: 1-60 characters.
		one := "domain,rating,date\na.example,1,2026-11-01\n"
		refused("no source", e.upload(t, "ops", "x.csv", one, " "), 400, "source", "Name the SEO provider")
		refused("61 characters", e.upload(t, "ops", "x.csv", one, strings.Repeat("s", 61)), 400, "source", "at most 60 characters")
		refused("bad source", e.upload(t, "ops", "x.csv", one, "<ahrefs>"), 400, "source", "letters, digits")
		accepted("60 characters", e.upload(t, "ops", "x.csv", one, strings.Repeat("s", 60)))
		accepted("1 character", e.upload(t, "ops", "x.csv", one, "s"))
		if n := e.rowCount(t, "domain_ratings", nil); n != 0 {
			t.Errorf("%d readings stored without a confirmation", n)
		}
	})
}

// TestRevenue_Admin: an admin's figure is stored as verified with a
// revenue.set audit entry (before and after); every rule is tried just
// inside and just outside, a refused form stores nothing and shows the
// problem next to its field.
func TestRevenue_Admin(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ops := as("ops")
		slug := e.slug(t)
		figures := func() string {
			rows, err := e.db.Rows(context.Background(), "revenue_figures", nil)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rows {
				out = append(out, r["month"]+" "+r["amount_cents"]+" "+r["source"])
			}
			sort.Strings(out) // rowid order on SQLite, key order on PostgreSQL
			return strings.Join(out, ", ")
		}
		for _, c := range []struct{ listing, month, amount, field, has string }{
			{"", "2026-10", "1", "listing", "Name the listing"},
			{"no-such-listing", "2026-10", "1", "listing", `no listing with the slug "no-such-listing"`},
			{slug, "1999-12", "1", "month", "2000-01 or later"},
			{slug, "2026-12", "1", "month", "has not ended or begun"},
			{slug, "2026-13", "1", "month", "The month is YYYY-MM"},
			{slug, "2026-1", "1", "month", "The month is YYYY-MM"},
			{slug, "2026-10", "-1", "amount", "in US dollars"},
			{slug, "2026-10", "12.345", "amount", "in US dollars"},
			{slug, "2026-10", "100000000.01", "amount", "at most $100,000,000.00"},
			{slug, "2026-10", "", "amount", "in US dollars"},
		} {
			res := e.post(t, "/admin/revenue", url.Values{"listing": {c.listing}, "month": {c.month}, "amount": {c.amount}}, ops...)
			want(t, c.listing+" "+c.month+" "+c.amount, res, 400, `id="revenue-`+c.field+`-problem"`, c.has, "Nothing was changed")
		}
		if f := figures(); f != "" {
			t.Fatalf("refused forms stored %s", f)
		}
		for _, c := range []struct{ month, amount, cents string }{
			{"2000-01", "0", "0"}, {"2026-11", "100000000.00", "10000000000"}, {"2026-10", "$1,234.5", "123450"},
		} {
			wantRedirect(t, c.month, e.post(t, "/admin/revenue", url.Values{"listing": {slug}, "month": {c.month}, "amount": {c.amount}}, ops...), "/admin/revenue?saved=1")
		}
		if f, w := figures(), "2000-01 0 verified, 2026-10 123450 verified, 2026-11 10000000000 verified"; f != w {
			t.Errorf("stored %q, want %q", f, w)
		}
		a := newestAudit(t, e.console, "revenue.set")
		if a == nil || a.Before != nil || a.Target != "listing "+slug+" 2026-10" || !strings.Contains(string(a.After), `"amount_cents":123450`) {
			t.Errorf("audit entry: %+v", a)
		}
		wantRedirect(t, "change", e.post(t, "/admin/revenue", url.Values{"listing": {slug}, "month": {"2026-10"}, "amount": {"2000"}}, ops...), "/admin/revenue?saved=1")
		a = newestAudit(t, e.console, "revenue.set")
		if a == nil || !strings.Contains(string(a.Before), `"amount_cents":123450`) || !strings.Contains(string(a.After), `"amount_cents":200000`) {
			t.Errorf("audit entry of the change: %+v", a)
		}
		want(t, "figures", e.get2(t, "/admin/revenue?saved=1", ops), 200, "Saved.", "$2,000.00", "verified", "ops@launchdir.test")
	})
}

// slug is the slug of the env's listing.
func (e *orderEnv) slug(t *testing.T) string {
	t.Helper()
	rows, err := e.db.Rows(context.Background(), "listings", map[string]any{"id": e.listing})
	if err != nil || len(rows) != 1 {
		t.Fatal(rows, err)
	}
	return rows[0]["slug"]
}

// TestRevenue_Owner: the owner states a figure on their listing's revenue
// page (stored as owner's, checked with the same rules); someone else's
// listing is a 404, a visitor is sent to sign in; a verified figure of the
// same month is kept beside it and wins.
func TestRevenue_Owner(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie), WithAccount(byUIDCookie))
		ctx := context.Background()
		c, _ := domain.CallerFrom(e.caller)
		owner := c.UserID
		page := fmt.Sprintf("/account/listings/%d/revenue", e.listing)
		me := []string{"Cookie", fmt.Sprintf("uid=%d", owner)}
		stranger, err := storage.NewAuthStore(e.db).UpsertUser(ctx, "urn:launchdir:email", "eve@else.test", "eve@else.test", "Eve", testNow)
		if err != nil {
			t.Fatal(err)
		}
		eve := []string{"Cookie", fmt.Sprintf("uid=%d", stranger.ID)}
		want(t, "owner's page", e.do(t, http.MethodGet, page, nil, me...), 200, "Revenue of Notably", `name="month"`, "No figure yet")
		if res := e.do(t, http.MethodGet, page, nil); res.status != http.StatusSeeOther || !strings.Contains(res.header.Get("Location"), domain.SignInPath) {
			t.Errorf("visitor: %d %q", res.status, res.header.Get("Location"))
		}
		form := url.Values{"month": {"2026-10"}, "amount": {"900"}}
		if res := e.do(t, http.MethodGet, page, nil, eve...); res.status != 404 {
			t.Errorf("stranger GET: %d", res.status)
		}
		if res := e.do(t, http.MethodPost, page, form, eve...); res.status != 404 {
			t.Errorf("stranger POST: %d", res.status)
		}
		if res := e.do(t, http.MethodPost, page, form); res.status != 401 {
			t.Errorf("visitor POST: %d", res.status)
		}
		want(t, "bad month", e.do(t, http.MethodPost, page, url.Values{"month": {"2026-12"}, "amount": {"900"}}, me...), 400, `id="revenue-month-problem"`)
		want(t, "bad amount", e.do(t, http.MethodPost, page, url.Values{"month": {"2026-10"}, "amount": {"nine"}}, me...), 400, `id="revenue-amount-problem"`)
		if n := e.rowCount(t, "revenue_figures", nil); n != 0 {
			t.Fatalf("refused statements stored %d figures", n)
		}
		wantRedirect(t, "owner states", e.do(t, http.MethodPost, page, form, me...), page+"?saved=1")
		want(t, "owner's figures", e.do(t, http.MethodGet, page+"?saved=1", nil, me...), 200, "Saved.", "$900.00", "stated by you")
		wantRedirect(t, "verified", e.post(t, "/admin/revenue", url.Values{"listing": {e.slug(t)}, "month": {"2026-10"}, "amount": {"850"}}, as("ops")...), "/admin/revenue?saved=1")
		want(t, "both kept", e.do(t, http.MethodGet, page, nil, me...), 200, "$900.00", "stated by you", "$850.00", "verified by the site team")
		if n := e.rowCount(t, "revenue_figures", nil); n != 2 {
			t.Errorf("%d figures, want the owner's and the verified one", n)
		}
	})
}

// TestRevenue_PublicPages: the listing page and the revenue board say
// whose figure they show (stated by the owner; verified once the site team
// entered one for the month), and the Domain Rating board shows each
// site's trend.
func TestRevenue_PublicPages(t *testing.T) {
	t.Parallel()
	e, err := newEnv(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.close)
	ctx := context.Background()
	b, err := e.svc.GetLeaderboard(ctx, domain.GetLeaderboardInput{Board: "revenue"})
	if err != nil || len(b.Items) < 2 {
		t.Fatal(b, err)
	}
	top := b.Items[0]
	want(t, "listing page, owner's figure", e.get(t, "/listings/"+top.Listing.Slug), 200, "Monthly revenue", "stated by the owner, not checked")
	want(t, "revenue board", e.get(t, "/leaderboards/revenue"), 200, "a month, stated by the owner", "verified by the site team, or stated by the owner")
	l, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: top.Listing.Slug})
	if err != nil || l.Revenue == nil {
		t.Fatal(l, err)
	}
	if _, err := e.console.SetVerifiedRevenue(ctx, "ops@launchdir.test", top.Listing.Slug, l.Revenue.Month, "99999999"); err != nil {
		t.Fatal(err)
	}
	res := e.get(t, "/listings/"+top.Listing.Slug)
	want(t, "listing page, verified figure", res, 200, "$99,999,999.00", "verified by the site team")
	wantNot(t, "listing page, verified figure", res, "stated by the owner, not checked")
	want(t, "revenue board after", e.get(t, "/leaderboards/revenue"), 200, "a month, verified by the site team")
	res = e.get(t, "/leaderboards/domain-rating")
	if !strings.Contains(res.body, "↑ up") && !strings.Contains(res.body, "↓ down") && !strings.Contains(res.body, "→ flat") {
		t.Errorf("Domain Rating board shows no trend:\n%s", excerpt(res.body))
	}
}
