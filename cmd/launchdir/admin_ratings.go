package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/app"
)

// adminRatingsUsage is the help of "launchdir admin ratings".
const adminRatingsUsage = `  launchdir admin ratings import FILE --source NAME [--dry-run] [--data DIR]
      import a Domain Rating CSV export (domain, rating, date columns), with the
      rules of /admin/ratings; prints the refused rows with their line and reason;
      --dry-run checks the file and stores nothing
`

// ratingsCmd is "launchdir admin ratings import FILE --source NAME". The
// file goes through the same checks as an upload on /admin/ratings; the
// command itself is the confirmation, so the accepted rows are stored at
// once (unless --dry-run) and the import is in the audit log as made by
// "command line". A file refused as a whole stores nothing; so does a file
// whose rows are all refused.
func ratingsCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 || args[0] != "import" {
		return fmt.Errorf("admin ratings: give import FILE --source NAME\n\n%s", adminRatingsUsage)
	}
	c := app.Defaults()
	var source string
	var dryRun bool
	fs := flag.NewFlagSet("admin ratings import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	app.Register(fs, &c, adminSettings...)
	fs.StringVar(&source, "source", "", "the SEO provider the file comes from, e.g. ahrefs (required)")
	fs.BoolVar(&dryRun, "dry-run", false, "check the file and show what would be stored; store nothing")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf(`admin ratings import: give one CSV file, e.g. "launchdir admin ratings import export.csv --source ahrefs"; got %d argument(s)`, len(pos))
	}
	if _, err := console.CheckRatingSource(source); err != nil {
		return adminError("admin ratings import: --source", err)
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return fmt.Errorf("admin ratings import: %w", err)
	}
	defer f.Close()
	cons, closeDB, err := adminConsole(ctx, c, now, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	imp, err := cons.ImportRatings(ctx, console.ActorCommandLine, filepath.Base(pos[0]), source, f, dryRun)
	if imp != nil {
		for _, r := range imp.Rows {
			if r.Refused() {
				fmt.Fprintf(stdout, "line %d refused: %s\n", r.Line, r.Reason)
			}
		}
	}
	if err != nil {
		return adminError("admin ratings import", err)
	}
	if dryRun {
		fmt.Fprintf(stdout, "dry run of %s: %d row(s) would be stored, %d refused; nothing was stored\n", imp.FileName, imp.Accepted, imp.Refused)
		return nil
	}
	fmt.Fprintf(stdout, "import #%d of %s (%s): %d row(s) accepted, %d refused; %d reading(s) added, %d updated, %d unchanged\n",
		imp.ID, imp.FileName, imp.Source, imp.Accepted, imp.Refused, imp.Added, imp.Updated, imp.Unchanged)
	return nil
}
