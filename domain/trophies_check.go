package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// The verification of a trophy: the job TrophyCheckJob reads the award page
// with the crawler (Fetcher.Crawl of one page: robots.txt, the SSRF guard,
// the size and time limits) and looks for the listing on it.

type trophyCheckPayload struct {
	TrophyID int64 `json:"trophy_id"`
	// Due is the check's time (Unix seconds): the job acts only while it is
	// the trophy's next check.
	Due int64 `json:"due"`
}

// RegisterTrophyJobs registers the trophy check with the runner.
func (s *Service) RegisterTrophyJobs(r *Runner) {
	r.Handle(TrophyCheckJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p trophyCheckPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		return s.runTrophyCheck(ctx, p)
	}, MaxAttempts: 5})
}

// trophyFetcher is the crawler award pages are read with.
func (s *Service) trophyFetcher() (Fetcher, error) {
	if s.TrophyPages != nil {
		return s.TrophyPages, nil
	}
	if s.Drafts != nil && s.Drafts.Fetcher != nil {
		return s.Drafts.Fetcher, nil
	}
	return nil, Errorf(EInternal, "the site reader is not configured")
}

// runTrophyCheck is one run of TrophyCheckJob. A job whose time is no longer
// the trophy's next check (deleted, decided by the site team, or checked by
// another run) does nothing.
func (s *Service) runTrophyCheck(ctx context.Context, p trophyCheckPayload) error {
	st, err := s.trophyStore()
	if err != nil {
		return err
	}
	rec, err := st.Trophy(ctx, p.TrophyID)
	if ErrorCode(err) == ENotFound {
		return nil
	}
	if err != nil {
		return err
	}
	if rec.NextCheckAt == nil || rec.NextCheckAt.Unix() != p.Due {
		return nil
	}
	f, err := s.trophyFetcher()
	if err != nil {
		return err
	}
	now := s.now().Truncate(time.Second)
	d, err := s.checkTrophyPage(ctx, f, rec, now)
	if err != nil {
		return err
	}
	var next *JobSpec
	if d.NextCheckAt != nil {
		j := trophyJob(rec.ID, *d.NextCheckAt)
		next = &j
	}
	_, err = st.RecordTrophyCheck(ctx, rec.ID, time.Unix(p.Due, 0), d, next)
	return err
}

