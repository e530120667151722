package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Award programmes to enter (docs/trophies.md). The site
// team creates a programme in the console; owners enter their eligible
// listings during the entry window (enter_programme, withdraw_programme_entry);
// people vote on the programme's page during the voting window: a programme
// vote is an ordinary vote of the entered listing (the vote form, the same
// rules: held votes, bursts, new accounts, owners) cast in the window, and
// only counted votes count. When the voting window closes the clock
// (ProgrammeCloseJob) writes the winners once; they are trophies won here in
// the winners' cabinets, on the trophy leaderboard and in the Hall of Fame,
// and the winners' owners and followers are notified.

// Programme rules.
const (
	ProgrammeCloseJob       = "programme_close"
	MaxProgrammeName        = 80
	MaxProgrammeDescription = 1000
	MaxProgrammeCategories  = 10
	MaxProgrammeWinners     = 10
	// ProgrammeOverall is the name of the one category of a programme made
	// without categories (its entries' category is "").
	ProgrammeOverall = "Overall"
)

// Programme phases (Programme.State).
const (
	ProgrammeUpcoming = "upcoming"         // the entry window has not opened
	ProgrammeEntering = "entering"         // entries open, voting not yet
	ProgrammeVoting   = "voting"           // the voting window is open
	ProgrammeBetween  = "between"          // entries closed, voting not open yet
	ProgrammeCounting = "awaiting_results" // voting closed, the clock has not run yet
	ProgrammeFinished = "finished"         // winners decided
)

// ProgrammeRecord is a stored programme.
type ProgrammeRecord struct {
	ID                        int64
	Slug, Name, Description   string
	Categories                []string // category slugs; none: one category, Overall
	CategoryNames             map[string]string
	LaunchedFrom, LaunchedTo  string // YYYY-MM-DD or ""
	EntryOpens, EntryCloses   time.Time
	VotingOpens, VotingCloses time.Time
	Winners                   int
	CreatedBy                 string
	CreatedAt                 time.Time
	FinalisedAt               *time.Time
	Entries                   int
}

// ProgrammeCategory is one category of a programme.
type ProgrammeCategory struct {
	Slug string `json:"slug" jsonschema_description:"The category's slug; empty for Overall."`
	Name string `json:"name"`
}

// Programme is a programme as the API shows it.
type Programme struct {
	Slug               string              `json:"slug"`
	Name               string              `json:"name"`
	Description        string              `json:"description"`
	Categories         []ProgrammeCategory `json:"categories" jsonschema_description:"Entries compete and win per category."`
	Eligibility        string              `json:"eligibility" jsonschema_description:"Who may enter, in words."`
	LaunchedFrom       string              `json:"launched_from,omitempty" jsonschema:"format=date"`
	LaunchedTo         string              `json:"launched_to,omitempty" jsonschema:"format=date"`
	EntryOpensAt       time.Time           `json:"entry_opens_at"`
	EntryClosesAt      time.Time           `json:"entry_closes_at"`
	VotingOpensAt      time.Time           `json:"voting_opens_at"`
	VotingClosesAt     time.Time           `json:"voting_closes_at"`
	WinnersPerCategory int                 `json:"winners_per_category"`
	State              string              `json:"state" jsonschema:"enum=upcoming,enum=entering,enum=voting,enum=between,enum=awaiting_results,enum=finished"`
	EntriesOpen        bool                `json:"entries_open"`
	Entries            int                 `json:"entries"`
	PageURL            string              `json:"page_url" jsonschema_description:"The programme's page, where people vote."`
}

// ProgrammeEntry is one entry of a programme.
type ProgrammeEntry struct {
	Listing   ListingSummary `json:"listing"`
	Category  string         `json:"category" jsonschema_description:"The category slug it competes in; empty: Overall."`
	EnteredAt time.Time      `json:"entered_at"`
	Votes     int            `json:"votes" jsonschema_description:"Counted votes cast in the voting window (so far)."`
	Rank      int            `json:"rank,omitempty" jsonschema_description:"Place among its category's entries once finished, for winners."`
	Winner    bool           `json:"winner,omitempty"`
}

