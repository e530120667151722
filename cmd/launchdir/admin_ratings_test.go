package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestAdmin_RatingsImport: "launchdir admin ratings import FILE --source
// NAME" checks the file with the rules of /admin/ratings, prints the
// refused rows with their line and reason, stores the accepted ones (once:
// running it again changes nothing) with a rating.import audit entry by
// "command line"; --dry-run and a refused file store nothing.
func TestAdmin_RatingsImport(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		dir := t.TempDir()
		store, path := consoleData(t, engine)
		admin := func(args ...string) (string, error) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), time.Now, append([]string{"admin"}, append(args, store...)...), &out, &errOut)
			return out.String(), err
		}
		file := func(name, body string) string {
			p := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}
		good := file("export.csv", "Date,Target,Domain Rating\n2025-01-01,https://www.Example.com/,41\n2025-02-01,example.com,43\n2025-02-01,other.test,101\n2999-01-01,other.test,5\n")
		for _, c := range []struct {
			args []string
			want string // in the error
		}{
			{[]string{"ratings"}, "give import FILE --source NAME"},
			{[]string{"ratings", "import", good}, "Name the SEO provider"},
			{[]string{"ratings", "import", "--source", "ahrefs"}, "give one CSV file"},
			{[]string{"ratings", "import", good, "--source", strings.Repeat("a", 61)}, "at most 60 characters"},
			{[]string{"ratings", "import", filepath.Join(dir, "missing.csv"), "--source", "ahrefs"}, "no such file"},
			{[]string{"ratings", "import", file("bad.csv", "domain,rating\nexample.com,4\n"), "--source", "ahrefs"}, "no date column"},
			{[]string{"ratings", "import", file("none.csv", "domain,rating,date\nexample.com,-1,2025-01-01\n"), "--source", "ahrefs"}, "No row of the file was accepted"},
		} {
			if _, err := admin(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("admin %v: %v, want an error with %q", c.args, err, c.want)
			}
		}
		out, err := admin("ratings", "import", good, "--source", "ahrefs", "--dry-run")
		if err != nil || !strings.Contains(out, "line 4 refused: rating: 101 is above 100") || !strings.Contains(out, "line 5 refused: date: 2999-01-01 is after today") ||
			!strings.Contains(out, "2 row(s) would be stored, 2 refused; nothing was stored") {
			t.Fatalf("dry run: %v\n%s", err, out)
		}
		readings := func() []storage.Row {
			t.Helper()
			db, err := storage.Open(path, storage.WithClock(time.Now))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rows, err := db.Rows(context.Background(), "domain_ratings", nil)
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
		if n := len(readings()); n != 0 {
			t.Fatalf("refused files and the dry run stored %d readings", n)
		}
		out, err = admin("ratings", "import", good, "--source", "ahrefs")
		if err != nil || !strings.Contains(out, "line 4 refused") || !strings.Contains(out, "of export.csv (ahrefs): 2 row(s) accepted, 2 refused; 2 reading(s) added, 0 updated, 0 unchanged") {
			t.Fatalf("import: %v\n%s", err, out)
		}
		out, err = admin("ratings", "import", good, "--source", "ahrefs")
		if err != nil || !strings.Contains(out, "0 reading(s) added, 0 updated, 2 unchanged") {
			t.Fatalf("import again: %v\n%s", err, out)
		}
		rows := readings()
		var got []string
		for _, r := range rows {
			got = append(got, r["domain"]+" "+r["date"]+" "+r["value"]+" "+r["source"])
		}
		if w := "[example.com 2025-01-01 41 ahrefs example.com 2025-02-01 43 ahrefs]"; strings.Join(got, " ") != strings.Trim(w, "[]") {
			t.Errorf("stored %v, want %s", got, w)
		}
		db, err := storage.Open(path, storage.WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		audit, err := db.Rows(context.Background(), "audit_log", map[string]any{"action": "rating.import"})
		if err != nil || len(audit) != 2 || audit[0]["actor"] != "command line" || !strings.Contains(audit[0]["after"], `"added":2`) || !strings.Contains(audit[1]["after"], `"unchanged":2`) {
			t.Errorf("audit entries %v %v", audit, err)
		}
	})
}
