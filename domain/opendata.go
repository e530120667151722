package domain

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"time"
)

// The open-data export (docs/feeds.md "Open data"): the directory's public
// data (listings' public fields, weeks with their aggregate counted votes,
// awards) as one JSON document, built weekly by a durable job and on first
// request when none is stored. Never personal data: no e-mail, no account,
// no vote rows.

// OpenDataJob builds the export; its key is the Monday it is due in.
const OpenDataJob = "open_data_export"

// The export's licence.
const (
	OpenDataLicence    = "CC BY 4.0"
	OpenDataLicenceURL = "https://creativecommons.org/licenses/by/4.0/"
)

// openDataDelay is how long after the week boundary the job runs: after the
// weekly clock has decided the awards.
const openDataDelay = 10 * time.Minute

// OpenData is the export document.
type OpenData struct {
	Licence    string        `json:"licence"`
	LicenceURL string        `json:"licence_url"`
	Source     string        `json:"source"`
	BuiltAt    time.Time     `json:"built_at"`
	Listings   []OpenListing `json:"listings"`
	Weeks      []OpenWeek    `json:"weeks"`
	Awards     []OpenAward   `json:"awards"`
}

// OpenListing is the public summary of one public listing.
type OpenListing struct {
	Slug            string     `json:"slug"`
	Name            string     `json:"name"`
	Tagline         string     `json:"tagline"`
	Website         string     `json:"website"`
	PageURL         string     `json:"page_url"`
	Status          string     `json:"status"`
	Plan            string     `json:"plan"`
	Featured        bool       `json:"featured"`
	PrimaryCategory string     `json:"primary_category"`
	Country         string     `json:"country"`
	Stage           string     `json:"stage"`
	PricingModel    string     `json:"pricing_model"`
	LaunchWeek      string     `json:"launch_week"`
	LaunchedAt      *time.Time `json:"launched_at"`
	Votes           int        `json:"votes"`
	Views           int        `json:"views"`
	Followers       int        `json:"followers"`
}

// OpenWeek is one launch week: its live launches and the counted votes cast
// in it, in aggregate.
type OpenWeek struct {
	Week     string `json:"week"`
	Launches int    `json:"launches"`
	Votes    int    `json:"votes"`
}

// OpenAward is one Launch of the Week award.
type OpenAward struct {
	Week        string `json:"week"`
	Rank        int    `json:"rank"`
	Title       string `json:"title"`
	ListingSlug string `json:"listing_slug"`
	ListingName string `json:"listing_name"`
	Votes       int    `json:"votes"`
}

// OpenDataStore reads the export's data and keeps the latest export
// (storage.Store implements it).
type OpenDataStore interface {
	// EachOpenDataListing calls each with every public (live or scheduled)
	// listing, by slug, as it reads them (a site's listings are not held in
	// memory at once); it stops at each's first error and returns it.
	EachOpenDataListing(ctx context.Context, each func(ListingSummary) error) error
	// WeekTotals counts, per week (Monday, YYYY-MM-DD), the live listings
	// launched in it and the counted votes cast in it.
	WeekTotals(ctx context.Context) (launches, votes map[string]int, err error)
	// SaveOpenData stores body, built at builtAt, as the site's latest export.
	SaveOpenData(ctx context.Context, builtAt time.Time, body []byte) error
	// LatestOpenData returns the latest export; found false when none is stored.
	LatestOpenData(ctx context.Context) (builtAt time.Time, body []byte, found bool, err error)
	// OpenDataBuiltAt returns the build time of the latest export without
	// its document; found false when none is stored.
	OpenDataBuiltAt(ctx context.Context) (builtAt time.Time, found bool, err error)
}

func (s *Service) openDataStore() (OpenDataStore, error) {
	if s.OpenData == nil {
		return nil, Errorf(EInternal, "the open-data export is not configured")
	}
	return s.OpenData, nil
}

// OpenDataExport returns the latest export: its JSON document and build
// time; when none is stored it builds and stores one first.
func (s *Service) OpenDataExport(ctx context.Context) ([]byte, time.Time, error) {
	st, err := s.openDataStore()
	if err != nil {
		return nil, time.Time{}, err
	}
	at, body, found, err := st.LatestOpenData(ctx)
	if err != nil || found {
		return body, at, err
	}
	return s.BuildOpenData(ctx)
}

// OpenDataBuiltAt returns the build time of the latest export, without
// reading its document (a reader that keeps the files of a build asks this
// on each request); when none is stored it builds and stores one first.
func (s *Service) OpenDataBuiltAt(ctx context.Context) (time.Time, error) {
	st, err := s.openDataStore()
	if err != nil {
		return time.Time{}, err
	}
	at, found, err := st.OpenDataBuiltAt(ctx)
	if err != nil || found {
		return at, err
	}
	_, at, err = s.BuildOpenData(ctx)
	return at, err
}

