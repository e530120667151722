package auth_test

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
)

// TestNew_AccountNeedsListings: the account page's listings are an explicit
// dependency (Config.Listings), not found by a type assertion on
// Config.Account: New refuses the account data pages without it, so a
// wiring that forgets it fails at start instead of dropping the section.
func TestNew_AccountNeedsListings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	cfg := auth.Config{Origin: e.srv.URL, SiteName: "Launchdir Test", Store: e.store, Now: e.clock, Account: e.db}
	if _, err := auth.New(cfg); err == nil || !strings.Contains(err.Error(), "Config.Listings") {
		t.Fatalf("New with Account and no Listings: %v, want an error naming Config.Listings", err)
	}
	cfg.Listings = e.db
	if _, err := auth.New(cfg); err != nil {
		t.Fatalf("New with Account and Listings: %v", err)
	}
	cfg.Account = nil
	if _, err := auth.New(cfg); err != nil {
		t.Fatalf("New with Listings alone: %v", err)
	}
}
