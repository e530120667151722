package domain

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// The free launch (docs/free-launch.md): choose_free_listing gives a listing
// a launch week FreeWeeksMin-FreeWeeksMax weeks out and status
// awaiting_badge; the job BadgeCheckJob reads its homepage until a link to its
// page here is found, then it is scheduled and goes live when the week starts.

// BadgeCheckJob is the job kind of a badge check; its key is
// "<listing id>@<due unix seconds>" and it acts only while that time is the
// listing's next check (FreeStore.BadgeCheckDue).
const BadgeCheckJob = "listing.badge_check"

// Defaults of the free launch's site settings.
const (
	DefaultFreeWeeksMin     = 6
	DefaultFreeWeeksMax     = 8
	DefaultFreeWeekCapacity = 20
	DefaultBadgeCheckHours  = 6
	// FreeLiveCheckWeeks is how long after going live the badge is still checked.
	FreeLiveCheckWeeks = 4
	// FreeMissesToUnpublish is how many checks in a row without the badge
	// unpublish a live free listing (back to draft, out of the queue).
	FreeMissesToUnpublish = 2
	// freeMoveWeeks bounds the search for a later week with room.
	freeMoveWeeks = 52
)

// FreeSettings are the free launch's site settings, kept in sites.settings.
type FreeSettings struct {
	WeeksMin     int `json:"free_weeks_min"`
	WeeksMax     int `json:"free_weeks_max"`
	WeekCapacity int `json:"free_week_capacity"`
	CheckHours   int `json:"badge_check_hours"`
}

// Norm fills unset (zero or negative) settings with the defaults, and a
// maximum below the minimum with the minimum.
func (f FreeSettings) Norm() FreeSettings {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&f.WeeksMin, DefaultFreeWeeksMin)
	def(&f.WeeksMax, DefaultFreeWeeksMax)
	def(&f.WeekCapacity, DefaultFreeWeekCapacity)
	def(&f.CheckHours, DefaultBadgeCheckHours)
	if f.WeeksMax < f.WeeksMin {
		f.WeeksMax = f.WeeksMin
	}
	return f
}

// Interval is the time between two badge checks.
func (f FreeSettings) Interval() time.Duration { return time.Duration(f.CheckHours) * time.Hour }

// FreeWeeks are the weeks a listing joining the queue at now may get, in
// order: WeeksMax-WeeksMin+1 weeks from the first Monday at least WeeksMin
// whole weeks after now (so on a Sunday "6-8 weeks out" starts 43 days away,
// never 36).
func (f FreeSettings) FreeWeeks(now time.Time) []string {
	first := Monday(now.AddDate(0, 0, 7*f.WeeksMin))
	if first.Before(now.AddDate(0, 0, 7*f.WeeksMin)) {
		first = first.AddDate(0, 0, 7)
	}
	var out []string
	for k := 0; k <= f.WeeksMax-f.WeeksMin; k++ {
		out = append(out, first.AddDate(0, 0, 7*k).Format(DateLayout))
	}
	return out
}

// LaterWeeks are the weeks a listing whose week started without the badge
// may move to, in order: next week onwards.
func LaterWeeks(now time.Time) []string {
	var out []string
	for k := 1; k <= freeMoveWeeks; k++ {
		out = append(out, Monday(now).AddDate(0, 0, 7*k).Format(DateLayout))
	}
	return out
}

// FreeState is what decides a badge check's outcome.
type FreeState struct {
	Status string
	Plan   string
	// Week is the Monday of the launch week (zero when none).
	Week       time.Time
	LaunchedAt *time.Time
	Misses     int
}

// FreeStep is what one badge check does to a listing (FreeTransition).
type FreeStep struct {
	// Status is the listing's status after the check.
	Status string
	// Live makes the listing live now (found after its week started).
	Live bool
	// MoveWeek moves it to the earliest later week with room (LaterWeeks).
	MoveWeek bool
	// StartWeek enqueues WeekStartJob for its week (it was just scheduled).
	StartWeek bool
	Misses    int
	// Stop ends the checks; otherwise the next one is NextCheck(...).
	Stop bool
	// Mail is what the owner is told: "" or one of the free* mail kinds.
	Mail string
}

// Mail kinds of the badge check.
const (
	MailFreeMoved   = "moved"      // the week started without the badge: a later week
	MailBadgeGone   = "badge_gone" // scheduled, the badge went: back to awaiting_badge
	MailLiveMissing = "live_missing"
	MailUnpublished = "unpublished"
)

// FreeCheckable reports whether a listing in state st is checked at all,
// and whether its homepage must be read (a live listing past its check
// window is not).
func FreeCheckable(st FreeState, now time.Time) bool {
	if st.Plan != PlanFree {
		return false
	}
	switch st.Status {
	case ListingAwaitingBadge, ListingScheduled:
		return true
	case ListingLive:
		return st.LaunchedAt != nil && now.Before(st.LaunchedAt.AddDate(0, 0, 7*FreeLiveCheckWeeks))
	}
	return false
}

