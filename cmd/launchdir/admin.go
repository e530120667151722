package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/internal/app"
)

// adminUsage is the help of the admin subcommand.
const adminUsage = `launchdir admin: the site team's tasks on the data directory.

Usage:
  launchdir admin prices list [--data DIR] [--currency USD]
      every product with its price: the operator's, or "default" (the price in code)
  launchdir admin prices set CODE CENTS [--currency USD] [--data DIR]
      set a product's price in cents before VAT (4900 is 49.00; 0 makes it free);
      quotes and checkouts made afterwards use it, existing orders keep theirs
` + adminTeamUsage + adminSettingsUsage + adminRatingsUsage

// adminCmd is "launchdir admin prices list|set ...". Prices go through the
// same domain rules as the admin page (domain.Service.SetProductPrice), so the
// two refuse the same things with the same words.
func adminCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) >= 1 && (args[0] == "team" || args[0] == "grant" || args[0] == "revoke") {
		return teamCmd(ctx, now, args, stdout, stderr)
	}
	if len(args) >= 1 && args[0] == "settings" {
		return settingsCmd(ctx, now, args[1:], stdout, stderr)
	}
	if len(args) >= 1 && args[0] == "ratings" {
		return ratingsCmd(ctx, now, args[1:], stdout, stderr)
	}
	if len(args) < 2 || args[0] != "prices" || (args[1] != "list" && args[1] != "set") {
		fmt.Fprint(stderr, adminUsage)
		return errors.New(`admin: say what to do: "launchdir admin prices list", "launchdir admin prices set CODE CENTS", "launchdir admin team", "launchdir admin grant --email EMAIL --role admin|moderator", "launchdir admin revoke --email EMAIL", "launchdir admin settings get|set" or "launchdir admin ratings import FILE --source NAME"`)
	}
	verb := args[1]
	c := app.Defaults()
	fs := newFlags("admin prices "+verb, stderr, &c, append(adminSettings, "currency")...)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	pos, err := parseInterspersed(fs, args[2:])
	if err != nil {
		return err
	}
	c.Currency = strings.ToUpper(strings.TrimSpace(c.Currency))
	currency := c.Currency
	if !validate.IsCurrency(currency) {
		return fmt.Errorf("admin prices %s: --currency %q: use an ISO 4217 code of three letters such as USD or EUR", verb, currency)
	}
	var code string
	var cents int64
	switch verb {
	case "list":
		if len(pos) != 0 {
			return fmt.Errorf("admin prices list takes no arguments, got %q", strings.Join(pos, " "))
		}
	case "set":
		if len(pos) != 2 {
			return fmt.Errorf(`admin prices set: give a product code and a price in cents, e.g. "launchdir admin prices set launch 4900"; got %d argument(s)`, len(pos))
		}
		code = pos[0]
		if _, ok := domain.DefaultPrice(code); !ok {
			return fmt.Errorf("admin prices set: %q is not a product; use one of %s", code, strings.Join(domain.ProductCodes(), ", "))
		}
		if cents, err = parseCents(pos[1]); err != nil {
			return fmt.Errorf("admin prices set %s: %w", code, err)
		}
	}

	a, err := app.Open(ctx, c, app.Adapters{Now: now, Logger: commandLogger(stderr)})
	if err != nil {
		return err
	}
	defer a.Close()
	o := a.Service.Orders
	before, err := o.Store.Prices(ctx)
	if err != nil {
		return err
	}
	if verb == "list" {
		return printPrices(stdout, before, currency)
	}
	if err := o.SetProductPrice(ctx, code, cents, now()); err != nil {
		var de *domain.Error
		if errors.As(err, &de) {
			return fmt.Errorf("admin prices set %s: %s", code, de.Message)
		}
		return fmt.Errorf("admin prices set %s: %w", code, err)
	}
	var old any
	if p, ok := before[code]; ok {
		old = map[string]int64{"cents": p.Cents}
	}
	err = a.Store.WriteAudit(ctx, console.AuditEntry{At: now().UTC(), Actor: console.ActorCommandLine, Action: "price.set",
		Target: "product:" + code, Before: jsonOf(old), After: jsonOf(map[string]int64{"cents": cents})})
	if err != nil {
		fmt.Fprintf(stderr, "warning: the price is set, but the audit log could not be written: %v\n", err)
	}
	was, origin := before[code], "set by an operator"
	if _, ok := before[code]; !ok {
		was, _ = domain.DefaultPrice(code)
		was.Currency, origin = currency, "default"
	}
	fmt.Fprintf(stdout, "%s: %s %s (%d cents); was %s %s (%s)\n", code, money(cents), currency, cents,
		money(was.Cents), was.Currency, origin)
	for _, other := range domain.ProductCodes() {
		if p, ok := before[other]; ok && other != code && p.Currency != currency {
			fmt.Fprintf(stderr, "warning: %s is priced in %s, not %s: every price of a site is in one currency (serve's --currency); set it again with --currency %s\n",
				other, p.Currency, currency, currency)
		}
	}
	return nil
}

// printPrices writes every product, in list_products order, with its price:
// the operator's and when it was set, or the default from code.
func printPrices(w io.Writer, set map[string]domain.Price, currency string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tPRICE\tCENTS\tCURRENCY\tSET AT")
	for _, code := range domain.ProductCodes() {
		p, ok := set[code]
		at := "default"
		if ok {
			at = p.UpdatedAt.UTC().Format("2006-01-02 15:04 UTC")
		} else {
			p, _ = domain.DefaultPrice(code)
			p.Currency = currency // as the domain prices it: defaults are in the site's currency
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", code, money(p.Cents), p.Cents, p.Currency, at)
	}
	return tw.Flush()
}

// parseCents reads a price in whole cents: a non-negative integer.
func parseCents(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil && strings.ContainsAny(s, ".,"):
		return 0, fmt.Errorf("the price %q must be whole cents without a decimal point: 4900 for 49.00", s)
	case err != nil:
		return 0, fmt.Errorf("the price %q must be a whole number of cents, such as 4900 for 49.00", s)
	case n < 0:
		return 0, fmt.Errorf("the price %d is negative; give 0 cents (free) or more", n)
	}
	return n, nil
}

// jsonOf is v as JSON for the audit log; nil for nil.
func jsonOf(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// money formats cents as units with two decimals: 4900 is "49.00".
func money(cents int64) string {
	return fmt.Sprintf("%d.%02d", cents/100, cents%100)
}

// parseInterspersed parses fs from args where flags and positional arguments
// may come in any order ("set launch 4900 --currency EUR"), and returns the
// positional ones. An argument that is a negative number is positional, so
// that "-5" as a price is refused as a price, not as an unknown flag.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos, flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(a) < 2 || a[0] != '-' || isNumber(a):
			pos = append(pos, a)
		default:
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			// A flag that takes a value takes the next argument.
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	if err := app.Parse(fs, flags); err != nil {
		return nil, err
	}
	return pos, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
