package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/app"
	"github.com/launchdir/launchdir/storage"
)

// runAdmin runs adminCmd and returns its stdout, stderr and error.
func runAdmin(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut strings.Builder
	err := adminCmd(context.Background(), time.Now, args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// priceRow finds code's row in the output of "prices list": its columns.
func priceRow(t *testing.T, list, code string) []string {
	t.Helper()
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == code {
			return f
		}
	}
	t.Fatalf("no row for %s in:\n%s", code, list)
	return nil
}

func TestAdminPrices(t *testing.T) {
	t.Setenv("LAUNCHDIR_CURRENCY", "") // the test owns the currency
	data := t.TempDir()
	codes := domain.ProductCodes()
	if len(codes) < 2 {
		t.Fatalf("the product catalog has %d products; the test needs two", len(codes))
	}
	code, other := codes[0], codes[1]
	def, _ := domain.DefaultPrice(code)

	list, _, err := runAdmin(t, "prices", "list", "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(strings.TrimSpace(list), "\n"); lines != len(codes) {
		t.Fatalf("list has %d rows after its header, want one per product (%d):\n%s", lines, len(codes), list)
	}
	if got := priceRow(t, list, code); strings.Join(got, " ") != strings.Join([]string{code, money(def.Cents),
		strconv.FormatInt(def.Cents, 10), "USD", "default"}, " ") {
		t.Fatalf("row before any price is set = %q", got)
	}

	// Flags may come after the arguments; the currency is normalised.
	out, _, err := runAdmin(t, "prices", "set", code, "12345", "--data", data, "--currency", "usd")
	if err != nil {
		t.Fatal(err)
	}
	wantOut := code + ": 123.45 USD (12345 cents); was " + money(def.Cents) + " USD (default)\n"
	if out != wantOut {
		t.Fatalf("set printed %q, want %q", out, wantOut)
	}
	if _, _, err := runAdmin(t, "prices", "set", "--data="+data, other, "0"); err != nil {
		t.Fatalf("setting a free price: %v", err)
	}

	list, _, err = runAdmin(t, "prices", "list", "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	setAt := regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$`)
	row := priceRow(t, list, code)
	if len(row) != 7 || row[1] != "123.45" || row[2] != "12345" || row[3] != "USD" || !setAt.MatchString(strings.Join(row[4:], " ")) {
		t.Fatalf("row after set = %q; want 123.45 12345 USD and when it was set", row)
	}
	if row := priceRow(t, list, other); row[1] != "0.00" || row[2] != "0" || row[4] == "default" {
		t.Fatalf("free row = %q", row)
	}
	if n := strings.Count(list, "default"); n != len(codes)-2 {
		t.Fatalf("%d rows say default, want %d (all but the two set):\n%s", n, len(codes)-2, list)
	}

	// The price is in the database, where quotes read it.
	db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := storage.NewOrderStore(db, app.Config{}.Site())
	if err != nil {
		t.Fatal(err)
	}
	prices, err := st.Prices(context.Background())
	if err != nil || prices[code].Cents != 12345 || prices[code].Currency != "USD" || len(prices) != 2 {
		t.Fatalf("stored prices = %v, %v", prices, err)
	}

	t.Run("Refused", func(t *testing.T) {
		for _, c := range []struct {
			name string
			args []string
			want string // a phrase of the message that says what to fix
		}{
			{"UnknownCode", []string{"set", "launchpad", "100"}, `"launchpad" is not a product; use one of ` + strings.Join(codes, ", ")},
			{"Negative", []string{"set", code, "-5"}, "negative; give 0 cents (free) or more"},
			{"Decimal", []string{"set", code, "49.00"}, "whole cents without a decimal point: 4900 for 49.00"},
			{"NotANumber", []string{"set", code, "lots"}, "must be a whole number of cents"},
			{"TooMuch", []string{"set", code, "100000001"}, "at most 100000000 cents"},
			{"MissingCents", []string{"set", code}, `give a product code and a price in cents, e.g. "launchdir admin prices set launch 4900"`},
			{"BadCurrency", []string{"set", code, "100", "--currency", "EURO"}, "use an ISO 4217 code of three letters"},
			{"ListArgs", []string{"list", "extra"}, "takes no arguments"},
			{"UnknownFlag", []string{"set", code, "100", "--prize", "1"}, "flag provided but not defined"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, _, err := runAdmin(t, append(append([]string{"prices"}, c.args...), "--data", data)...)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want one saying %q", err, c.want)
				}
			})
		}
		for _, args := range [][]string{nil, {"prices"}, {"prices", "delete"}, {"users", "list"}} {
			if _, usage, err := runAdmin(t, args...); err == nil || !strings.Contains(err.Error(), "launchdir admin prices set CODE CENTS") ||
				!strings.Contains(usage, "Usage:") {
				t.Errorf("admin %q: err = %v, usage shown: %v; want the commands named", args, err, strings.Contains(usage, "Usage:"))
			}
		}
		// Nothing refused reached the database.
		prices, err := st.Prices(context.Background())
		if err != nil || prices[code].Cents != 12345 || len(prices) != 2 {
			t.Fatalf("prices after refusals = %v, %v", prices, err)
		}
	})

	t.Run("OtherCurrencyWarns", func(t *testing.T) {
		_, warn, err := runAdmin(t, "prices", "set", code, "100", "--currency", "EUR", "--data", data)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(warn, other+" is priced in USD, not EUR") {
			t.Fatalf("stderr = %q; want a warning that %s is in another currency", warn, other)
		}
	})
}
