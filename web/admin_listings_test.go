package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// listingsEnv is the order env with a moderator, the env's listing (ann's
// Notably) live, and helpers for the listings console.
type listingsEnv struct {
	*orderEnv
	id   int64
	path string // /admin/listings/{id}
}

func newListingsEnv(t *testing.T, engine string) *listingsEnv {
	t.Helper()
	e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
	if err := e.console.GrantTeamRole(context.Background(), "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
		t.Fatal(err)
	}
	fixtures.Update(t, e.db, "listings", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": testNow.Unix()},
		fixtures.Cols{"id": e.listing})
	return &listingsEnv{orderEnv: e, id: e.listing, path: "/admin/listings/" + strconv.FormatInt(e.listing, 10)}
}

// audits are the audit entries of action, newest first.
func (e *listingsEnv) audits(t *testing.T, action string) []console.AuditEntry {
	t.Helper()
	entries, _, err := e.console.AuditLog(context.Background(), console.AuditFilter{Action: action})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func (e *listingsEnv) status(t *testing.T, id int64) string {
	t.Helper()
	return fixtures.Column(t, e.db, "listings", id, "status")
}

// TestListingsAdmin_Permissions: moderators and admins search, open and
// hide listings; only admins unpublish, merge, transfer and edit (a
// moderator's request is a 404 page, as for every admin page); everyone
// else gets 404 everywhere. Nothing refused changes the listing or writes
// an audit entry.
func TestListingsAdmin_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		p := e.path
		for _, c := range []struct {
			path          string
			post          url.Values
			admin, mod    int
			someone, anon int
		}{
			{"/admin/listings", nil, 200, 200, 404, 404},
			{"/admin/listings?q=notably", nil, 200, 200, 404, 404},
			{p, nil, 200, 200, 404, 404},
			{p + "/hide", url.Values{"reason": {""}}, 400, 400, 404, 404},
			{p + "/unhide", url.Values{}, 409, 409, 404, 404},
			{p + "/unpublish", url.Values{"reason": {""}}, 400, 404, 404, 404},
			{p + "/merge", url.Values{"into": {""}}, 400, 404, 404, 404},
			{p + "/transfer", url.Values{"email": {""}}, 400, 404, 404, 404},
			{p + "/edit", url.Values{"tagline": {strings.Repeat("x", 201)}}, 400, 404, 404, 404},
			{p + "/hide", url.Values{"reason": {"spam"}}, 0, 404 /* see below */, 404, 404},
		} {
			for who, st := range map[string]int{"ops": c.admin, "mod": c.mod, "someone": c.someone, "": c.anon} {
				if st == 0 || c.post != nil && c.post.Get("reason") == "spam" && who == "mod" {
					continue
				}
				method := http.MethodGet
				if c.post != nil {
					method = http.MethodPost
				}
				var hdr []string
				if who != "" {
					hdr = as(who)
				}
				if res := e.do(t, method, c.path, c.post, hdr...); res.status != st {
					t.Errorf("%q %s %s: %d, want %d", who, method, c.path, res.status, st)
				}
			}
		}
		if s := e.status(t, e.id); s != "live" {
			t.Fatalf("refused requests changed the status to %s", s)
		}
		for _, a := range []string{"listing.hide", "listing.unhide", "listing.unpublish", "listing.merge", "listing.transfer", "listing.edit"} {
			if n := len(e.audits(t, a)); n != 0 {
				t.Errorf("refused requests wrote %d %s entries", n, a)
			}
		}
		// The moderator's home links to the listings console; the page shows
		// the moderator no admin-only form.
		want(t, "moderator's /admin", e.get2(t, "/admin", as("mod")), 200, `href="/admin/listings"`)
		res := e.get2(t, p, as("mod"))
		want(t, "moderator's listing page", res, 200, "Hide listing")
		wantNot(t, "moderator's listing page", res, `action="`+p+`/unpublish"`, `action="`+p+`/merge"`, `action="`+p+`/transfer"`, `action="`+p+`/edit"`)
		want(t, "admin's listing page", e.get2(t, p, as("ops")), 200, `action="`+p+`/unpublish"`, `action="`+p+`/merge"`,
			`action="`+p+`/transfer"`, `action="`+p+`/edit"`)
	})
}

