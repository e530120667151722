package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// storedSettings reads the settings table through the service.
func storedSettings(t *testing.T, svc *console.Console) map[string]string {
	t.Helper()
	views, err := svc.SiteSettings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, v := range views {
		if v.Stored {
			out[v.Key] = v.Value
		}
	}
	return out
}

// TestSettings_Permissions: the settings page and its form are the admins';
// a moderator and everyone else get the 404 page and change nothing.
func TestSettings_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		if err := e.console.GrantTeamRole(context.Background(), "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
			t.Fatal(err)
		}
		form := url.Values{"site_name": {"Taken Over"}}
		for who, st := range map[string]int{"ops": 200, "mod": 404, "someone": 404, "": 404} {
			var hdr []string
			if who != "" {
				hdr = as(who)
			}
			res := e.do(t, http.MethodGet, "/admin/settings", nil, hdr...)
			if res.status != st {
				t.Errorf("%q GET /admin/settings: %d, want %d", who, res.status, st)
			}
			if who == "ops" {
				continue
			}
			if res := e.do(t, http.MethodPost, "/admin/settings", form, hdr...); res.status != 404 {
				t.Errorf("%q POST /admin/settings: %d, want 404", who, res.status)
			}
		}
		if got := storedSettings(t, e.console); len(got) != 0 {
			t.Errorf("refused posts stored settings: %v", got)
		}
		want(t, "admin's /admin", e.get2(t, "/admin", as("ops")), 200, `href="/admin/settings"`)
		wantNot(t, "moderator's /admin", e.get2(t, "/admin", as("mod")), `href="/admin/settings"`)
		res := e.get2(t, "/admin/settings", as("ops"))
		want(t, "settings page", res, 200, `name="site_name"`, `value="Launchdir"`, `name="free_week_capacity"`, `min="1" max="1000"`,
			"Allowed: 1-1000", `Default: <span class="setting-default">20</span>`, `name="vote_min_account_age_hours"`, "Allowed: 0-720")
	})
}

// TestSettings_Bounds: every setting just inside its bounds is stored, just
// outside is a 400 page with the problem next to its field and nothing
// stored; the latest free week cannot come before the earliest.
func TestSettings_Bounds(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ops := as("ops")
		for _, d := range console.SettingDefs {
			var inside, outside []string
			if d.Text() {
				inside = []string{strings.Repeat("é", d.Min), strings.Repeat("n", d.Max)}
				outside = []string{strings.Repeat("n", d.Min-1), strings.Repeat("n", d.Max+1)}
			} else {
				inside = []string{strconv.Itoa(d.Min), strconv.Itoa(d.Max)}
				outside = []string{strconv.Itoa(d.Min - 1), strconv.Itoa(d.Max + 1), "seven"}
			}
			for _, v := range outside {
				before := storedSettings(t, e.console)
				res := e.post(t, "/admin/settings", url.Values{d.Key: {v}}, ops...)
				want(t, fmt.Sprintf("%s=%q", d.Key, v), res, 400, `id="setting-`+d.Key+`-problem"`, d.Label+" is", "Nothing was changed")
				if got := storedSettings(t, e.console); fmt.Sprint(got) != fmt.Sprint(before) {
					t.Errorf("%s=%q refused but stored: %v -> %v", d.Key, v, before, got)
				}
			}
			for _, v := range inside {
				if d.Key == domain.SettingFreeWeeksMin || d.Key == domain.SettingFreeWeeksMax {
					// Both at once: the earliest week never after the latest.
					wantRedirect(t, d.Key+"="+v, e.post(t, "/admin/settings", url.Values{
						domain.SettingFreeWeeksMin: {v}, domain.SettingFreeWeeksMax: {v}}, ops...), "/admin/settings?saved=1")
				} else {
					wantRedirect(t, d.Key+"="+v, e.post(t, "/admin/settings", url.Values{d.Key: {v}}, ops...), "/admin/settings?saved=1")
				}
				if got := storedSettings(t, e.console)[d.Key]; got != v {
					t.Errorf("%s=%q: stored %q", d.Key, v, got)
				}
			}
		}
		wantRedirect(t, "weeks 6-8", e.post(t, "/admin/settings", url.Values{"free_weeks_min": {"6"}, "free_weeks_max": {"8"}}, ops...), "/admin/settings?saved=1")
		res := e.post(t, "/admin/settings", url.Values{"free_weeks_max": {"5"}}, ops...)
		want(t, "max below min", res, 400, `id="setting-free_weeks_max-problem"`, "The latest free week (5) cannot come before the earliest (6).")
		res = e.post(t, "/admin/settings", url.Values{"free_weeks_min": {"9"}}, ops...)
		want(t, "min above max", res, 400, `id="setting-free_weeks_min-problem"`, "cannot come before the earliest (9)")
		if got := storedSettings(t, e.console); got["free_weeks_min"] != "6" || got["free_weeks_max"] != "8" {
			t.Errorf("refused week orders stored: %v", got)
		}
	})
}

