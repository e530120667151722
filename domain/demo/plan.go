package demo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Demo calendar: 12 past weeks, this week and 4 future weeks around Monday(now).
const (
	// PastWeeks is the number of past weeks with launches (their awards come
	// from the weekly clock, not from the demo data).
	PastWeeks = 12
	// FutureWeeks is the number of next weeks with scheduled launches.
	FutureWeeks   = 4
	demoScheduled = 7 // scheduled listings per future week
	demoQueued    = 4 // free listings awaiting the badge, 6-8 weeks out
)

// Generate builds the whole demo directory in memory. It is a pure
// function of now: the same now gives the same data.
func Generate(now time.Time) *Dataset {
	now = now.UTC()
	r := newRnd(now, 1)
	d := &Dataset{Now: now, Monday: domain.Monday(now), Cats: Categories()}
	forced := map[string]bool{"Notewise": true, "Jotstack": true, "Quillbase": true}
	for _, f := range founderSeeds {
		for _, n := range f.Listings {
			forced[n] = true
		}
	}
	for ci := range d.Cats {
		c := &d.Cats[ci]
		combos := r.taglineCombos(c)
		for k, n := range c.Names {
			tc := combos[k%len(combos)]
			d.Listings = append(d.Listings, r.newDemoListing(len(d.Listings), c, n, tc[0], tc[1]))
		}
	}
	d.fixNoteTaking()
	d.uniqueTaglines()
	d.placeFounders()
	for _, l := range d.Listings {
		r.writeText(l)
	}
	d.assignCalendar(r, forced)
	var paidLive []*Listing
	for _, l := range d.Listings {
		d.assignPlan(r, l)
		if l.Plan == domain.PlanPaid && l.Status == domain.StatusLive {
			paidLive = append(paidLive, l)
		}
	}
	for _, i := range r.Perm(len(paidLive))[:min(8, len(paidLive))] {
		paidLive[i].Featured = true
	}
	d.newPeople(r, demoPeople)
	for _, l := range d.Listings {
		if l.Status == domain.StatusLive {
			d.addVotes(r, l)
			d.addReviews(r, l)
		}
	}
	fresh := d.addHeldVotes(r)
	for _, l := range d.Listings {
		d.addFollowers(r, l)
	}
	d.settlePeople(r, fresh)
	d.assignFounderStories()
	d.addMoney(r)
	d.addUpdatesAndAlternatives(r)
	for _, l := range d.Listings {
		l.UpdatedAt = l.CreatedAt
		if !l.LaunchedAt.IsZero() {
			l.UpdatedAt = l.LaunchedAt
		}
	}
	d.buildFounders()
	d.assignStages(r) // after the votes, milestones and revenue
	d.addTeamFounders(r)
	for _, p := range posts {
		p.PublishedAt = d.Now.AddDate(0, 0, -p.DaysAgo).Truncate(time.Hour)
		d.Posts = append(d.Posts, p)
	}
	d.Questions = append([]Question(nil), questions...)
	return d
}

// fixNoteTaking gives the three note-taking listings of the examples
// fixed, different attribute values, so "compare Notewise and Jotstack" has real answers.
func (d *Dataset) fixNoteTaking() {
	set := map[string]struct {
		audience, tagline, model, summary string
		attrs                             map[string]string
	}{
		"Notewise": {"researchers and writers", "The note-taking app for researchers and writers", "freemium", "Free plan up to 100 notes; Pro from $6/month.",
			map[string]string{"platforms": "Web, macOS, Windows, iOS, Android", "offline_mode": "Yes", "markdown": "Stored as plain Markdown files",
				"encryption": "Optional per notebook", "collaboration": "Shared notebooks, no live editing", "free_plan": "Yes, up to 100 notes"}},
		"Jotstack": {"small teams", "A fast, shared note-taking app for small teams", "freemium", "Free plan with unlimited notes; Team from $8 per user per month.",
			map[string]string{"platforms": "Web only", "offline_mode": "No", "markdown": "Markdown export only", "encryption": "No",
				"collaboration": "Yes", "free_plan": "Yes, unlimited notes"}},
		"Quillbase": {"software engineers", "The private, open-source note-taking app for software engineers", "open-source", "Open source (AGPL-3.0 licence); sync service from $4/month.",
			map[string]string{"platforms": "Linux, macOS, Windows", "offline_mode": "Yes", "markdown": "Stored as plain Markdown files",
				"encryption": "Yes", "collaboration": "No"}},
	}
	for _, l := range d.Listings {
		s, ok := set[l.Name]
		if !ok {
			continue
		}
		l.Audience, l.Tagline, l.PricingModel, l.PricingSummary, l.Attrs = s.audience, s.tagline, s.model, s.summary, s.attrs
	}
}