// TestListingsAdmin_Search: by name, domain, slug, owner email and id, a
// status filter, every status (drafts and hidden ones too), pages, and a
// refused query or status shown next to its field.
func TestListingsAdmin_Search(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		fixtures.Insert(t, e.db, "categories", fixtures.Cols{"site_id": fixtures.First(t, e.db, "sites"), "slug": "tools", "name": "Tools"})
		fixtures.User(t, e.db, "zed@else.test")
		draft := fixtures.Listing(t, e.db, "zed@else.test", fixtures.Cols{"slug": "quietdraft", "name": "Quiet Draft", "domain": "quiet.test"})
		mod := as("mod")
		for q, wantName := range map[string]string{"notably": "Notably", "NOTAB": "Notably", "quiet.test": "Quiet Draft",
			"quietdraft": "Quiet Draft", "zed@else": "Quiet Draft", "ann@notably": "Notably", strconv.FormatInt(draft, 10): "Quiet Draft"} {
			want(t, "search "+q, e.get2(t, "/admin/listings?q="+url.QueryEscape(q), mod), 200, ">"+wantName+"</a>")
		}
		res := e.get2(t, "/admin/listings?q=&status=draft", mod)
		want(t, "drafts", res, 200, "Quiet Draft")
		wantNot(t, "drafts", res, ">Notably</a>")
		want(t, "no match", e.get2(t, "/admin/listings?q=nothing-like-this", mod), 200, "No listing matches")
		want(t, "q of 254", e.get2(t, "/admin/listings?q="+strings.Repeat("a", 254), mod), 200, "No listing matches")
		want(t, "q of 255", e.get2(t, "/admin/listings?q="+strings.Repeat("a", 255), mod), 400, `id="listings-q-problem"`, "at most 254")
		want(t, "bad status", e.get2(t, "/admin/listings?q=&status=gone", mod), 400, `id="listings-status-problem"`, "status must be one of")
		// Pages of 50.
		for i := 0; i < 50; i++ {
			fixtures.Listing(t, e.db, "zed@else.test", fixtures.Cols{"domain": "many.test"})
		}
		res = e.get2(t, "/admin/listings?q=many.test", mod)
		want(t, "page 1", res, 200, "1-50 of 50")
		wantNot(t, "page 1", res, `rel="next"`)
		fixtures.Listing(t, e.db, "zed@else.test", fixtures.Cols{"domain": "many.test"})
		want(t, "page 1 of 51", e.get2(t, "/admin/listings?q=many.test", mod), 200, "1-50 of 51", `rel="next"`)
		want(t, "page 2 of 51", e.get2(t, "/admin/listings?q=many.test&page=2", mod), 200, "51-51 of 51", `rel="prev"`)
	})
}