// FreeTransition is the free launch's policy (docs/free-launch.md): what a
// check at now that found the badge or not does to a listing in state st.
func FreeTransition(st FreeState, found bool, now time.Time) FreeStep {
	if !FreeCheckable(st, now) {
		return FreeStep{Status: st.Status, Misses: st.Misses, Stop: true}
	}
	started := !st.Week.IsZero() && !now.Before(st.Week)
	step := FreeStep{Status: st.Status}
	if found {
		switch st.Status {
		case ListingAwaitingBadge:
			if started {
				step.Status, step.Live = ListingLive, true
			} else {
				step.Status, step.StartWeek = ListingScheduled, true
			}
		case ListingScheduled:
			// Kept scheduled; WeekStartJob makes it live. A week that started
			// while it was scheduled is started here too (the job may have
			// run when the listing was briefly awaiting_badge).
			step.Live = started
			if started {
				step.Status = ListingLive
			}
		}
		return step
	}
	step.Misses = st.Misses + 1
	switch st.Status {
	case ListingAwaitingBadge:
		if started {
			step.MoveWeek, step.Mail = true, MailFreeMoved
		}
	case ListingScheduled:
		step.Status, step.Mail = ListingAwaitingBadge, MailBadgeGone
		if started {
			step.MoveWeek, step.Mail = true, MailFreeMoved
		}
	case ListingLive:
		step.Mail = MailLiveMissing
		if step.Misses >= FreeMissesToUnpublish {
			step.Status, step.Stop, step.Mail = ListingDraft, true, MailUnpublished
		}
	}
	return step
}

// NextFreeCheck is when a listing in status with launch week week (a Monday)
// is checked next after a check at now: after the interval, and no later
// than its week's start while it waits for the badge, so that the Monday
// decides. The zero time means no more checks.
func NextFreeCheck(status string, week time.Time, launchedAt *time.Time, now time.Time, set FreeSettings) time.Time {
	next := now.Add(set.Interval())
	switch status {
	case ListingAwaitingBadge:
		if !week.IsZero() && week.After(now) && week.Before(next) {
			next = week
		}
	case ListingScheduled:
	case ListingLive:
		if launchedAt == nil || !next.Before(launchedAt.AddDate(0, 0, 7*FreeLiveCheckWeeks)) {
			return time.Time{}
		}
	default:
		return time.Time{}
	}
	return next
}

// BadgeLink returns the first of links that points at slug's page on this
// site: scheme http or https, the host (and port) of BaseURL, path
// /listings/<slug> with or without a trailing slash; any query. "" when none.
func (s Site) BadgeLink(links []string, slug string) string {
	base, err := url.Parse(s.BaseURL)
	if err != nil || base.Host == "" {
		return ""
	}
	want := hostKey(base)
	for _, l := range links {
		u, err := url.Parse(strings.TrimSpace(l))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || (hostKey(u) != want && !loopbackAlias(base, u)) {
			continue
		}
		if strings.TrimSuffix(u.Path, "/") == "/listings/"+slug {
			return l
		}
	}
	return ""
}

// loopbackAlias reports whether u names the same loopback server as base
// under another loopback name: a site on a loopback address without a
// public origin answers localhost, 127.0.0.1 and [::1] on its port and hands
// out badges under the name the client used (Origins.ForHost).
func loopbackAlias(base, u *url.URL) bool {
	loop := func(h string) bool { h = strings.ToLower(h); return h == "localhost" || h == "127.0.0.1" || h == "::1" }
	return base.Scheme == "http" && u.Scheme == "http" && loop(base.Hostname()) && loop(u.Hostname()) && base.Port() != "" && u.Port() == base.Port()
}