// ProgrammeDetail is the answer of get_programme.
type ProgrammeDetail struct {
	Programme
	Items []ProgrammeEntry `json:"items" jsonschema_description:"Entries by category, then votes (most first)."`
	Rule  string           `json:"rule" jsonschema_description:"How votes count and winners are decided."`
}

// ProgrammeList is the answer of list_programmes.
type ProgrammeList struct {
	Items []Programme `json:"items"`
	Page
}

// ListProgrammesInput pages the programmes, newest voting close first.
type ListProgrammesInput struct {
	Pagination
}

// GetProgrammeInput names a programme.
type GetProgrammeInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=80,pattern=^[a-z0-9][a-z0-9-]{0\\,79}$" jsonschema_description:"The programme's slug (list_programmes)."`
}

// EnterProgrammeInput enters one of the caller's listings.
type EnterProgrammeInput struct {
	ListingID int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id (list_my_listings)."`
	Programme string `json:"programme" jsonschema:"maxLength=80,pattern=^[a-z0-9][a-z0-9-]{0\\,79}$" jsonschema_description:"The programme's slug."`
	Category  string `json:"category,omitempty" jsonschema:"maxLength=80" jsonschema_description:"One of the programme's category slugs the listing is in; absent: the first such."`
}

// WithdrawProgrammeEntryInput withdraws an entry.
type WithdrawProgrammeEntryInput struct {
	ListingID int64  `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"Your listing's id."`
	Programme string `json:"programme" jsonschema:"maxLength=80,pattern=^[a-z0-9][a-z0-9-]{0\\,79}$" jsonschema_description:"The programme's slug."`
}

// ProgrammeEntryAnswer is the answer of enter_programme and withdraw_programme_entry.
type ProgrammeEntryAnswer struct {
	ListingID int64     `json:"listing_id"`
	Programme string    `json:"programme"`
	Category  string    `json:"category"`
	EnteredAt time.Time `json:"entered_at"`
	Next      string    `json:"next"`
}

// EntrantListing is an owned listing as the entry rules see it.
type EntrantListing struct {
	ID                 int64
	Slug, Name, Status string
	LaunchDay          string   // YYYY-MM-DD of launched_at, else launch_week, else ""
	Categories         []string // its category slugs, primary first
}

// ProgrammeEntryRecord is a stored entry.
type ProgrammeEntryRecord struct {
	ListingID int64
	Category  string
	CreatedAt time.Time
}

// ProgrammeWin is a programme win: a trophy won here.
type ProgrammeWin struct {
	Programme     string         `json:"programme"`
	ProgrammeName string         `json:"programme_name"`
	Category      string         `json:"category"`
	CategoryName  string         `json:"category_name"`
	Rank          int            `json:"rank"`
	Votes         int            `json:"votes"`
	ClosedOn      string         `json:"closed_on" jsonschema:"format=date"`
	Listing       ListingSummary `json:"listing"`
}

// ProgrammeStore keeps programmes. *storage.Store implements it.
type ProgrammeStore interface {
	// CreateProgramme stores rec and queues job(id) in one transaction:
	// EInvalid naming categories when a slug is not a category of the
	// site, EConflict when the slug is taken.
	CreateProgramme(ctx context.Context, rec *ProgrammeRecord, job func(id int64) JobSpec) error
	// Programmes pages the programmes, newest voting close first.
	Programmes(ctx context.Context, offset, limit int) ([]ProgrammeRecord, int, error)
	// Programme returns programme slug; ENotFound when none.
	Programme(ctx context.Context, slug string) (*ProgrammeRecord, error)
	// ProgrammeEntries lists p's entries of public listings with their
	// counted votes cast in [p.VotingOpens, min(until, p.VotingCloses)).
	ProgrammeEntries(ctx context.Context, p *ProgrammeRecord, until time.Time) ([]ProgrammeEntry, error)
	// EnterProgramme enters userID's listing in programme slug in one
	// transaction, after rule decides (it returns the entry's category).
	EnterProgramme(ctx context.Context, userID, listingID int64, slug string, at time.Time,
		rule func(p *ProgrammeRecord, l *EntrantListing) (string, error)) (*ProgrammeEntryRecord, error)
	// WithdrawProgrammeEntry deletes the entry after rule allows it.
	WithdrawProgrammeEntry(ctx context.Context, userID, listingID int64, slug string,
		rule func(p *ProgrammeRecord) error) (*ProgrammeEntryRecord, error)
	// FinaliseProgramme decides programme id's winners once (nil when it was
	// decided already or is not closed by at), notifying the winners' owners
	// and followers, in one transaction.
	FinaliseProgramme(ctx context.Context, id int64, at time.Time) ([]ProgrammeWin, error)
	// ProgrammeWins lists the wins of listing listingID (0: of public
	// listings in year, 0: every year), oldest first.
	ProgrammeWins(ctx context.Context, listingID int64, year int) ([]ProgrammeWin, error)
	// ProgrammeWinRecipients lists the notifications of programme id's
	// wins whose mail is not sent yet; ClaimMail and ReleaseMail mark one
	// mailed and unmark it after the mailer failed (programmes_mail.go).
	ProgrammeWinRecipients(ctx context.Context, id int64) ([]ProgrammeWinRecipient, error)
	mailClaims
}