// TestListingsAdmin_HideUnhide: a moderator hides a live listing with a
// reason of 1-500 characters (0 and 501 are refused next to the field,
// nothing stored); the public page is gone, the owner sees the reason, the
// audit log has the before and after; hiding twice is a conflict; unhiding
// restores the status it had.
func TestListingsAdmin_HideUnhide(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		mod := as("mod")
		for _, reason := range []string{"", "   ", strings.Repeat("é", 501)} {
			res := e.post(t, e.path+"/hide", url.Values{"reason": {reason}}, mod...)
			want(t, "hide with "+strconv.Itoa(len(reason))+" bytes", res, 400, `id="hide-reason-problem"`, "1-500 characters")
		}
		if s := e.status(t, e.id); s != "live" || len(e.audits(t, "listing.hide")) != 0 {
			t.Fatalf("refused hides stored something: status %s", s)
		}
		want(t, "public page before", e.get(t, "/listings/notably"), 200)
		reason := strings.Repeat("é", 500)
		wantRedirect(t, "hide with 500", e.post(t, e.path+"/hide", url.Values{"reason": {reason}}, mod...), e.path)
		if s := e.status(t, e.id); s != domain.ListingHidden {
			t.Fatalf("status %s after hiding", s)
		}
		want(t, "public page hidden", e.get(t, "/listings/notably"), 404)
		a := e.audits(t, "listing.hide")
		if len(a) != 1 || a[0].Actor != "mod@launchdir.test" || a[0].Target != "listing:"+strconv.FormatInt(e.id, 10) ||
			string(a[0].Before) != `{"status":"live"}` || !strings.Contains(string(a[0].After), `"status":"hidden"`) || !strings.Contains(string(a[0].After), reason) {
			t.Fatalf("audit of the hide: %+v", a)
		}
		l, err := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.id})
		if err != nil || l.Status != domain.ListingHidden || l.Moderation == nil || l.Moderation.Reason != reason {
			t.Fatalf("the owner sees %+v, %v", l, err)
		}
		want(t, "listing page says hidden", e.get2(t, e.path, mod), 200, "since", "(was live)", reason, "Unhide")
		want(t, "hide again", e.post(t, e.path+"/hide", url.Values{"reason": {"x"}}, mod...), 409, "hidden already")
		// The owner cannot get around the hide by ordering a launch or a queue skip.
		for _, it := range []domain.OrderItem{{Product: domain.ProductLaunch, ListingID: e.id}, {Product: domain.ProductSkipQueue, ListingID: e.id, Week: "2026-11-23"}} {
			product := it.Product
			if _, err := e.svc.CreateCheckout(e.caller, domain.OrderInput{Items: []domain.OrderItem{it}}); err == nil ||
				!strings.Contains(err.Error(), "hidden") {
				t.Errorf("checkout of %s for a hidden listing: %v, want a refusal naming it hidden", product, err)
			}
		}
		wantRedirect(t, "unhide", e.post(t, e.path+"/unhide", url.Values{}, mod...), e.path)
		if s := e.status(t, e.id); s != "live" {
			t.Fatalf("status %s after unhiding", s)
		}
		want(t, "public page back", e.get(t, "/listings/notably"), 200)
		if u := e.audits(t, "listing.unhide"); len(u) != 1 || string(u[0].After) != `{"status":"live"}` || !strings.Contains(string(u[0].Before), reason) {
			t.Fatalf("audit of the unhide: %+v", u)
		}
		// One character is enough.
		wantRedirect(t, "hide with 1", e.post(t, e.path+"/hide", url.Values{"reason": {"x"}}, as("ops")...), e.path)
		want(t, "unhide a visible listing", e.post(t, "/admin/listings/999999/unhide", url.Values{}, mod...), 404)
	})
}

// TestListingsAdmin_Unpublish: admins only; a reason of 1-500 characters;
// the listing is archived, off the site, its owner sees why; again is a conflict.
func TestListingsAdmin_Unpublish(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		ops := as("ops")
		want(t, "unpublish 501", e.post(t, e.path+"/unpublish", url.Values{"reason": {strings.Repeat("a", 501)}}, ops...), 400, `id="unpublish-reason-problem"`)
		if s := e.status(t, e.id); s != "live" {
			t.Fatalf("refused unpublish: status %s", s)
		}
		wantRedirect(t, "unpublish 500", e.post(t, e.path+"/unpublish", url.Values{"reason": {strings.Repeat("a", 500)}}, ops...), e.path)
		if s := e.status(t, e.id); s != domain.ListingArchived {
			t.Fatalf("status %s", s)
		}
		want(t, "public page", e.get(t, "/listings/notably"), 404)
		l, err := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.id})
		if err != nil || l.Moderation == nil || l.Moderation.Action != "unpublished" {
			t.Fatalf("owner sees %+v %v", l, err)
		}
		if a := e.audits(t, "listing.unpublish"); len(a) != 1 || string(a[0].Before) != `{"status":"live"}` || !strings.Contains(string(a[0].After), `"archived"`) {
			t.Fatalf("audit %+v", a)
		}
		want(t, "again", e.post(t, e.path+"/unpublish", url.Values{"reason": {"b"}}, ops...), 409)
	})
}

