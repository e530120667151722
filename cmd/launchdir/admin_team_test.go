package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestAdmin_TeamCommands: "launchdir admin grant|revoke|team" keep the site
// team in the data directory, with the console's rules (one email address,
// admin or moderator, never without an admin), and serve reads the roles:
// the moderator sees the queue but not the team page, the admin both, and the
// audit log shows the grants made on the command line.
func TestAdmin_TeamCommands(t *testing.T) {
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
			{[]string{"grant", "--email", "not an address", "--role", "admin"}, "is not one"},
			{[]string{"grant", "--email", "boss@example.com", "--role", "owner"}, "admin (the whole console) or moderator"},
			{[]string{"grant", "--role", "admin"}, "give --email"},
			{[]string{"revoke", "--email", "nobody@example.com"}, `No team member "nobody@example.com"`},
		} {
			if _, err := admin(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("admin %v: %v, want an error with %q", c.args, err, c.want)
			}
		}
		if out, err := admin("team"); err != nil || strings.Contains(out, "@") {
			t.Fatalf("admin team before any grant: %v\n%s", err, out)
		}
		if out, err := admin("grant", "--email", "Boss@Example.com", "--role", "admin"); err != nil || !strings.Contains(out, "boss@example.com  admin") {
			t.Fatalf("grant admin: %v\n%s", err, out)
		}
		if _, err := admin("revoke", "--email", "boss@example.com"); err == nil || !strings.Contains(err.Error(), "only admin") {
			t.Errorf("revoking the last admin: %v, want refused", err)
		}
		if out, err := admin("grant", "--email", "mod@example.com", "--role", "moderator"); err != nil || !strings.Contains(out, "mod@example.com   moderator") {
			t.Fatalf("grant moderator: %v\n%s", err, out)
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
		mod, boss, someone := s.signIn(t, origin, "mod@example.com"), s.signIn(t, origin, "boss@example.com"), s.signIn(t, origin, "someone@example.com")
		for _, c := range []struct {
			who    string
			client *http.Client
			path   string
			status int
			want   string
		}{
			{"moderator", mod, "/admin", 200, "You are a moderator"},
			{"moderator", mod, "/admin/queue", 200, "Review queue"},
			{"moderator", mod, "/admin/team", 404, "Page not found"},
			{"moderator", mod, "/admin/audit", 404, "Page not found"},
			{"admin", boss, "/admin", 200, "Product prices"},
			{"admin", boss, "/admin/team", 200, "mod@example.com"},
			{"admin", boss, "/admin/audit?actor=command+line&action=team.grant", 200, "member:mod@example.com"},
			{"non-member", someone, "/admin", 404, "Page not found"},
			{"non-member", someone, "/admin/queue", 404, "Page not found"},
		} {
			if st, body := get(c.client, c.path); st != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%s GET %s: %d, want %d with %q", c.who, c.path, st, c.status, c.want)
			}
		}
	})
}