func (s *Service) programmeStore() (ProgrammeStore, error) {
	if st, ok := s.Store.(ProgrammeStore); ok {
		return st, nil
	}
	return nil, Errorf(EInternal, "programmes are not configured")
}

// ProgrammeRule is how votes count and winners are decided, as answers state it.
const ProgrammeRule = "People vote on the programme's page while voting is open, under the site's vote rules (signed-in people only, no votes through the API; " +
	"votes of new accounts count when the account is old enough, owners' votes never count, bursts are held for the site team). " +
	"An entry's votes are the counted votes for the listing cast in the voting window. When voting closes, each category's winners are its entries " +
	"with the most votes (at least one), ties going to the earlier entry."

// programmeState is p's phase at now.
func programmeState(p *ProgrammeRecord, now time.Time) string {
	switch {
	case p.FinalisedAt != nil:
		return ProgrammeFinished
	case !now.Before(p.VotingCloses):
		return ProgrammeCounting
	case !now.Before(p.VotingOpens):
		return ProgrammeVoting
	case now.Before(p.EntryOpens):
		return ProgrammeUpcoming
	case now.Before(p.EntryCloses):
		return ProgrammeEntering
	}
	return ProgrammeBetween
}

func entriesOpen(p *ProgrammeRecord, now time.Time) bool {
	return !now.Before(p.EntryOpens) && now.Before(p.EntryCloses)
}

// categoryName is the name of programme category slug.
func (p *ProgrammeRecord) categoryName(slug string) string {
	if slug == "" {
		return ProgrammeOverall
	}
	if n := p.CategoryNames[slug]; n != "" {
		return n
	}
	return slug
}

// View is p as the API shows it at now.
func (s *Service) programmeView(ctx context.Context, p *ProgrammeRecord, now time.Time) Programme {
	out := Programme{Slug: p.Slug, Name: p.Name, Description: p.Description, LaunchedFrom: p.LaunchedFrom, LaunchedTo: p.LaunchedTo,
		EntryOpensAt: p.EntryOpens, EntryClosesAt: p.EntryCloses, VotingOpensAt: p.VotingOpens, VotingClosesAt: p.VotingCloses,
		WinnersPerCategory: p.Winners, State: programmeState(p, now), EntriesOpen: entriesOpen(p, now), Entries: p.Entries,
		PageURL: s.Site.In(ctx).URL("/programmes/" + p.Slug), Categories: []ProgrammeCategory{}}
	var names []string
	for _, c := range p.Categories {
		out.Categories = append(out.Categories, ProgrammeCategory{Slug: c, Name: p.categoryName(c)})
		names = append(names, p.categoryName(c))
	}
	if len(p.Categories) == 0 {
		out.Categories = append(out.Categories, ProgrammeCategory{Name: ProgrammeOverall})
	}
	el := "Public listings (scheduled or live)"
	switch {
	case p.LaunchedFrom != "" && p.LaunchedTo != "":
		el += " launched from " + p.LaunchedFrom + " to " + p.LaunchedTo
	case p.LaunchedFrom != "":
		el += " launched on or after " + p.LaunchedFrom
	case p.LaunchedTo != "":
		el += " launched on or before " + p.LaunchedTo
	}
	if len(names) > 0 {
		el += " in one of the categories " + strings.Join(names, ", ")
	}
	out.Eligibility = el + "; entered by their owners during the entry window."
	return out
}

