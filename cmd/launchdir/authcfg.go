package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/launchdir/launchdir/internal/app"
)

// apikeyCmd is "launchdir apikey create --email ADDRESS [--name NAME]": it
// creates an API key for the account with that email (creating the account
// when none exists) and prints the key once.
func apikeyCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New(`apikey: say what to do: "launchdir apikey create --email ADDRESS [--name NAME]"`)
	}
	c := app.Defaults()
	var email, name string
	fs := newFlags("apikey create", stderr, &c, app.SiteSettings...)
	fs.StringVar(&email, "email", "", "email address of the account (created when it does not exist)")
	fs.StringVar(&name, "name", "operator", "name of the key, shown on the account page")
	if err := app.Parse(fs, args[1:]); err != nil {
		return err
	}
	if email == "" {
		return errors.New("apikey create: --email is required")
	}
	keys, err := app.OpenKeys(ctx, c, app.Adapters{Now: now, Logger: commandLogger(stderr)})
	if err != nil {
		return err
	}
	defer keys.Close()
	key, k, err := keys.Auth.CreateAPIKey(ctx, email, name)
	if err != nil {
		return fmt.Errorf("apikey create: %w", err)
	}
	fmt.Fprintf(stderr, "created API key %q (id %d) for %s; it is shown only now:\n", k.Name, k.ID, email)
	fmt.Fprintln(stdout, key)
	return nil
}
