package demo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TopByVotes is how many of the most voted live listings get founders.
const TopByVotes = 100

// demoTeams are the roles of a team of one, two or three founders.
var demoTeams = [][][]string{
	{{"Founder"}, {"Founder and CEO"}, {"Solo founder"}, {"Founder and maker"}},
	{{"Co-founder and CEO", "Co-founder and CTO"}, {"Co-founder and head of product", "Co-founder and lead engineer"},
		{"CEO and co-founder", "CTO and co-founder"}, {"Co-founder and CEO", "Co-founder and designer"}},
	{{"Co-founder and CEO", "Co-founder and CTO", "Co-founder and designer"}, {"Co-founder and CEO", "Co-founder and CTO", "Co-founder and head of growth"},
		{"CEO and co-founder", "CTO and co-founder", "Co-founder and head of customer success"}},
}

// demoBackgrounds complete "Before <listing>, <first name> ..."; {audience}
// is the listing's audience.
var demoBackgrounds = []string{
	"spent six years as a backend engineer at a payments company", "ran a small agency building websites for {audience}",
	"worked in customer support and heard about the problem every day", "led a design team at a travel start-up",
	"was a consultant for {audience} and saw the same spreadsheets everywhere", "built internal tools at a logistics company",
	"was a product manager at a large software company", "worked as a data analyst for a retail chain",
	"taught computer science at a secondary school", "freelanced as a full-stack developer for eight years",
	"was the first engineer at a start-up that was later acquired", "worked in sales for a B2B software company",
	"did a PhD in human-computer interaction", "ran growth at a subscription app with a million users",
	"worked alongside {audience} for years and built the first version for them", "worked on infrastructure at a cloud hosting company",
}

// demoHobbies complete "Outside work, <first name> ...".
var demoHobbies = []string{
	"runs trail races", "bakes sourdough every weekend", "plays in a jazz quartet", "is learning Japanese", "restores old synthesizers",
	"climbs at the local bouldering gym", "keeps bees on a city rooftop", "writes a newsletter about small software businesses",
	"coaches a youth basketball team", "paints watercolours of harbours", "cycles long distances", "organises a monthly founders' breakfast",
	"grows far too many tomatoes", "plays chess online, mostly badly", "volunteers at a coding club for teenagers", "surfs whenever the forecast allows",
}

// topListings returns the listings that must show their founders: the
// TopByVotes live listings with the most votes (ties with the last
// included), the top three of every week (the awarded ones of the past
// weeks, this week's leaders), in index order.
func (d *Dataset) topListings() []*Listing {
	live := d.live()
	byVotes := slices.Clone(live)
	slices.SortStableFunc(byVotes, func(a, b *Listing) int { return cmp.Compare(b.countedVotes(), a.countedVotes()) })
	top := map[int]bool{}
	for _, l := range byVotes {
		if len(top) >= TopByVotes && l.countedVotes() < byVotes[TopByVotes-1].countedVotes() {
			break // ties with the last of the top are in: a board may order them either way
		}
		top[l.Index] = true
	}
	for w := 0; w <= PastWeeks; w++ {
		for _, l := range d.weekTop(d.Monday.AddDate(0, 0, -7*w), 3) {
			top[l.Index] = true
		}
	}
	var out []*Listing
	for _, l := range d.Listings {
		if top[l.Index] {
			out = append(out, l)
		}
	}
	return out
}

// weekTop returns the first n live launches of the week of monday as the
// site ranks them (docs/weeks.md): more counted votes cast during the week;
// on a tie the one whose last such vote came earlier, then the one launched
// earlier, then the one listed first.
func (d *Dataset) weekTop(monday time.Time, n int) []*Listing {
	type ranked struct {
		l     *Listing
		votes int
		last  time.Time
	}
	end := monday.AddDate(0, 0, 7)
	var rs []ranked
	for _, l := range d.live() {
		if !l.LaunchWeek.Equal(monday) {
			continue
		}
		r := ranked{l: l}
		for _, v := range l.Votes {
			if v.Person < demoPeople && !v.At.Before(monday) && v.At.Before(end) {
				r.votes++
				r.last = v.At
			}
		}
		rs = append(rs, r)
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.votes, a.votes), a.last.Compare(b.last), a.l.LaunchedAt.Compare(b.l.LaunchedAt))
	})
	out := make([]*Listing, 0, n)
	for _, r := range rs[:min(n, len(rs))] {
		out = append(out, r.l)
	}
	return out
}

// countedVotes is the number of the listing's votes that count once seeded:
// the votes of addHeldVotes' fresh accounts are held.
func (l *Listing) countedVotes() int {
	n := 0
	for _, v := range l.Votes {
		if v.Person < demoPeople {
			n++
		}
	}
	return n
}

// addTeamFounders gives every top listing without a founder a team of one to
// three founders, distinct people with names of the listing's country (now
// and then a co-founder from elsewhere) and a role each.
func (d *Dataset) addTeamFounders(r rnd) {
	has := map[int]bool{}
	names := map[string]bool{}
	for _, f := range slices.Concat(d.Founders, d.Teams) {
		names[f.Name] = true
		for _, of := range f.Listings {
			has[of.Listing] = true
		}
	}
	for _, l := range d.topListings() {
		if has[l.Index] {
			continue
		}
		size := []int{1, 1, 2, 2, 2, 3}[r.IntN(6)]
		roles := demoTeams[size-1][r.IntN(len(demoTeams[size-1]))]
		bg, hobby := r.Perm(len(demoBackgrounds)), r.Perm(len(demoHobbies)) // a team's people differ
		for k, role := range roles {
			country, city := l.Country, l.City
			if country == "" || k > 0 && r.chance(0.2) {
				p := demoPlaces[r.IntN(len(demoPlaces))]
				country, city = p[0], p[1]
			}
			region := demoRegionOf[country]
			if region == "" {
				region = "en"
			}
			pool := demoNameRegions[region]
			first, name := "", ""
			for name == "" || names[name] {
				first = r.pick(pool.First)
				name = first + " " + r.pick(pool.Last)
			}
			names[name] = true
			slug := slugify(name)
			f := Founder{Slug: slug, Name: name, Title: role, Country: country, City: city,
				Bio: fmt.Sprintf("%s is %s of %s. Before %s, %s %s. Outside work, %s %s.", name, lowerFirst(role), l.Name, l.Name, first,
					strings.ReplaceAll(demoBackgrounds[bg[k]], "{audience}", l.Audience), first, demoHobbies[hobby[k]]),
				Socials:   map[string]string{"linkedin": "https://www.linkedin.com/in/" + slug},
				CreatedAt: l.CreatedAt, Listings: []FounderOf{{Listing: l.Index, Primary: k == 0}}}
			if r.chance(0.6) {
				f.Socials["x"] = "https://x.com/" + slugPlain(name)
			}
			if strings.Contains(role, "CTO") || strings.Contains(role, "engineer") || size == 1 && r.chance(0.5) {
				f.Socials["github"] = "https://github.com/" + slugPlain(name)
			}
			d.Teams = append(d.Teams, f)
		}
	}
}
