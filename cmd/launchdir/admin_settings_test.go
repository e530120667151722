package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestAdmin_SettingsCommands: "launchdir admin settings get|set" show and
// change the site settings in the data directory with the console's rules
// (an unknown key, a value out of bounds: an error naming the rule, nothing
// stored), and a change reaches a running serve at once, without a restart:
// the name set on /admin/settings and the purpose set on the command line are
// on / and in get_site_info over REST on the next request; the audit log has
// both, by their actors.
func TestAdmin_SettingsCommands(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		store, _ := consoleData(t, engine)
		admin := func(args ...string) (string, error) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), time.Now, append([]string{"admin"}, append(args, store...)...), &out, &errOut)
			return out.String(), err
		}
		for _, c := range []struct {
			args []string
			want string // in the error
		}{
			{[]string{"settings"}, "give get [KEY] or set KEY VALUE"},
			{[]string{"settings", "get", "colour"}, `"colour" is no site setting`},
			{[]string{"settings", "set", "free_week_capacity"}, "give a key and a value"},
			{[]string{"settings", "set", "free_week_capacity", "0"}, "Free listings per week is 1-1000; 0 is below."},
			{[]string{"settings", "set", "free_week_capacity", "1001"}, "1-1000; 1001 is above."},
			{[]string{"settings", "set", "free_weeks_max", "5"}, "The latest free week (5) cannot come before the earliest (6)."},
			{[]string{"settings", "set", "site_name", " "}, "Site name is 1-80 characters long; it is empty."},
		} {
			if _, err := admin(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("admin %v: %v, want an error with %q", c.args, err, c.want)
			}
		}
		out, err := admin("settings", "get")
		if err != nil || strings.Contains(out, "stored") || !strings.Contains(out, "free_week_capacity          1-1000            default  20") {
			t.Fatalf("settings get before any set: %v\n%s", err, out)
		}
		if out, err := admin("settings", "set", "free_week_capacity", "1000"); err != nil || !strings.Contains(out, "value:    1000\nsource:   stored\ndefault:  20\nbounds:   1-1000") {
			t.Fatalf("settings set free_week_capacity 1000: %v\n%s", err, out)
		}
		if _, err := admin("grant", "--email", "boss@example.com", "--role", "admin"); err != nil {
			t.Fatal(err)
		}

		s := startServe(t, store...)
		origin := "http://127.0.0.1:" + s.port
		get := func(c *http.Client, path string) (int, string) {
			t.Helper()
			res, err := c.Get(origin + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		siteInfo := func() map[string]any {
			t.Helper()
			_, body := get(http.DefaultClient, "/v1/site")
			var info map[string]any
			if err := json.Unmarshal([]byte(body), &info); err != nil {
				t.Fatalf("GET /v1/site: %v\n%s", err, body)
			}
			return info
		}
		boss := s.signIn(t, origin, "boss@example.com")
		if st, body := get(boss, "/admin/settings"); st != 200 || !strings.Contains(body, `name="free_week_capacity" type="number" inputmode="numeric" min="1" max="1000" step="1" value="1000"`) {
			t.Fatalf("GET /admin/settings: %d, want the stored capacity 1000\n%s", st, body)
		}
		res, err := boss.PostForm(origin+"/admin/settings", url.Values{"site_name": {"Rocket Board"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin/settings?saved=1" {
			t.Fatalf("POST /admin/settings: %d to %q, want 303 to the saved page", res.StatusCode, res.Header.Get("Location"))
		}
		if _, body := get(http.DefaultClient, "/"); !strings.Contains(body, `class="brand" href="/">Rocket Board</a>`) {
			t.Errorf("/ after the name changed: no Rocket Board in the header")
		}
		if info := siteInfo(); info["name"] != "Rocket Board" {
			t.Errorf("get_site_info after the name changed: %v", info["name"])
		}
		// The command line, while serve runs: the next request sees it.
		if _, err := admin("settings", "set", "site_purpose", "Rockets, launched weekly."); err != nil {
			t.Fatal(err)
		}
		if info := siteInfo(); info["purpose"] != "Rockets, launched weekly." || info["name"] != "Rocket Board" {
			t.Errorf("get_site_info after the purpose changed on the command line: %v / %v", info["name"], info["purpose"])
		}
		st, body := get(boss, "/admin/audit?action=setting.set")
		for _, w := range []string{"setting:site_name", "boss@example.com", "setting:site_purpose", "setting:free_week_capacity", "command line",
			`{&#34;value&#34;:&#34;Rockets, launched weekly.&#34;}`, `{&#34;value&#34;:&#34;20&#34;}`, `{&#34;value&#34;:&#34;1000&#34;}`} {
			if st != 200 || !strings.Contains(body, w) {
				t.Errorf("audit log: %d, lacks %q", st, w)
			}
		}
	})
}
