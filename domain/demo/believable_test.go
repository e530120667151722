package demo

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// believableNows are moments the demo data must hold up at: a Wednesday noon,
// just after a week turned and the last second of a week.
var believableNows = []time.Time{testNow, time.Date(2026, 11, 23, 0, 5, 0, 0, time.UTC), time.Date(2027, 3, 7, 23, 59, 59, 0, time.UTC)}

// forEachNow runs check on the dataset of each of believableNows.
func forEachNow(t *testing.T, check func(t *testing.T, d *Dataset)) {
	t.Helper()
	for _, now := range believableNows {
		t.Run(now.Format("2006-01-02T15:04"), func(t *testing.T) {
			t.Parallel()
			check(t, Generate(now))
		})
	}
}

// TestGenerate_FoundersOnTopListings: the most voted listings, the awarded
// ones and this week's top three each show one to three founders, each a
// different person with a name and a role.
func TestGenerate_FoundersOnTopListings(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		per := map[int][]Founder{}
		names, slugs := map[string]bool{}, map[string]bool{}
		for _, f := range slices.Concat(d.Founders, d.Teams) {
			if f.Name == "" || f.Title == "" || f.Bio == "" || names[f.Name] || slugs[f.Slug] {
				t.Errorf("founder %q (%s): a name, a role, a bio and distinct from the others", f.Name, f.Slug)
			}
			names[f.Name], slugs[f.Slug] = true, true
			for _, of := range f.Listings {
				per[of.Listing] = append(per[of.Listing], f)
			}
		}
		top := d.topListings()
		if len(top) < TopByVotes {
			t.Fatalf("%d top listings, want at least %d", len(top), TopByVotes)
		}
		for w := 0; w <= PastWeeks; w++ {
			week := d.weekTop(d.Monday.AddDate(0, 0, -7*w), 3)
			if w > 0 && len(week) != 3 {
				t.Errorf("week -%d: top three %d", w, len(week))
			}
			for _, l := range week {
				if !slices.Contains(top, l) {
					t.Errorf("%s, in the top three of week -%d, is not among the top listings", l.Slug, w)
				}
			}
		}
		for _, l := range top {
			if n := len(per[l.Index]); n < 1 || n > 3 {
				t.Errorf("%s (%d votes): %d founders, want 1-3", l.Slug, len(l.Votes), n)
			}
		}
	})
}

// TestGenerate_DistinctTexts: no two listings share a tagline or a short description.
func TestGenerate_DistinctTexts(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		taglines, shorts := map[string]string{}, map[string]string{}
		for _, l := range d.Listings {
			if o, ok := taglines[strings.ToLower(l.Tagline)]; ok {
				t.Errorf("%s and %s share the tagline %q", o, l.Slug, l.Tagline)
			}
			if o, ok := shorts[strings.ToLower(l.ShortDesc)]; ok {
				t.Errorf("%s and %s share the short description %q", o, l.Slug, l.ShortDesc)
			}
			taglines[strings.ToLower(l.Tagline)], shorts[strings.ToLower(l.ShortDesc)] = l.Slug, l.Slug
		}
	})
}

// TestGenerate_StagesFollowTraction: upcoming launches are ideas, pre-launch
// or in beta; live listings are at least in beta, further along the more
// votes they have; milestones never run ahead of the stage; profitable
// listings report revenue.
func TestGenerate_StagesFollowTraction(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		byStage := map[string][]int{}
		for _, l := range d.Listings {
			pos, ok := StagePosition[l.Stage]
			switch {
			case !ok:
				t.Errorf("%s: stage %q is not in the stages table", l.Slug, l.Stage)
			case l.Status != domain.StatusLive && pos > StagePosition["beta"]:
				t.Errorf("%s: %s and %s", l.Slug, l.Status, l.Stage)
			case pos < StagePosition["beta"] && l.FoundedYear != 0 && l.FoundedYear < d.Now.Year()-2:
				t.Errorf("%s: founded in %d and still at stage %s", l.Slug, l.FoundedYear, l.Stage)
			case l.Status == domain.StatusLive && pos < StagePosition["beta"]:
				t.Errorf("%s: live with %d votes at stage %s", l.Slug, len(l.Votes), l.Stage)
			case l.Status == domain.StatusLive && len(l.Votes) >= 100 && pos < StagePosition["launched"]:
				t.Errorf("%s: %d votes at stage %s", l.Slug, len(l.Votes), l.Stage)
			case l.Stage == "profitable" && len(l.Revenue) == 0:
				t.Errorf("%s: profitable without revenue figures", l.Slug)
			}
			for _, m := range l.Milestones {
				k := slices.IndexFunc(demoMilestones, func(dm [2]string) bool { return dm[0] == m.Title })
				if k < 0 || StagePosition[milestoneStage[k]] > pos {
					t.Errorf("%s at stage %s has milestone %q", l.Slug, l.Stage, m.Title)
				}
			}
			if l.Status == domain.StatusLive {
				byStage[l.Stage] = append(byStage[l.Stage], len(l.Votes))
			}
		}
		median := func(s string) int {
			v := slices.Sorted(slices.Values(byStage[s]))
			if len(v) == 0 {
				return -1
			}
			return v[len(v)/2]
		}
		if b, l, g := median("beta"), median("launched"), median("growing"); !(b < l && l < g) {
			t.Errorf("median votes: beta %d, launched %d, growing %d; want increasing", b, l, g)
		}
	})
}

