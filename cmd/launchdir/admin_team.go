package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/app"
)

// adminTeamUsage is the help of the admin subcommand's team verbs.
const adminTeamUsage = `  launchdir admin team [--data DIR]
      the site team: every member with their role
  launchdir admin grant --email EMAIL --role admin|moderator [--data DIR]
      make EMAIL a member (admins see the whole console, moderators the review queue)
  launchdir admin revoke --email EMAIL [--data DIR]
      remove EMAIL from the team (the last admin cannot be removed)
`

// teamCmd is "launchdir admin team|grant|revoke". It goes through the same
// domain rules as the console's team page, and the change is written to the
// audit log as made by "command line".
func teamCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	verb := args[0]
	c := app.Defaults()
	var email, role string
	fs := newFlags("admin "+verb, stderr, &c, adminSettings...)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	if verb != "team" {
		fs.StringVar(&email, "email", "", "the member's email address (the one they sign in with)")
	}
	if verb == "grant" {
		fs.StringVar(&role, "role", "", "admin or moderator")
	}
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("admin %s takes flags only, got %q", verb, strings.Join(pos, " "))
	}
	if verb != "team" && strings.TrimSpace(email) == "" {
		return fmt.Errorf("admin %s: give --email, the address the person signs in with", verb)
	}
	cons, closeDB, err := adminConsole(ctx, c, now, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	switch verb {
	case "grant":
		err = cons.GrantTeamRole(ctx, console.ActorCommandLine, email, role)
	case "revoke":
		err = cons.RevokeTeamRole(ctx, console.ActorCommandLine, email)
	}
	if err != nil {
		return adminError("admin "+verb, err)
	}
	members, err := cons.TeamMembers(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tROLE\tGRANTED BY\tSINCE")
	for _, m := range members {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Email, m.Role, m.GrantedBy, m.GrantedAt.Format("2006-01-02 15:04 UTC"))
	}
	return tw.Flush()
}

// adminSettings are the settings the admin subcommands take.
var adminSettings = []string{"data", "database", "site-name"}

// adminConsole opens the data directory of c through the one wiring path
// and returns the site team's console over it on the clock now, for the
// admin subcommands that go through the console's rules; closeDB
// closes it. No job runs.
func adminConsole(ctx context.Context, c app.Config, now func() time.Time, stderr io.Writer) (_ *console.Console, closeDB func(), _ error) {
	a, err := app.Open(ctx, c, app.Adapters{Now: now, Logger: commandLogger(stderr)})
	if err != nil {
		return nil, nil, err
	}
	return a.Console, func() { _ = a.Close() }, nil
}

// adminError is err of the admin subcommand what: a domain error by its
// message (the words the console shows), anything else wrapped.
func adminError(what string, err error) error {
	var de *domain.Error
	if errors.As(err, &de) {
		return fmt.Errorf("%s: %s", what, de.Message)
	}
	return fmt.Errorf("%s: %w", what, err)
}
