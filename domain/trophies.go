package domain

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Trophy cabinets (docs/trophies.md): every listing's awards won
// here (Launch of the Week #1-#3) and the trophies its owners add from other
// launch sites, each verified by reading its award page (trophies_check.go)
// or by the site team; a trophy leaderboard and the Hall of Fame.

// Trophy states.
const (
	TrophyPending     = "pending"
	TrophyVerified    = "verified"
	TrophyRejected    = "rejected"
	TrophyUnconfirmed = "unconfirmed"
)

// How a trophy was verified (Trophy.Verification.How).
const (
	TrophyByPage      = "page"       // the service read the award page
	TrophyBySiteTeam  = "site_team"  // the site team decided by hand
	TrophyByAwardHere = "award_here" // won on this directory
)

// Trophy rules.
const (
	// FreeCabinetTrophies is how many trophies won elsewhere (of any state)
	// a listing's cabinet holds; BoughtCabinetTrophies with the trophies
	// section unlocked (the trophy_cabinet product, docs/trophies.md).
	FreeCabinetTrophies   = 10
	BoughtCabinetTrophies = 100
	// MaxTrophyPlatform, MaxTrophyTitle and MaxTrophyURL bound the fields in characters.
	MaxTrophyPlatform = 60
	MaxTrophyTitle    = 120
	MaxTrophyURL      = 500
	// TrophyCheckJob is the job that reads a trophy's award page.
	TrophyCheckJob = "trophy_check"
	// TrophyRecheck is how often a verified trophy's page is read again.
	TrophyRecheck = 30 * 24 * time.Hour
	// TrophyUnconfirmedRecheck is how often an unconfirmed trophy's page is
	// read again, for TrophyUnconfirmedFor after it became unconfirmed.
	TrophyUnconfirmedRecheck = 7 * 24 * time.Hour
	TrophyUnconfirmedFor     = 90 * 24 * time.Hour
	// TrophyRetry is when a page that could not be read for a passing
	// reason (timeout, 5xx, 429) is tried again, at most TrophyMaxFailures
	// times in a row before the failure counts.
	TrophyRetry       = time.Hour
	TrophyMaxFailures = 3
	// TrophyFirstYear is the earliest year of a trophy's date.
	TrophyFirstYear = 2000
)

// TrophyPointsRule is the leaderboard's points rule, as every answer states it.
const TrophyPointsRule = "Each verified trophy scores by rank: #1 = 5 points, #2 = 3, #3 = 2, any other verified trophy (no rank or below #3) = 1. " +
	"Launch of the Week awards won here count the same. Pending, rejected and unconfirmed trophies score nothing. " +
	"Ties: more #1s first, then more trophies, then name. A year counts the trophies dated in it."

// TrophyPoints is what a verified trophy of rank (0: none) scores.
func TrophyPoints(rank int) int {
	switch rank {
	case 1:
		return 5
	case 2:
		return 3
	case 3:
		return 2
	}
	return 1
}

// Trophy is one entry of a cabinet.
type Trophy struct {
	// ID is 0 for an award won here (it is not deleted or checked).
	ID           int64              `json:"id,omitempty" jsonschema_description:"The trophy_id for delete_trophy; absent on awards won here."`
	Source       string             `json:"source" jsonschema:"enum=here,enum=elsewhere" jsonschema_description:"here: won on this directory; elsewhere: added by the owners."`
	Platform     string             `json:"platform"`
	Title        string             `json:"title"`
	Rank         int                `json:"rank,omitempty"`
	Date         string             `json:"date" jsonschema:"format=date"`
	AwardURL     string             `json:"award_url"`
	State        string             `json:"state" jsonschema:"enum=pending,enum=verified,enum=rejected,enum=unconfirmed"`
	Points       int                `json:"points" jsonschema_description:"What it scores on the trophy leaderboard now (0 unless verified)."`
	Verification TrophyVerification `json:"verification"`
	// Badge is set on verified entries (domain/trophies_badges.go).
	Badge *TrophyBadge `json:"badge,omitempty" jsonschema_description:"Verified only: the embeddable badge."`
}

