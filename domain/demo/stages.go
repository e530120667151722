package demo

import (
	"slices"

	"github.com/launchdir/launchdir/domain"
)

// StagePosition is the order of the stages table (migration 0001): idea 1,
// pre-launch 2, beta 3, launched 4, growing 5, profitable 6, acquired 7.
var StagePosition = map[string]int{"idea": 1, "pre-launch": 2, "beta": 3, "launched": 4, "growing": 5, "profitable": 6, "acquired": 7}

// milestoneStage is the least stage a listing is at once it has reached a
// milestone of demoMilestones (same order).
var milestoneStage = []string{"beta", "beta", "launched", "launched", "growing"}

// assignStages gives every listing a stage that fits its traction, after its
// votes and revenue are known: an upcoming launch is an idea, pre-launch or
// in beta (beta when its company was founded over two years ago); a live listing is at least in beta, and the more votes it has the
// further along it is (a listing with hundreds of votes is launched or
// beyond); profitable ones report revenue; acquired ones are older products.
// Milestones are cut to the ones its stage has reached.
func (d *Dataset) assignStages(r rnd) {
	for _, l := range d.Listings {
		votes := len(l.Votes)
		switch {
		case l.Status == domain.StatusAwaitingBadge && (l.FoundedYear == 0 || l.FoundedYear >= d.Now.Year()-2):
			l.Stage = r.pick([]string{"idea", "pre-launch", "pre-launch"})
		case l.Status != domain.StatusLive && (len(l.Milestones) > 0 || l.FoundedYear != 0 && l.FoundedYear < d.Now.Year()-2):
			l.Stage = "beta" // its milestones say it has had a beta, or an older company makes it
		case l.Status != domain.StatusLive:
			l.Stage = r.pick([]string{"pre-launch", "beta", "beta"})
		case votes >= 20 && l.FoundedYear != 0 && l.FoundedYear <= 2016 && r.chance(0.2):
			l.Stage = "acquired"
		case votes >= 60 && len(l.Revenue) > 0 && r.chance(0.6):
			l.Stage = "profitable"
		case votes >= 100:
			l.Stage = r.pick([]string{"growing", "growing", "growing", "launched"})
		case votes >= 40:
			l.Stage = r.pick([]string{"launched", "launched", "launched", "growing"})
		case votes >= 15:
			l.Stage = r.pick([]string{"beta", "launched", "launched"})
		default:
			l.Stage = r.pick([]string{"beta", "beta", "launched"})
		}
		if l.Stage == "profitable" || l.Stage == "acquired" {
			continue // past every milestone
		}
		keep := slices.IndexFunc(l.Milestones, func(m domain.Milestone) bool {
			k := slices.IndexFunc(demoMilestones, func(dm [2]string) bool { return dm[0] == m.Title })
			return StagePosition[milestoneStage[k]] > StagePosition[l.Stage]
		})
		if keep >= 0 {
			l.Milestones = l.Milestones[:keep]
		}
	}
}
