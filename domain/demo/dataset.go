// Package demo generates the deterministic demo directory and the synthetic
// listings of the scale tests and benchmarks as plain Go values. It knows no
// database: storage writes what it returns (storage.SeedDemo, SeedSynthetic).
package demo

import (
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Vote is one community vote.
type Vote struct {
	Voter string
	At    time.Time
}

// Review is one review; Genuine=false reviews are excluded from ratings.
type Review struct {
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
	Views, Follows                          int // rows the writer spreads evenly from LaunchedAt to Now
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
}

// DRSource names where demo Domain Rating readings come from.
const DRSource = "admin import (demo data)"