// TestGenerate_People: every vote, follow and review is by a demo account at
// a reserved address, made before it; one network per person except the one
// deliberate burst, whose votes and the other fresh accounts' are all on
// this week's launches.
func TestGenerate_People(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		emails, networks := map[string]bool{}, map[string]int{}
		for _, p := range d.People {
			if p.Name == "" || !strings.HasSuffix(p.Email, "@"+PeopleEmailDomain) || emails[p.Email] || p.UserAgent == "" || p.CreatedAt.After(d.Now) {
				t.Errorf("person %+v", p)
			}
			emails[p.Email] = true
			networks[p.Network]++
		}
		for n, c := range networks {
			if c > 1 && c != 4 {
				t.Errorf("network %s shared by %d people", n, c)
			}
		}
		old := d.Now.Add(-domain.BurstAccountAge)
		fresh := 0
		for _, l := range d.Listings {
			var voters []int
			for _, v := range l.Votes {
				p := d.People[v.Person]
				voters = append(voters, v.Person)
				if v.At.Before(l.LaunchedAt.Truncate(time.Second)) || v.At.After(d.Now) || !p.CreatedAt.Before(v.At) {
					t.Errorf("%s: vote at %v of an account made %v, launched %v", l.Slug, v.At, p.CreatedAt, l.LaunchedAt)
				}
				if v.At.Sub(p.CreatedAt) < domain.DefaultVoteMinAccountAge || networks[p.Network] > 1 {
					fresh++
					if !l.LaunchWeek.Equal(d.Monday) {
						t.Errorf("%s (week %v): a fresh or burst account's vote outside this week", l.Slug, l.LaunchWeek)
					}
				} else if p.CreatedAt.After(old) && networks[p.Network] > 1 {
					t.Errorf("%s: a young account on a shared network", l.Slug)
				}
			}
			if len(slices.Compact(slices.Sorted(slices.Values(voters)))) != len(voters) {
				t.Errorf("%s: a person voted twice", l.Slug)
			}
			for _, f := range l.Followers {
				if f.At.After(d.Now) || d.People[f.Person].CreatedAt.After(f.At) {
					t.Errorf("%s: follow at %v", l.Slug, f.At)
				}
			}
		}
		if d.Now.Equal(testNow) && fresh < 4 {
			t.Errorf("%d votes of fresh or burst accounts, want a few for the review queue", fresh)
		}
	})
}

// TestGenerate_UpcomingFollowers: every scheduled launch has followers, who
// followed it after it was announced.
func TestGenerate_UpcomingFollowers(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		for _, l := range d.Listings {
			if l.Status == domain.StatusScheduled && len(l.Followers) < 3 {
				t.Errorf("%s (scheduled): %d followers", l.Slug, len(l.Followers))
			}
			for _, f := range l.Followers {
				if f.At.Before(l.CreatedAt) {
					t.Errorf("%s: followed at %v, before it was listed at %v", l.Slug, f.At, l.CreatedAt)
				}
			}
		}
	})
}

// TestGenerate_Reviews: many listings have reviews but not all, more on
// listings with more votes; the texts differ; one review per person and
// listing, written after the account was made; ratings spread but mostly good.
func TestGenerate_Reviews(t *testing.T) {
	t.Parallel()
	forEachNow(t, func(t *testing.T, d *Dataset) {
		live, reviewed, bodies, genuine, stars := 0, 0, map[string]bool{}, 0, map[int]int{}
		var withVotes, withoutVotes []int
		for _, l := range d.live() {
			live++
			if len(l.Reviews) > 0 {
				reviewed++
				withVotes = append(withVotes, len(l.Votes))
			} else {
				withoutVotes = append(withoutVotes, len(l.Votes))
			}
			by := map[int]bool{}
			for _, rv := range l.Reviews {
				if n := utf8.RuneCountInString(rv.Body); n < 20 || n > 2000 {
					t.Errorf("%s: review of %d characters: %q", l.Slug, n, rv.Body)
				}
				if !rv.Genuine {
					continue
				}
				genuine++
				bodies[rv.Body] = true
				stars[rv.Rating]++
				if rv.Person < 0 || by[rv.Person] || !d.People[rv.Person].CreatedAt.Before(rv.At) || rv.At.Before(l.LaunchedAt) || rv.At.After(d.Now) {
					t.Errorf("%s: review by %d at %v", l.Slug, rv.Person, rv.At)
				}
				by[rv.Person] = true
			}
		}
		if reviewed*10 < live*3 || reviewed*10 > live*8 {
			t.Errorf("%d of %d live listings reviewed, want 30-80%%", reviewed, live)
		}
		if len(bodies)*10 < genuine*8 {
			t.Errorf("%d distinct texts of %d reviews, want varied texts", len(bodies), genuine)
		}
		mean := func(s []int) float64 {
			sum := 0
			for _, v := range s {
				sum += v
			}
			return float64(sum) / float64(max(len(s), 1))
		}
		if mean(withVotes) <= 1.5*mean(withoutVotes) {
			t.Errorf("mean votes of reviewed listings %.0f, of the others %.0f: reviews should follow traction", mean(withVotes), mean(withoutVotes))
		}
		if stars[5] <= stars[3] || stars[4] <= stars[2] || stars[2] == 0 {
			t.Errorf("stars %v: want mostly good with some poor", stars)
		}
	})
}
