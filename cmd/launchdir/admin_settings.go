package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/app"
)

// adminSettingsUsage is the help of "launchdir admin settings".
const adminSettingsUsage = `  launchdir admin settings get [KEY] [--data DIR]
      the site settings (or one): the value in effect, the default and the bounds
  launchdir admin settings set KEY VALUE [--data DIR]
      change a site setting, with the rules of /admin/settings; serve uses it at once
`

// settingsCmd is "launchdir admin settings get|set". It goes through the
// same domain rules as /admin/settings, and a change is written to the
// audit log as made by "command line". The defaults shown are this
// command's (LAUNCHDIR_SITE_NAME, the flags' defaults): serve's flags may
// give other ones.
func settingsCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 || (args[0] != "get" && args[0] != "set") {
		return fmt.Errorf("admin settings: give get [KEY] or set KEY VALUE\n\n%s", adminSettingsUsage)
	}
	verb := args[0]
	c := app.Defaults()
	fs := flag.NewFlagSet("admin settings "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	app.Register(fs, &c, adminSettings...)
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	switch {
	case verb == "get" && len(pos) > 1:
		return fmt.Errorf("admin settings get takes at most one key, got %q", strings.Join(pos, " "))
	case verb == "set" && len(pos) != 2:
		return fmt.Errorf(`admin settings set: give a key and a value, e.g. "launchdir admin settings set free_week_capacity 25"; got %d argument(s)`, len(pos))
	}
	if len(pos) >= 1 {
		if _, fe := console.CheckSetting(pos[0], ""); fe != nil && fe.Field == "key" {
			return fmt.Errorf("admin settings %s: %s", verb, fe.Message)
		}
	}
	cons, closeDB, err := adminConsole(ctx, c, now, stderr)
	if err != nil {
		return err
	}
	defer closeDB()
	if verb == "set" {
		if err := cons.SetSiteSettings(ctx, console.ActorCommandLine, map[string]string{pos[0]: pos[1]}); err != nil {
			return adminError("admin settings set", err)
		}
	}
	views, err := cons.SiteSettings(ctx)
	if err != nil {
		return err
	}
	if len(pos) >= 1 {
		for _, v := range views {
			if v.Key == pos[0] {
				fmt.Fprintf(stdout, "key:      %s\nvalue:    %s\nsource:   %s\ndefault:  %s\nbounds:   %s\n", v.Key, v.Value, source(v), v.Default, v.Bounds())
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tBOUNDS\tSOURCE\tVALUE")
	for _, v := range views {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.Key, v.Bounds(), source(v), v.Value)
	}
	return tw.Flush()
}

// source says where a setting's value comes from.
func source(v console.SettingView) string {
	if v.Stored {
		return "stored"
	}
	return "default"
}
