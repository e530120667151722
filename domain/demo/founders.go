package demo

import (
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Founder is a founder as stored: founders are global, so a second site
// seeded in the same database shares them (by Slug).
type Founder struct {
	Slug, Name, Title, Bio, Country, City, AvatarURL string
	Socials                                          map[string]string
	CreatedAt                                        time.Time
	Listings                                         []FounderOf
}

// FounderOf ties a founder to a listing (by Listing.Index); Primary is the
// listing's first-named founder. The founder's Title is their role there.
type FounderOf struct {
	Listing int
	Primary bool
}

// FounderCount is the number of founders of the demo data with stories
// (Dataset.Founders); the teams of the top listings are Dataset.Teams.
func FounderCount() int { return len(founderSeeds) }

// buildFounders writes each founder's bio and socials and ties them to their listings.
func (d *Dataset) buildFounders() {
	byName := map[string]*Listing{}
	for _, l := range d.Listings {
		byName[l.Name] = l
	}
	primary := map[string]bool{}
	for _, f := range founderSeeds {
		slug := slugify(f.Name)
		out := Founder{Slug: slug, Name: f.Name, Title: f.Title, Country: f.Country, City: f.City,
			Bio: fmt.Sprintf("%s is %s of %s. %s %s", f.Name, lowerFirst(f.Title), joinAnd(f.Listings), f.Background, f.Personal),
			// No avatar: a picture at a made-up host would be a broken image.
			Socials:   map[string]string{"linkedin": "https://www.linkedin.com/in/" + slug, "x": "https://x.com/" + slugPlain(f.Name)},
			CreatedAt: d.Now.AddDate(0, -3, 0)}
		if f.GitHub {
			out.Socials["github"] = "https://github.com/" + slugPlain(f.Name)
		}
		for _, ln := range f.Listings {
			out.Listings = append(out.Listings, FounderOf{Listing: byName[ln].Index, Primary: !primary[ln]})
			primary[ln] = true
		}
		d.Founders = append(d.Founders, out)
	}
}

// assignFounderStories makes each founder's first-named listing a paid listing
// with its story unlocked and written by that founder.
func (d *Dataset) assignFounderStories() {
	byName := map[string]*Listing{}
	for _, l := range d.Listings {
		byName[l.Name] = l
	}
	done := map[string]bool{}
	for _, f := range founderSeeds {
		for _, ln := range f.Listings {
			if done[ln] {
				continue
			}
			done[ln] = true
			l := byName[ln]
			st := listingStory(l, f.Name[:indexByte(f.Name, ' ')])
			st.Story = f.Background + " " + st.Story
			l.Plan, l.Story, l.Unlocked = domain.PlanPaid, st, withStory(l.Unlocked)
		}
	}
}

func withStory(unlocked []string) []string {
	for _, s := range unlocked {
		if s == domain.SectionStory {
			return unlocked
		}
	}
	return append([]string{domain.SectionStory}, unlocked...)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return len(s)
}

func slugPlain(name string) string {
	s := slugify(name)
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			out = append(out, s[i])
		}
	}
	return string(out)
}