// ListProgrammes lists the award programmes, newest voting close first.
func (s *Service) ListProgrammes(ctx context.Context, in ListProgrammesInput) (*ProgrammeList, error) {
	st, err := s.programmeStore()
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	recs, total, err := st.Programmes(ctx, in.Offset(), per)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := &ProgrammeList{Items: []Programme{}, Page: NewPage(page, per, total)}
	for i := range recs {
		out.Items = append(out.Items, s.programmeView(ctx, &recs[i], now))
	}
	return out, nil
}

// GetProgramme is a programme with its entries, their votes and, once
// finished, its winners.
func (s *Service) GetProgramme(ctx context.Context, in GetProgrammeInput) (*ProgrammeDetail, error) {
	st, err := s.programmeStore()
	if err != nil {
		return nil, err
	}
	p, err := st.Programme(ctx, in.Slug)
	if err != nil {
		return nil, err
	}
	now := s.now()
	items, err := st.ProgrammeEntries(ctx, p, now)
	if err != nil {
		return nil, err
	}
	return &ProgrammeDetail{Programme: s.programmeView(ctx, p, now), Items: nonNil(items), Rule: ProgrammeRule}, nil
}

// EnterProgramme enters one of the caller's listings in a programme during
// its entry window.
func (s *Service) EnterProgramme(ctx context.Context, in EnterProgrammeInput) (*ProgrammeEntryAnswer, error) {
	c, st, err := callerWith(ctx, s.programmeStore)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	rec, err := st.EnterProgramme(ctx, c.UserID, in.ListingID, in.Programme, now, func(p *ProgrammeRecord, l *EntrantListing) (string, error) {
		return entryRule(p, l, in.Category, now)
	})
	if err != nil {
		return nil, err
	}
	return &ProgrammeEntryAnswer{ListingID: in.ListingID, Programme: in.Programme, Category: rec.Category, EnteredAt: rec.CreatedAt,
		Next: "Entered. People vote on the programme's page during its voting window; get_programme with slug " + in.Programme +
			" shows the entries and their votes. Withdraw with withdraw_programme_entry while entries are open."}, nil
}

// entryRule decides whether l may enter p at now in category (""
// chooses) and returns the entry's category.
func entryRule(p *ProgrammeRecord, l *EntrantListing, category string, now time.Time) (string, error) {
	if len(p.Categories) == 0 && category != "" {
		return "", Invalid("category", "enum", "category: programme %s has one category, Overall; leave category out.", p.Slug)
	}
	if category != "" && !slices.Contains(p.Categories, category) {
		return "", Invalid("category", "enum", "category: one of the programme's categories: %s; %q is not one.", strings.Join(p.Categories, ", "), category)
	}
	if !entriesOpen(p, now) {
		return "", Errorf(EConflict, "Entries to %s are open from %s to %s (UTC); not now.", p.Name,
			p.EntryOpens.Format(time.RFC3339), p.EntryCloses.Format(time.RFC3339))
	}
	if l.Status != "live" && l.Status != "scheduled" {
		return "", Errorf(EConflict, "%s is not public (it is %s): only scheduled or live listings may enter.", l.Name, l.Status)
	}
	if p.LaunchedFrom != "" && (l.LaunchDay == "" || l.LaunchDay < p.LaunchedFrom) || p.LaunchedTo != "" && (l.LaunchDay == "" || l.LaunchDay > p.LaunchedTo) {
		day := l.LaunchDay
		if day == "" {
			day = "no launch date yet"
		}
		return "", Errorf(EConflict, "%s is not eligible: %s is for listings launched from %s to %s; its launch: %s.", l.Name, p.Name,
			orAny(p.LaunchedFrom), orAny(p.LaunchedTo), day)
	}
	if len(p.Categories) == 0 {
		return "", nil
	}
	if category != "" {
		if !slices.Contains(l.Categories, category) {
			return "", Errorf(EConflict, "%s is not in the category %s; add it to that category first or enter another of its categories.", l.Name, p.categoryName(category))
		}
		return category, nil
	}
	for _, c := range l.Categories {
		if slices.Contains(p.Categories, c) {
			return c, nil
		}
	}
	return "", Errorf(EConflict, "%s is not eligible: %s is for listings in %s; it is in none of them.", l.Name, p.Name, strings.Join(p.Categories, ", "))
}

