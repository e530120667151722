package demo

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// demoPeople is the number of demo accounts that vote, follow and review.
const demoPeople = 6000

// PeopleEmailDomain is the domain of the demo accounts' email addresses:
// .invalid is reserved (RFC 2606) and can never receive mail.
const PeopleEmailDomain = "people.launchdir.invalid"

// newPeople makes the pool of demo accounts: names from the regional pools,
// unique emails, a network and a browser of their own. CreatedAt is set by
// settlePeople once their activity is known.
func (d *Dataset) newPeople(r rnd, n int) {
	for range n {
		d.People = append(d.People, d.newPerson(r, r.pickRegion()))
	}
}

// pickRegion picks a name region, English names being the most common.
func (r rnd) pickRegion() string {
	if r.chance(0.35) {
		return "en"
	}
	return demoRegions[r.IntN(len(demoRegions))]
}

// newPerson makes one account with a unique email and its own network.
func (d *Dataset) newPerson(r rnd, region string) Person {
	i := len(d.People)
	pool := demoNameRegions[region]
	first, last := r.pick(pool.First), r.pick(pool.Last)
	initial, _ := utf8.DecodeRuneInString(last)
	p := Person{Name: first + " " + last, Signature: first + " " + string(unicode.ToUpper(initial)) + ".", UserAgent: r.pick(demoUserAgents)}
	local := strings.ReplaceAll(slugify(first+" "+last), "-", ".")
	if d.emails == nil {
		d.emails = map[string]bool{}
	}
	p.Email = local + "@" + PeopleEmailDomain
	for k := 2; d.emails[p.Email]; k++ {
		p.Email = fmt.Sprintf("%s%d@%s", local, k, PeopleEmailDomain)
	}
	d.emails[p.Email] = true
	// Documentation address ranges only (RFC 5737, RFC 3849); one network per
	// person, so the burst rule never joins two people by accident.
	// 192.0.2.0/24 is kept for the demo's one deliberate burst.
	if i%8 == 0 && i/8 < 512 {
		p.Network = fmt.Sprintf("%s.%d", []string{"198.51.100", "203.0.113"}[i/8/256], i/8%256)
	} else {
		a := uint32(i+1) * 2654435761 // a bijection of 32-bit numbers: distinct for distinct i
		p.Network = fmt.Sprintf("2001:db8:%x:%x::/64", a>>16, a&0xffff)
	}
	return p
}

// settlePeople gives every account a creation time well before its first
// vote, follow or review (2 days to about a year), and the ones without any
// activity a time in the past year.
func (d *Dataset) settlePeople(r rnd, fresh int) {
	first := make([]time.Time, len(d.People))
	seen := func(p int, at time.Time) {
		if p >= 0 && (first[p].IsZero() || at.Before(first[p])) {
			first[p] = at
		}
	}
	for _, l := range d.Listings {
		for _, v := range l.Votes {
			seen(v.Person, v.At)
		}
		for _, f := range l.Followers {
			seen(f.Person, f.At)
		}
		for _, rv := range l.Reviews {
			seen(rv.Person, rv.At)
		}
	}
	oldest := d.Now.AddDate(-3, 0, 0)
	for i := range d.People[:len(d.People)-fresh] {
		p := &d.People[i]
		if first[i].IsZero() {
			p.CreatedAt = r.between(d.Now.AddDate(-1, 0, 0), d.Now.AddDate(0, 0, -2)).Truncate(time.Second)
			continue
		}
		age := 2*24*time.Hour + time.Duration(r.ExpFloat64()*float64(90*24*time.Hour))
		p.CreatedAt = first[i].Add(-age).Truncate(time.Second)
		if p.CreatedAt.Before(oldest) {
			p.CreatedAt = oldest
		}
	}
}

// addHeldVotes adds the votes the site team finds in its review queue, all
// on this week's launches so no finished week's awards depend on them: a
// burst of four votes from fresh accounts on one network within minutes
// (held, reason burst), and three votes of accounts made an hour or two
// before voting (held, reason new_account, counted when a day old). It
// returns the number of fresh accounts it added.
func (d *Dataset) addHeldVotes(r rnd) int {
	var week []*Listing
	for _, l := range d.live() {
		if l.LaunchWeek.Equal(d.Monday) && l.LaunchedAt.Before(d.Now.Add(-3*time.Hour)) {
			week = append(week, l)
		}
	}
	if len(week) < 4 {
		return 0
	}
	before := len(d.People)
	burst := week[r.IntN(len(week))]
	start := d.Now.Add(-time.Duration(60+r.IntN(60)) * time.Minute).Truncate(time.Second)
	ua := r.pick(demoUserAgents)
	for k, off := range []int{0, 2, 5, 7} {
		p := d.newPerson(r, "en")
		p.Network, p.UserAgent = "192.0.2.44", ua
		p.CreatedAt = start.Add(-time.Duration(30+r.IntN(80)) * time.Hour).Add(time.Duration(k) * 3 * time.Minute)
		d.People = append(d.People, p)
		burst.Votes = append(burst.Votes, Vote{Person: len(d.People) - 1, At: start.Add(time.Duration(off)*time.Minute + time.Duration(r.IntN(50))*time.Second)})
	}
	for _, i := range r.Perm(len(week))[:3] {
		l := week[i]
		p := d.newPerson(r, r.pickRegion())
		p.CreatedAt = d.Now.Add(-time.Duration(2*3600+r.IntN(5*3600)) * time.Second).Truncate(time.Second)
		d.People = append(d.People, p)
		at := p.CreatedAt.Add(time.Duration(10+r.IntN(40)) * time.Minute)
		if at.Before(l.LaunchedAt) {
			at = l.LaunchedAt.Add(time.Duration(5+r.IntN(20)) * time.Minute).Truncate(time.Second)
		}
		l.Votes = append(l.Votes, Vote{Person: len(d.People) - 1, At: at})
	}
	for _, l := range week {
		sortVotes(l.Votes)
	}
	return len(d.People) - before
}

// addFollowers lets people follow listings: on a live listing some of its
// voters and a few others, from their vote on; on a scheduled launch people
// who want to hear when it goes live, since it was announced.
func (d *Dataset) addFollowers(r rnd, l *Listing) {
	taken := map[int]bool{}
	add := func(p int, at time.Time) {
		if !taken[p] {
			taken[p] = true
			l.Followers = append(l.Followers, Follow{Person: p, At: at.Truncate(time.Second)})
		}
	}
	switch l.Status {
	case domain.StatusLive:
		n := len(l.Votes)/(3+r.IntN(6)) + r.IntN(5)
		for _, k := range r.Perm(len(l.Votes)) {
			if len(l.Followers) >= n*3/4 {
				break
			}
			v := l.Votes[k]
			add(v.Person, minTime(v.At.Add(time.Duration(r.IntN(3600))*time.Second), d.Now))
		}
		for len(l.Followers) < n {
			add(r.IntN(demoPeople), r.between(l.LaunchedAt, d.Now))
		}
	case domain.StatusScheduled:
		n := min(int(r.ExpFloat64()*25)+3, 150)
		from := l.CreatedAt
		if from.Before(d.Now.AddDate(0, 0, -30)) {
			from = d.Now.AddDate(0, 0, -30)
		}
		for len(l.Followers) < n {
			add(r.IntN(demoPeople), r.between(from, d.Now))
		}
	}
	sortFollows(l.Followers)
}
