// Package demo generates the deterministic demo directory and the synthetic
// listings of the scale tests and benchmarks as plain Go values. It knows no
// database: storage writes what it returns (storage.SeedDemo, SeedSynthetic).
package demo

import (
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Person is a demo account: a person who votes, follows and reviews on the
// site. Email is at a reserved domain (.invalid) that can never receive mail;
// the account has no session and no password, so nobody can sign in as it.
// Network and UserAgent are what the site saw of the person when they voted
// (stored only as keyed hashes); each person has a network of their own.
type Person struct {
	Name, Email        string
	Signature          string // how the person signs a review: "Maya F."
	Network, UserAgent string
	CreatedAt          time.Time
}

// Vote is one vote of a person (by index in Dataset.People), cast by the
// writer through the vote path people use on the site.
type Vote struct {
	Person int
	At     time.Time
}

// Follow is a person following a listing from time At.
type Follow struct {
	Person int
	At     time.Time
}

// Review is one review; Genuine=false reviews are held (flagged) and
// excluded from ratings. Person is the reviewer's index in Dataset.People,
// or -1 for a review without an account (the flagged ones).
type Review struct {
	Person  int
	Author  string
	Rating  int
	Body    string
	Genuine bool
	At      time.Time
}

// Money is an amount at a time: a billboard contribution or a monthly revenue figure.
type Money struct {
	At    time.Time
	Cents int64
}

// Listing is one generated listing. Index is its position in Dataset.Listings,
// by which awards, alternatives and founders refer to it.
type Listing struct {
	Index                                   int
	Slug, Name, Company, Tagline, ShortDesc string
	Description                             string
	Domain, URL, LogoURL, Email, VideoURL   string
	Features, USPs, Keywords                []string
	PricingModel, PricingSummary            string
	Country, City                           string
	FoundedYear                             int // 0: not stated on the website
	Stage                                   string
	Cat                                     *Category
	Extra                                   []string // extra category slugs (paid only)
	Plan, Status                            string
	LaunchWeek, LaunchedAt, CreatedAt       time.Time
	UpdatedAt                               time.Time // LaunchedAt, or CreatedAt before the launch
	Featured, Verified                      bool
	Socials                                 map[string]string
	FAQs                                    []domain.FAQ
	NotFound                                []string
	Attrs                                   map[string]string
	Unlocked                                []string
	Story                                   *domain.Story
	Milestones                              []domain.Milestone
	Media                                   []domain.Media
	Votes                                   []Vote
	Views                                   int // rows the writer spreads evenly from LaunchedAt to Now
	Followers                               []Follow
	Reviews                                 []Review
	Billboard, Revenue                      []Money
	DR                                      []domain.DRPoint
	Updates                                 []domain.ListingUpdate
	Alternatives                            []int // indexes of owner-approved alternatives
	Audience                                string
}

// Dataset is the whole generated directory, as plain values for a writer.
type Dataset struct {
	Now, Monday time.Time
	Cats        []Category // parents before their subcategories; Parent is a slug
	Listings    []*Listing
	Founders    []Founder
	Posts       []Post     // PublishedAt set
	Questions   []Question // founder interview questions, in order
	Teams       []Founder  // the founders of the top listings (addTeamFounders); Founders are the twenty with stories
	People      []Person   // demo accounts; CreatedAt before their first vote, follow or review

	emails map[string]bool // the People's emails, kept unique
}

// DRSource names where demo Domain Rating readings come from.
const DRSource = "admin import (demo data)"