// TestSettings_RefusedFormAuditAndEffect: a form with one wrong field stores
// none of its fields and shows every problem next to its field with what was
// typed; a good form stores the changed settings only, each with a
// setting.set entry (before and after) in the audit log, and the site name
// is on the home page at once.
func TestSettings_RefusedFormAuditAndEffect(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		ops := as("ops")
		form := func(name, capacity, hours string) url.Values {
			v := url.Values{}
			views, _ := e.console.SiteSettings(context.Background())
			for _, s := range views {
				v.Set(s.Key, s.Value)
			}
			v.Set("site_name", name)
			v.Set("free_week_capacity", capacity)
			v.Set("badge_check_hours", hours)
			return v
		}
		res := e.post(t, "/admin/settings", form("Rocket Board", "0", "169"), ops...)
		want(t, "two wrong fields", res, 400, `id="setting-free_week_capacity-problem"`, "1-1000; 0 is below",
			`id="setting-badge_check_hours-problem"`, "1-168; 169 is above", `value="Rocket Board"`)
		wantNot(t, "two wrong fields", res, `id="setting-site_name-problem"`)
		if got := storedSettings(t, e.console); len(got) != 0 {
			t.Fatalf("a refused form stored %v", got)
		}
		wantNot(t, "home after a refused form", e.get2(t, "/", nil), "Rocket Board")

		wantRedirect(t, "good form", e.post(t, "/admin/settings", form("  Rocket Board ", "20", "12"), ops...), "/admin/settings?saved=1")
		if got := storedSettings(t, e.console); len(got) != 2 || got["site_name"] != "Rocket Board" || got["badge_check_hours"] != "12" {
			t.Fatalf("stored %v, want the two changed settings only", got)
		}
		want(t, "home page", e.get2(t, "/", nil), 200, "<title>Rocket Board</title>", `class="brand" href="/">Rocket Board</a>`)
		info, err := e.svc.GetSiteInfo(context.Background(), domain.Empty{})
		if err != nil || info.Name != "Rocket Board" {
			t.Errorf("get_site_info after the change: %v %q", err, info.Name)
		}
		want(t, "saved page", e.get2(t, "/admin/settings?saved=1", ops), 200, "Saved.", `value="Rocket Board"`)
		res = e.get2(t, "/admin/audit?action=setting.set", ops)
		want(t, "audit", res, 200, "ops@launchdir.test", "setting:site_name", `{"value":"Launchdir"}`, `{"value":"Rocket Board"}`,
			"setting:badge_check_hours", `{"value":"6"}`, `{"value":"12"}`)
		wantNot(t, "audit", res, "setting:free_week_capacity")
		// The same values again change nothing and write nothing.
		wantRedirect(t, "same form", e.post(t, "/admin/settings", form("Rocket Board", "20", "12"), ops...), "/admin/settings?saved=1")
		if n := strings.Count(e.get2(t, "/admin/audit?action=setting.set", ops).body, "setting:"); n != 2 {
			t.Errorf("audit has %d setting entries after an unchanged form, want 2", n)
		}
	})
}

// TestSettings_DefaultOutsideBounds: a default from a flag the form cannot
// hold (--vote-min-account-age 90m is 1.5 hours) is shown, and sending it
// back unchanged does not block saving the other fields.
func TestSettings_DefaultOutsideBounds(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
		e.svc.VoteMinAccountAge, e.console.VoteMinAccountAge = 90*time.Minute, 90*time.Minute // the flag: both read it
		ops := as("ops")
		want(t, "settings page", e.get2(t, "/admin/settings", ops), 200, `name="vote_min_account_age_hours" type="number" inputmode="numeric" min="0" max="720" step="1" value="1.5"`)
		form := url.Values{}
		views, err := e.console.SiteSettings(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range views {
			form.Set(v.Key, v.Value)
		}
		form.Set("site_name", "Half Hours")
		wantRedirect(t, "form with the 1.5 default", e.post(t, "/admin/settings", form, ops...), "/admin/settings?saved=1")
		if got := storedSettings(t, e.console); len(got) != 1 || got["site_name"] != "Half Hours" {
			t.Errorf("stored %v, want the site name only", got)
		}
		form.Set("vote_min_account_age_hours", "2.5")
		want(t, "a new fraction", e.post(t, "/admin/settings", form, ops...), 400, `id="setting-vote_min_account_age_hours-problem"`, "is not one")
	})
}