// placeFounders puts each listing with founders in the first founder's country and city.
func (d *Dataset) placeFounders() {
	placed := map[string]bool{}
	for _, f := range founderSeeds {
		for _, l := range d.Listings {
			if l.Name == f.Listings[0] && !placed[l.Name] {
				placed[l.Name] = true
				l.Country, l.City = f.Country, f.City
			}
		}
	}
}

// assignCalendar gives every listing its status, launch week and launch time.
func (d *Dataset) assignCalendar(r rnd, forced map[string]bool) {
	var free, pinned []*Listing
	for _, l := range d.Listings {
		if forced[l.Name] {
			pinned = append(pinned, l)
		} else {
			free = append(free, l)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for w := 1; w <= FutureWeeks; w++ {
		for k := 0; k < demoScheduled; k++ {
			l := free[0]
			free = free[1:]
			l.Status, l.LaunchWeek = domain.StatusScheduled, d.Monday.AddDate(0, 0, 7*w)
		}
	}
	for k := 0; k < demoQueued; k++ {
		l := free[0]
		free = free[1:]
		l.Status, l.LaunchWeek = domain.StatusAwaitingBadge, d.Monday.AddDate(0, 0, 7*(6+r.IntN(3)))
	}
	live := append(pinned, free...)
	r.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	counts := weekCounts(r, len(live))
	today := time.Date(d.Now.Year(), d.Now.Month(), d.Now.Day(), 0, 0, 0, 0, time.UTC)
	for w, n := range counts { // w = 0 is this week, w = k is k weeks ago
		monday := d.Monday.AddDate(0, 0, -7*w)
		for k := 0; k < n; k++ {
			l := live[0]
			live = live[1:]
			l.Status, l.LaunchWeek = domain.StatusLive, monday
			end := monday.AddDate(0, 0, 7)
			if w == 0 {
				end = d.Now
			}
			day := monday.AddDate(0, 0, r.IntN(7))
			switch {
			case w == 0 && k < 4: // some launched today
				l.LaunchedAt = r.between(today, d.Now)
			case day.After(d.Now) || !end.After(day):
				l.LaunchedAt = r.between(monday, end)
			default:
				l.LaunchedAt = r.between(day, minTime(day.Add(20*time.Hour), end))
			}
		}
	}
	for _, l := range d.Listings {
		base := l.LaunchWeek
		if l.LaunchedAt.Before(base) || l.LaunchedAt.IsZero() {
			base = minTime(base, d.Now)
		}
		l.CreatedAt = base.Add(-time.Duration(10+r.IntN(60)) * 24 * time.Hour)
	}
}

// weekCounts splits n live launches over this week (index 0, 15-20 launches)
// and the 12 past weeks (15-30 each).
func weekCounts(r rnd, n int) []int {
	counts := make([]int, PastWeeks+1)
	counts[0] = 15 + r.IntN(6)
	rest := n - counts[0]
	weights, sum := make([]float64, PastWeeks), 0.0
	for i := range weights {
		weights[i] = 0.7 + 0.6*r.Float64()
		sum += weights[i]
	}
	given := 0
	for i := range weights {
		c := min(30, max(15, int(math.Round(float64(rest)*weights[i]/sum))))
		counts[i+1], given = c, given+c
	}
	for i := 0; given != rest; i = (i + 1) % PastWeeks {
		switch {
		case given < rest && counts[i+1] < 30:
			counts[i+1]++
			given++
		case given > rest && counts[i+1] > 15:
			counts[i+1]--
			given--
		}
	}
	return counts
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// assignPlan decides plan, featured, verified, extra categories and the paid sections.
func (d *Dataset) assignPlan(r rnd, l *Listing) {
	l.Plan = domain.PlanFree
	if r.chance(0.35) || l.Name == "Notewise" {
		l.Plan = domain.PlanPaid
	}
	if l.Status == domain.StatusAwaitingBadge {
		l.Plan = domain.PlanFree
	}
	l.Verified = r.chance(0.3)
	if l.Plan != domain.PlanPaid {
		return
	}
	var siblings []string
	for _, c := range d.Cats {
		if c.Parent == l.Cat.Parent && c.Slug != l.Cat.Slug && len(c.Names) > 0 {
			siblings = append(siblings, c.Slug)
		}
	}
	l.Extra = r.pickN(siblings, r.IntN(4))
	for _, s := range []string{domain.SectionStory, domain.SectionMilestones, domain.SectionMedia} {
		if r.chance(0.7) {
			l.Unlocked = append(l.Unlocked, s)
		}
	}
	if slices.Contains(l.Unlocked, domain.SectionStory) {
		l.Story = listingStory(l, "the founders")
	}
	if slices.Contains(l.Unlocked, domain.SectionMilestones) {
		start := l.CreatedAt.AddDate(-1, 0, 0)
		for k, m := range demoMilestones {
			at := start.AddDate(0, 2*k, 0)
			if at.After(d.Now) {
				break
			}
			l.Milestones = append(l.Milestones, domain.Milestone{Date: at.Format(domain.DateLayout), Title: m[0],
				Description: fmt.Sprintf(m[1], l.Name)})
		}
	}
	if slices.Contains(l.Unlocked, domain.SectionMedia) {
		// No screenshots: they would be images at made-up domains, broken on
		// the page. The demo video is a link, not loaded by the page.
		if l.VideoURL != "" {
			l.Media = append(l.Media, domain.Media{Kind: "video", URL: l.VideoURL, Caption: "Two-minute demo"})
		}
	}
}

var demoMilestones = [][2]string{
	{"First prototype", "A rough first version of %s, used by the founders every day."},
	{"Private beta with ten teams", "Ten teams used %s daily and shaped the roadmap."},
	{"Public launch", "%s opened to everyone."},
	{"First paying customer", "The first customer paid for %s, three weeks after pricing went live."},
	{"1,000 users", "%s passed a thousand active users."},
}

// listingStory writes a founder story for a listing.
func listingStory(l *Listing, who string) *domain.Story {
	return &domain.Story{
		Title: fmt.Sprintf("Why we built %s", l.Name),
		Story: fmt.Sprintf("%s started when %s got tired of the same problem every week: %s We built %s %s for %s, and kept it small on purpose.",
			l.Name, who, lowerFirst(l.Cat.Problems[(l.Index+1)%len(l.Cat.Problems)]), article(l.Cat.Noun), l.Cat.Noun, l.Audience),
		WhyStarted:   fmt.Sprintf("We wanted a %s that %s would enjoy using, not one they put up with.", l.Cat.Noun, l.Audience),
		Problem:      l.Cat.Problems[l.Index%len(l.Cat.Problems)],
		Journey:      fmt.Sprintf("The first version took four months of evenings. We shipped it to twenty %s, rewrote half of it after their feedback, and launched publicly a year later.", l.Audience),
		Challenges:   "Saying no. Every customer asked for a different feature, and keeping the product simple meant turning most of them down.",
		Achievements: fmt.Sprintf("Today %s is used every day by people who tell us it saves them hours each week. We are proudest of: %s.", l.Name, lowerFirst(l.Features[0])),
		Lessons:      "Talk to users before writing code, charge earlier than feels comfortable, and write down why you made each decision.",
		WhatsNext:    fmt.Sprintf("Next we are working on %s, and on making %s faster on slow connections.", lowerFirst(l.Features[len(l.Features)-1]), l.Name),
	}
}

// addVotes creates vote rows: most inside the launch week, decaying after it.
func (d *Dataset) addVotes(r rnd, l *Listing) {
	n := int(math.Round(math.Exp(3.4 + 0.95*r.NormFloat64())))
	if l.Featured {
		n += 40
	}
	n = min(max(n, 3), 700)
	if age := d.Now.Sub(l.LaunchedAt); age < 4*24*time.Hour { // recent launches had less time to collect votes
		n = int(float64(n) * float64(age) / float64(4*24*time.Hour))
	}
	weekEnd := minTime(l.LaunchWeek.AddDate(0, 0, 7), d.Now)
	seen := map[int]bool{}
	for k := 0; k < n; k++ {
		v := r.IntN(demoPeople)
		for seen[v] {
			v = r.IntN(demoPeople)
		}
		seen[v] = true
		var at time.Time
		if r.chance(0.8) || !d.Now.After(weekEnd) {
			u := r.Float64()
			at = l.LaunchedAt.Add(time.Duration(u * u * float64(weekEnd.Sub(l.LaunchedAt))))
		} else {
			at = weekEnd.Add(time.Duration(r.ExpFloat64() * float64(10*24*time.Hour)))
			if !at.Before(d.Now) {
				at = r.between(weekEnd, d.Now)
			}
		}
		if at.After(d.Now) {
			at = d.Now
		}
		l.Votes = append(l.Votes, Vote{Person: v, At: at.Truncate(time.Second)})
	}
	sortVotes(l.Votes)
	l.Views = len(l.Votes)*(2+r.IntN(5)) + 20 + r.IntN(100)
}

func sortVotes(votes []Vote) {
	slices.SortFunc(votes, func(a, b Vote) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Person, b.Person)) })
}

func sortFollows(follows []Follow) {
	slices.SortFunc(follows, func(a, b Follow) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Person, b.Person)) })
}
