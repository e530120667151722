// Package console is the site team's console: the team and its audit log,
// the site settings, categories, the blog and the interview questions,
// listings in any status, people, the review queue, Domain Rating imports
// and revenue figures. Its callers are the /admin pages (web) and the
// "launchdir admin" subcommands; they have checked that whoever acts is on
// the site team. The console imports domain, never the reverse: what the
// core reads of the team's work (the settings in effect, where renamed or
// merged slugs lead) it reads through domain.SettingsReader and
// domain.Redirects, from the stores.
package console

import (
	"fmt"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Console serves the site team's operations. Build it with New.
type Console struct {
	// Site is the directory served: its configured name and purpose and the
	// free queue's defaults are the settings' defaults.
	Site domain.Site
	// Now returns the current time.
	Now func() time.Time
	// VoteMinAccountAge is --vote-min-account-age, the default of the vote
	// hold setting.
	VoteMinAccountAge time.Duration
	// The stores, one per area (see Deps).
	Team         TeamStore
	Settings     SettingsStore
	Categories   CategoryAdminStore
	Blog         BlogAdminStore
	ListingAdmin ListingAdminStore
	People       PeopleStore
	Moderation   ModerationStore
	Ratings      RatingsStore
	Revenue      RevenueStore
	Owners       domain.OwnerStore
}

// Deps is everything a Console is built from; every field is required
// (VoteMinAccountAge may be 0: no hold for age).
type Deps struct {
	Site              domain.Site
	Now               func() time.Time
	VoteMinAccountAge time.Duration
	// Team keeps the site team and its audit log (team.go).
	Team TeamStore
	// Settings keeps the stored site settings (settings.go).
	Settings SettingsStore
	// Categories keeps the console's category changes (categories*.go).
	Categories CategoryAdminStore
	// Blog keeps the blog and the interview questions (blog.go).
	Blog BlogAdminStore
	// Listings keeps the console's listing changes (listings.go).
	Listings ListingAdminStore
	// People keeps the accounts the team finds and suspends (people.go).
	People PeopleStore
	// Moderation keeps the review queue (moderation.go).
	Moderation ModerationStore
	// Ratings keeps the Domain Rating imports (ratings.go).
	Ratings RatingsStore
	// Revenue keeps the listings' revenue figures (revenue.go).
	Revenue RevenueStore
	// Owners says who owns which listing (the owner's revenue form).
	Owners domain.OwnerStore
}

// New returns the Console built from d. A dependency that is missing is an
// error naming every one missing ("console.New: missing Deps.Team"), so
// that a wiring mistake fails at start.
func New(d Deps) (*Console, error) {
	var m []string
	need := func(ok bool, name string) {
		if !ok {
			m = append(m, "Deps."+name)
		}
	}
	need(d.Site.Key != "", "Site.Key")
	need(d.Now != nil, "Now")
	need(d.VoteMinAccountAge >= 0, "VoteMinAccountAge (not negative)")
	need(d.Team != nil, "Team")
	need(d.Settings != nil, "Settings")
	need(d.Categories != nil, "Categories")
	need(d.Blog != nil, "Blog")
	need(d.Listings != nil, "Listings")
	need(d.People != nil, "People")
	need(d.Moderation != nil, "Moderation")
	need(d.Ratings != nil, "Ratings")
	need(d.Revenue != nil, "Revenue")
	need(d.Owners != nil, "Owners")
	if len(m) > 0 {
		return nil, fmt.Errorf("console.New: missing %s", strings.Join(m, ", "))
	}
	return &Console{Site: d.Site, Now: d.Now, VoteMinAccountAge: d.VoteMinAccountAge,
		Team: d.Team, Settings: d.Settings, Categories: d.Categories, Blog: d.Blog, ListingAdmin: d.Listings,
		People: d.People, Moderation: d.Moderation, Ratings: d.Ratings, Revenue: d.Revenue, Owners: d.Owners}, nil
}

// Stores is one persistence that implements every store of the Console
// (storage.Store over SQLite or PostgreSQL).
type Stores interface {
	TeamStore
	SettingsStore
	CategoryAdminStore
	BlogAdminStore
	ListingAdminStore
	PeopleStore
	ModerationStore
	RatingsStore
	RevenueStore
	domain.OwnerStore
}

// Over is the Deps whose every store is st, with the site, clock and vote
// age of svc read once: what the wiring and the tests build a Console from.
func Over(st Stores, svc *domain.Service) Deps {
	return Deps{Site: svc.Site, Now: func() time.Time { return svc.Now() }, VoteMinAccountAge: svc.VoteMinAccountAge,
		Team: st, Settings: st, Categories: st, Blog: st, Listings: st, People: st, Moderation: st,
		Ratings: st, Revenue: st, Owners: st}
}

func (s *Console) now() time.Time { return s.Now().UTC() }

// ownerStore is s.Owners; an error when it is not set.
func (s *Console) ownerStore() (domain.OwnerStore, error) {
	if s.Owners == nil {
		return nil, domain.Errorf(domain.EInternal, "own listings are not configured")
	}
	return s.Owners, nil
}

// nonNil is s, or an empty slice for nil (a JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