// TrophyVerification says how and when a trophy was verified, or why not.
type TrophyVerification struct {
	How              string     `json:"how,omitempty" jsonschema:"enum=page,enum=site_team,enum=award_here" jsonschema_description:"page: the award page was read and names the listing; site_team: decided by hand; award_here: won here."`
	Text             string     `json:"text" jsonschema_description:"How and when, in words; for rejected and unconfirmed, why."`
	VerifiedAt       *time.Time `json:"verified_at,omitempty"`
	CheckedAt        *time.Time `json:"checked_at,omitempty"`
	UnconfirmedSince *time.Time `json:"unconfirmed_since,omitempty"`
	NextCheckAt      *time.Time `json:"next_check_at,omitempty"`
}

// TrophyCabinet is the answer of get_trophy_cabinet and list_my_trophies.
type TrophyCabinet struct {
	Listing    string   `json:"listing" jsonschema_description:"The listing's slug."`
	Name       string   `json:"name"`
	ListingID  int64    `json:"listing_id,omitempty" jsonschema_description:"list_my_trophies only."`
	Items      []Trophy `json:"items"`
	Points     int      `json:"points" jsonschema_description:"All-time trophy leaderboard points."`
	PointsRule string   `json:"points_rule"`
}

// GetTrophyCabinetInput names a public listing.
type GetTrophyCabinetInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"A public listing's slug."`
}

// ListMyTrophiesInput names one of the caller's listings.
type ListMyTrophiesInput struct {
	ListingID int64 `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
}

// AddTrophyInput is the body of add_trophy.
type AddTrophyInput struct {
	ListingID int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	Platform  string `json:"platform" jsonschema:"minLength=1,maxLength=60" jsonschema_description:"e.g. Product Hunt"`
	Title     string `json:"title" jsonschema:"minLength=1,maxLength=120" jsonschema_description:"e.g. Product of the Day"`
	Rank      int    `json:"rank,omitempty" jsonschema:"minimum=1,maximum=1000"`
	Date      string `json:"date" jsonschema:"format=date,pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$" jsonschema_description:"Day won"`
	AwardURL  string `json:"award_url" jsonschema:"maxLength=500" jsonschema_description:"The award's public page; it must name the listing."`
}

