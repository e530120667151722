package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// byCookie signs requests in by their session cookie: "session=<name>" is
// <name>@launchdir.test.
func byCookie(r *http.Request) (string, bool) {
	c, err := r.Cookie("session")
	if err != nil || c.Value == "" {
		return "", false
	}
	return c.Value + "@launchdir.test", true
}

func as(name string) []string { return []string{"Cookie", "session=" + name} }

// TestTeam_Permissions: admins reach every console page and form, moderators
// the review queue only (an admin page or form is a 404 page to them, and
// changes nothing), everyone else nothing.
func TestTeam_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		if err := e.console.GrantTeamRole(context.Background(), "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
			t.Fatal(err)
		}
		price := launchPrice(t, e.svc)
		for _, c := range []struct {
			path          string
			post          url.Values
			admin, mod    int
			someone, anon int
		}{
			{"/admin", nil, 200, 200, 404, 404},
			{"/admin/queue", nil, 200, 200, 404, 404},
			{"/admin/team", nil, 200, 404, 404, 404},
			{"/admin/audit", nil, 200, 404, 404, 404},
			{"/admin/prices", url.Values{"code": {"launch"}, "cents": {"100"}}, 0, 404, 404, 404},
			{"/admin/team", url.Values{"email": {"x@launchdir.test"}, "role": {"admin"}}, 0, 404, 404, 404},
			{"/admin/team/revoke", url.Values{"email": {"ops@launchdir.test"}}, 0, 404, 404, 404},
		} {
			for who, st := range map[string]int{"ops": c.admin, "mod": c.mod, "someone": c.someone, "": c.anon} {
				if st == 0 {
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
				res := e.do(t, method, c.path, c.post, hdr...)
				if res.status != st {
					t.Errorf("%q %s %s: %d, want %d", who, method, c.path, res.status, st)
				}
			}
		}
		if got := launchPrice(t, e.svc); got != price {
			t.Errorf("a refused price form changed the price: %d -> %d", price, got)
		}
		if role, _ := e.console.TeamRole(context.Background(), "x@launchdir.test"); role != "" {
			t.Errorf("a refused grant made x a %s", role)
		}
		res := e.do(t, http.MethodGet, "/admin", nil, as("mod")...)
		want(t, "moderator's /admin", res, 200, "You are a moderator", "/admin/queue")
		wantNot(t, "moderator's /admin", res, "Product prices", "Latest orders", "/admin/team")
	})
}

// TestTeam_GrantRevokeAndAudit: the team page grants and removes roles with
// its rules shown next to the field (400, nothing stored), never leaves the
// site without an admin (409), and every change, a price included, is in
// the audit log with who, what and the values before and after; the log
// filters by who, action, target and dates, and refuses a bad date.
func TestTeam_GrantRevokeAndAudit(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ops := as("ops")
		for _, c := range []struct {
			form  url.Values
			field string
			msg   string
		}{
			{url.Values{"email": {"not an address"}, "role": {"moderator"}}, "team-email-problem", "is not one"},
			{url.Values{"email": {strings.Repeat("a", 250) + "@x.io"}, "role": {"moderator"}}, "team-email-problem", "is not one"},
			{url.Values{"email": {"new@launchdir.test"}, "role": {"owner"}}, "team-role-problem", "is neither"},
		} {
			res := e.post(t, "/admin/team", c.form, ops...)
			want(t, "grant "+c.form.Encode(), res, 400, `id="`+c.field+`"`, c.msg)
		}
		if members, _ := e.console.TeamMembers(context.Background()); len(members) != 2 {
			t.Fatalf("refused grants changed the team: %v", members)
		}
		wantRedirect(t, "grant", e.post(t, "/admin/team", url.Values{"email": {"New@Launchdir.test"}, "role": {"moderator"}}, ops...), "/admin/team")
		want(t, "team page", e.get2(t, "/admin/team", ops), 200, "new@launchdir.test", "moderator")
		// Two admins (ops@ and team@ from the env): one may go, the last may not.
		wantRedirect(t, "revoke team@", e.post(t, "/admin/team/revoke", url.Values{"email": {"team@launchdir.test"}}, ops...), "/admin/team")
		want(t, "revoke the last admin", e.post(t, "/admin/team/revoke", url.Values{"email": {"ops@launchdir.test"}}, ops...), 409, "only admin")
		want(t, "revoke a non-member", e.post(t, "/admin/team/revoke", url.Values{"email": {"ghost@launchdir.test"}}, ops...), 404)

		before := launchPrice(t, e.svc)
		wantRedirect(t, "set price", e.post(t, "/admin/prices", url.Values{"code": {"launch"}, "cents": {"4321"}}, ops...), "/admin")
		res := e.get2(t, "/admin/audit?action=price.set", ops)
		want(t, "audit of the price", res, 200, "ops@launchdir.test", "product:launch", `{"cents":`+strconv.FormatInt(before, 10)+`}`, `{"cents":4321}`)
		wantNot(t, "audit filtered by action", res, "team.grant")
		want(t, "audit by target", e.get2(t, "/admin/audit?target=member:new@launchdir.test", ops), 200, "team.grant", `{"role":"moderator"}`)
		want(t, "audit of the revoke", e.get2(t, "/admin/audit?action=team.revoke", ops), 200, "member:team@launchdir.test", `{"role":"admin"}`)
		want(t, "audit by actor", e.get2(t, "/admin/audit?actor=nobody@launchdir.test", ops), 200, "No entries match this filter")
		want(t, "audit in a date range", e.get2(t, "/admin/audit?since=2000-01-01&until=2000-01-02", ops), 200, "No entries match")
		want(t, "audit with a bad date", e.get2(t, "/admin/audit?since=yesterday", ops), 400, "since is a date such as")
		want(t, "audit with until before since", e.get2(t, "/admin/audit?since=2026-11-20&until=2026-11-01", ops), 400, "until must be after since")
		want(t, "audit with a bad page", e.get2(t, "/admin/audit?page=0", ops), 400, "page is a whole number")
	})
}

func (e *orderEnv) get2(t *testing.T, path string, hdr []string) response {
	return e.do(t, http.MethodGet, path, nil, hdr...)
}