// TestListingsAdmin_Merge: two listings of one company; everything moves to
// the survivor with no second vote, review or follow by the same person,
// the counts add up (nothing lost), the old slug 301s to the survivor and
// get_listing resolves it; refused merges change nothing.
func TestListingsAdmin_Merge(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		ctx := context.Background()
		db := e.db
		site := fixtures.First(t, db, "sites")
		cat1 := fixtures.Insert(t, db, "categories", fixtures.Cols{"site_id": site, "slug": "notes", "name": "Notes"})
		cat2 := fixtures.Insert(t, db, "categories", fixtures.Cols{"site_id": site, "slug": "teams", "name": "Teams"})
		fixtures.Insert(t, db, "listing_categories", fixtures.Cols{"listing_id": e.id, "category_id": cat1, "is_primary": 1})
		bob := fixtures.User(t, db, "bob@notably.test")
		dup := fixtures.Listing(t, db, "bob@notably.test", fixtures.Cols{"slug": "notably-app", "name": "Notably App", "domain": "notably.test",
			"status": "live", "launch_week": "2026-11-09", "launched_at": testNow.Unix() - 86400*8})
		fixtures.Insert(t, db, "listing_categories", fixtures.Cols{"listing_id": dup, "category_id": cat2, "is_primary": 0})
		other := fixtures.Listing(t, db, "bob@notably.test", fixtures.Cols{"slug": "elsewise", "name": "Elsewise", "domain": "elsewise.test", "status": "live"})
		now := testNow.Unix()
		voters := []int64{fixtures.User(t, db, "v1@x.test"), fixtures.User(t, db, "v2@x.test"), fixtures.User(t, db, "v3@x.test")}
		// v1 voted for both (one vote stays behind); v2 and v3 only for the duplicate.
		fixtures.Insert(t, db, "votes", fixtures.Cols{"listing_id": e.id, "voter_key": "k1", "user_id": voters[0], "created_at": now})
		for i, u := range voters {
			fixtures.Insert(t, db, "votes", fixtures.Cols{"listing_id": dup, "voter_key": "k" + strconv.Itoa(i+1), "user_id": u, "created_at": now})
		}
		fixtures.Insert(t, db, "reviews", fixtures.Cols{"listing_id": e.id, "user_id": voters[0], "stars": 5, "created_at": now})
		fixtures.Insert(t, db, "reviews", fixtures.Cols{"listing_id": dup, "user_id": voters[0], "stars": 3, "created_at": now})
		fixtures.Insert(t, db, "reviews", fixtures.Cols{"listing_id": dup, "user_id": voters[1], "stars": 4, "created_at": now})
		fixtures.Insert(t, db, "follows", fixtures.Cols{"listing_id": e.id, "follower_key": "f1", "created_at": now})
		fixtures.Insert(t, db, "follows", fixtures.Cols{"listing_id": dup, "follower_key": "f1", "created_at": now})
		fixtures.Insert(t, db, "follows", fixtures.Cols{"listing_id": dup, "follower_key": "f2", "created_at": now})
		for i := 0; i < 4; i++ {
			fixtures.Insert(t, db, "views", fixtures.Cols{"listing_id": dup, "viewer_key": "w" + strconv.Itoa(i), "created_at": now})
		}
		fixtures.Insert(t, db, "listing_updates", fixtures.Cols{"listing_id": dup, "title": "We shipped", "posted_at": now})
		bobCtx := domain.WithCaller(ctx, domain.Caller{UserID: bob, Email: "bob@notably.test", Via: domain.ViaAPIKey})
		tag := "Notes for teams"
		if _, err := e.svc.UpdateMyListing(bobCtx, domain.UpdateMyListingInput{ListingID: dup, Fields: patch(t, `{"tagline":"`+tag+`"}`)}); err != nil {
			t.Fatal(err)
		}
		tag2 := "Team notes, in Markdown"
		if _, err := e.svc.UpdateMyListing(e.caller, domain.UpdateMyListingInput{ListingID: e.id, Fields: patch(t, `{"tagline":"`+tag2+`"}`)}); err != nil {
			t.Fatal(err)
		}
		count := func(table string, id int64) int { return fixtures.Count(t, db, table, fixtures.Cols{"listing_id": id}) }
		col := func(id int64, c string) int {
			n, _ := strconv.Atoi(fixtures.Column(t, db, "listings", id, c))
			return n
		}
		type totals struct{ votes, reviews, follows, views, updates, versions, votesCount, viewsCount, followsCount int }
		sum := func() totals {
			var s totals
			for _, id := range []int64{e.id, dup} {
				s.votes += count("votes", id)
				s.reviews += count("reviews", id)
				s.follows += count("follows", id)
				s.views += count("views", id)
				s.updates += count("listing_updates", id)
				s.versions += count("listing_versions", id)
				s.votesCount += col(id, "votes_count")
				s.viewsCount += col(id, "views_count")
				s.followsCount += col(id, "follows_count")
			}
			return s
		}
		before := sum()
		ops := as("ops")
		dupPath := "/admin/listings/" + strconv.FormatInt(dup, 10)
		for _, c := range []struct{ into, msg string }{
			{"", "is not one"}, {"abc", "is not one"}, {"0", "is not one"},
			{strconv.FormatInt(dup, 10), "cannot be merged into itself"},
			{strconv.FormatInt(other, 10), "not listings of one company"},
			{"999999", "no listing 999999"},
		} {
			want(t, "merge into "+c.into, e.post(t, dupPath+"/merge", url.Values{"into": {c.into}}, ops...), 400, `id="merge-into-problem"`, c.msg)
		}
		if s := e.status(t, dup); s != "live" || len(e.audits(t, "listing.merge")) != 0 || sum() != before {
			t.Fatalf("refused merges changed something: %s %+v", s, sum())
		}
		want(t, "merge form lists the sibling", e.get2(t, dupPath, ops), 200, "Same company or domain", "Notably</a> (id "+strconv.FormatInt(e.id, 10))
		wantRedirect(t, "merge", e.post(t, dupPath+"/merge", url.Values{"into": {strconv.FormatInt(e.id, 10)}}, ops...), e.path)

		after := sum()
		if after != before {
			t.Errorf("merge lost or made rows: before %+v, after %+v", before, after)
		}
		for table, n := range map[string]int{"votes": 3, "reviews": 2, "follows": 2, "views": 4, "listing_updates": 1, "listing_versions": 2} {
			if got := count(table, e.id); got != n {
				t.Errorf("survivor has %d %s, want %d", got, table, n)
			}
		}
		if got := col(e.id, "votes_count"); got != 3 {
			t.Errorf("survivor votes_count %d, want 3 (v1 once, v2, v3)", got)
		}
		if got := count("votes", dup); got != 1 {
			t.Errorf("the merged listing keeps %d votes, want v1's second vote", got)
		}
		if fixtures.Count(t, db, "listing_categories", fixtures.Cols{"listing_id": e.id}) != 2 {
			t.Error("the duplicate's category did not move")
		}
		if fixtures.Count(t, db, "listing_owners", fixtures.Cols{"listing_id": e.id, "user_id": bob}) != 1 {
			t.Error("the duplicate's owner is not an owner of the survivor")
		}
		if _, err := e.svc.GetMyListing(bobCtx, domain.GetMyListingInput{ListingID: e.id}); err != nil {
			t.Errorf("bob cannot open the survivor: %v", err)
		}
		vs := fixtures.Rows(t, db, "listing_versions", fixtures.Cols{"listing_id": e.id})
		seenV := map[string]bool{}
		for _, v := range vs {
			if seenV[v["version"]] {
				t.Errorf("two versions %s on the survivor", v["version"])
			}
			seenV[v["version"]] = true
		}
		if s := e.status(t, dup); s != domain.ListingMerged {
			t.Fatalf("merged listing status %s", s)
		}
		res := e.get(t, "/listings/notably-app")
		if res.status != http.StatusMovedPermanently || res.header.Get("Location") != "/listings/notably" {
			t.Fatalf("old slug: %d to %q", res.status, res.header.Get("Location"))
		}
		if l, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: "notably-app"}); err != nil || l.Slug != "notably" {
			t.Fatalf("get_listing of the old slug: %+v %v", l, err)
		}
		a := e.audits(t, "listing.merge")
		if len(a) != 1 || a[0].Target != "listing:"+strconv.FormatInt(dup, 10) || !strings.Contains(string(a[0].After), `"Votes":2`) {
			t.Fatalf("audit %+v", a)
		}
		want(t, "merge a merged listing", e.post(t, dupPath+"/merge", url.Values{"into": {strconv.FormatInt(e.id, 10)}}, ops...), 409)
	})
}