func orAny(d string) string {
	if d == "" {
		return "any day"
	}
	return d
}

// WithdrawProgrammeEntry withdraws one of the caller's entries while
// entries are open.
func (s *Service) WithdrawProgrammeEntry(ctx context.Context, in WithdrawProgrammeEntryInput) (*ProgrammeEntryAnswer, error) {
	c, st, err := callerWith(ctx, s.programmeStore)
	if err != nil {
		return nil, err
	}
	now := s.now()
	rec, err := st.WithdrawProgrammeEntry(ctx, c.UserID, in.ListingID, in.Programme, func(p *ProgrammeRecord) error {
		if !entriesOpen(p, now) {
			return Errorf(EConflict, "Entries to %s can be withdrawn while entries are open, %s to %s (UTC); not now.", p.Name,
				p.EntryOpens.Format(time.RFC3339), p.EntryCloses.Format(time.RFC3339))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ProgrammeEntryAnswer{ListingID: in.ListingID, Programme: in.Programme, Category: rec.Category, EnteredAt: rec.CreatedAt,
		Next: "Withdrawn from " + in.Programme + "; enter again with enter_programme while entries are open."}, nil
}

// CreateProgrammeInput is the console's form to create a programme. Dates
// are YYYY-MM-DD (UTC): a window opens at 00:00 of its first day and closes
// at 24:00 of its last.
type CreateProgrammeInput struct {
	Name, Description         string
	Categories                []string
	LaunchedFrom, LaunchedTo  string
	EntryOpens, EntryCloses   string
	VotingOpens, VotingCloses string
	Winners                   int
}

// CreateProgramme is the site team's: it validates in (400 naming the
// field, nothing stored) and stores the programme with its closing job.
func (s *Service) CreateProgramme(ctx context.Context, in CreateProgrammeInput, by string) (*ProgrammeRecord, error) {
	st, err := s.programmeStore()
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	rec := &ProgrammeRecord{CreatedBy: by, CreatedAt: now, Winners: in.Winners}
	if rec.Name, err = requiredText("name", in.Name, MaxProgrammeName, true); err != nil {
		return nil, err
	}
	if rec.Description, err = plainText("description", in.Description, MaxProgrammeDescription, false); err != nil {
		return nil, err
	}
	if rec.Slug = Slugify(rec.Name); rec.Slug == "" {
		return nil, Invalid("name", "pattern", "name: needs letters or digits to make the programme's address.")
	}
	if len(rec.Slug) > MaxProgrammeName {
		rec.Slug = strings.TrimRight(rec.Slug[:MaxProgrammeName], "-")
	}
	for _, c := range in.Categories {
		c = strings.TrimSpace(c)
		if c != "" && !slices.Contains(rec.Categories, c) {
			rec.Categories = append(rec.Categories, c)
		}
	}
	if len(rec.Categories) > MaxProgrammeCategories {
		return nil, Invalid("categories", "maxItems", "categories: at most %d; %d given.", MaxProgrammeCategories, len(rec.Categories))
	}
	day := func(field, v string, optional bool) (time.Time, error) {
		v = strings.TrimSpace(v)
		if v == "" && optional {
			return time.Time{}, nil
		}
		d, err := time.Parse(DateLayout, v)
		if err != nil || !weekRE.MatchString(v) {
			return time.Time{}, Invalid(field, "date", "%s: a real calendar date as YYYY-MM-DD, e.g. 2026-12-01; %q is not one.", field, v)
		}
		return d, nil
	}
	from, err := day("launched_from", in.LaunchedFrom, true)
	if err != nil {
		return nil, err
	}
	to, err := day("launched_to", in.LaunchedTo, true)
	if err != nil {
		return nil, err
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return nil, Invalid("launched_to", "minimum", "launched_to: %s is before launched_from %s.", in.LaunchedTo, in.LaunchedFrom)
	}
	if !from.IsZero() {
		rec.LaunchedFrom = from.Format(DateLayout)
	}
	if !to.IsZero() {
		rec.LaunchedTo = to.Format(DateLayout)
	}
	var w [4]time.Time
	for i, f := range []struct{ field, v string }{{"entry_opens", in.EntryOpens}, {"entry_closes", in.EntryCloses},
		{"voting_opens", in.VotingOpens}, {"voting_closes", in.VotingCloses}} {
		if w[i], err = day(f.field, f.v, false); err != nil {
			return nil, err
		}
	}
	switch {
	case w[1].Before(w[0]):
		return nil, Invalid("entry_closes", "minimum", "entry_closes: the entry window's last day is before its first (%s).", in.EntryOpens)
	case w[3].Before(w[2]):
		return nil, Invalid("voting_closes", "minimum", "voting_closes: the voting window's last day is before its first (%s).", in.VotingOpens)
	case w[2].Before(w[0]):
		return nil, Invalid("voting_opens", "minimum", "voting_opens: voting cannot open before entries do (%s).", in.EntryOpens)
	case w[3].Before(w[1]):
		return nil, Invalid("voting_closes", "minimum", "voting_closes: voting cannot close before entries do (%s).", in.EntryCloses)
	case !w[3].AddDate(0, 0, 1).After(now):
		return nil, Invalid("voting_closes", "minimum", "voting_closes: %s has passed; a programme is made before its voting closes.", in.VotingCloses)
	case in.Winners < 1 || in.Winners > MaxProgrammeWinners:
		return nil, Invalid("winners", "range", "winners: 1-%d winners per category; %d given.", MaxProgrammeWinners, in.Winners)
	}
	rec.EntryOpens, rec.EntryCloses = w[0], w[1].AddDate(0, 0, 1)
	rec.VotingOpens, rec.VotingCloses = w[2], w[3].AddDate(0, 0, 1)
	if err := st.CreateProgramme(ctx, rec, func(id int64) JobSpec { return programmeCloseJob(id, rec.VotingCloses) }); err != nil {
		return nil, err
	}
	return rec, nil
}

type programmeClosePayload struct {
	ProgrammeID int64 `json:"programme_id"`
}

// ProgrammeCloseJobSpec is the job that decides programme id's winners at
// closes (the demo data queues it for its open programme).
func ProgrammeCloseJobSpec(id int64, closes time.Time) JobSpec { return programmeCloseJob(id, closes) }

// programmeCloseJob is the job that decides programme id's winners at closes.
func programmeCloseJob(id int64, closes time.Time) JobSpec {
	return JobSpec{Kind: ProgrammeCloseJob, Key: strconv.FormatInt(id, 10), Payload: programmeClosePayload{ProgrammeID: id}, RunAt: closes}
}

// RegisterProgrammeJobs registers the programme clock: when a programme's
// voting window closes, its winners are decided once.
func (s *Service) RegisterProgrammeJobs(r *Runner) {
	r.Handle(ProgrammeCloseJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p programmeClosePayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		_, err := s.CloseProgramme(ctx, p.ProgrammeID)
		return err
	}, MaxAttempts: 20})
}

// CloseProgramme decides programme id's winners if its voting window has
// closed and they are not decided yet; it returns the wins it wrote.
func (s *Service) CloseProgramme(ctx context.Context, id int64) ([]ProgrammeWin, error) {
	st, err := s.programmeStore()
	if err != nil {
		return nil, Permanent(err)
	}
	wins, err := st.FinaliseProgramme(ctx, id, s.now())
	if err != nil {
		return nil, err
	}
	// Every run mails what is not mailed yet (a run after a mail failure
	// too): the wins' owners and followers, once each.
	return wins, s.tellProgrammeWinners(ctx, st, id)
}

// ProgrammeTrophy is a programme win as a cabinet entry: a trophy won here.
func ProgrammeTrophy(site Site, w ProgrammeWin) Trophy {
	return Trophy{Source: "here", Platform: site.Name, Title: w.ProgrammeName + ": " + w.CategoryName, Rank: w.Rank, Date: w.ClosedOn,
		AwardURL: site.URL("/programmes/" + w.Programme), State: TrophyVerified, Points: TrophyPoints(w.Rank),
		Verification: TrophyVerification{How: TrophyByAwardHere,
			Text: fmt.Sprintf("Won here: #%d of %s in the award programme %s, decided by %d community votes in its voting window, which closed on %s.",
				w.Rank, w.CategoryName, w.ProgrammeName, w.Votes, w.ClosedOn)}}
}