// checkTrophyPage reads rec's award page at now and decides what follows.
// It fails only when ctx ends.
func (s *Service) checkTrophyPage(ctx context.Context, f Fetcher, rec *TrophyRecord, now time.Time) (TrophyDecision, error) {
	d := TrophyDecision{State: rec.State, Method: rec.Method, Reason: rec.Reason, Evidence: rec.Evidence, CheckedAt: now,
		VerifiedAt: rec.VerifiedAt, UnconfirmedSince: rec.UnconfirmedSince}
	site, err := f.Crawl(ctx, rec.AwardURL, 1, nil)
	if err != nil && ctx.Err() != nil {
		return d, ctx.Err()
	}
	var why string
	if err != nil {
		var ce *CrawlError
		if errors.As(err, &ce) && ce.Temporary && rec.Failures+1 < TrophyMaxFailures {
			// A passing failure: try again later, state unchanged.
			d.Failures = rec.Failures + 1
			at := now.Add(TrophyRetry)
			d.NextCheckAt = &at
			d.Reason = fmt.Sprintf("the last read of the award page failed (%s); trying again at %s UTC.", crawlWhy(err), at.Format("2006-01-02 15:04"))
			if rec.State != TrophyPending {
				d.Reason = rec.Reason
			}
			return d, nil
		}
		why = "the award page could not be read: " + crawlWhy(err) + "."
	} else if len(site.Pages) == 0 {
		why = "the award page could not be read."
	} else if ev := trophyEvidence(site.Pages[0], rec); ev != "" {
		d.State, d.Method, d.Reason, d.Evidence, d.Failures, d.UnconfirmedSince = TrophyVerified, TrophyByPage, "", ev, 0, nil
		if rec.State != TrophyVerified || d.VerifiedAt == nil {
			d.VerifiedAt = &now
		}
		at := now.Add(TrophyRecheck)
		d.NextCheckAt = &at
		return d, nil
	} else {
		why = fmt.Sprintf("the award page %s does not name %s: it neither links to nor mentions %s, and the name %q does not appear near award words "+
			"(award, winner, won, #1, of the day, of the week, or the trophy's title).", site.Pages[0].URL, rec.ListingName, trophyDomain(rec), rec.ListingName)
	}
	d.Failures, d.Method = 0, TrophyByPage
	switch rec.State {
	case TrophyPending:
		d.State, d.Reason = TrophyRejected, upperFirst(why)+" Fix award_url (delete and add again), or ask the site team to verify it by hand."
	case TrophyVerified, TrophyUnconfirmed:
		d.State, d.Reason = TrophyUnconfirmed, upperFirst(why)
		if rec.State == TrophyVerified || d.UnconfirmedSince == nil {
			d.UnconfirmedSince = &now
		}
		if now.Sub(*d.UnconfirmedSince) < TrophyUnconfirmedFor {
			at := now.Add(TrophyUnconfirmedRecheck)
			d.NextCheckAt = &at
		}
	default:
		d.State = rec.State
	}
	return d, nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// crawlWhy is a crawl error in words.
func crawlWhy(err error) string {
	var ce *CrawlError
	if errors.As(err, &ce) {
		return strings.TrimSuffix(ce.Message, ".")
	}
	return "read error"
}

// trophyDomain is the domain the award page must link to or mention.
func trophyDomain(rec *TrophyRecord) string { return claimDomain(rec.Domain, rec.URL) }

// trophyAwardWords are words that, near the listing's name, say it won.
var trophyAwardWords = []string{"award", "winner", "won ", "win ", "#1", "#2", "#3", "no. 1", "1st", "2nd", "3rd", "top ",
	"of the day", "of the week", "of the month", "of the year", "trophy", "prize", "badge", "featured", "place", "ranked", "best "}

// trophyNear is how close (in characters) the name and an award word must be.
const trophyNear = 200

// trophyEvidence says how page names the listing of rec ("" when it does not):
// a link to the listing's domain, the domain in its text, or the listing's
// name near an award word (or the trophy's title).
func trophyEvidence(page WebPage, rec *TrophyRecord) string {
	dom := trophyDomain(rec)
	if dom != "" {
		for _, v := range page.Data {
			if u, err := url.Parse(v); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
				if h == dom || strings.HasSuffix(h, "."+dom) {
					return "links to " + v
				}
			}
		}
		re := regexp.MustCompile(`(^|[^a-z0-9.-])(www\.)?` + regexp.QuoteMeta(dom) + `($|[^a-z0-9-]|\.($|[^a-z0-9]))`)
		if re.MatchString(strings.ToLower(page.Title + "\n" + page.Text)) {
			return "mentions " + dom
		}
	}
	name := strings.ToLower(strings.TrimSpace(rec.ListingName))
	if len(name) < 2 {
		return ""
	}
	text := strings.ToLower(page.Title + "\n" + page.Text)
	words := append([]string{strings.ToLower(rec.Title)}, trophyAwardWords...)
	re := regexp.MustCompile(`(^|[^\pL\pN])` + regexp.QuoteMeta(name) + `($|[^\pL\pN])`)
	for _, m := range re.FindAllStringIndex(text, -1) {
		lo, hi := max(0, m[0]-trophyNear), min(len(text), m[1]+trophyNear)
		window := text[lo:hi]
		for _, w := range words {
			if w != "" && strings.Contains(window, w) {
				return fmt.Sprintf("names %q near %q", rec.ListingName, strings.TrimSpace(w))
			}
		}
	}
	return ""
}

// TrophyQueue lists this site's trophies in state for the console.
func (s *Service) TrophyQueue(ctx context.Context, state string, limit int) ([]TrophyRecord, error) {
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	return st.TrophiesInState(ctx, state, limit)
}

// DecideTrophy is the site team verifying (verify) or rejecting a trophy by
// hand with a reason the owner sees; a hand-verified trophy is not read
// again on a schedule (the team's decision stands until it changes it).
func (s *Service) DecideTrophy(ctx context.Context, id int64, verify bool, reason string) (*TrophyRecord, error) {
	st, err := s.trophyStore()
	if err != nil {
		return nil, err
	}
	reason, err = plainText("reason", reason, 500, true)
	if err != nil {
		return nil, err
	}
	if !verify && reason == "" {
		return nil, Invalid("reason", "required", "reason: say why the trophy is rejected; the owner sees it.")
	}
	now := s.now().Truncate(time.Second)
	d := TrophyDecision{State: TrophyRejected, Method: TrophyBySiteTeam, Reason: reason, CheckedAt: now}
	if verify {
		d.State, d.VerifiedAt = TrophyVerified, &now
	}
	return st.DecideTrophy(ctx, id, d)
}
