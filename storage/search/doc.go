// Package search is an in-memory, typo-tolerant, top-k full-text index of
// directory listings.
//
// SQLite stays the source of truth: the storage layer loads every live and
// scheduled listing with UpsertAll at start and keeps the index fresh with
// Upsert and Delete. Search ranks without touching the database and returns
// listing ids (the store reads the page's summaries by id): every query word
// must match (exactly, within one edit, or as a prefix for the last word),
// falling back to any word when no listing has them all; matches are scored
// BM25-style with field weights and only the requested page is kept in a
// bounded heap. The layout is compact (postings.go, vocab.go, docs.go).
package search

// Doc is one listing as the index sees it.
type Doc struct {
	ID int64 // listing id

	Name, Tagline, Description string
	ShortDescription           string
	Keywords, Features         []string
	Categories                 []int64 // primary + extra category ids
	// CategoryNames are the names of the listing's categories and of their
	// parents, searchable like the listing's own words.
	CategoryNames []string

	Stage, Country, PricingModel string
	Domain                       string // a host, without "www."
	Status                       string // "live" or "scheduled"

	Newest                int64 // unix seconds (launched_at, or the scheduled week) for sort=newest
	Votes, Views, Follows int
	Trending              float64 // higher is hotter
}

// Query is one search. The zero Query lists the most voted live listings.
type Query struct {
	Text string
	// Categories matches a listing in any of these ids; nil means no category
	// filter, a non-nil empty slice matches nothing.
	Categories []int64
	// Stage, Country, PricingModel and Domain filter when not empty; Domain
	// also matches subdomains. Status "" means "live"; "upcoming" is an alias
	// of "scheduled".
	Stage, Country, PricingModel, Domain, Status string
	// Sort is relevance (the default; votes when Text has no words), newest,
	// votes, trending, most_viewed or most_followed.
	Sort string
	// Offset and Limit select the page; Limit <= 0 means DefaultLimit.
	Offset, Limit int
}

// DefaultLimit is the page size used when Query.Limit is not positive.
const DefaultLimit = 20

// MaxQueryWords is the number of query words that take part in a search;
// later words are ignored.
const MaxQueryWords = 16