// patch decodes update_my_listing fields.
func patch(t *testing.T, js string) *domain.ListingFieldsPatch {
	t.Helper()
	var p domain.ListingFieldsPatch
	if err := p.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatal(err)
	}
	return &p
}

// TestListingsAdmin_Transfer: the email must name an account (1-254
// characters with an @); the new owner can then edit the listing and the
// old one cannot; the new owner's pending claim is replaced.
func TestListingsAdmin_Transfer(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		ops := as("ops")
		carl := fixtures.User(t, e.db, "carl@notably.test")
		fixtures.Insert(t, e.db, "claims", fixtures.Cols{"listing_id": e.id, "user_id": carl, "method": "dns", "token": "tok",
			"domain": "notably.test", "created_at": testNow.Unix(), "expires_at": testNow.Unix() + 86400})
		for _, c := range []struct{ email, msg string }{
			{"", "Give the email"}, {"not-an-address", "with an @"},
			{strings.Repeat("a", 248) + "@x.test", "at most 254"},     // 255 characters
			{strings.Repeat("a", 247) + "@x.test", "no account with"}, // 254: inside, but nobody
			{"nobody@notably.test", "no account with the email"},
		} {
			want(t, "transfer to "+c.email, e.post(t, e.path+"/transfer", url.Values{"email": {c.email}}, ops...), 400, `id="transfer-email-problem"`, c.msg)
		}
		if len(e.audits(t, "listing.transfer")) != 0 {
			t.Fatal("refused transfers were audited")
		}
		wantRedirect(t, "transfer", e.post(t, e.path+"/transfer", url.Values{"email": {"Carl@Notably.test"}}, ops...), e.path)
		carlCtx := domain.WithCaller(context.Background(), domain.Caller{UserID: carl, Email: "carl@notably.test", Via: domain.ViaAPIKey})
		if _, err := e.svc.UpdateMyListing(carlCtx, domain.UpdateMyListingInput{ListingID: e.id, Fields: patch(t, `{"city":"Berlin"}`)}); err != nil {
			t.Errorf("the new owner cannot edit: %v", err)
		}
		if _, err := e.svc.UpdateMyListing(e.caller, domain.UpdateMyListingInput{ListingID: e.id, Fields: patch(t, `{"city":"Paris"}`)}); err == nil {
			t.Error("the old owner can still edit")
		}
		if s := fixtures.Rows(t, e.db, "claims", fixtures.Cols{"user_id": carl}); len(s) != 1 || s[0]["status"] != "replaced" {
			t.Errorf("carl's pending claim: %v", s)
		}
		if a := e.audits(t, "listing.transfer"); len(a) != 1 || string(a[0].Before) != `{"owners":["ann@notably.test"]}` || string(a[0].After) != `{"owners":["carl@notably.test"]}` {
			t.Fatalf("audit %+v", a)
		}
		want(t, "transfer again", e.post(t, e.path+"/transfer", url.Values{"email": {"carl@notably.test"}}, ops...), 409, "only owner")
	})
}