// hostKey is a URL's lower-case host with the scheme's default port dropped.
func hostKey(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

// ---- Operations ----

// BadgeCheck is one read of a free listing's homepage.
type BadgeCheck struct {
	CheckedAt time.Time `json:"checked_at"`
	// PageURL is the page read (after redirects) or the homepage when it could not be read.
	PageURL string `json:"page_url"`
	Found   bool   `json:"found" jsonschema_description:"A link to the listing's page here was on the homepage."`
	Link    string `json:"link,omitempty" jsonschema_description:"The link that was found."`
	Error   string `json:"error,omitempty" jsonschema_description:"Why the homepage could not be read; such a check counts as not found."`
	// Status is the listing's status after the check.
	Status string `json:"status"`
}

// BadgeChecks is the badge check schedule of a free listing and its last result.
type BadgeChecks struct {
	EveryHours  int         `json:"every_hours" jsonschema_description:"Hours between two checks (site setting badge_check_hours)."`
	NextCheckAt *time.Time  `json:"next_check_at,omitempty" jsonschema_description:"When the homepage is read next; absent when checks ended."`
	Last        *BadgeCheck `json:"last,omitempty" jsonschema_description:"The last check; absent before the first."`
}

// FreeBadge says what to put on the homepage for the free launch.
type FreeBadge struct {
	Homepage string `json:"homepage" jsonschema_description:"The page that is read: the listing's url."`
	PageURL  string `json:"page_url" jsonschema_description:"The listing's page here; any link to it counts."`
	// EmbedHTML is get_badges' embed code of the standard "listed" badge.
	EmbedHTML string `json:"embed_html" jsonschema_description:"The standard badge's HTML (as get_badges gives it): paste it into the homepage."`
	// Shapes is the same badge in every shape.
	Shapes []BadgeEmbed `json:"shapes" jsonschema_description:"The same badge in the other shapes; any shape, mode or size counts."`
	Rule   string       `json:"rule"`
}

// BadgeEmbed is one shape's embed code.
type BadgeEmbed struct {
	Shape     string `json:"shape"`
	EmbedHTML string `json:"embed_html"`
}

// FreeListing is the answer of choose_free_listing.
type FreeListing struct {
	MyListingSummary
	Badge  FreeBadge   `json:"badge"`
	Checks BadgeChecks `json:"checks"`
	Next   string      `json:"next"`
}

// ChooseFreeListingInput names the listing to launch free.
type ChooseFreeListingInput struct {
	ListingID int64 `json:"listing_id" jsonschema:"minimum=1" jsonschema_description:"The listing's id (submit_draft and list_my_listings return it)."`
}

// FreeTarget is a listing as a badge check needs it.
type FreeTarget struct {
	ID         int64
	Slug, Name string
	URL        string
	State      FreeState
	// NextCheckAt is the check due (zero: none); Queued: it has a free_queue row.
	NextCheckAt time.Time
	Queued      bool
	OwnerEmail  string
}

// FreeOutcome is what recording a check did.
type FreeOutcome struct {
	Step FreeStep
	// Week is the launch week after the check (moved or not).
	Week string
	// NextCheckAt is the next check (zero: none).
	NextCheckAt time.Time
}

// FreeQueueFacts are a listing's free queue fields for get_my_listing.
type FreeQueueFacts struct {
	Position int
	Checks   BadgeChecks
}

// FreeStore keeps the free queue (*storage.Store implements it).
type FreeStore interface {
	// FreeSettings reads the site's free launch settings (normalised).
	FreeSettings(ctx context.Context) (FreeSettings, error)
	// JoinFreeQueue puts userID's listing id (draft or submitted, free plan)
	// in the free queue: the first week of FreeWeeks(now) with fewer than the
	// capacity of free listings, status awaiting_badge, in one write
	// transaction. A listing awaiting_badge already keeps its week (false).
	// ENotFound for a listing that is not theirs; EConflict with what to do
	// for any other status, the paid plan, and when every week is full.
	// A listing that joins gets its next badge check at check, and jobs (that
	// check's) are stored in the same transaction, so a crash before the
	// first check is recorded still leaves a check to run.
	JoinFreeQueue(ctx context.Context, userID, id int64, now, check time.Time, jobs ...JobSpec) (joined bool, err error)
	// FreeTarget reads listing id for a badge check.
	FreeTarget(ctx context.Context, id int64) (*FreeTarget, error)
	// RecordBadgeCheck records c and applies FreeTransition to the listing as
	// it is inside the transaction (moving it to a later week with room when
	// the step says so), and sets the next check. c nil (the listing is not
	// checked: FreeCheckable) records nothing and ends the checks. jobs
	// (may be nil) is called inside the transaction with the outcome and
	// returns the jobs to store with it (freeJobs).
	RecordBadgeCheck(ctx context.Context, id int64, c *BadgeCheck, now time.Time, jobs func(*FreeOutcome) []JobSpec) (*FreeOutcome, error)
	// FreeQueue returns the free queue facts of the listings among ids that
	// are free and awaiting_badge or scheduled, or checked after going live.
	FreeQueue(ctx context.Context, ids []int64) (map[int64]FreeQueueFacts, error)
}

// FreeJoinGrace is when the badge check stored with a join of the free queue
// is due: later than choose_free_listing's own first check can take.
const FreeJoinGrace = 10 * time.Minute

func (s *Service) freeStore() (FreeStore, error) {
	if s.Free == nil {
		return nil, Errorf(EInternal, "the free launch is not configured")
	}
	return s.Free, nil
}

// ChooseFreeListing puts one of the caller's listings in the free queue and
// reads its homepage for the badge at once; called again while it waits, it
// only checks again.
func (s *Service) ChooseFreeListing(ctx context.Context, in ChooseFreeListingInput) (*FreeListing, error) {
	c, fs, err := callerWith(ctx, s.freeStore)
	if err != nil {
		return nil, err
	}
	if _, err := s.owning(); err != nil {
		return nil, err
	}
	mine, err := s.GetMyListing(ctx, GetMyListingInput{ListingID: in.ListingID})
	if err != nil {
		return nil, err
	}
	if other, err := s.publishedByOther(ctx, c.UserID, in.ListingID, mine.URL); err != nil {
		return nil, err
	} else if other != nil {
		return nil, Errorf(EConflict, "%s", siteTakenMessage(in.ListingID, other))
	}
	// A repeat of a call that took effect (the badge was found: scheduled,
	// or live since) answers the current state and changes nothing, as the
	// tool's idempotentHint promises.
	if mine.Plan == PlanFree && (mine.Status == ListingScheduled || mine.Status == ListingLive) {
		return s.freeAnswer(ctx, mine), nil
	}
	// The first check runs below and sets the next one. The check stored
	// with the join, FreeJoinGrace later, runs only should this call end
	// before its check is recorded (a crash): it is no longer the listing's
	// next check otherwise, and does nothing.
	now := s.now()
	check := now.Add(FreeJoinGrace)
	if _, err := fs.JoinFreeQueue(ctx, c.UserID, in.ListingID, now, check, freeJobs(in.ListingID, check, FreeState{})...); err != nil {
		return nil, err
	}
	if err := s.CheckBadge(ctx, in.ListingID); err != nil {
		return nil, err
	}
	l, err := s.GetMyListing(ctx, GetMyListingInput{ListingID: in.ListingID})
	if err != nil {
		return nil, err
	}
	return s.freeAnswer(ctx, l), nil
}

// freeAnswer is choose_free_listing's answer for listing l as it is now.
func (s *Service) freeAnswer(ctx context.Context, l *MyListing) *FreeListing {
	out := &FreeListing{MyListingSummary: l.MyListingSummary, Badge: s.freeBadge(ctx, l.Slug, l.Name, l.URL)}
	if l.BadgeChecks != nil {
		out.Checks = *l.BadgeChecks
	}
	out.Next = freeNext(out)
	return out
}

// freeNext is the one sentence of what to do after choose_free_listing.
func freeNext(f *FreeListing) string {
	switch f.Status {
	case ListingAwaitingBadge:
		return fmt.Sprintf("In the free queue for the week of %s (position %d). Put badge.embed_html (or any badge shape, or a plain "+
			"link to %s) on %s; we check every %d hours until it is found, or call choose_free_listing again after adding it "+
			"to check at once. Found, the listing is scheduled and goes live when its week starts.",
			f.Week(), f.QueuePosition, f.Badge.PageURL, f.Badge.Homepage, f.Checks.EveryHours)
	case ListingScheduled:
		return "Badge found: scheduled for the week of " + f.Week() + ", live when it starts. Keep the badge on the homepage: " +
			"without it at a check before then the listing goes back to awaiting_badge."
	case ListingLive:
		return fmt.Sprintf("Live. Keep the badge on the homepage for %d weeks: missing at %d checks in a row, the free listing is unpublished (back to draft).",
			FreeLiveCheckWeeks, FreeMissesToUnpublish)
	}
	return "This listing is " + f.Status + "."
}

// freeBadge is the badge to show for the free launch: the "listed" badge,
// which every listing may show.
func (s *Service) freeBadge(ctx context.Context, slug, name, homepage string) FreeBadge {
	site := s.Site.In(ctx) // the links follow the host name the client used
	b := FreeBadge{Homepage: homepage, PageURL: site.ListingPageURL(slug), Shapes: []BadgeEmbed{},
		Rule: "Any link on the homepage to page_url counts: every badge of get_badges (any shape, mode or size) or a plain text link."}
	for _, shape := range BadgeShapes {
		html := site.BadgeEmbedHTML(slug, name, "listed", shape, "auto", "m")
		if shape == "standard" {
			b.EmbedHTML = html
		}
		b.Shapes = append(b.Shapes, BadgeEmbed{Shape: shape, EmbedHTML: html})
	}
	return b
}

// fillFreeQueue adds the free queue fields to the listings of the page
// (get_my_listing, list_my_listings).
func (s *Service) fillFreeQueue(ctx context.Context, items []MyListingSummary) (map[int64]FreeQueueFacts, error) {
	if len(items) == 0 {
		return nil, nil
	}
	fs, err := s.freeStore()
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(items))
	for i := range items {
		ids[i] = items[i].ID
	}
	facts, err := fs.FreeQueue(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range items {
		v := &items[i]
		if f, ok := facts[v.ID]; ok && f.Position > 0 {
			v.QueuePosition, v.ExpectedLaunchDate = f.Position, v.Week()
		}
	}
	return facts, nil
}