// DeleteTrophyInput names a trophy of one of the caller's listings.
type DeleteTrophyInput struct {
	ListingID int64 `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	TrophyID  int64 `json:"trophy_id" jsonschema:"minimum=1"`
}

// TrophyAnswer is the answer of add_trophy and delete_trophy.
type TrophyAnswer struct {
	ListingID int64  `json:"listing_id"`
	Trophy    Trophy `json:"trophy"`
	Next      string `json:"next"`
}

// GetTrophyLeaderboardInput chooses all-time or one year.
type GetTrophyLeaderboardInput struct {
	Year int `json:"year,omitempty" jsonschema:"minimum=2000,maximum=2100" jsonschema_description:"Only trophies dated in this year; absent: all-time."`
	Pagination
}

// TrophyBoardEntry is one place of the trophy leaderboard.
type TrophyBoardEntry struct {
	Rank     int            `json:"rank"`
	Listing  ListingSummary `json:"listing"`
	Points   int            `json:"points"`
	Trophies int            `json:"trophies" jsonschema_description:"Verified trophies counted, awards here included."`
	Firsts   int            `json:"firsts" jsonschema_description:"Of them, #1s."`
}

// TrophyBoard is the answer of get_trophy_leaderboard.
type TrophyBoard struct {
	Year       int                `json:"year,omitempty"`
	PointsRule string             `json:"points_rule"`
	Items      []TrophyBoardEntry `json:"items"`
	Page
}

// GetHallOfFameInput chooses one year or all.
type GetHallOfFameInput struct {
	Year int `json:"year,omitempty" jsonschema:"minimum=2000,maximum=2100" jsonschema_description:"Only this year; absent: every year."`
}

// HallOfFameYear is one year of the Hall of Fame.
type HallOfFameYear struct {
	Year    int     `json:"year"`
	Winners []Award `json:"winners" jsonschema_description:"Launch of the Week #1 of each week of the year, by week."`
	// Programmes are the winners of the award programmes that finished in the year.
	Programmes []ProgrammeWin `json:"programmes" jsonschema_description:"Winners of award programmes whose voting closed in the year, by programme, category and place."`
}

// HallOfFame is the answer of get_hall_of_fame.
type HallOfFame struct {
	Text  string           `json:"text"`
	Years []HallOfFameYear `json:"years"`
}

// TrophyListing is a listing a cabinet belongs to.
type TrophyListing struct {
	ID                              int64
	Slug, Name, URL, Domain, Status string
}

// TrophyRecord is a stored trophy with its listing.
type TrophyRecord struct {
	ID, ListingID                   int64
	Platform, Title                 string
	Rank                            int
	Date, AwardURL                  string
	State, Method, Reason, Evidence string
	Failures                        int
	CreatedAt                       time.Time
	CheckedAt, VerifiedAt           *time.Time
	UnconfirmedSince, NextCheckAt   *time.Time
	Slug, ListingName, URL, Domain  string
	ListingStatus                   string
	// PaidOrder is the order that bought trophy_verification for this
	// trophy: the console's queue shows it first, marked paid.
	PaidOrder string
}

// TrophyDecision is what a check or the site team writes on a trophy.
type TrophyDecision struct {
	State, Method, Reason, Evidence string
	Failures                        int
	CheckedAt                       time.Time
	VerifiedAt, UnconfirmedSince    *time.Time
	NextCheckAt                     *time.Time
}

// TrophyStore keeps trophies. *storage.Store implements it.
type TrophyStore interface {
	// PublicTrophyListing returns the public listing slug; ENotFound when none.
	PublicTrophyListing(ctx context.Context, slug string) (*TrophyListing, error)
	// OwnedTrophyListing returns listing id when userID owns it; ENotFound
	// worded the same when it is missing or someone else's.
	OwnedTrophyListing(ctx context.Context, userID, id int64) (*TrophyListing, error)
	// ListingTrophies lists listing id's trophies, newest date first.
	ListingTrophies(ctx context.Context, listingID int64) ([]TrophyRecord, error)
	// AddTrophy stores rec (pending) on userID's listing rec.ListingID and
	// queues job(id) in the same transaction: ENotFound when not owned,
	// EConflict when the listing has the same award_url, EInvalid (listing_id
	// cabinet_limit) when it holds FreeCabinetTrophies already, or
	// BoughtCabinetTrophies with the trophies section unlocked.
	AddTrophy(ctx context.Context, userID int64, rec *TrophyRecord, job func(id int64) JobSpec) error
	// DeleteTrophy deletes trophy id of userID's listing and returns it.
	DeleteTrophy(ctx context.Context, userID, listingID, id int64) (*TrophyRecord, error)
	// Trophy returns trophy id of this site; ENotFound when none.
	Trophy(ctx context.Context, id int64) (*TrophyRecord, error)
	// RecordTrophyCheck writes d on trophy id while its next_check_at is
	// still due, and queues next (when not nil) in the same transaction;
	// false when another check got there first.
	RecordTrophyCheck(ctx context.Context, id int64, due time.Time, d TrophyDecision, next *JobSpec) (bool, error)
	// DecideTrophy writes the site team's decision d on trophy id.
	DecideTrophy(ctx context.Context, id int64, d TrophyDecision) (*TrophyRecord, error)
	// TrophiesInState lists this site's trophies in state, oldest first.
	TrophiesInState(ctx context.Context, state string, limit int) ([]TrophyRecord, error)
	// TrophyBoard ranks public listings by TrophyPoints of their verified
	// trophies and awards here (year 0: all-time).
	TrophyBoard(ctx context.Context, year, offset, limit int) ([]TrophyBoardEntry, int, error)
	// FirstPlaces lists the Launch of the Week #1 awards of public listings
	// (year 0: all), oldest week first.
	FirstPlaces(ctx context.Context, year int) ([]Award, error)
}

func (s *Service) trophyStore() (TrophyStore, error) {
	if s.Trophies != nil {
		return s.Trophies, nil
	}
	return nil, Errorf(EInternal, "trophies are not configured")
}

// checkTrophy validates what the schema cannot and normalises in.
func checkTrophy(in AddTrophyInput, now time.Time) (*TrophyRecord, error) {
	rec := &TrophyRecord{ListingID: in.ListingID, Rank: in.Rank, State: TrophyPending}
	var err error
	if rec.Platform, err = requiredText("platform", in.Platform, MaxTrophyPlatform, true); err != nil {
		return nil, err
	}
	if rec.Title, err = requiredText("title", in.Title, MaxTrophyTitle, true); err != nil {
		return nil, err
	}
	d, perr := time.Parse(DateLayout, in.Date)
	switch {
	case perr != nil || !weekRE.MatchString(in.Date):
		return nil, Invalid("date", "date", "date: a real calendar date as YYYY-MM-DD, e.g. 2026-03-31; %q is not one.", in.Date)
	case d.Year() < TrophyFirstYear:
		return nil, Invalid("date", "minimum", "date: %s is before %d.", in.Date, TrophyFirstYear)
	case d.After(now.Add(24 * time.Hour)):
		return nil, Invalid("date", "maximum", "date: %s is in the future; give the day the award was won.", in.Date)
	}
	rec.Date = in.Date
	rec.AwardURL = strings.TrimSpace(in.AwardURL)
	u, uerr := url.Parse(rec.AwardURL)
	switch {
	case rec.AwardURL == "":
		return nil, Invalid("award_url", "required", "award_url: the address of the public page of the award is required.")
	case utf8.RuneCountInString(rec.AwardURL) > MaxTrophyURL:
		return nil, Invalid("award_url", "maxLength", "award_url: at most %d characters.", MaxTrophyURL)
	case uerr != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.User != nil || strings.ContainsAny(rec.AwardURL, " \t\r\n"):
		return nil, Invalid("award_url", "url", "award_url: an absolute http(s):// address without user information, such as https://www.producthunt.com/products/acme; %q is not one.", rec.AwardURL)
	}
	u.Fragment, u.RawFragment = "", ""
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	rec.AwardURL = u.String()
	return rec, nil
}

// trophyJob is the check job of trophy id due at.
func trophyJob(id int64, at time.Time) JobSpec {
	return JobSpec{Kind: TrophyCheckJob, Key: strconv.FormatInt(id, 10) + "@" + strconv.FormatInt(at.Unix(), 10),
		Payload: trophyCheckPayload{TrophyID: id, Due: at.Unix()}, RunAt: at}
}

// AddTrophy adds a trophy won elsewhere to one of the caller's listings; it
// is pending until its award page is read (at once, by a job).
func (s *Service) AddTrophy(ctx context.Context, in AddTrophyInput) (*TrophyAnswer, error) {
	c, err := requireCaller(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	rec, err := checkTrophy(in, now)
	if err != nil {
		return nil, err
	}
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	rec.CreatedAt, rec.NextCheckAt = now, &now
	if err := st.AddTrophy(ctx, c.UserID, rec, func(id int64) JobSpec { return trophyJob(id, now) }); err != nil {
		return nil, err
	}
	return &TrophyAnswer{ListingID: rec.ListingID, Trophy: s.trophyView(rec, true),
		Next: "Pending: the award page is read within a minute; it must name the listing (its domain or address, or its name near the award's words). " +
			"list_my_trophies with listing_id " + strconv.FormatInt(rec.ListingID, 10) + " shows the outcome and, if rejected, why."}, nil
}

// DeleteTrophy removes a trophy from one of the caller's listings.
func (s *Service) DeleteTrophy(ctx context.Context, in DeleteTrophyInput) (*TrophyAnswer, error) {
	c, st, err := callerWith(ctx, s.trophyStore)
	if err != nil {
		return nil, err
	}
	rec, err := st.DeleteTrophy(ctx, c.UserID, in.ListingID, in.TrophyID)
	if err != nil {
		return nil, err
	}
	return &TrophyAnswer{ListingID: in.ListingID, Trophy: s.trophyView(rec, true),
		Next: "Deleted trophy " + strconv.FormatInt(rec.ID, 10) + " (" + rec.Platform + ", " + rec.Title + ") from the cabinet."}, nil
}

// GetTrophyCabinet is a public listing's cabinet: awards won here and the
// verified (and unconfirmed, marked so) trophies won elsewhere.
func (s *Service) GetTrophyCabinet(ctx context.Context, in GetTrophyCabinetInput) (*TrophyCabinet, error) {
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	l, err := st.PublicTrophyListing(ctx, in.Slug)
	if ErrorCode(err) == ENotFound {
		return nil, s.listingNotFound(ctx, in.Slug)
	}
	if err != nil {
		return nil, err
	}
	return s.cabinet(ctx, st, l, false)
}

// ListMyTrophies is the cabinet of one of the caller's listings with every
// trophy, pending and rejected ones too, with their reasons.
func (s *Service) ListMyTrophies(ctx context.Context, in ListMyTrophiesInput) (*TrophyCabinet, error) {
	c, st, err := callerWith(ctx, s.trophyStore)
	if err != nil {
		return nil, err
	}
	l, err := st.OwnedTrophyListing(ctx, c.UserID, in.ListingID)
	if err != nil {
		return nil, err
	}
	return s.cabinet(ctx, st, l, true)
}

// cabinet builds l's cabinet; owner includes pending and rejected trophies.
func (s *Service) cabinet(ctx context.Context, st TrophyStore, l *TrophyListing, owner bool) (*TrophyCabinet, error) {
	out := &TrophyCabinet{Listing: l.Slug, Name: l.Name, Items: []Trophy{}, PointsRule: TrophyPointsRule}
	if owner {
		out.ListingID = l.ID
	}
	awards, _, err := s.Store.Awards(ctx, l.Slug, 0, 1000)
	if err != nil {
		return nil, err
	}
	site := s.Site.In(ctx)
	for _, a := range awards {
		t := AwardTrophy(site, a)
		out.Items = append(out.Items, t)
		out.Points += t.Points
	}
	if ps, perr := s.programmeStore(); perr == nil {
		wins, err := ps.ProgrammeWins(ctx, l.ID, 0)
		if err != nil {
			return nil, err
		}
		for _, w := range wins {
			t := ProgrammeTrophy(site, w)
			out.Items = append(out.Items, t)
			out.Points += t.Points
		}
	}
	recs, err := st.ListingTrophies(ctx, l.ID)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		if !owner && recs[i].State != TrophyVerified && recs[i].State != TrophyUnconfirmed {
			continue
		}
		t := s.trophyView(&recs[i], owner)
		out.Items = append(out.Items, t)
		out.Points += t.Points
	}
	sortTrophies(out.Items)
	s.addTrophyBadges(ctx, out)
	return out, nil
}

// sortTrophies orders a cabinet newest date first, then better rank.
func sortTrophies(ts []Trophy) {
	rank := func(r int) int {
		if r == 0 {
			return 1 << 20
		}
		return r
	}
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0; j-- {
			a, b := ts[j-1], ts[j]
			if a.Date > b.Date || (a.Date == b.Date && rank(a.Rank) <= rank(b.Rank)) {
				break
			}
			ts[j-1], ts[j] = b, a
		}
	}
}

// AwardTrophy is a Launch of the Week award as a cabinet entry.
func AwardTrophy(site Site, a Award) Trophy {
	closed := a.Week
	var at *time.Time
	if w, err := time.Parse(DateLayout, a.Week); err == nil {
		c := w.AddDate(0, 0, 7)
		at, closed = &c, c.Format(DateLayout)
	}
	return Trophy{Source: "here", Platform: site.Name, Title: a.Title, Rank: a.Rank, Date: a.Week,
		AwardURL: site.URL("/weeks/" + a.Week), State: TrophyVerified, Points: TrophyPoints(a.Rank),
		Verification: TrophyVerification{How: TrophyByAwardHere, VerifiedAt: at,
			Text: fmt.Sprintf("Won here: decided by %d community votes in the week of %s, which closed on %s.", a.Votes, a.Week, closed)}}
}

// trophyView is rec as a cabinet entry; owner adds the next check.
func (s *Service) trophyView(rec *TrophyRecord, owner bool) Trophy {
	t := Trophy{ID: rec.ID, Source: "elsewhere", Platform: rec.Platform, Title: rec.Title, Rank: rec.Rank, Date: rec.Date,
		AwardURL: rec.AwardURL, State: rec.State}
	if rec.State == TrophyVerified {
		t.Points = TrophyPoints(rec.Rank)
	}
	v := &t.Verification
	v.How, v.VerifiedAt, v.CheckedAt, v.UnconfirmedSince = rec.Method, rec.VerifiedAt, rec.CheckedAt, rec.UnconfirmedSince
	if owner {
		v.NextCheckAt = rec.NextCheckAt
	}
	day := func(t *time.Time) string {
		if t == nil {
			return "?"
		}
		return t.UTC().Format(DateLayout)
	}
	switch rec.State {
	case TrophyVerified:
		if rec.Method == TrophyBySiteTeam {
			v.Text = "Verified by the site team on " + day(rec.VerifiedAt) + "."
			if rec.Reason != "" {
				v.Text += " Note: " + rec.Reason
			}
		} else {
			v.Text = "Verified on " + day(rec.VerifiedAt) + ": the award page " + rec.Evidence + " (last read " + day(rec.CheckedAt) + ")."
		}
	case TrophyUnconfirmed:
		v.Text = "Unconfirmed since " + day(rec.UnconfirmedSince) + ": " + rec.Reason + " It was verified on " + day(rec.VerifiedAt) + "; it counts again once its page names the listing."
	case TrophyRejected:
		who := "the check"
		if rec.Method == TrophyBySiteTeam {
			who = "the site team"
		}
		v.Text = "Rejected by " + who + " on " + day(rec.CheckedAt) + ": " + rec.Reason
	default:
		v.Text = "Pending: the award page has not been read yet."
		if rec.Reason != "" {
			v.Text = "Pending: " + rec.Reason
		}
	}
	return t
}

// GetTrophyLeaderboard ranks public listings by trophy points, all-time or
// in one year; apart from the community, billboard and Domain Rating boards.
func (s *Service) GetTrophyLeaderboard(ctx context.Context, in GetTrophyLeaderboardInput) (*TrophyBoard, error) {
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	items, total, err := st.TrophyBoard(ctx, in.Year, in.Offset(), per)
	if err != nil {
		return nil, err
	}
	site := s.Site.In(ctx)
	for i := range items {
		items[i].Listing.PageURL = site.ListingPageURL(items[i].Listing.Slug)
	}
	return &TrophyBoard{Year: in.Year, PointsRule: TrophyPointsRule, Items: nonNil(items), Page: NewPage(page, per, total)}, nil
}

// GetHallOfFame lists the Launch of the Week #1 winners by year, newest year first.
func (s *Service) GetHallOfFame(ctx context.Context, in GetHallOfFameInput) (*HallOfFame, error) {
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	firsts, err := st.FirstPlaces(ctx, in.Year)
	if err != nil {
		return nil, err
	}
	out := &HallOfFame{Years: []HallOfFameYear{},
		Text: "Launch of the Week #1 winners of " + s.SiteNow(ctx).Name + " and the winners of its finished award programmes, by year (newest first), each year by week and by programme."}
	year := func(y int) *HallOfFameYear {
		for i := range out.Years {
			if out.Years[i].Year == y {
				return &out.Years[i]
			}
		}
		out.Years = append(out.Years, HallOfFameYear{Year: y, Winners: []Award{}, Programmes: []ProgrammeWin{}})
		return &out.Years[len(out.Years)-1]
	}
	for _, a := range firsts {
		y, _ := strconv.Atoi(a.Week[:4])
		hy := year(y)
		hy.Winners = append(hy.Winners, a)
	}
	if ps, perr := s.programmeStore(); perr == nil {
		wins, err := ps.ProgrammeWins(ctx, 0, in.Year)
		if err != nil {
			return nil, err
		}
		for _, w := range wins {
			y, _ := strconv.Atoi(w.ClosedOn[:4])
			hy := year(y)
			hy.Programmes = append(hy.Programmes, w)
		}
	}
	slices.SortFunc(out.Years, func(a, b HallOfFameYear) int { return a.Year - b.Year })
	for i, j := 0, len(out.Years)-1; i < j; i, j = i+1, j-1 {
		out.Years[i], out.Years[j] = out.Years[j], out.Years[i]
	}
	return out, nil
}