// BuildOpenData builds the export from the public data now and stores it.
//
// The document is written as it is read, listing by listing, into one
// buffer: the bytes of json.MarshalIndent(doc, "", " ") of the whole
// OpenData (TestBuildOpenData_SameBytesAsMarshalIndent), without holding
// every listing's summary, every OpenListing and two encodings of the
// document at once (at 100,000 listings that was about 250 MB of heap for a
// 59 MB document, and serve's RSS stayed at 550 MiB after the job).
func (s *Service) BuildOpenData(ctx context.Context) ([]byte, time.Time, error) {
	st, err := s.openDataStore()
	if err != nil {
		return nil, time.Time{}, err
	}
	now := s.now().UTC().Truncate(time.Second)
	// Jobs have no request origin: links are on the configured origin.
	site := s.Site
	doc := OpenData{Licence: OpenDataLicence, LicenceURL: OpenDataLicenceURL, Source: site.URL("/"), BuiltAt: now,
		Listings: []OpenListing{}, Weeks: []OpenWeek{}, Awards: []OpenAward{}}
	// The head (the fields before "listings") is MarshalIndent's: the
	// document with no listing, cut at its empty listings array.
	shell, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, time.Time{}, err
	}
	const listingsKey = "\n \"listings\": ["
	at := bytes.Index(shell, []byte(listingsKey+"]"))
	if at < 0 {
		return nil, time.Time{}, Errorf(EInternal, "open data: no listings array in the document")
	}
	var buf bytes.Buffer
	buf.Write(shell[:at+len(listingsKey)])
	// Each listing as MarshalIndent writes an element of an array two
	// levels deep: on its own line, indented by two, its fields by three.
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", " ")
	n := 0
	err = st.EachOpenDataListing(ctx, func(l ListingSummary) error {
		o := OpenListing{Slug: l.Slug, Name: l.Name, Tagline: l.Tagline, Website: l.URL, PageURL: site.ListingPageURL(l.Slug),
			Status: l.Status, Plan: l.Plan, Featured: l.Featured, Country: l.Country, Stage: l.Stage, PricingModel: l.PricingModel,
			LaunchWeek: l.LaunchWeek, LaunchedAt: l.LaunchedAt, Votes: l.Votes, Views: l.Views, Followers: l.Follows}
		if l.PrimaryCategory != nil {
			o.PrimaryCategory = l.PrimaryCategory.Slug
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n  ")
		n++
		if err := enc.Encode(o); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		return nil
	})
	if err != nil {
		return nil, time.Time{}, err
	}
	if n > 0 {
		buf.WriteString("\n ")
	}
	buf.WriteByte(']')
	launches, votes, err := st.WeekTotals(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	first, _, err := s.LaunchWeekRange(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	if !first.IsZero() {
		for w := Monday(first); !w.After(Monday(now)); w = w.AddDate(0, 0, 7) {
			k := w.Format(DateLayout)
			doc.Weeks = append(doc.Weeks, OpenWeek{Week: k, Launches: launches[k], Votes: votes[k]})
		}
	}
	awards, _, err := s.Store.Awards(ctx, "", 0, 1_000_000)
	if err != nil {
		return nil, time.Time{}, err
	}
	for _, a := range awards {
		doc.Awards = append(doc.Awards, OpenAward{Week: a.Week, Rank: a.Rank, Title: a.Title,
			ListingSlug: a.Listing.Slug, ListingName: a.Listing.Name, Votes: a.Votes})
	}
	// The tail (weeks, awards): MarshalIndent's, from the same document
	// with its listings still empty, after its empty listings array.
	doc.Listings = []OpenListing{}
	tail, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, time.Time{}, err
	}
	at = bytes.Index(tail, []byte(listingsKey+"]"))
	if at < 0 {
		return nil, time.Time{}, Errorf(EInternal, "open data: no listings array in the document")
	}
	buf.Write(tail[at+len(listingsKey)+1:])
	body := buf.Bytes()
	if err := st.SaveOpenData(ctx, now, body); err != nil {
		return nil, time.Time{}, err
	}
	return body, now, nil
}

// RegisterOpenDataJobs registers the weekly export with the runner: each run
// builds the export and enqueues the next Monday's.
func (s *Service) RegisterOpenDataJobs(r *Runner) {
	r.Handle(OpenDataJob, JobKind{Run: func(ctx context.Context, j Job) error {
		if _, _, err := s.BuildOpenData(ctx); err != nil {
			return err
		}
		// The build's buffers (about twice the document: 120 MB at 100,000
		// listings) are garbage now; without this the process keeps them
		// until the next two forced GCs and the scavenger (minutes), and
		// serve's RSS stays that much higher. Once a week, after the job.
		debug.FreeOSMemory()
		return s.scheduleOpenData(ctx, r, Monday(s.now()).AddDate(0, 0, 7))
	}, MaxAttempts: 20})
}

// EnsureOpenDataJob enqueues this week's export job (due at once when this
// week's was missed), as EnsureWeekClock: idempotent.
// When this week's export is stored already, it enqueues next week's.
func (s *Service) EnsureOpenDataJob(ctx context.Context, r *Runner) error {
	st, err := s.openDataStore()
	if err != nil {
		return err
	}
	monday := Monday(s.now())
	at, _, found, err := st.LatestOpenData(ctx)
	if err != nil {
		return err
	}
	if found && !at.Before(monday.Add(openDataDelay)) {
		monday = monday.AddDate(0, 0, 7)
	}
	return s.scheduleOpenData(ctx, r, monday)
}

func (s *Service) scheduleOpenData(ctx context.Context, r *Runner, monday time.Time) error {
	key := monday.Format(DateLayout)
	return r.EnqueueAt(ctx, OpenDataJob, key, struct {
		Week string `json:"week"`
	}{key}, monday.Add(openDataDelay))
}
