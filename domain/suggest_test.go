package domain_test

import (
	"context"
	"errors"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// oneListing is a store with no listing by slug whose search finds one
// live listing, whatever the query.
type oneListing struct {
	domain.Store
	found domain.ListingSummary
}

func (o oneListing) Listing(context.Context, string) (*domain.Listing, error) {
	return nil, domain.Errorf(domain.ENotFound, "no such listing")
}

func (o oneListing) SearchListings(context.Context, domain.ListingQuery) ([]domain.ListingSummary, int, error) {
	return []domain.ListingSummary{o.found}, 1, nil
}

// TestSlugClose: get_listing of a slug of no listing names the listing its
// search found when that listing's slug is close to the one asked for:
// within one edit (two from eight letters) or one begins with the other
// (five letters or more); short and unrelated words are not.
func TestSlugClose(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"studyloop", "studyloop", true},
		{"regreso", "regresso", true},       // one deletion
		{"backloger", "backlogger", true},   // one deletion
		{"backlggr", "backlogger", true},    // two edits, eight letters
		{"bcklggr", "backlogger", false},    // three edits
		{"studyloopapp", "studyloop", true}, // a name with a word after it
		{"leaflet", "leafletnotes", true},
		{"note", "notesapp", false}, // a prefix under five letters
		{"notesapp", "leafletnotes", false},
		{"app", "apt", false}, // one edit, but under four letters
		{"ab", "ac", false},   // too short to guess from
		{"nosuchlistinghere", "chronobar", false},
	} {
		// the slug asked for is a with a hyphen (its letters are a's), so
		// that it is not the found listing's own slug
		slug := c.a[:1] + "-" + c.a[1:]
		s := &domain.Service{Store: oneListing{found: domain.ListingSummary{Slug: c.b, Name: c.b}}}
		_, err := s.GetListing(context.Background(), domain.SlugInput{Slug: slug})
		var nf *domain.ListingNotFound
		if !errors.As(err, &nf) {
			t.Fatalf("get_listing %q: %v, want not found", slug, err)
		}
		if got := nf.Meant != nil; got != c.want {
			t.Errorf("slug %q, found %q: suggested = %v, want %v (%v)", slug, c.b, got, c.want, err)
		}
	}
}