// TestListingsAdmin_Edit: the site team's edit is checked by
// update_my_listing's rules (a tagline of 200 characters passes, 201 is
// refused next to the field; founded_year 1800-2100; at most 20 features),
// nothing stored on refusal, and kept in the owners' version history,
// marked as the site team's and reviewed.
func TestListingsAdmin_Edit(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newListingsEnv(t, engine)
		ops := as("ops")
		many := strings.TrimSuffix(strings.Repeat("f\n", 21), "\n")
		for _, c := range []struct {
			form  url.Values
			field string
		}{
			{url.Values{"tagline": {strings.Repeat("t", 201)}}, "tagline"},
			{url.Values{"founded_year": {"1799"}}, "founded_year"},
			{url.Values{"founded_year": {"2101"}}, "founded_year"},
			{url.Values{"founded_year": {"soon"}}, "founded_year"},
			{url.Values{"country": {"XX"}}, "country"},
			{url.Values{"contact_email": {"not an email"}}, "contact_email"},
			{url.Values{"features": {many}}, "features"},
		} {
			res := e.post(t, e.path+"/edit", c.form, ops...)
			want(t, "edit "+c.form.Encode()[:min(40, len(c.form.Encode()))], res, 400, `id="edit-`+c.field+`-problem"`)
		}
		if n := fixtures.Count(t, e.db, "listing_versions", fixtures.Cols{"listing_id": e.id}); n != 0 || len(e.audits(t, "listing.edit")) != 0 {
			t.Fatalf("refused edits stored %d versions", n)
		}
		tag := strings.Repeat("t", 200)
		twenty := strings.TrimSuffix(strings.Repeat("g\n", 1), "\n")
		for i := 2; i <= 20; i++ {
			twenty += "\nfeature " + strconv.Itoa(i)
		}
		wantRedirect(t, "edit inside the bounds", e.post(t, e.path+"/edit", url.Values{"tagline": {tag}, "founded_year": {"1800"},
			"features": {twenty}, "city": {"Lisbon"}}, ops...), e.path)
		v := fixtures.Rows(t, e.db, "listing_versions", fixtures.Cols{"listing_id": e.id})
		if len(v) != 1 || v[0]["by_team"] != "1" || v[0]["by_email"] != "ops@launchdir.test" || v[0]["reviewed_by"] != "ops@launchdir.test" || v[0]["kind"] != "edit" {
			t.Fatalf("version %v", v)
		}
		l, err := e.svc.GetMyListing(e.caller, domain.GetMyListingInput{ListingID: e.id})
		if err != nil || len(l.History) != 1 || l.History[0].By != "ops@launchdir.test" || l.History[0].Note != console.TeamEditNote || l.Profile.Tagline != tag {
			t.Fatalf("owner's history %+v %v", l, err)
		}
		a := e.audits(t, "listing.edit")
		if len(a) != 1 || !strings.Contains(string(a[0].After), `"city":"Lisbon"`) || !strings.Contains(string(a[0].Before), `"tagline":"Team notes in Markdown"`) {
			t.Fatalf("audit %+v", a)
		}
		// The same values again change nothing: no version, no entry.
		wantRedirect(t, "same values", e.post(t, e.path+"/edit", url.Values{"tagline": {tag}, "city": {"Lisbon"}}, ops...), e.path)
		if n := fixtures.Count(t, e.db, "listing_versions", fixtures.Cols{"listing_id": e.id}); n != 1 || len(e.audits(t, "listing.edit")) != 1 {
			t.Fatalf("an edit without changes stored %d versions", n)
		}
		want(t, "history on the console", e.get2(t, e.path, ops), 200, "Version 1", "ops@launchdir.test", "Edited by the site team.")
	})
}
